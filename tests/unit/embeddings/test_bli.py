"""Bilingual lexicon induction (mgbias.embeddings.bli)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mgbias.embeddings.bli import bli_accuracy, csls_target_penalty, retrieve
from mgbias.embeddings.vectors import Vectors


def _space(words, rows):
    return Vectors(words, np.array(rows, dtype=np.float32))


def test_oov_test_words_count_as_errors():
    """4 distinct source words: 3 retrieved correctly, 1 not in the vocabulary -> 75.00."""
    src = _space(["a", "b", "c"], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    tgt = _space(["x", "y", "z"], [[1, 0.1, 0], [0, 1, 0.1], [0.1, 0, 1]])
    test = [("a", "x"), ("b", "y"), ("b", "q"), ("c", "z"), ("oov", "x")]
    for retrieval in ("csls", "nn"):
        result = bli_accuracy(src, tgt, test, retrieval=retrieval, k=1, device="cpu")
        assert (result.n_correct, result.n_source_words, result.n_covered) == (3, 4, 3)
        assert f"{result.accuracy:.2f}" == "75.00"


def test_gold_translations_missing_from_the_target_count_as_errors():
    src = _space(["a", "b"], [[1, 0], [0, 1]])
    tgt = _space(["x", "y"], [[1, 0], [0, 1]])
    result = bli_accuracy(src, tgt, [("a", "x"), ("b", "gone")], k=1, device="cpu")
    assert (result.n_correct, result.n_covered, result.accuracy) == (1, 1, 50.0)


def test_maxload_caps_both_vocabularies():
    src = _space(["a", "b"], [[1, 0], [0, 1]])
    tgt = _space(["y", "x"], [[0, 1], [1, 0]])
    full = bli_accuracy(src, tgt, [("a", "x"), ("b", "y")], k=1, device="cpu")
    capped = bli_accuracy(src, tgt, [("a", "x"), ("b", "y")], k=1, maxload=1, device="cpu")
    assert full.accuracy == 100.0
    assert capped.accuracy == 0.0  # "x" and "b" are past the cap


def _angles(*degrees):
    radians = np.deg2rad(degrees)
    return torch.tensor(np.stack([np.cos(radians), np.sin(radians)], axis=1), dtype=torch.float64)


def test_csls_demotes_a_hub():
    """Unit vectors in 2-D at angles: sources q1 0°, q2 30°; targets h 5°, t 56°; k = 1.

    NN: cos(q2, h) = cos 25° = 0.906 > cos(q2, t) = cos 26° = 0.899, so both queries
    retrieve the hub h. r_S(h) = cos 5° = 0.996 (nearest source q1), r_S(t) = cos 26° =
    0.899 (nearest source q2). CSLS(q2, h) = 2(0.906) - 0.996 = 0.816 <
    CSLS(q2, t) = 2(0.899) - 0.899 = 0.899: CSLS sends q2 to t; q1 stays with h
    (0.996 vs 2 cos 56° - 0.899 = 0.219).
    """
    src, tgt = _angles(0, 30), _angles(5, 56)
    penalty = csls_target_penalty(tgt, src, k=1)
    torch.testing.assert_close(
        penalty, torch.tensor(np.cos(np.deg2rad([5, 26])), dtype=torch.float64)
    )
    assert retrieve(src, src, tgt, "nn").tolist() == [0, 0]
    assert retrieve(src, src, tgt, "csls", k=1).tolist() == [0, 1]
    # k = 2 averages both sources: r_S(h) = (cos 5° + cos 25°)/2, r_S(t) = (cos 56° + cos 26°)/2
    penalty2 = csls_target_penalty(tgt, src, k=2)
    expected2 = np.cos(np.deg2rad([[5, 25], [56, 26]])).mean(axis=1)
    torch.testing.assert_close(penalty2, torch.tensor(expected2, dtype=torch.float64))


def test_unknown_retrieval_rejected():
    src = _space(["a"], [[1.0, 0.0]])
    with pytest.raises(ValueError, match="retrieval must be one of"):
        bli_accuracy(src, src, [("a", "a")], retrieval="cosine", device="cpu")


def _files(tmp_path, dictionary: str):
    (tmp_path / "de.vec").write_text("2 3\nhund 1 0 0\nkatze 0 1 0\n", encoding="utf-8")
    (tmp_path / "en.vec").write_text("2 3\ndog 1 0 0\ncat 0 1 0\n", encoding="utf-8")
    (tmp_path / "dico.txt").write_text(dictionary, encoding="utf-8")
    return [str(tmp_path / name) for name in ("de.vec", "en.vec", "dico.txt")]


@pytest.mark.parametrize(
    ("dictionary", "expected"),
    [
        ("", r"dico\.txt: the test dictionary has no pairs"),
        ("\n\n", r"dico\.txt: the test dictionary has no pairs"),
        # the languages swapped: 0% of nothing would read as a result
        ("dog hund\ncat katze\n", r"dico\.txt on .*de\.vec -> .*en\.vec: 0 of 2 source words"),
        # one of eleven covered: an accuracy over the few shared strings of a wrong dictionary
        (
            "hund dog\n" + "".join(f"wort{i} word{i}\n" for i in range(10)),
            r"dico\.txt on .*: 1 of 11 source words \(9\.1%\) are in the vectors .* fewer than 10%",
        ),
    ],
)
def test_a_dictionary_that_scores_nothing_is_refused_naming_it(tmp_path, dictionary, expected):
    from mgbias.embeddings.steps import bli_files
    from mgbias.errors import InputError

    with pytest.raises(InputError, match=expected):
        bli_files(*_files(tmp_path, dictionary), device="cpu")
    assert bli_files(*_files(tmp_path, "hund dog\n"), retrievals=["nn"], device="cpu")[0].n_covered
