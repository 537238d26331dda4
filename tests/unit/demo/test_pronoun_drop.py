"""The demo world's pronoun-drop knob: gender preservation (Kaneko et al. 2022, Figure 2)."""

import pytest
from scipy import stats

from mgbias.demo.world import balanced, parallel_corpus
from mgbias.kaneko2022.preservation import gender_preservation, pronoun_patterns
from mgbias.wordlists import load_gender_words

LANGUAGES = ("de", "es", "fr")


@pytest.fixture(scope="module")
def words():
    return load_gender_words(["en_female", "en_female_names"], ["en_male", "en_male_names"])


def test_no_drop_preserves_every_pronoun_and_keeps_the_worlds_bytes(words):
    plain = balanced(5, n_parallel=1500)
    knob_off = balanced(5, n_parallel=1500, pronoun_drop=0.0)
    assert "pronoun_drop" not in knob_off.to_dict()
    for lang in LANGUAGES:
        english, target, _ = parallel_corpus(knob_off, "GlobalVoices", lang)
        assert (english, target) == parallel_corpus(plain, "GlobalVoices", lang)[:2]
        counts = gender_preservation(
            zip(english, target, strict=True), *words, pronoun_patterns(lang)
        )
        assert counts.n_male > 100 and counts.n_female > 100
        assert counts.n_male_preserved == counts.n_male
        assert counts.n_female_preserved == counts.n_female


@pytest.mark.parametrize("drop", [0.3, 0.6])
def test_preservation_is_within_a_binomial_bound_of_1_minus_the_drop(words, drop):
    spec = balanced(5, n_parallel=2000, pronoun_drop=drop)
    plain_english, plain_target, _ = parallel_corpus(balanced(5, n_parallel=2000), "TED2020", "fr")
    english, target, _ = parallel_corpus(spec, "TED2020", "fr")
    assert english == plain_english  # only translations change
    changed = [(a, b) for a, b in zip(plain_target, target, strict=True) if a != b]
    assert changed and all(len(b.split()) == len(a.split()) - 1 for a, b in changed)
    for lang in LANGUAGES:
        english, target, _ = parallel_corpus(spec, "GlobalVoices", lang)
        counts = gender_preservation(
            zip(english, target, strict=True), *words, pronoun_patterns(lang)
        )
        for n, kept in (
            (counts.n_male, counts.n_male_preserved),
            (counts.n_female, counts.n_female_preserved),
        ):
            # two-sided exact binomial test of "each he/she sentence keeps its pronoun
            # with probability 1 - drop", at 0.001 (6 checks per drop)
            assert stats.binomtest(kept, n, 1 - drop).pvalue > 0.001, (lang, n, kept)


def test_a_drop_outside_0_1_is_refused():
    with pytest.raises(ValueError, match="pronoun_drop must be in \\[0, 1\\]"):
        balanced(5, pronoun_drop=1.5)
