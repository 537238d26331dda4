"""Gendered sentences from parallel corpora: Step 1 of MBE (Kaneko et al. 2022, §3).

Given English-target sentence pairs :math:`(e_i, t_i)` and English word lists
:math:`\\mathcal{V}_f` (female) and :math:`\\mathcal{V}_m` (male), the English
sentences containing a word of :math:`\\mathcal{V}_f` form :math:`\\mathcal{E}_f`,
those containing a word of :math:`\\mathcal{V}_m` form :math:`\\mathcal{E}_m`, and
sentences containing both kinds of words are excluded. The target sides of
:math:`\\mathcal{E}_f` and :math:`\\mathcal{E}_m` are :math:`\\mathcal{T}_f` and
:math:`\\mathcal{T}_m`. As in the paper's §4, the two sets are then downsampled to
the same size.

A sentence's gender is :func:`mgbias.wordlists.gender_words.gender_of` (whole-word,
case-insensitive matching of the word lists; see :mod:`mgbias.wordlists.gender_words`).

Outputs
-------
One target sentence per line (UTF-8, ``\\n`` line ends). Line-break characters
inside a target sentence (``\\r``, U+2028 and the others :meth:`str.splitlines`
breaks on) are replaced by a space, and surrounding whitespace is stripped, so
every reader sees exactly one sentence per line.

Optionally, a words file beside each sentence file holds, on line *i*, the
word-list entries that made sentence *i* gendered
(:func:`mgbias.wordlists.gender_words.gender_words_of`): each
entry as its tokens joined by one space, the entries sorted and joined by
:data:`WORD_SEPARATOR` ("ex wife|she"). Sentences matched by the same entries form
one cluster when the gender words, not the sentences, are a test's independent units.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from tqdm.auto import tqdm

from mgbias.files.atomic import atomic_paths
from mgbias.seeds import check_seed
from mgbias.wordlists.gender_words import BOTH, check_word_lists, gender_of, gender_words_of
from mgbias.wordlists.genders import FEMALE, MALE

#: Separates the gender words of one sentence in a words file (tokens never hold it).
WORD_SEPARATOR = "|"

# Characters str.splitlines() treats as line boundaries.
_LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


@dataclass
class MiningCounts:
    """Sentence-pair counts of one mining run (the numbers behind the paper's Table 1).

    ``n_pairs = n_female + n_male + n_both + n_neutral + n_empty``. Pairs with an
    empty target side are counted in ``n_empty`` only, whatever their English side.
    ``n_kept_per_gender`` is the size of each of the two downsampled sets
    (``min(n_female, n_male)``), filled in after downsampling.
    """

    n_pairs: int = 0
    n_female: int = 0
    n_male: int = 0
    n_both: int = 0
    n_neutral: int = 0
    n_empty: int = 0
    n_kept_per_gender: int = 0

    def to_dict(self) -> dict[str, int]:
        """Return the counts as a JSON-serialisable dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MiningCounts:
        """Build counts from :meth:`to_dict` output; every field must be present.

        Raises
        ------
        ValueError
            On a missing or unknown key, or a value that is not a non-negative integer.
        """
        names = [field.name for field in fields(cls)]
        missing = [name for name in names if name not in data]
        unknown = sorted(set(data) - set(names))
        if missing or unknown:
            raise ValueError(
                f"mining counts: missing keys {missing}, unknown keys {unknown}; "
                f"expected exactly {names}"
            )
        for name in names:
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(
                    f"mining counts: key {name!r} must be a non-negative integer, got {value!r}"
                )
        return cls(**{name: data[name] for name in names})


def one_line(sentence: str) -> str:
    """``sentence`` with line-break characters replaced by a space, stripped."""
    return _LINE_BREAKS.sub(" ", sentence).strip()


def _wants_words(words_female: Path | None, words_male: Path | None) -> bool:
    """Whether words files are asked for; both or neither must be given."""
    if (words_female is None) != (words_male is None):
        raise ValueError(
            f"words_female={words_female}, words_male={words_male}: expected both words "
            "files or neither"
        )
    return words_female is not None


def mine_parallel(
    pairs: Iterable[tuple[str, str]],
    female: frozenset[str],
    male: frozenset[str],
    out_female: Path,
    out_male: Path,
    *,
    progress: bool = True,
    words_female: Path | None = None,
    words_male: Path | None = None,
) -> MiningCounts:
    """Write the target sides of female and male English sentences to two files.

    Streams ``pairs`` once, writing each gendered pair's target sentence as soon as it
    is classified, so memory does not grow with the corpus. Pairs whose English side
    contains both kinds of words (``"both"``) or neither are counted and dropped, as
    in Kaneko et al. (2022), §3, Step 1.

    Parameters
    ----------
    pairs
        ``(english, target)`` sentence pairs, e.g. from
        :func:`mgbias.corpora.opus.iter_moses_zip` with ``src_lang="en"``.
    female, male
        English word lists (see :func:`gender_of`).
    out_female, out_male
        Output files for :math:`\\mathcal{T}_f` and :math:`\\mathcal{T}_m`, one sentence per
        line, in corpus order. They are written in place (not atomically); use
        :func:`mine_gendered_sentences` for atomic outputs.
    progress
        Show a tqdm counter of pairs read (only when stderr is a terminal).
    words_female, words_male
        Optional words files (give both or neither): line *i* holds the gender words
        of line *i* of ``out_female`` (``out_male``), the entries of
        :func:`gender_words_of` joined by :data:`WORD_SEPARATOR`.

    Returns
    -------
    MiningCounts
        With ``n_kept_per_gender`` left at 0.

    Raises
    ------
    ValueError
        On bad word lists (:func:`gender_of`), or only one of the words files given.
    """
    check_word_lists(female, male)  # fail fast on bad lists
    with_words = _wants_words(words_female, words_male)
    counts = MiningCounts()
    with contextlib.ExitStack() as stack:
        sinks = {
            gender: stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))
            for gender, path in ((FEMALE, out_female), (MALE, out_male))
        }
        word_sinks = {
            gender: stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))
            for gender, path in ((FEMALE, words_female), (MALE, words_male))
            if path is not None
        }
        pairs_read = tqdm(pairs, unit=" pairs", desc="mining", disable=None if progress else True)
        for english, target in pairs_read:
            counts.n_pairs += 1
            target_line = one_line(target)
            if not target_line:
                counts.n_empty += 1
                continue
            if with_words:
                gender, words = gender_words_of(english, female, male)
            else:
                gender, words = gender_of(english, female, male), ()
            if gender is None:
                counts.n_neutral += 1
            elif gender == BOTH:
                counts.n_both += 1
            else:
                sinks[gender].write(target_line + "\n")
                if with_words:
                    word_sinks[gender].write(WORD_SEPARATOR.join(words) + "\n")
                if gender == FEMALE:
                    counts.n_female += 1
                else:
                    counts.n_male += 1
    return counts


def count_lines(path: Path) -> int:
    """Return the number of lines of a text file (a last line without ``\\n`` counts)."""
    n_lines = 0
    last = b"\n"
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            n_lines += chunk.count(b"\n")
            last = chunk[-1:]
    return n_lines + (last != b"\n")


def _choose_sorted_indices(n_lines: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """Return ``k`` distinct line indices out of ``n_lines``, uniformly, sorted ascending."""
    if k == n_lines:
        return np.arange(n_lines)
    # Generator.choice without replacement draws a set (memory O(k)) when k is small
    # relative to n_lines and a permutation (memory O(n_lines) < O(k / 0.4)) otherwise.
    return np.sort(rng.choice(n_lines, size=k, replace=False))


def _lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", newline="\n") as stream:
        yield from stream


def split_lines(source: Path, selections: Sequence[tuple[np.ndarray, TextIO]]) -> None:
    """Copy selected lines of ``source`` to sinks in one pass, keeping their order.

    Parameters
    ----------
    source
        A UTF-8 text file.
    selections
        ``(indices, sink)`` pairs: the lines whose 0-based index is in ``indices`` go to
        ``sink``, each ending in ``\\n``. The index sets must be disjoint.

    Raises
    ------
    ValueError
        If an index is selected twice, or the file has fewer lines than an index needs
        (it changed while being read).
    """
    indices = np.concatenate(
        [np.asarray(keep, dtype=np.int64).ravel() for keep, _ in selections] or [np.zeros(0)]
    ).astype(np.int64)
    owners = np.concatenate(
        [np.full(len(keep), owner) for owner, (keep, _) in enumerate(selections)] or [np.zeros(0)]
    ).astype(np.int64)
    order = np.argsort(indices, kind="stable")
    indices, owners = indices[order], owners[order]
    repeated = indices[1:][np.diff(indices) == 0]
    if len(repeated):
        raise ValueError(
            f"{source}: line {int(repeated[0]) + 1} is selected for two outputs; "
            "expected disjoint selections"
        )
    wanted, sinks = indices.tolist(), [sink for _, sink in selections]
    owner_of = owners.tolist()
    position = 0
    for index, line in enumerate(_lines(source)):
        if position == len(wanted):
            break
        if index == wanted[position]:
            sinks[owner_of[position]].write(line if line.endswith("\n") else line + "\n")
            position += 1
    if position != len(wanted):
        raise ValueError(
            f"{source}: changed while being read; expected line {wanted[position] + 1} "
            "but the file ended"
        )


def _copy_selected_lines(source: Path, keep: np.ndarray, sink: TextIO) -> None:
    """Copy the lines of ``source`` whose 0-based index is in sorted ``keep``."""
    split_lines(source, [(keep, sink)])


#: ``((in_female_words, out_female_words), (in_male_words, out_male_words))``.
Companions = tuple[tuple[Path, Path], tuple[Path, Path]]


def downsample_to_equal(
    in_female: Path,
    in_male: Path,
    out_female: Path,
    out_male: Path,
    *,
    seed: int,
    companions: Companions | None = None,
) -> int:
    """Downsample two sentence files to the same number of lines, keeping their order.

    The paper downsamples the extracted male and female sentences "to create sets of
    an equal number of sentences" (Kaneko et al. 2022, §4). Here each file keeps
    ``k = min(n_female, n_male)`` lines chosen uniformly at random without replacement;
    the kept lines stay in their original order. The female and male choices use two
    independent streams spawned from ``numpy.random.SeedSequence(seed)`` (the first
    for female, the second for male), so the same seed gives the same bytes.

    Two passes over each input (count, then copy) keep memory at O(k) line indices.
    Each output is written to a temporary file in its directory and renamed into
    place once all are complete (:func:`mgbias.files.atomic.atomic_paths`).

    Parameters
    ----------
    in_female, in_male
        The mined sentence files, one sentence per line.
    out_female, out_male
        The downsampled sentence files.
    seed
        Seed of the two draws.
    companions
        Optional ``((in_female_words, out_female_words), (in_male_words,
        out_male_words))``: files aligned line by line with ``in_female`` and
        ``in_male`` (the words files of :func:`mine_parallel`), from which the same
        kept lines are copied. They change neither the draws nor the sentence outputs.

    Returns
    -------
    int
        ``k``, the number of lines in each output.

    Raises
    ------
    ValueError
        On a bad seed, or a companion whose line count differs from its sentence file's.
    """
    check_seed(seed)
    in_female, in_male = Path(in_female), Path(in_male)
    out_female, out_male = Path(out_female), Path(out_male)
    n_female, n_male = count_lines(in_female), count_lines(in_male)
    companion_plan = _companion_plan(companions, ((in_female, n_female), (in_male, n_male)))
    k = min(n_female, n_male)
    female_rng, male_rng = (
        np.random.default_rng(child) for child in np.random.SeedSequence(int(seed)).spawn(2)
    )
    keep_female = _choose_sorted_indices(n_female, k, female_rng)
    keep_male = _choose_sorted_indices(n_male, k, male_rng)
    plan = [(in_female, out_female, keep_female), (in_male, out_male, keep_male)]
    if companion_plan:
        (female_words, out_female_words), (male_words, out_male_words) = companion_plan
        plan += [(female_words, out_female_words, keep_female)]
        plan += [(male_words, out_male_words, keep_male)]
    with atomic_paths(*(out for _, out, _ in plan)) as temps:
        for (source, _, keep), temp in zip(plan, temps, strict=True):
            with open(temp, "w", encoding="utf-8", newline="\n") as handle:
                _copy_selected_lines(source, keep, handle)
    return k


def _companion_plan(
    companions: Companions | None, sentence_files: tuple[tuple[Path, int], tuple[Path, int]]
) -> list[tuple[Path, Path]]:
    """Check the companions of :func:`downsample_to_equal`; return ``[(source, out), ...]``."""
    if companions is None:
        return []
    if len(companions) != 2 or any(len(pair) != 2 for pair in companions):
        raise ValueError(
            "companions: expected ((in_female_words, out_female_words), "
            f"(in_male_words, out_male_words)), got {companions!r}"
        )
    plan = []
    for (source, out), (sentences, n_lines) in zip(companions, sentence_files, strict=True):
        source = Path(source)
        n_companion = count_lines(source)
        if n_companion != n_lines:
            raise ValueError(
                f"{source}: has {n_companion} lines, but its sentence file {sentences} has "
                f"{n_lines}; expected one line per sentence"
            )
        plan.append((source, Path(out)))
    return plan


def mine_gendered_sentences(
    pairs: Iterable[tuple[str, str]],
    female: frozenset[str],
    male: frozenset[str],
    out_female: Path,
    out_male: Path,
    *,
    seed: int,
    workdir: Path | None = None,
    progress: bool = True,
    words_female: Path | None = None,
    words_male: Path | None = None,
) -> MiningCounts:
    """MBE Step 1 end to end: mine :math:`\\mathcal{T}_f`, :math:`\\mathcal{T}_m`, equalise.

    Runs :func:`mine_parallel` into temporary files (in ``workdir``, by default the
    directory of ``out_female``), then :func:`downsample_to_equal` into the outputs,
    which appear atomically only when all are complete.

    Parameters
    ----------
    words_female, words_male
        Optional words files (both or neither), aligned line by line with
        ``out_female`` and ``out_male``: each kept sentence's gender words
        (:func:`mine_parallel`). The sentence outputs are the same with or without.

    Returns
    -------
    MiningCounts
        Counts before downsampling, with ``n_kept_per_gender`` set.
    """
    check_seed(seed)
    with_words = _wants_words(words_female, words_male)
    out_female, out_male = Path(out_female), Path(out_male)
    scratch_parent = Path(workdir) if workdir is not None else out_female.parent
    scratch_parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch_parent, prefix=".mining.") as scratch:
        all_female = Path(scratch) / "female.txt"
        all_male = Path(scratch) / "male.txt"
        all_female_words = Path(scratch) / "female.words" if with_words else None
        all_male_words = Path(scratch) / "male.words" if with_words else None
        counts = mine_parallel(
            pairs,
            female,
            male,
            all_female,
            all_male,
            progress=progress,
            words_female=all_female_words,
            words_male=all_male_words,
        )
        companions = None
        if with_words:
            companions = (
                (all_female_words, Path(words_female)),
                (all_male_words, Path(words_male)),
            )
        counts.n_kept_per_gender = downsample_to_equal(
            all_female, all_male, out_female, out_male, seed=seed, companions=companions
        )
    return counts
