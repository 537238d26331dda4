"""Learn a WordPiece vocabulary and build a BERT tokenizer from it.

The demo MLM (:mod:`mgbias.mlm.train`) has no pretrained tokenizer: its
vocabulary is learnt from the corpus here, deterministically (ties between
merges broken by string order), so the same text gives the same vocabulary.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from tokenizers import normalizers, pre_tokenizers
from transformers import BertTokenizer, PreTrainedTokenizerFast

from mgbias.files.atomic import atomic_directory
from mgbias.mlm.text_lines import iter_text_lines

SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
"""Special tokens, in the order of their ids (0 to 4) in every vocabulary trained here."""

CONTINUATION_PREFIX = "##"
"""WordPiece marker for a piece that continues a word."""


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


def tokenizer_from_lines(
    lines: Iterator[str], vocab_size: int, *, lowercase: bool, model_max_length: int
) -> PreTrainedTokenizerFast:
    """Learn a WordPiece vocabulary from ``lines`` and wrap it as a BERT tokenizer."""
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
    tokenizer = tokenizer_from_lines(
        iter_text_lines(text_files),
        vocab_size,
        lowercase=lowercase,
        model_max_length=model_max_length,
    )
    with atomic_directory(out_dir) as directory:
        tokenizer.save_pretrained(directory)
    return tokenizer
