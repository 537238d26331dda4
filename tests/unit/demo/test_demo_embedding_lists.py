"""Demo dictionaries and MIBs-style lists from the lexicon (mgbias.demo.embeddings)."""

from __future__ import annotations

import pytest

from mgbias.demo.embeddings import (
    concepts,
    dictionary_pairs,
    n_strong,
    occupation_pairs,
    seed_pairs,
    split_concepts,
    write_dictionaries,
    write_mibs_lists,
)
from mgbias.demo.lexicon import LANGUAGES, OCCUPATIONS
from mgbias.embeddings.debias import load_debias_lists
from mgbias.embeddings.dictionaries import read_dictionary, source_words
from mgbias.embeddings.mibs import read_occupation_pairs, read_seed_pairs


def test_split_is_by_concept_and_seeded():
    train, test = split_concepts(seed=3)
    names = [c.name for c in concepts()]
    assert len(names) == len(set(names))
    assert {c.name for c in train}.isdisjoint({c.name for c in test})
    assert len(train) + len(test) == len(names)
    assert [c.name for c in split_concepts(seed=3)[1]] == [c.name for c in test]
    assert [c.name for c in split_concepts(seed=4)[1]] != [c.name for c in test]
    with pytest.raises(ValueError, match="test_fraction"):
        split_concepts(seed=3, test_fraction=1.0)


def test_both_gendered_forms_are_translations():
    doctor = [c for c in concepts() if c.name == "doctor"]
    assert dictionary_pairs("en", "de", doctor) == [("doctor", "arzt"), ("doctor", "ärztin")]
    assert dictionary_pairs("de", "fr", doctor) == [("arzt", "médecin"), ("ärztin", "médecin")]
    assert len(dictionary_pairs("de", "es", doctor)) == 4


def test_written_dictionaries_follow_the_split(tmp_path):
    write_dictionaries(tmp_path, ["en", "es"], seed=1)
    train = read_dictionary(tmp_path / "en-es.0-5000.txt")
    test = read_dictionary(tmp_path / "en-es.5000-6500.txt")
    assert set(source_words(train)).isdisjoint(source_words(test))
    assert len(source_words(test)) == len(split_concepts(seed=1)[1])


def test_mibs_lists_are_index_aligned_with_strong_pairs_first(tmp_path):
    english = occupation_pairs("en")
    strong = n_strong()
    assert strong == 6
    assert all(m != f for m, f in english[:strong])
    assert english[strong:] == [(o.en, o.en) for o in OCCUPATIONS]
    for lang in LANGUAGES:
        assert len(occupation_pairs(lang)) == len(english)
        assert len(seed_pairs(lang)) == 7
    assert seed_pairs("es")[0] == ("él", "ella")
    write_mibs_lists(tmp_path, ["en", "fr"])
    pairs = read_occupation_pairs(tmp_path / "fr_male_def_occ", tmp_path / "fr_female_def_occ")
    assert pairs == occupation_pairs("fr")
    assert read_seed_pairs(tmp_path / "fr_gender_pairs.json") == seed_pairs("fr")


def test_debiaswe_lists_cover_the_demo_english():
    """The shipped lists mark every English gendered word of the lexicon as gender-specific
    and none of its occupations, so hard debiasing neutralises exactly the occupations."""
    lists = load_debias_lists()
    gendered = {w for pair in occupation_pairs("en")[: n_strong()] + seed_pairs("en") for w in pair}
    assert gendered <= lists.gender_specific
    assert not {o.en for o in OCCUPATIONS} & lists.gender_specific
