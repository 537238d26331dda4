"""Hard debiasing and DirectBias (Bolukbasi et al. 2016); Zhao et al. (2020)'s "ENDEB".

Hard debiasing of unit word vectors, in three steps (Bolukbasi et al. 2016, §5):

1. **Gender direction** ``g``: the first principal component of the definitional pairs,
   each pair centred on its own mean, i.e. of ``{v_a − μ, v_b − μ : μ = (v_a + v_b)/2}``
   (:func:`gender_direction`).
2. **Neutralise**: every word outside the gender-specific list loses its component along
   ``g``, ``v ← v − (v·g) g / (g·g)``; then every row is re-normalised
   (:func:`neutralize`).
3. **Equalise**: each equalize pair ``(a, b)`` becomes symmetric about the neutral
   subspace: ``ν = drop((v_a + v_b)/2, g)``, ``z = sqrt(1 − ‖ν‖²)`` (negated when
   ``(v_a − v_b)·g < 0``), ``v_a = ν + z g``, ``v_b = ν − z g``; then every row is
   re-normalised (:func:`equalize`). Each pair is tried in lower, Title and UPPER case.

**DirectBias_c** (Bolukbasi et al. 2016, §4.1) of gender-neutral words ``N``:
``(1/|N|) Σ_{w∈N} |cos(w, g)|^c`` (:func:`direct_bias`).

The word lists default to the authors' (``tolga-b/debiaswe``, ``data/``; see
``data/debiaswe/SOURCE.md``). Which lists Zhao et al. used is not stated; their README
points to debiaswe. A definitional pair missing from the vocabulary is tried in lower
case, then skipped; skipped pairs are logged and returned. When fewer than
:data:`MIN_DEFINITIONAL_PAIRS` pairs are found (or half of a shorter list) the lists do
not fit the vectors (the
default lists are English; German vectors hold one of them, ``('mary', 'john')``), and
:func:`hard_debias` refuses: one or two pairs would still give a direction and a
confident-looking debiased space, along whatever those pairs happen to differ in.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from mgbias.embeddings.vectors import Vectors, normalize_rows_inplace, unit_rows
from mgbias.errors import InputError
from mgbias.files.textio import read_text

__all__ = [
    "DebiasLists",
    "DebiasResult",
    "MIN_DEFINITIONAL_PAIRS",
    "cosines_with",
    "direct_bias",
    "direct_bias_of_rows",
    "drop",
    "equalize",
    "gender_direction",
    "hard_debias",
    "load_debias_lists",
    "neutralize",
    "pair_centred_pca",
]

logger = logging.getLogger(__name__)

#: The definitional pairs that must be in the vocabulary (or half of a shorter list):
#: fewer give the difference of one or two word pairs as the "gender direction". Of
#: debiaswe's ten, the demo's English space holds eight, its German one one.
MIN_DEFINITIONAL_PAIRS = 3

_DATA = "data/debiaswe"
_BLOCK_ROWS = 100_000


@dataclass(frozen=True)
class DebiasLists:
    """The three word lists of hard debiasing.

    Attributes
    ----------
    definitional
        Pairs defining the gender direction.
    gender_specific
        Words left out of neutralisation.
    equalize
        Pairs to equalise.
    """

    definitional: tuple[tuple[str, str], ...]
    gender_specific: frozenset[str]
    equalize: tuple[tuple[str, str], ...]


def _read_pairs(path: Path | None, name: str) -> tuple[tuple[str, str], ...]:
    data = _read_json(path, name)
    pairs = []
    for i, item in enumerate(data):
        if not _is_word_pair(item):
            raise ValueError(f"{path or name}: item {i} is {item!r}; expected a pair of words")
        pairs.append((item[0], item[1]))
    return tuple(pairs)


def _read_json(path: Path | None, name: str):
    if path is None:
        text = resources.files("mgbias.embeddings").joinpath(_DATA, name).read_text("utf-8")
        source = f"mgbias.embeddings/{_DATA}/{name}"
    else:
        text = read_text(path)
        source = str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{source}: not valid JSON (line {error.lineno}): {error.msg}") from None
    if not isinstance(data, list):
        raise ValueError(f"{source}: expected a JSON list, got {type(data).__name__}")
    return data


def load_debias_lists(
    definitional: str | Path | None = None,
    gender_specific: str | Path | None = None,
    equalize: str | Path | None = None,
) -> DebiasLists:
    """Read the JSON word lists; ``None`` takes the shipped debiaswe file.

    Definitional and equalize files hold a list of 2-word lists, the gender-specific file
    a list of words (debiaswe's formats).
    """
    words = _read_json(
        None if gender_specific is None else Path(gender_specific), "gender_specific_full.json"
    )
    bad = [w for w in words if not isinstance(w, str)]
    if bad:
        raise ValueError(f"{gender_specific}: expected a list of words, found {bad[0]!r}")
    return DebiasLists(
        definitional=_read_pairs(
            None if definitional is None else Path(definitional), "definitional_pairs.json"
        ),
        gender_specific=frozenset(words),
        equalize=_read_pairs(None if equalize is None else Path(equalize), "equalize_pairs.json"),
    )


def drop(u: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``u`` without its component along ``g``: ``u − g (u·g)/(g·g)`` (rows of ``u``)."""
    return u - np.outer(u @ g, g) / (g @ g) if u.ndim == 2 else u - g * (u @ g) / (g @ g)


def _present_pairs(
    vectors: Vectors, pairs: Iterable[tuple[str, str]]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    found, skipped = [], []
    for a, b in pairs:
        if a in vectors and b in vectors:
            found.append((a, b))
        elif a.lower() in vectors and b.lower() in vectors:
            found.append((a.lower(), b.lower()))
        else:
            skipped.append((a, b))
    return found, skipped


def gender_direction(
    vectors: Vectors, pairs: Sequence[tuple[str, str]], n_components: int = 10
) -> np.ndarray:
    """First principal component of the pair-centred definitional vectors (unit, float64).

    Bolukbasi et al. (2016), §5 "Identify gender subspace" (debiaswe ``doPCA``): for each
    pair, ``v_a − μ`` and ``v_b − μ`` with ``μ = (v_a + v_b)/2``; scikit-learn's PCA with
    ``n_components`` components (capped by the number of rows). Every pair must be in the
    vocabulary. The sign of ``g`` is scikit-learn's (deterministic); nothing here depends
    on it except the sign of a projection.
    """
    if not pairs:
        raise ValueError("gender_direction needs at least one definitional pair")
    first = np.array([vectors.vector(a) for a, _ in pairs])
    second = np.array([vectors.vector(b) for _, b in pairs])
    components, _ = pair_centred_pca(first, second, n_components)
    return components[0]


def pair_centred_pca(
    first: np.ndarray, second: np.ndarray, n_components: int = 10
) -> tuple[np.ndarray, np.ndarray]:
    """PCA of pair-centred rows: the array form of :func:`gender_direction`.

    Row ``i`` of ``first`` and of ``second`` form a pair with mean ``μ_i``; the PCA
    (scikit-learn, ``n_components`` capped by the shape) is fitted on the ``2n`` rows
    ``v − μ_i`` (= ``±(a_i − b_i)/2``), so the mean difference — the gender direction —
    is not centred away (Bolukbasi et al. 2016, §5; debiaswe ``doPCA``).

    Returns
    -------
    tuple[numpy.ndarray, numpy.ndarray]
        Unit components ``(k, d)`` float64 (scikit-learn's signs) and their
        ``explained_variance_ratio_`` (shares of the total variance).
    """
    first = np.asarray(first, dtype=np.float64)
    second = np.asarray(second, dtype=np.float64)
    if first.shape != second.shape or first.ndim != 2 or not len(first):
        raise ValueError(
            f"pair_centred_pca: expected two (n, d) arrays of equal shape, n >= 1; got "
            f"{first.shape} and {second.shape}"
        )
    center = (first + second) / 2
    matrix = np.empty((2 * len(first), first.shape[1]))
    matrix[0::2], matrix[1::2] = first - center, second - center
    # imported here: scikit-learn costs every job that imports this module ~2 s
    from sklearn.decomposition import PCA

    pca = PCA(n_components=min(n_components, *matrix.shape))
    pca.fit(matrix)
    components = pca.components_ / np.linalg.norm(pca.components_, axis=1, keepdims=True)
    return components, pca.explained_variance_ratio_.copy()


def neutralize(matrix: np.ndarray, g: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Drop ``g`` from every row not marked in ``keep``, then unit-normalise all rows.

    Parameters
    ----------
    matrix
        ``(n, d)`` unit rows (not modified).
    g
        Unit gender direction.
    keep
        ``(n,)`` bool, True for gender-specific rows (left as they are).
    """
    return _neutralize_inplace(np.array(matrix, dtype=np.float32, copy=True), g, keep)


def _neutralize_inplace(matrix: np.ndarray, g: np.ndarray, keep: np.ndarray) -> np.ndarray:
    g32 = g.astype(np.float32)
    for start in range(0, matrix.shape[0], _BLOCK_ROWS):
        block = matrix[start : start + _BLOCK_ROWS]
        mask = ~keep[start : start + _BLOCK_ROWS]
        block[mask] -= np.outer(block[mask] @ g32, g32)
    return normalize_rows_inplace(matrix)


def equalize_pair(va: np.ndarray, vb: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bolukbasi et al. (2016), §5 "Equalize": the pair made symmetric about ``g``'s normal.

    ``ν = drop((v_a+v_b)/2, g)``, ``z = sqrt(1 − ‖ν‖²)``, negated if ``(v_a − v_b)·g < 0``;
    returns ``(ν + z g, ν − z g)``. ``v_a``, ``v_b`` and ``g`` are unit vectors.
    """
    va, vb = va.astype(np.float64), vb.astype(np.float64)
    nu = drop((va + vb) / 2, g)
    z = np.sqrt(max(0.0, 1.0 - float(nu @ nu)))
    if (va - vb) @ g < 0:
        z = -z
    return nu + z * g, nu - z * g


def _case_variants(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    variants = {
        variant
        for a, b in pairs
        for variant in ((a.lower(), b.lower()), (a.title(), b.title()), (a.upper(), b.upper()))
    }
    return sorted(variants)


def equalize(
    vectors: Vectors, pairs: Iterable[tuple[str, str]], g: np.ndarray
) -> tuple[Vectors, list[tuple[str, str]]]:
    """Equalise every pair (in lower, Title and UPPER case) found in the vocabulary.

    Returns the re-normalised vectors and the pairs equalised.
    """
    equalized = vectors.with_matrix(np.array(vectors.matrix, copy=True))
    return equalized, _equalize_inplace(equalized, pairs, g)


def _equalize_inplace(
    vectors: Vectors, pairs: Iterable[tuple[str, str]], g: np.ndarray
) -> list[tuple[str, str]]:
    matrix = vectors.matrix
    done = []
    for a, b in _case_variants(pairs):
        if a in vectors and b in vectors and a != b:
            new_a, new_b = equalize_pair(matrix[vectors.index[a]], matrix[vectors.index[b]], g)
            matrix[vectors.index[a]] = new_a
            matrix[vectors.index[b]] = new_b
            done.append((a, b))
    normalize_rows_inplace(matrix)
    return done


@dataclass(frozen=True)
class DebiasResult:
    """Hard-debiased vectors and what was done.

    Attributes
    ----------
    vectors
        Debiased unit vectors, same words and order as the input.
    direction
        The gender direction ``g`` (unit, float64).
    definitional_used, definitional_skipped
        Definitional pairs found (possibly lower-cased) and not found.
    n_neutralized
        Words neutralised (not gender-specific).
    equalized
        Equalize pairs (case variants) found and equalised.
    """

    vectors: Vectors
    direction: np.ndarray
    definitional_used: tuple[tuple[str, str], ...]
    definitional_skipped: tuple[tuple[str, str], ...]
    n_neutralized: int
    equalized: tuple[tuple[str, str], ...]

    def summary(self) -> dict:
        """JSON-ready description (without the vectors)."""
        return {
            "direction": self.direction.tolist(),
            "definitional_used": [list(p) for p in self.definitional_used],
            "definitional_skipped": [list(p) for p in self.definitional_skipped],
            "n_neutralized": self.n_neutralized,
            "equalized": [list(p) for p in self.equalized],
        }


def hard_debias(vectors: Vectors, lists: DebiasLists | None = None) -> DebiasResult:
    """Hard-debias ``vectors`` (normalised first): gender direction, neutralise, equalise.

    Parameters
    ----------
    vectors
        Word vectors (every word is kept).
    lists
        Word lists (default: debiaswe's, :func:`load_debias_lists`).
    """
    lists = lists or load_debias_lists()
    unit = vectors.normalized()
    used, skipped = _present_pairs(unit, lists.definitional)
    for pair in skipped:
        logger.warning("definitional pair %s not in %s; skipped", pair, vectors.source)
    needed = max(1, min(MIN_DEFINITIONAL_PAIRS, math.ceil(len(lists.definitional) / 2)))
    if len(used) < needed:
        raise InputError(
            f"{vectors.source or 'the vectors'}: {len(used)} of the {len(lists.definitional)} "
            f"definitional pairs are in the vocabulary ({', '.join(map(str, used)) or 'none'}), "
            f"fewer than {needed}: the word lists do not fit these vectors "
            "(the default lists are debiaswe's English ones); give lists of the vectors' "
            "language (mgbias debias --definitional, --gender-specific, --equalize)"
        )
    g = gender_direction(unit, used)
    keep = np.fromiter((w in lists.gender_specific for w in unit.words), bool, len(unit))
    _neutralize_inplace(unit.matrix, g, keep)  # ``unit`` owns its matrix
    equalized = _equalize_inplace(unit, lists.equalize, g)
    debiased = unit
    logger.info(
        "hard debias of %s: %d definitional pairs (%d skipped), %d words neutralised, "
        "%d pairs equalised",
        vectors.source,
        len(used),
        len(skipped),
        int((~keep).sum()),
        len(equalized),
    )
    return DebiasResult(
        vectors=debiased,
        direction=g,
        definitional_used=tuple(used),
        definitional_skipped=tuple(skipped),
        n_neutralized=int((~keep).sum()),
        equalized=tuple(equalized),
    )


def direct_bias(vectors: Vectors, words: Iterable[str], g: np.ndarray, c: float = 1.0) -> float:
    """DirectBias_c = ``(1/|N|) Σ_{w∈N} |cos(w, g)|^c`` (Bolukbasi et al. 2016, §4.1).

    Words missing from the vocabulary are left out of ``N`` (an error if none is left).
    """
    present = [w for w in words if w in vectors]
    if not present:
        raise ValueError(f"none of the neutral words is in {vectors.source}")
    return direct_bias_of_rows(vectors.rows(present), g, c)


def direct_bias_of_rows(rows: np.ndarray, g: np.ndarray, c: float = 1.0) -> float:
    """DirectBias_c of the vectors ``rows`` (one per element of ``N``): the array form of
    :func:`direct_bias`, ``(1/|N|) Σ |cos(w, g)|^c`` (Bolukbasi et al. 2016, §4.1)."""
    return float(np.mean(np.abs(cosines_with(rows, g)) ** c))


def cosines_with(rows: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``cos(w, g)`` of every row ``w`` (float64; 0 for an all-zero row)."""
    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim != 2 or not len(rows):
        raise ValueError(f"expected a non-empty (n, d) array of vectors, got shape {rows.shape}")
    return unit_rows(rows) @ (np.asarray(g, dtype=np.float64) / np.linalg.norm(g))


def _is_word_pair(item) -> bool:
    return isinstance(item, list) and len(item) == 2 and all(isinstance(w, str) for w in item)
