"""Split a masked language model into its encoder and its MLM head.

Scoring (:mod:`mgbias.mlm.masked`) and training (:mod:`mgbias.mlm.loop`) both
apply the head only where it is needed; this module knows where the head is in
each model family, and nothing else, so that a change to the scoring code does
not retrain the demo models.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn
from transformers import PreTrainedModel

__all__ = ["Head", "mlm_encoder_and_head"]

Head = Callable[[torch.Tensor], torch.Tensor]


# --------------------------------------------------------------------------- model split


def _distilbert_head(model: nn.Module) -> Head:
    def head(hidden: torch.Tensor) -> torch.Tensor:
        hidden = model.activation(model.vocab_transform(hidden))
        return model.vocab_projector(model.vocab_layer_norm(hidden))

    return head


def _electra_head(model: nn.Module) -> Head:
    def head(hidden: torch.Tensor) -> torch.Tensor:
        return model.generator_lm_head(model.generator_predictions(hidden))

    return head


def mlm_encoder_and_head(model: PreTrainedModel) -> tuple[nn.Module, Head | None]:
    """Split a masked LM into its encoder and its MLM head.

    ``head(encoder(input_ids, attention_mask)[0])`` equals ``model(...).logits``.

    ============================  =================  ==========================
    family                        encoder            head
    ============================  =================  ==========================
    BERT, mBERT                   ``bert``           ``cls``
    RoBERTa, XLM-R, CamemBERT     ``roberta``        ``lm_head``
    ALBERT                        ``albert``         ``predictions``
    DistilBERT                    ``distilbert``     ``vocab_transform`` ...
    ELECTRA (generator)           ``electra``        ``generator_predictions`` ...
    ============================  =================  ==========================

    Returns
    -------
    tuple[nn.Module, Head or None]
        The encoder (``model.base_model``) and a callable mapping hidden states
        ``(..., hidden)`` to logits ``(..., vocabulary)``; ``(model, None)``
        when the split is unknown, meaning "run the whole model".
    """
    encoder = getattr(model, "base_model", model)
    if encoder is model:
        return model, None
    for name in ("cls", "lm_head", "predictions"):
        head = getattr(model, name, None)
        if isinstance(head, nn.Module):
            return encoder, head
    if all(
        isinstance(getattr(model, name, None), nn.Module)
        for name in ("vocab_transform", "vocab_layer_norm", "vocab_projector")
    ):
        return encoder, _distilbert_head(model)
    if all(
        isinstance(getattr(model, name, None), nn.Module)
        for name in ("generator_predictions", "generator_lm_head")
    ):
        return encoder, _electra_head(model)
    return model, None
