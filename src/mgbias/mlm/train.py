"""Train a small WordPiece tokenizer and a BERT masked language model from scratch.

The embedded default has no pretrained MLM to download, so the workflow trains
its own on the demo world: a WordPiece vocabulary learnt from the corpus, then
a small ``BertForMaskedLM`` pre-trained with the masked-LM objective of Devlin
et al. (2019, section 3.1: 15% of the tokens are selected; of those 80% become
``[MASK]``, 10% a random token and 10% stay unchanged).

Everything is seeded: the same text files and the same :class:`MLMTrainingConfig`
give the same vocabulary and bit-identical weights on the same machine.
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import json
import logging
import math
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from tokenizers import normalizers, pre_tokenizers
from tqdm.auto import tqdm
from transformers import BertConfig, BertForMaskedLM, BertTokenizer, PreTrainedTokenizerFast

log = logging.getLogger(__name__)

SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
"""Special tokens, in the order of their ids (0 to 4) in every vocabulary trained here."""

CONTINUATION_PREFIX = "##"
"""WordPiece marker for a piece that continues a word."""

TOKENIZE_CHUNK = 2048
"""Number of lines encoded per tokenizer call when preparing training data."""


@dataclass(frozen=True)
class MLMTrainingConfig:
    """Hyper-parameters of the demo MLM (tokenizer + model + optimisation).

    Attributes
    ----------
    seed : int
        Seeds weight initialisation, batch sampling, masking and dropout.
    vocab_size : int
        Target WordPiece vocabulary size (special tokens included); the
        vocabulary is smaller when the corpus has fewer useful merges.
    hidden_size, num_hidden_layers, num_attention_heads, intermediate_size : int
        BERT shape; ``hidden_size`` must be divisible by ``num_attention_heads``.
    max_length : int
        Longest sequence in tokens, special tokens included. Longer lines are
        truncated; it is also the model's ``max_position_embeddings`` and the
        tokenizer's ``model_max_length``.
    batch_size : int
        Sentences per optimisation step.
    steps : int
        Optimisation steps (batches are sampled with replacement).
    learning_rate : float
        Peak AdamW learning rate (linear warm-up over the first 5% of the
        steps, then linear decay to zero).
    mlm_probability : float
        Share of non-special tokens selected for prediction.
    dropout : float
        Dropout on hidden states and attention probabilities (BERT's
        ``hidden_dropout_prob`` and ``attention_probs_dropout_prob``; 0.1 in
        Devlin et al. 2019).
    threads : int
        ``torch.set_num_threads`` during training (restored afterwards).
    """

    seed: int = 0
    vocab_size: int = 1000
    hidden_size: int = 64
    num_hidden_layers: int = 2
    num_attention_heads: int = 2
    intermediate_size: int = 128
    max_length: int = 32
    batch_size: int = 64
    steps: int = 3000
    learning_rate: float = 5e-4
    mlm_probability: float = 0.15
    dropout: float = 0.1
    threads: int = 2

    def __post_init__(self) -> None:
        for name in (
            "vocab_size",
            "hidden_size",
            "num_hidden_layers",
            "num_attention_heads",
            "intermediate_size",
            "batch_size",
            "steps",
            "threads",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"MLMTrainingConfig.{name} must be a positive integer, got {value!r}"
                )
        if self.max_length < 3:
            raise ValueError(
                f"MLMTrainingConfig.max_length must be at least 3 ([CLS], one token, [SEP]), "
                f"got {self.max_length!r}"
            )
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"MLMTrainingConfig.hidden_size ({self.hidden_size}) must be divisible by "
                f"num_attention_heads ({self.num_attention_heads})"
            )
        if not 0.0 < self.mlm_probability < 1.0:
            raise ValueError(
                f"MLMTrainingConfig.mlm_probability must be in (0, 1), got {self.mlm_probability!r}"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"MLMTrainingConfig.dropout must be in [0, 1), got {self.dropout!r}")
        if not self.learning_rate > 0.0:
            raise ValueError(
                f"MLMTrainingConfig.learning_rate must be positive, got {self.learning_rate!r}"
            )


# --------------------------------------------------------------------------- input text


def iter_text_lines(text_files: Sequence[Path]) -> Iterator[str]:
    """Yield the non-blank lines of plain or gzip (``.gz``) UTF-8 text files, stripped.

    Raises
    ------
    ValueError
        If a line is not valid UTF-8 (the message names the file and line).
    """
    for path in map(Path, text_files):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rb") as handle:
            for line_number, raw in enumerate(handle, start=1):
                try:
                    line = raw.decode("utf-8").strip()
                except UnicodeDecodeError as exc:
                    raise ValueError(
                        f"{path}, line {line_number}: expected UTF-8 text ({exc.reason} at byte "
                        f"{exc.start})"
                    ) from exc
                if line:
                    yield line


# --------------------------------------------------------------------------- tokenizer


def _bert_normalizer(lowercase: bool) -> normalizers.Normalizer:
    # Accents are kept (strip_accents=False): they carry grammatical gender in
    # several languages of the demo world (e.g. French "élève" vs "eleve" would merge).
    return normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=lowercase
    )


def count_words(lines: Iterator[str], *, lowercase: bool = True) -> Counter[str]:
    """Count pre-tokenized words exactly as the BERT tokenizer built here will split them."""
    normalizer = _bert_normalizer(lowercase)
    pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    counts: Counter[str] = Counter()
    for line in lines:
        pieces = pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(line))
        counts.update(piece for piece, _ in pieces)
    return counts


def _merged(left: str, right: str) -> str:
    return left + right.removeprefix(CONTINUATION_PREFIX)


def learn_wordpiece_vocab(
    word_counts: Mapping[str, int], vocab_size: int, *, min_frequency: int = 2
) -> list[str]:
    """Learn a WordPiece vocabulary by frequency-ranked pair merges.

    The alphabet is every character as a word-initial piece (``"a"``) and as a
    continuation piece (``"##a"``); then the most frequent adjacent pair of
    pieces is merged, repeatedly, until ``vocab_size`` tokens exist or no pair
    occurs ``min_frequency`` times. This is the same procedure as the
    ``tokenizers`` WordPiece trainer, with one difference: ties between pairs of
    equal frequency are broken by the pieces' strings (lexicographically
    smallest first). The ``tokenizers`` trainer (0.23) breaks them by hash-map
    iteration order and returns a different vocabulary on each run, which
    would break the seeded, byte-identical workflow.

    Parameters
    ----------
    word_counts : Mapping[str, int]
        Pre-tokenized word -> number of occurrences.
    vocab_size : int
        Maximum vocabulary size, :data:`SPECIAL_TOKENS` included.
    min_frequency : int
        Pairs seen fewer times than this are never merged.

    Returns
    -------
    list[str]
        Tokens in id order: special tokens, alphabet (sorted), merges in order.

    Raises
    ------
    ValueError
        If ``vocab_size`` cannot hold the special tokens and the alphabet.
    """
    words = [
        [word[0], *(CONTINUATION_PREFIX + char for char in word[1:])]
        for word in sorted(word_counts)
        if word
    ]
    frequencies = [word_counts[word] for word in sorted(word_counts) if word]
    alphabet = sorted({piece for pieces in words for piece in pieces})
    n_fixed = len(SPECIAL_TOKENS) + len(alphabet)
    if n_fixed > vocab_size:
        raise ValueError(
            f"vocab_size={vocab_size} is too small: the corpus needs {len(SPECIAL_TOKENS)} special "
            f"tokens plus {len(alphabet)} alphabet pieces = {n_fixed}"
        )
    vocab = [*SPECIAL_TOKENS, *alphabet]
    known = set(vocab)

    pair_counts: Counter[tuple[str, str]] = Counter()
    pair_words: dict[tuple[str, str], set[int]] = {}
    for index, pieces in enumerate(words):
        for pair in zip(pieces, pieces[1:], strict=False):
            pair_counts[pair] += frequencies[index]
            pair_words.setdefault(pair, set()).add(index)
    # Max-heap by count, ties by string order; stale entries are skipped on pop.
    heap = [(-count, pair) for pair, count in pair_counts.items()]
    heapq.heapify(heap)

    while len(vocab) < vocab_size and heap:
        negative_count, pair = heapq.heappop(heap)
        if pair_counts.get(pair, 0) != -negative_count:
            continue  # stale entry
        if -negative_count < min_frequency:
            break
        new_piece = _merged(*pair)
        if new_piece not in known:
            known.add(new_piece)
            vocab.append(new_piece)
        changed: set[tuple[str, str]] = set()
        for index in sorted(pair_words.pop(pair, set())):
            old = words[index]
            frequency = frequencies[index]
            new: list[str] = []
            position = 0
            while position < len(old):
                if position + 1 < len(old) and (old[position], old[position + 1]) == pair:
                    new.append(new_piece)
                    position += 2
                else:
                    new.append(old[position])
                    position += 1
            for old_pair in zip(old, old[1:], strict=False):
                pair_counts[old_pair] -= frequency
                changed.add(old_pair)
            for new_pair in zip(new, new[1:], strict=False):
                pair_counts[new_pair] += frequency
                pair_words.setdefault(new_pair, set()).add(index)
                changed.add(new_pair)
            words[index] = new
        pair_counts.pop(pair, None)
        for changed_pair in changed:
            count = pair_counts.get(changed_pair, 0)
            if count > 0:
                heapq.heappush(heap, (-count, changed_pair))
            else:
                pair_counts.pop(changed_pair, None)
                pair_words.pop(changed_pair, None)
    return vocab


def build_bert_tokenizer(
    vocab: Sequence[str], *, lowercase: bool = True, model_max_length: int = 512
) -> PreTrainedTokenizerFast:
    """Wrap a WordPiece vocabulary as a fast BERT tokenizer ([CLS] ... [SEP])."""
    return BertTokenizer(
        vocab={token: index for index, token in enumerate(vocab)},
        do_lower_case=lowercase,
        strip_accents=False,
        model_max_length=model_max_length,
        unk_token="[UNK]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        mask_token="[MASK]",
    )


def _tokenizer_from_lines(
    lines: Iterator[str], vocab_size: int, *, lowercase: bool, model_max_length: int
) -> PreTrainedTokenizerFast:
    vocab = learn_wordpiece_vocab(count_words(lines, lowercase=lowercase), vocab_size)
    return build_bert_tokenizer(vocab, lowercase=lowercase, model_max_length=model_max_length)


def train_wordpiece_tokenizer(
    text_files: Sequence[Path],
    vocab_size: int,
    out_dir: Path,
    *,
    lowercase: bool = True,
    model_max_length: int = 512,
) -> PreTrainedTokenizerFast:
    """Learn a WordPiece vocabulary from text files and save a BERT tokenizer.

    Parameters
    ----------
    text_files : Sequence[Path]
        Plain or gzip text, one sentence per line (streamed).
    vocab_size : int
        Maximum vocabulary size, special tokens included (see :func:`learn_wordpiece_vocab`).
    out_dir : Path
        Written atomically with ``save_pretrained``.
    lowercase : bool
        Lower-case the text before splitting (accents are always kept).
    model_max_length : int
        Stored as the tokenizer's ``model_max_length``.

    Returns
    -------
    PreTrainedTokenizerFast
        The tokenizer that was saved.
    """
    tokenizer = _tokenizer_from_lines(
        iter_text_lines(text_files),
        vocab_size,
        lowercase=lowercase,
        model_max_length=model_max_length,
    )
    _write_directory_atomically(Path(out_dir), tokenizer.save_pretrained)
    return tokenizer


# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class _PackedSequences:
    """Token-id sequences stored end to end: ``ids[offsets[i]:offsets[i + 1]]``."""

    ids: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def batch(self, indices: np.ndarray, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
        starts, ends = self.offsets[indices], self.offsets[indices + 1]
        lengths = ends - starts
        input_ids = np.full((len(indices), int(lengths.max())), pad_id, dtype=np.int64)
        for row, (start, end) in enumerate(zip(starts, ends, strict=True)):
            input_ids[row, : end - start] = self.ids[start:end]
        attention_mask = np.arange(input_ids.shape[1])[None, :] < lengths[:, None]
        return torch.from_numpy(input_ids), torch.from_numpy(attention_mask.astype(np.int64))


def _encode_lines(
    lines: Iterator[str], tokenizer: PreTrainedTokenizerFast, max_length: int
) -> tuple[_PackedSequences, str]:
    """Tokenize lines (with [CLS]/[SEP], truncated); also return the sha256 of the text."""
    digest = hashlib.sha256()
    chunks: list[np.ndarray] = []
    lengths: list[int] = []
    buffer: list[str] = []

    def flush() -> None:
        encoded = tokenizer(buffer, truncation=True, max_length=max_length)["input_ids"]
        for ids in encoded:
            chunks.append(np.asarray(ids, dtype=np.int32))
            lengths.append(len(ids))
        buffer.clear()

    for line in lines:
        digest.update(line.encode("utf-8") + b"\n")
        buffer.append(line)
        if len(buffer) == TOKENIZE_CHUNK:
            flush()
    if buffer:
        flush()
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    ids = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)
    return _PackedSequences(ids=ids, offsets=offsets), digest.hexdigest()


def mask_tokens(
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    *,
    special_ids: Sequence[int],
    mask_id: int,
    random_token_range: tuple[int, int],
    mlm_probability: float,
    generator: torch.Generator,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Apply BERT's 80/10/10 masking (Devlin et al. 2019, section 3.1).

    Each real, non-special token is selected with probability ``mlm_probability``
    (at least one per batch); a selected token becomes ``mask_id`` with
    probability 0.8, a uniform token from ``random_token_range`` (half-open) with
    probability 0.1, and stays unchanged otherwise. Labels are the original ids
    at selected positions and -100 elsewhere.

    Returns
    -------
    tuple[torch.Tensor, torch.Tensor]
        ``(masked_input_ids, labels)``.
    """
    maskable = attention_mask.bool() & ~torch.isin(input_ids, torch.tensor(list(special_ids)))
    draws = torch.rand(input_ids.shape, generator=generator)
    selected = (draws < mlm_probability) & maskable
    if not selected.any():
        # Guarantee a defined loss: select the maskable position with the lowest draw.
        candidates = torch.where(maskable, draws, torch.full_like(draws, math.inf))
        selected.view(-1)[torch.argmin(candidates)] = True
    labels = torch.where(selected, input_ids, torch.full_like(input_ids, -100))
    action = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(*random_token_range, input_ids.shape, generator=generator)
    masked = input_ids.clone()
    masked[selected & (action < 0.8)] = mask_id
    replace = selected & (action >= 0.8) & (action < 0.9)
    masked[replace] = random_ids[replace]
    return masked, labels


def masked_lm_loss(
    model: BertForMaskedLM,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    labels: torch.Tensor,
) -> torch.Tensor:
    """Mean cross-entropy of the MLM head at the labelled positions only.

    Equal to ``model(input_ids, attention_mask=..., labels=labels).loss``, but the
    head (a vocabulary-sized projection) runs on the ~15% of positions that carry
    a label instead of on every position, which makes a training step several
    times cheaper for a small model (``benchmarks/mlm_training.py``).
    """
    hidden = model.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    selected = labels != -100
    logits = model.cls(hidden[selected])
    return torch.nn.functional.cross_entropy(logits, labels[selected])


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
    tokenizer = _tokenizer_from_lines(
        iter_text_lines(text_files),
        cfg.vocab_size,
        lowercase=True,
        model_max_length=cfg.max_length,
    )
    sequences, text_sha256 = _encode_lines(iter_text_lines(text_files), tokenizer, cfg.max_length)
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

    def write(directory: Path) -> None:
        model.save_pretrained(directory)
        tokenizer.save_pretrained(directory)
        (directory / "training.json").write_text(
            json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )

    _write_directory_atomically(out_dir, write)
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
    sequences: _PackedSequences,
    tokenizer: PreTrainedTokenizerFast,
    cfg: MLMTrainingConfig,
    *,
    progress: bool,
) -> tuple[BertForMaskedLM, list[tuple[int, float]]]:
    """Run the seeded training loop; return the model and (step, mean loss) log points."""
    torch.manual_seed(cfg.seed)
    model = BertForMaskedLM(bert_config(cfg, len(tokenizer), tokenizer.pad_token_id))
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, _linear_warmup_decay(cfg.steps))

    sampler = np.random.default_rng(cfg.seed)
    mask_generator = torch.Generator().manual_seed(cfg.seed)
    special_ids = tokenizer.all_special_ids
    random_token_range = (len(SPECIAL_TOKENS), len(tokenizer))
    log_every = max(1, min(100, cfg.steps // 20))
    window: list[float] = []
    history: list[tuple[int, float]] = []

    bar = tqdm(range(1, cfg.steps + 1), desc="MLM training", disable=not progress, unit="step")
    for step in bar:
        indices = sampler.integers(0, len(sequences), size=cfg.batch_size)
        input_ids, attention_mask = sequences.batch(indices, tokenizer.pad_token_id)
        masked_ids, labels = mask_tokens(
            input_ids,
            attention_mask,
            special_ids=special_ids,
            mask_id=tokenizer.mask_token_id,
            random_token_range=random_token_range,
            mlm_probability=cfg.mlm_probability,
            generator=mask_generator,
        )
        loss = masked_lm_loss(model, masked_ids, attention_mask, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        scheduler.step()
        window.append(float(loss.detach()))
        if step % log_every == 0 or step == cfg.steps:
            mean_loss = float(np.mean(window))
            history.append((step, mean_loss))
            window.clear()
            bar.set_postfix(loss=f"{mean_loss:.3f}")
            log.info("step %d/%d: mean MLM loss %.4f", step, cfg.steps, mean_loss)
    model.eval()
    return model, history


# --------------------------------------------------------------------------- output


def _write_directory_atomically(out_dir: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp)`` on a fresh sibling directory, then rename it to ``out_dir``.

    An existing ``out_dir`` is replaced only after ``write`` succeeded; on any
    failure the temporary directory is removed and ``out_dir`` is untouched.
    """
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    retired: Path | None = None
    try:
        write(tmp)
        os.chmod(tmp, 0o755)
        for written in tmp.rglob("*"):
            os.chmod(written, 0o755 if written.is_dir() else 0o644)
        if out_dir.exists():
            retired = Path(
                tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".old", dir=out_dir.parent)
            )
            os.replace(out_dir, retired)
        os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if retired is not None and not out_dir.exists():
            os.replace(retired, out_dir)
            retired = None
        raise
    finally:
        if retired is not None:
            shutil.rmtree(retired, ignore_errors=True)
