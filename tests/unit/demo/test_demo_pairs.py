"""Demo gender pairs: real layouts the loaders read, gender swap only, same seed same bytes."""

from __future__ import annotations

import difflib
import re

import pytest

from mgbias.datasets import load_crowspairs, load_multilingual_crowspairs, load_stereoset
from mgbias.demo.lexicon import OCCUPATIONS, english_gendered_vocabulary
from mgbias.demo.pairs import (
    crows_pairs_path,
    demo_pairs,
    multilingual_crows_pairs_path,
    n_candidate_pairs,
    render_pair,
    stereoset_path,
    write_demo_pairs,
)
from mgbias.wordlists.genders import FEMALE, MALE

N_PAIRS = 40


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("pairs")
    paths = write_demo_pairs(out_dir, ["de", "es", "fr"], seed=5, n_pairs=N_PAIRS)
    return out_dir, paths


def test_files_written_per_language(written):
    out_dir, paths = written
    assert [path.name for path in paths] == [
        f"{stem}_{lang}.{ext}"
        for lang in ("en", "de", "es", "fr")
        for stem, ext in (
            ("crows_pairs", "csv"),
            ("stereoset", "json"),
            ("multilingual_crows_pairs", "csv"),
        )
    ]
    assert sorted(path.name for path in out_dir.iterdir()) == sorted(path.name for path in paths)


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr"])
def test_all_three_formats_load_and_agree(written, lang):
    out_dir, _ = written
    crows = load_crowspairs(crows_pairs_path(out_dir, lang))
    stereo = load_stereoset(stereoset_path(out_dir, lang))
    multi = load_multilingual_crowspairs(multilingual_crows_pairs_path(out_dir, lang))
    english = load_crowspairs(crows_pairs_path(out_dir, "en"))
    assert len(crows) == len(stereo) == len(multi) == N_PAIRS
    assert set(crows["bias_type"]) == set(stereo["bias_type"]) == {"gender"}
    assert list(stereo["sent_more"]) == list(crows["sent_more"])
    assert list(stereo["sent_less"]) == list(crows["sent_less"])
    assert list(multi["sent_more"]) == list(crows["sent_more"])
    assert list(multi["sent_less"]) == list(crows["sent_less"])
    assert list(multi["stereo_antistereo"]) == list(crows["stereo_antistereo"])
    assert list(multi["sent_more_en"]) == list(english["sent_more"])
    # ID refers to the row (unnamed index column) of the English CrowS-Pairs file.
    assert list(multi["pair_id"]) == list(english["source_row"])
    assert set(multi["language"]) == {lang}
    assert (crows["sent_more"] != crows["sent_less"]).all()
    # the occupation of each pair, the unit of the clustered significance tests
    occupations = [pair.occupation for pair in demo_pairs(5, N_PAIRS)]
    assert list(crows["target"]) == list(multi["target"]) == list(stereo["target"]) == occupations
    assert set(occupations) <= {occupation.en for occupation in OCCUPATIONS}


def test_direction_follows_the_occupation_stereotype():
    for pair in demo_pairs(seed=5, n_pairs=N_PAIRS):
        occupation = OCCUPATIONS[pair.more.slot_index]
        assert pair.occupation == occupation.en
        assert pair.more.gender == occupation.stereotype != pair.less.gender
        assert pair.stereo_antistereo == ("stereo" if pair.more.gender == FEMALE else "antistereo")
        assert pair.more._replace(gender=None, category=None) == pair.less._replace(
            gender=None, category=None
        )


def test_both_directions_occur():
    directions = {pair.stereo_antistereo for pair in demo_pairs(seed=5, n_pairs=N_PAIRS)}
    assert directions == {"stereo", "antistereo"}


def test_english_pairs_differ_only_in_gender_words(written):
    out_dir, _ = written
    vocabulary = english_gendered_vocabulary()
    gendered = vocabulary[MALE] | vocabulary[FEMALE]
    frame = load_crowspairs(crows_pairs_path(out_dir, "en"))
    for more, less in zip(frame["sent_more"], frame["sent_less"], strict=True):
        more_tokens, less_tokens = more.split(), less.split()
        matcher = difflib.SequenceMatcher(None, more_tokens, less_tokens)
        changed = [
            token
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"
            for token in more_tokens[i1:i2] + less_tokens[j1:j2]
        ]
        assert changed and set(changed) <= gendered, (more, less)


def test_pairs_are_distinct():
    english = [render_pair(pair, "en") for pair in demo_pairs(seed=5, n_pairs=200)]
    assert len(set(english)) == 200


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path, written):
    out_dir, paths = written
    again = write_demo_pairs(tmp_path / "again", ["de", "es", "fr"], seed=5, n_pairs=N_PAIRS)
    for first, second in zip(paths, again, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name
    other = write_demo_pairs(tmp_path / "other", ["de"], seed=6, n_pairs=N_PAIRS)
    assert other[0].read_bytes() != paths[0].read_bytes()


def test_a_language_does_not_depend_on_the_others(tmp_path, written):
    out_dir, _ = written
    alone = write_demo_pairs(tmp_path / "alone", ["fr"], seed=5, n_pairs=N_PAIRS)
    assert [path.name for path in alone][3:] == [
        "crows_pairs_fr.csv",
        "stereoset_fr.json",
        "multilingual_crows_pairs_fr.csv",
    ]
    for path in alone:
        assert path.read_bytes() == (out_dir / path.name).read_bytes()


def test_invalid_arguments(tmp_path):
    with pytest.raises(ValueError, match="unsupported demo language 'it'"):
        write_demo_pairs(tmp_path, ["it"], seed=0, n_pairs=5)
    with pytest.raises(ValueError, match="languages has duplicates"):
        write_demo_pairs(tmp_path, ["de", "de"], seed=0, n_pairs=5)
    with pytest.raises(ValueError, match="sequence of codes"):
        write_demo_pairs(tmp_path, "de", seed=0, n_pairs=5)
    with pytest.raises(ValueError, match="exceeds the .* distinct demo pairs"):
        demo_pairs(seed=0, n_pairs=n_candidate_pairs() + 1)
    with pytest.raises(ValueError, match="n_pairs must be an integer >= 1"):
        demo_pairs(seed=0, n_pairs=0)
    assert not any(tmp_path.iterdir())


def test_english_gender_marking_changes_only_the_english_sentences(tmp_path, written):
    """Marked pairs are the same draw: every language but English keeps its bytes, and
    each English sentence says its subject's gender again before the occupation."""
    out_dir, _ = written
    marked_dir = tmp_path / "marked"
    write_demo_pairs(
        marked_dir, ["de", "es", "fr"], seed=5, n_pairs=N_PAIRS, english_gender_marking=True
    )
    for lang in ("de", "es", "fr"):
        assert crows_pairs_path(marked_dir, lang).read_bytes() == (
            crows_pairs_path(out_dir, lang).read_bytes()
        )
    plain = load_crowspairs(crows_pairs_path(out_dir, "en"))
    marked = load_crowspairs(crows_pairs_path(marked_dir, "en"))
    for column in ("sent_more", "sent_less"):
        for before, after in zip(plain[column], marked[column], strict=True):
            words = after.split()
            adjective = next(word for word in words if word in ("male", "female"))
            subject = words[0] if words[0] in ("he", "she") else None
            if subject is not None:
                assert (subject == "he") == (adjective == "male"), after
            assert re.sub(r" an? ", f" a {adjective} ", before, count=1) == after, (before, after)
