"""Probe word lists (debiaswe, Spanish) and the derived biased lists of Gonen & Goldberg."""

from __future__ import annotations

import numpy as np
import pytest

from mgbias.contextual.biased_words import biased_words, he_she_direction, projection_bias
from mgbias.contextual.lists import load_probe_lists, orient_pairs, read_pair_file
from mgbias.embeddings.vectors import Vectors


def test_english_lists_are_debiaswe_oriented_female_first():
    lists = load_probe_lists("en")
    assert len(lists.definitional) == 10
    assert lists.definitional[2] == ("she", "he") and ("mary", "john") in lists.definitional
    assert ("wives", "husbands") in lists.equivalent  # listed female first in debiaswe
    assert ("businesswoman", "businessman") in lists.equivalent  # listed male first
    assert ("her", "him") in lists.equivalent
    assert not any("_" in w for pair in lists.equivalent for w in pair)
    assert set(lists.definitional) <= set(lists.equivalent)
    assert lists.professions["nurse"] < 0 < lists.professions["carpenter"]
    assert {"she", "he", "husbands"} <= lists.gendered_words
    assert "wives" not in lists.definitional_words


def test_spanish_lists_give_both_forms_the_english_score():
    lists = load_probe_lists("es")
    assert ("ella", "él") in lists.definitional and ("reina", "rey") in lists.equivalent
    en = load_probe_lists("en").professions
    assert lists.professions["médica"] == lists.professions["médico"] == en["doctor"]
    assert ("enfermera", "enfermero") in lists.profession_pairs


def test_orientation_and_bad_files(tmp_path):
    assert orient_pairs([("king", "queen"), ("wives", "husbands")], {"wives"}, {"king"}) == (
        ("queen", "king"),
        ("wives", "husbands"),
    )
    bad = tmp_path / "pairs.tsv"
    bad.write_text("# comment\nreina\trey\nsolo una\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"pairs.tsv, line 3: expected 2 tab-separated"):
        read_pair_file(bad)
    with pytest.raises(ValueError, match="no shipped contextual-probe lists for language 'it'"):
        load_probe_lists("it")


def _vectors():
    # he = e0, she = -e0 -> g = e0; word i has cos = its first coordinate / norm
    words = ["he", "she", "king", "nurse", "doctor", "Paris", "table", "queen", "engineer", "3d"]
    rows = {
        "he": [1, 0], "she": [-1, 0], "king": [0.9, 0.1], "nurse": [-0.8, 0.6],
        "doctor": [0.6, 0.8], "Paris": [5, 0], "table": [0, 1], "queen": [-0.9, 0.1],
        "engineer": [0.8, 0.6], "3d": [1, 0],
    }  # fmt: skip
    return Vectors(words, np.array([rows[w] for w in words], dtype=np.float32))


def test_biased_words_rank_by_projection_on_he_minus_she():
    vectors = _vectors()
    np.testing.assert_allclose(he_she_direction(vectors), [1, 0])
    result = biased_words(vectors, 2, exclude=["he", "she", "King"])
    assert result.male == ("engineer", "doctor")  # cos .8, .6; Paris (capital), 3d excluded
    assert result.female == ("queen", "nurse")  # cos -.994, -.8
    assert result.bias["engineer"] == pytest.approx(0.8, abs=1e-6)
    assert result.labels()["nurse"] is False
    top = biased_words(vectors, 1, exclude=["he", "she", "king", "queen"], top_n=5)
    assert top.male == ("doctor",) and top.female == ("nurse",)
    with pytest.raises(ValueError, match="2 male- and 1 female-biased candidates"):
        biased_words(vectors, 3, exclude=["he", "she", "king", "queen"])
    assert projection_bias(vectors, ["table", "absent"], np.array([0.0, 2.0])) == {
        "table": pytest.approx(1.0)
    }


def _spanish_vectors(path, include_pronouns: bool = True):
    """Static Spanish vectors: him/her pronouns on the first axis, médico leaning male,
    enfermera female, and filler words on the second axis."""
    from mgbias.embeddings.vectors import Vectors, write_vec

    rows = {"médico": [0.8, 0.6], "enfermera": [-0.6, 0.8]}
    rows.update({f"palabra{'abcde'[k]}": [0.1 * (k - 2), 1.0] for k in range(5)})
    if include_pronouns:
        rows.update({"él": [1.0, 0.0], "ella": [-1.0, 0.0]})
    write_vec(path, Vectors(list(rows), np.array(list(rows.values()), dtype=np.float32)))
    return path


def test_static_lists_take_the_languages_own_pronouns(tmp_path):
    """Spanish vectors have no "he"/"she": the direction is él − ella (the template's
    pronouns), so médico projects positively and enfermera negatively."""
    from mgbias.contextual.lists import ProbeLists
    from mgbias.contextual.steps import static_lists

    lists = ProbeLists(
        lang="es",
        definitional=(("ella", "él"),),
        equivalent=(("ella", "él"),),
        professions={"médico": 1.0, "enfermera": -1.0},
    )
    static = static_lists(
        _spanish_vectors(tmp_path / "es.vec"), lists, n_biased=1, n_extended=1, top_n=100
    )
    assert static.profession_bias["médico"] == pytest.approx(0.8, abs=1e-6)
    assert static.profession_bias["enfermera"] == pytest.approx(-0.6, abs=1e-6)
    assert list(static.biased.male) == ["médico"] and list(static.biased.female) == ["enfermera"]
    assert list(static.extended.male) == ["palabrae"]
    assert list(static.extended.female) == ["palabraa"]
    with pytest.raises(ValueError, match=r"no.vec: no vector for 'él', 'ella'.*'él' - 'ella'"):
        static_lists(
            _spanish_vectors(tmp_path / "no.vec", include_pronouns=False),
            lists,
            n_biased=1,
            n_extended=1,
        )


def test_list_files_are_each_languages_own():
    from mgbias.contextual.lists import list_files

    files = {lang: list_files(lang) for lang in ("en", "es", "fr", "de")}
    for lang, paths in files.items():
        assert paths and all(p.is_file() for p in paths), lang
    assert [p.name for p in files["de"]][:3] == [
        "de_definitional_pairs.tsv", "de_equivalent_pairs.tsv", "de_professions.tsv",
    ]  # fmt: skip
    # the English bias scores are every language's; the pair files are the language's own
    shared = set(files["fr"]) & set(files["de"])
    assert {p.name for p in shared} == {"professions_bolukbasi2016.json"}
    assert list_files("it") == []
