"""Pre-train a BERT masked language model with the masked-LM objective.

The embedded default has no pretrained MLM to download, so the workflow trains
its own on the demo world: a WordPiece vocabulary learnt from the corpus
(:mod:`mgbias.mlm.wordpiece`), then a small ``BertForMaskedLM`` pre-trained with
the masked-LM objective of Devlin et al. (2019, section 3.1: 15% of the tokens are
selected; of those 80% become ``[MASK]``, 10% a random token and 10% stay
unchanged). :func:`train_mlm` composes the two; the masking, the loss and the
training loop do not depend on how the tokenizer was made.

Everything is seeded: the same text files and the same :class:`MLMTrainingConfig`
give the same vocabulary and bit-identical weights on the same machine.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path

import torch
from transformers import BertConfig, BertForMaskedLM, PreTrainedTokenizerFast

from mgbias.files.atomic import atomic_directory
from mgbias.mlm.loop import (
    LoopState,
    Masking,
    SampledOrder,
    mask_tokens,
    masked_lm_loss,
    train_steps,
)
from mgbias.mlm.sequences import PackedSequences, encode_lines
from mgbias.mlm.settings import MLMTrainingConfig
from mgbias.mlm.text_lines import iter_text_lines
from mgbias.mlm.wordpiece import SPECIAL_TOKENS, tokenizer_from_lines

# mask_tokens and masked_lm_loss live in mgbias.mlm.loop and are importable from here too.
__all__ = ["MLMTrainingConfig", "bert_config", "mask_tokens", "masked_lm_loss", "train_mlm"]

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- model


def _linear_warmup_decay(steps: int) -> Callable[[int], float]:
    warmup = max(1, steps // 20)

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (steps - step) / max(1, steps - warmup))

    return factor


def train_mlm(
    text_files: Sequence[Path],
    out_dir: Path,
    cfg: MLMTrainingConfig,
    *,
    progress: bool = True,
) -> Path:
    """Train a WordPiece tokenizer and a BERT MLM from scratch; save both to ``out_dir``.

    Parameters
    ----------
    text_files : Sequence[Path]
        Plain or gzip text, one sentence per line.
    out_dir : Path
        Receives ``config.json``, ``model.safetensors``, the tokenizer files and
        ``training.json`` (configuration; ``final_loss``, the mean MLM loss
        over the last logging window of up to 100 steps; the loss history;
        sentence and token counts; the sha256 of the input lines). Written to
        a temporary sibling directory and renamed into place, so a failed run
        leaves no partial output.
    cfg : MLMTrainingConfig
        Hyper-parameters and seed.
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    Path
        ``out_dir``; load it with :func:`mgbias.mlm.load.load_mlm`.
    """
    out_dir = Path(out_dir)
    text_files = [Path(path) for path in text_files]
    if not text_files:
        raise ValueError("train_mlm: no text files given")
    tokenizer = tokenizer_from_lines(
        iter_text_lines(text_files),
        cfg.vocab_size,
        lowercase=True,
        model_max_length=cfg.max_length,
    )
    encoded = encode_lines(iter_text_lines(text_files), tokenizer, cfg.max_length)
    sequences, text_sha256 = encoded.sequences, encoded.text_sha256
    if len(sequences) == 0:
        raise ValueError(f"train_mlm: the text files contain no non-blank lines: {text_files}")
    log.info(
        "training MLM on %d sentences (%d tokens), vocabulary %d, %d steps",
        len(sequences),
        len(sequences.ids),
        len(tokenizer),
        cfg.steps,
    )

    previous_threads = torch.get_num_threads()
    previous_deterministic = torch.are_deterministic_algorithms_enabled()
    try:
        torch.set_num_threads(cfg.threads)
        torch.use_deterministic_algorithms(True)
        # fork_rng: dropout draws from the global generator; keep the caller's state intact.
        with torch.random.fork_rng(devices=[]):
            model, history = _train_model(sequences, tokenizer, cfg, progress=progress)
    finally:
        torch.set_num_threads(previous_threads)
        torch.use_deterministic_algorithms(previous_deterministic)

    tail = history[-1][1] if history else float("nan")
    summary = {
        "config": asdict(cfg),
        "final_loss": tail,
        "loss_history": [{"step": step, "loss": loss} for step, loss in history],
        "n_sentences": len(sequences),
        "n_tokens": int(len(sequences.ids)),
        "vocab_size": len(tokenizer),
        "text_files": [path.name for path in text_files],
        "text_sha256": text_sha256,
    }

    with atomic_directory(out_dir) as directory:
        model.save_pretrained(directory)
        tokenizer.save_pretrained(directory)
        (directory / "training.json").write_text(
            json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
    log.info("saved MLM to %s (final loss %.4f)", out_dir, tail)
    return out_dir


def bert_config(cfg: MLMTrainingConfig, vocab_size: int, pad_token_id: int = 0) -> BertConfig:
    """The ``BertConfig`` of a model trained with ``cfg`` on a vocabulary of ``vocab_size``."""
    return BertConfig(
        vocab_size=vocab_size,
        hidden_size=cfg.hidden_size,
        num_hidden_layers=cfg.num_hidden_layers,
        num_attention_heads=cfg.num_attention_heads,
        intermediate_size=cfg.intermediate_size,
        max_position_embeddings=cfg.max_length,
        pad_token_id=pad_token_id,
        hidden_dropout_prob=cfg.dropout,
        attention_probs_dropout_prob=cfg.dropout,
    )


def _train_model(
    sequences: PackedSequences,
    tokenizer: PreTrainedTokenizerFast,
    cfg: MLMTrainingConfig,
    *,
    progress: bool,
) -> tuple[BertForMaskedLM, list[tuple[int, float]]]:
    """Run the seeded training loop; return the model and (step, mean loss) log points.

    One batch per step, drawn with replacement (:class:`mgbias.mlm.loop.SampledOrder`),
    AdamW with weight decay 0.01, linear warm-up over 5% of the steps then linear decay,
    no gradient clipping, random replacement tokens drawn from the non-special ids.
    """
    torch.manual_seed(cfg.seed)
    model = BertForMaskedLM(bert_config(cfg, len(tokenizer), tokenizer.pad_token_id))
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, _linear_warmup_decay(cfg.steps))
    state: LoopState = train_steps(
        model,
        sequences,
        SampledOrder(len(sequences), cfg.batch_size, cfg.seed),
        optimizer,
        scheduler,
        masking=Masking(
            special_ids=tuple(tokenizer.all_special_ids),
            mask_id=tokenizer.mask_token_id,
            random_token_range=(len(SPECIAL_TOKENS), len(tokenizer)),
            mlm_probability=cfg.mlm_probability,
        ),
        mask_generator=torch.Generator().manual_seed(cfg.seed),
        pad_id=tokenizer.pad_token_id,
        steps=cfg.steps,
        log_every=max(1, min(100, cfg.steps // 20)),
        progress=progress,
    )
    model.eval()
    return model, state.history
