"""A frozen multilingual encoder as the occupation classifier's token features: Zhao et
al. (2020), §4.3, Tables 10 and 11 (the authors' ``mbert.py``).

The authors feed ``bert-base-multilingual-cased`` the scrubbed bio as WordPiece tokens
truncated to 120, wrapped as ``[CLS] … [SEP]`` and zero-padded to 150, with the attention
mask; the encoder runs in ``eval()`` under ``no_grad`` (frozen), and its last-layer
hidden states take the place of the fastText lookup in the same BiGRU with attention,
whose padding mask is the attention mask. Any Hugging Face encoder works here.

- :class:`EncoderSettings`: the ``bios: classifier: encoder:`` section (``model``, a key
  of ``models:``; ``name``, the space name of its runs; ``max_pieces``, ``max_len``,
  ``batch_size``, ``cache_mb``; ``labels``: the occupations of its monolingual runs;
  ``precision``: of its forward pass, ``fp32`` (the authors'), ``bf16`` or ``fp16``).
- :func:`encoder_inputs`: token ids and attention masks of texts (pieces truncated,
  the tokenizer's special tokens added, padded).
- :class:`FrozenEncoder`: the last-layer hidden states of a batch, computed under
  ``no_grad`` with the model in ``eval()`` and its weights not trainable; the batch is
  cut to its longest sequence and run in chunks of ``batch_size`` (memory bounded), in
  ``precision`` (autocast below fp32, :mod:`mgbias.mlm.precision`), and the hidden
  states are returned as float32 whatever the precision.
  Features are computed per training batch (every epoch), unless a split's features fit
  in ``cache_mb``: then :meth:`FrozenEncoder.inputs` computes them once and the
  classifier reads them as its inputs (the demo's small splits; the same numbers up to
  float rounding, since padding is masked).

A rule's space (this encoder or a ``.vec`` file) is :func:`mgbias.bios.spaces.load_space`;
this module imports nothing of :mod:`mgbias.bios`. It imports torch only where a
:class:`FrozenEncoder` runs, so that planning the workflow (which reads
:class:`EncoderSettings`) does not load it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mgbias.settings import settings_from_mapping

if TYPE_CHECKING:
    import torch

#: The authors' M-BERT model (``models:`` key ``mbert`` in config/paper.yaml).
PAPER_ENCODER = "bert-base-multilingual-cased"
#: Precisions of the encoder's forward pass (:data:`mgbias.mlm.precision.PRECISIONS`; kept
#: here so that reading the settings imports no torch).
PRECISIONS = ("fp32", "bf16", "fp16")
#: The occupations of the encoder's monolingual runs: the language's transfer labels
#: (the paper does not say which; the authors' M-BERT runs read their filtered caches,
#: the French one its 7-label cache) or all of the language's.
LABEL_SETS = ("transfer", "all")


@dataclass(frozen=True)
class EncoderSettings:
    """The encoder of the classifier's encoder space (defaults: the authors')."""

    model: str
    name: str = ""
    max_pieces: int = 120
    max_len: int = 150
    batch_size: int = 64
    cache_mb: float = 1024
    labels: str = "transfer"
    precision: str = "fp32"

    def __post_init__(self):
        if not self.name:
            object.__setattr__(self, "name", self.model)

    @classmethod
    def from_config(
        cls, section: Mapping | None, where: str = "bios.classifier.encoder"
    ) -> EncoderSettings | None:
        """The settings of a config section (None without one); unknown keys rejected."""
        if not section:
            return None
        if isinstance(section, Mapping) and "model" not in section:
            raise ValueError(f"{where}: no 'model' (a key of models:)")
        settings = settings_from_mapping(cls, section, where)
        if settings.labels not in LABEL_SETS:
            raise ValueError(f"{where}.labels: {settings.labels!r} is not one of {LABEL_SETS}")
        if settings.precision not in PRECISIONS:
            raise ValueError(
                f"{where}.precision: {settings.precision!r} is not one of {PRECISIONS}"
            )
        if settings.max_len < settings.max_pieces + 2:
            raise ValueError(
                f"{where}: max_len {settings.max_len} cannot hold max_pieces "
                f"{settings.max_pieces} and the special tokens"
            )
        return settings


def encoder_inputs(
    texts: Sequence[str], tokenizer, *, max_pieces: int = 120, max_len: int = 150
) -> tuple[np.ndarray, np.ndarray]:
    """Ids (int32) and attention masks (int8), ``len(texts) x max_len``: each text's
    first ``max_pieces`` sub-word pieces with the tokenizer's special tokens (BERT:
    ``[CLS] … [SEP]``), then the pad id with mask 0."""
    n_special = tokenizer.num_special_tokens_to_add()
    if max_pieces + n_special > max_len:
        raise ValueError(
            f"{max_pieces} pieces and {n_special} special tokens do not fit max_len {max_len}"
        )
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    ids = np.full((len(texts), max_len), pad, dtype=np.int32)
    mask = np.zeros((len(texts), max_len), dtype=np.int8)
    if not len(texts):
        return ids, mask
    # truncation keeps the special tokens: max_pieces pieces between them
    encoded = tokenizer(list(texts), truncation=True, max_length=max_pieces + n_special)
    for row, wrapped in enumerate(encoded["input_ids"]):
        ids[row, : len(wrapped)] = wrapped
        mask[row, : len(wrapped)] = 1
    return ids, mask


class FrozenEncoder:
    """Last-layer hidden states of a frozen Hugging Face encoder (see the module docstring).

    Not a ``torch.nn.Module``: a classifier holding it neither trains it, nor switches
    it to training mode, nor saves it in its state dict or checkpoints.
    """

    def __init__(
        self,
        model,
        tokenizer,
        *,
        max_pieces: int = 120,
        max_len: int = 150,
        batch_size: int = 64,
        name: str = "",
        cache_mb: float = 0,
        precision: str = "fp32",
    ):
        from mgbias.mlm.precision import check_precision

        check_precision(precision, next(model.parameters()).device)
        limit = getattr(model.config, "max_position_embeddings", None)
        n_special = tokenizer.num_special_tokens_to_add()
        if limit is not None and max_pieces + n_special > limit:
            raise ValueError(
                f"encoder {name or type(model).__name__}: max_pieces {max_pieces} + "
                f"{n_special} special tokens exceed its {limit} positions"
            )
        self.model = model.eval()
        self.model.requires_grad_(False)
        self.tokenizer = tokenizer
        self.max_pieces, self.max_len, self.batch_size = max_pieces, max_len, batch_size
        self.cache_mb = cache_mb
        self.precision = precision
        self.name = name
        self.dim = int(model.config.hidden_size)
        self.revision: str | None = None

    @classmethod
    def load(
        cls,
        source: str,
        settings: EncoderSettings,
        *,
        revision: str | None = None,
        device: str | None = None,
    ) -> FrozenEncoder:
        """The encoder ``source`` (hub id or directory) on ``device`` (auto: CUDA if any);
        fp16 off CUDA is refused before it loads."""
        from mgbias.mlm.load import load_encoder
        from mgbias.mlm.precision import check_precision

        check_precision(settings.precision, device)
        model, tokenizer, commit = load_encoder(source, revision=revision, device=device)
        encoder = cls(
            model,
            tokenizer,
            max_pieces=settings.max_pieces,
            max_len=settings.max_len,
            batch_size=settings.batch_size,
            name=settings.name,
            cache_mb=settings.cache_mb,
            precision=settings.precision,
        )
        encoder.revision = commit
        return encoder

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def inputs(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's inputs of ``texts``: ids and attention masks
        (:func:`encoder_inputs`), or, when their features fit in ``cache_mb``, the
        features (float32, ``n x T x dim``, T the longest sequence) and masks."""
        ids, mask = encoder_inputs(
            texts, self.tokenizer, max_pieces=self.max_pieces, max_len=self.max_len
        )
        if not len(texts):
            return ids, mask
        length = max(1, int(mask.sum(axis=1).max()))
        if len(texts) * length * self.dim * 4 > self.cache_mb * 2**20:
            return ids, mask
        import torch

        features = self(torch.as_tensor(ids), torch.as_tensor(mask)).cpu().numpy()
        return features, mask[:, :length]

    def __call__(self, ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """``batch x T x dim`` hidden states, float32, T the batch's longest sequence (the
        columns after it are padding in every row); the forward pass in ``precision``."""
        import torch

        from mgbias.mlm.precision import forward_precision

        if not len(ids):
            return torch.zeros(0, 1, self.dim, device=self.device)
        length = max(1, int(attention_mask.sum(dim=1).max()))
        ids = ids[:, :length].to(self.device, torch.long)
        mask = attention_mask[:, :length].to(self.device, torch.long)
        out = []
        with torch.no_grad():
            for start in range(0, len(ids), self.batch_size):
                chunk = slice(start, start + self.batch_size)
                with forward_precision(self.precision, self.device):
                    states = self.model(input_ids=ids[chunk], attention_mask=mask[chunk])
                out.append(states.last_hidden_state.float())
        return torch.cat(out)
