"""Word lists of the contextual probes: definitional, equivalent (swap) and profession lists.

Basta et al. (2020, §5.2.1) use three lists of Bolukbasi et al. (2016), all from
``tolga-b/debiaswe`` (MIT License) and already shipped with mgbias, so not duplicated:

- *definitional*: the 10 pairs of ``definitional_pairs.json`` (female first);
- *equivalent*: the definitional pairs plus the 52 of ``equalize_pairs.json``, which lists
  most pairs male first but some female first (``wives``/``husbands``): each pair is
  oriented (female, male) by the gender word lists ``en_female``/``en_male``, else taken as
  male first. Entries joining words with ``_`` ("twin_brother") cannot match a single word
  (:mod:`.words`) and are left out; case variants ("He"/"he") collapse to lower case, the
  swap restores the case of the text. "him" has no entry; :data:`ENGLISH_EXTRA_PAIRS` adds
  (her, him), which makes "her" ambiguous (his or him, resolved by the swap's analyser);
- *professions*: the 320 entries of ``professions.json`` with their definitional and
  stereotypical scores (:func:`mgbias.wordlists.professions.load_professions`).

Spanish, French and German lists are shipped in ``data/`` (see ``data/SOURCE.md``):
definitional and equivalent pairs and professions with both forms (:data:`SHIPPED`). A
list file of one's own is a UTF-8 TSV of ``female<TAB>male`` lines (``#`` comments).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from mgbias.embeddings.debias import load_debias_lists
from mgbias.wordlists import load_wordlist
from mgbias.wordlists.professions import load_professions

__all__ = [
    "ENGLISH_EXTRA_PAIRS",
    "SHIPPED",
    "ProbeLists",
    "list_files",
    "load_probe_lists",
    "orient_pairs",
    "read_pair_file",
]

log = logging.getLogger(__name__)

#: Pairs mgbias adds to the English equivalent list: "him" has none in debiaswe.
ENGLISH_EXTRA_PAIRS = (("her", "him"),)
_DATA = "data"
#: Languages with shipped lists (English from debiaswe, the others from ``data/``).
SHIPPED = ("en", "es", "fr", "de")


@dataclass(frozen=True)
class ProbeLists:
    """The lists of one language.

    Attributes
    ----------
    lang
        Language code.
    definitional, equivalent
        ``(female, male)`` pairs, lower case; the equivalent pairs include
        the definitional ones.
    professions
        ``{word: stereotypical score}`` (> 0 male), every gendered form of a profession.
    profession_pairs
        ``(female form, male form)`` for languages that mark gender on professions.
    """

    lang: str
    definitional: tuple[tuple[str, str], ...]
    equivalent: tuple[tuple[str, str], ...]
    professions: dict
    profession_pairs: tuple[tuple[str, str], ...] = ()

    @property
    def gendered_words(self) -> frozenset[str]:
        """Every word of the definitional and equivalent lists, lower case (Exp. 2 exclusions)."""
        return frozenset(w.lower() for pair in self.equivalent + self.definitional for w in pair)

    @property
    def definitional_words(self) -> frozenset[str]:
        return frozenset(w.lower() for pair in self.definitional for w in pair)


def orient_pairs(
    pairs, female: frozenset[str], male: frozenset[str]
) -> tuple[tuple[str, str], ...]:
    """Pairs as ``(female, male)``: flipped when the first word is male or the second
    female by the word lists, else taken as ``(male, female)`` (debiaswe's usual order)."""
    oriented = []
    for a, b in pairs:
        if a.lower() in female or b.lower() in male:
            oriented.append((a, b))
        else:
            oriented.append((b, a))
    return tuple(oriented)


def _dedupe(pairs) -> tuple[tuple[str, str], ...]:
    """Lower-cased pairs without ``_`` phrases, first occurrence kept."""
    seen, out = set(), []
    for f, m in pairs:
        pair = (f.lower(), m.lower())
        if "_" not in f + m and pair not in seen:
            seen.add(pair)
            out.append(pair)
    return tuple(out)


def read_pair_file(path: str | Path, columns: int = 2) -> list[tuple[str, ...]]:
    """Rows of a TSV pair file (``#`` comments, blank lines skipped).

    Raises
    ------
    ValueError
        A line without ``columns`` tab-separated fields (names file and line).
    """
    path = Path(path)
    return _parse_rows(path.read_text(encoding="utf-8"), str(path), columns)


def _parse_rows(text: str, source: str, columns: int) -> list[tuple[str, ...]]:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < columns or any(not f.strip() or " " in f.strip() for f in fields):
            raise ValueError(
                f"{source}, line {number}: expected {columns} tab-separated single words "
                f"(female, male{', english' if columns == 3 else ''}), got {line!r}"
            )
        rows.append(tuple(f.strip() for f in fields[:columns]))
    return rows


def _shipped_rows(name: str, columns: int) -> list[tuple[str, ...]]:
    text = resources.files("mgbias.contextual").joinpath(_DATA, name).read_text("utf-8")
    return _parse_rows(text, f"mgbias.contextual/{_DATA}/{name}", columns)


def list_files(lang: str, package: str | Path | None = None) -> list[Path]:
    """The shipped files :func:`load_probe_lists` reads for ``lang`` (empty for a language
    without shipped lists), under ``package`` (default: the installed ``mgbias``): the
    workflow's probe jobs take them as inputs, so that editing a list reruns the jobs of
    its language and no other."""
    package = Path(str(resources.files("mgbias"))) if package is None else Path(package)
    professions = package / "resources" / "professions_bolukbasi2016.json"
    if lang == "en":
        debiaswe = package / "embeddings" / "data" / "debiaswe"
        wordlists = package / "wordlists" / "data"
        return [
            debiaswe / "definitional_pairs.json",
            debiaswe / "equalize_pairs.json",
            debiaswe / "gender_specific_full.json",
            wordlists / "en_female.txt",
            wordlists / "en_male.txt",
            professions,
        ]
    if lang not in SHIPPED:
        return []
    data = package / "contextual" / _DATA
    kinds = ("definitional_pairs", "equivalent_pairs", "professions")
    return [data / f"{lang}_{kind}.tsv" for kind in kinds] + [professions]


def load_probe_lists(
    lang: str,
    *,
    definitional: str | Path | None = None,
    equivalent: str | Path | None = None,
) -> ProbeLists:
    """The shipped lists of ``lang`` (:data:`SHIPPED`), or pair files given instead.

    Raises
    ------
    ValueError
        For a language without shipped lists when no files are given.
    """
    english = load_professions()
    stereotype = dict(zip(english["profession"], english["stereotypical"], strict=True))
    if lang == "en":
        debiaswe = load_debias_lists()
        female = load_wordlist("en_female")
        male = load_wordlist("en_male")
        defs = _dedupe(debiaswe.definitional)
        equalize = orient_pairs(debiaswe.equalize, female, male)
        equiv = _dedupe(defs + equalize + ENGLISH_EXTRA_PAIRS)
        professions = {w: s for w, s in stereotype.items() if "_" not in w}
        prof_pairs: tuple[tuple[str, str], ...] = ()
    elif lang in SHIPPED:
        defs = _dedupe(_shipped_rows(f"{lang}_definitional_pairs.tsv", 2))
        equiv = _dedupe(defs + tuple(_shipped_rows(f"{lang}_equivalent_pairs.tsv", 2)))
        rows = _shipped_rows(f"{lang}_professions.tsv", 3)
        prof_pairs = tuple((f.lower(), m.lower()) for f, m, _ in rows)
        professions = {}
        for f, m, source in rows:
            if source not in stereotype:
                raise ValueError(f"{lang}_professions.tsv: {source!r} is not in the English list")
            professions[f.lower()] = professions[m.lower()] = stereotype[source]
    elif definitional is None or equivalent is None:
        raise ValueError(
            f"no shipped contextual-probe lists for language {lang!r} (shipped: "
            f"{', '.join(SHIPPED)}); give "
            "definitional and equivalent pair files (female<TAB>male lines)"
        )
    else:
        defs, equiv, professions, prof_pairs = (), (), {}, ()
    if definitional is not None:
        defs = _dedupe(read_pair_file(definitional))
    if equivalent is not None:
        equiv = _dedupe(defs + tuple(read_pair_file(equivalent)))
    return ProbeLists(lang, defs, equiv, professions, prof_pairs)
