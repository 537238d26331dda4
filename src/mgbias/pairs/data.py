"""The pairs of a pair benchmark as the scoring passes see them.

:func:`load_pairs` reads any of the benchmark layouts (CrowS-Pairs CSV,
multilingual CrowS-Pairs CSV, StereoSet JSON, translated CrowS-Pairs JSON) and
keeps one bias type;
:func:`pair_sentences` gives the ``(sent_more, sent_less)`` of each row,
perturbed if asked (Steinborn et al. 2022, Table 3). Both the model passes
(:mod:`mgbias.pairs.passes`) and the measures (:mod:`mgbias.pairs.scoring`)
use them, without depending on each other.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mgbias.datasets import (
    filter_bias_type,
    load_crowspairs,
    load_multilingual_crowspairs,
    load_stereoset,
)
from mgbias.datasets.multilingual_crowspairs import language_from_file_name
from mgbias.datasets.translated_crowspairs import (
    is_translated_crowspairs,
    load_translated_crowspairs,
)
from mgbias.errors import InputError
from mgbias.files.atomic import read_json
from mgbias.files.textio import decoding, encoding_error
from mgbias.pairs.perturb import perturb_final_character

__all__ = [
    "AUTO_CLUSTER",
    "TARGET_COLUMN",
    "check_file_language",
    "cluster_column",
    "cluster_labels",
    "load_pairs",
    "pair_data_language",
    "pair_sentences",
]


def pair_sentences(frame: pd.DataFrame, *, perturb: bool = False) -> list[tuple[str, str]]:
    """``(sent_more, sent_less)`` of every row of a pair table.

    With ``perturb`` both sentences lose their final character
    (:func:`~mgbias.pairs.perturb.perturb_final_character`; Steinborn et al.
    2022, Table 3).
    """
    pairs = list(zip(frame["sent_more"], frame["sent_less"], strict=True))
    if perturb:
        pairs = [(perturb_final_character(a), perturb_final_character(b)) for a, b in pairs]
    return pairs


#: The ``cluster`` setting that picks the units of the pair tests from the data.
AUTO_CLUSTER = "auto"
#: The column of a pair's target word (StereoSet's, the demo pairs'), the units of
#: :data:`AUTO_CLUSTER` where target words repeat.
TARGET_COLUMN = "target"


def cluster_column(frame: pd.DataFrame, cluster: str | None) -> str | None:
    """The column whose values are the units of the pair tests, for the setting
    ``cluster``: a column name as given; ``None`` (the pairs themselves) as given;
    :data:`AUTO_CLUSTER`: :data:`TARGET_COLUMN` where every pair has a target word and
    some target word holds several pairs (their preferences share a cause, so the
    pairs are not independent units: the sign test on them reads a target word's
    effect, e.g. of its feminine form, as the model's preference), else ``None``."""
    if cluster != AUTO_CLUSTER:
        return cluster
    if TARGET_COLUMN not in frame.columns or frame.empty:
        return None
    targets = frame[TARGET_COLUMN]
    if (targets.isna() | (targets.astype(str).str.strip() == "")).any():
        return None
    return TARGET_COLUMN if targets.astype(str).nunique() < len(frame) else None


def cluster_labels(frame: pd.DataFrame, column: str, source: str | Path) -> list[str]:
    """The clusters of a pair table's rows: column ``column`` as strings.

    Pairs of one cluster share a cause of preference (a target word); the pair
    measures' tests then take the clusters as units
    (:func:`mgbias.stats.cluster_sign_flip_test`).

    Raises
    ------
    InputError
        If the table has no column ``column`` (the message lists those it has) or a
        row's value is empty; the message names ``source`` and the row's line.
    """
    if column not in frame.columns:
        raise InputError(
            f"{source}: no column {column!r} to cluster the pairs by; the pairs have the "
            f"columns {', '.join(map(str, frame.columns))}"
        )
    labels = frame[column]
    missing = labels.isna() | (labels.astype(str).str.strip() == "")
    if missing.any():
        row = int(missing.to_numpy().nonzero()[0][0])
        where = f"line {frame['source_line'].iloc[row]}" if "source_line" in frame else f"row {row}"
        raise InputError(f"{source}, {where}: the pair has no {column!r} to cluster it by")
    return labels.astype(str).tolist()


def load_pairs(
    path: str,
    *,
    lang: str | None = None,
    bias_type: str = "gender",
    force_lang: bool = False,
) -> pd.DataFrame:
    """Read a pair benchmark by its format: StereoSet JSON, translated CrowS-Pairs
    JSON (an array of ``stereotype`` / ``anti-stereotype`` items), CrowS-Pairs CSV
    (``sent_more``), or multilingual CrowS-Pairs CSV (``A_x`` / ``B_x``, the
    language from ``lang`` or the file name); keep one bias type.

    A multilingual CrowS-Pairs file whose name says another language than ``lang``
    (``cps_translated_de_formatted.csv`` with ``lang="fr"``) is refused unless
    ``force_lang``. Every error for a bad file is an :class:`~mgbias.errors.InputError`
    naming it (a ``ValueError``); one for a file that is not UTF-8 names the line and
    byte offset (:class:`~mgbias.errors.EncodingError`).
    """
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(
            f"{path}: no such pair dataset file (expected a CrowS-Pairs or multilingual "
            "CrowS-Pairs CSV, or a StereoSet JSON)"
        )
    check_file_language(source, lang, force=force_lang)
    try:
        frame = _read_pairs(source, lang)
        if frame.empty:  # before the bias type, which would list no types at all
            raise InputError(f"{source}: no pairs ({_emptiness(source)})")
        return filter_bias_type(frame, bias_type)
    except InputError:
        raise
    except UnicodeDecodeError:
        raise encoding_error(source) from None
    except ValueError as error:  # the loaders' messages name the file
        message = str(error)
        raise InputError(message if str(source) in message else f"{source}: {message}") from None


def _emptiness(source: Path) -> str:
    """Why a benchmark file gave no pairs: a CSV with only its header, or a JSON without items."""
    return "no items" if source.suffix == ".json" else "only a header"


def pair_data_language(path: str | Path) -> str | None:
    """The language of a pair benchmark file, by its name and layout.

    A name that says a language (``multilingual_crows_pairs_de.csv``,
    :func:`~mgbias.datasets.multilingual_crowspairs.language_from_file_name`) gives it;
    otherwise a CrowS-Pairs CSV (``sent_more``) or a StereoSet JSON is English, and a
    translated CrowS-Pairs JSON or a multilingual file without a language in its name
    gives None (the file does not say).
    """
    source = Path(path)
    named = language_from_file_name(source)
    if named is not None:
        return named
    if source.suffix == ".json":
        return None if is_translated_crowspairs(read_json(source)) else "en"
    with decoding(source), open(source, encoding="utf-8") as handle:
        header = handle.readline()
    return "en" if "sent_more" in header else None


def check_file_language(path: str | Path, lang: str | None, *, force: bool = False) -> None:
    """Refuse a multilingual CrowS-Pairs file whose name says another language than ``lang``.

    Raises
    ------
    InputError
        ``cps_translated_de_formatted.csv`` (or ``multilingual_crows_pairs_de.csv``) with
        ``lang`` other than ``de``, unless ``force``.
    """
    named = language_from_file_name(path)
    if force or lang is None or named is None or named == lang:
        return
    raise InputError(
        f"{path}: the file name says language {named!r}, but the language asked for is "
        f"{lang!r}; give --lang {named}, or --force-lang to score it as {lang!r} anyway"
    )


def _read_pairs(source: Path, lang: str | None) -> pd.DataFrame:
    if source.suffix == ".json":
        # by content: StereoSet's object with "data", or an array of translated
        # CrowS-Pairs items (Kaneko et al. 2022's human translations)
        if is_translated_crowspairs(read_json(source)):
            return load_translated_crowspairs(source)
        return load_stereoset(source)
    with decoding(source), open(source, encoding="utf-8") as handle:
        header = handle.readline()
    if "sent_more" in header:
        return load_crowspairs(source)
    return load_multilingual_crowspairs(source, language=lang)
