"""The demo's gender-biased machine translation (Kaneko et al. 2022, Tables 4-5, MT)."""

import copy

import pytest

from mgbias.demo.machine_translation import write_machine_translation
from mgbias.demo.pairs import crows_pairs_path, write_demo_pairs
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.pairs.passes import score_pair_passes
from mgbias.pairs.scoring import pair_measures


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("pairs")
    write_demo_pairs(out, ["de"], seed=3, n_pairs=400)
    return crows_pairs_path(out, "en")


def translate(demo_file, tmp_path, flip, lang="en"):
    path = tmp_path / f"mt_{lang}_{flip}.csv"
    write_machine_translation(str(demo_file).replace("_en.", f"_{lang}."), path, lang, flip, 11)
    return path


def female_sentences(frame):
    """Pairs whose female sentence differs from the male one (every demo pair, unflipped)."""
    return sum(more != less for more, less in zip(frame.sent_more, frame.sent_less, strict=True))


def test_no_flip_rewrites_the_file_byte_for_byte(demo_file, tmp_path):
    assert translate(demo_file, tmp_path, 0.0).read_bytes() == demo_file.read_bytes()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_flips_are_nested_and_a_full_flip_leaves_no_female_sentence(demo_file, tmp_path, lang):
    frames = {
        flip: load_pairs(str(translate(demo_file, tmp_path, flip, lang))) for flip in (0, 0.5, 1)
    }
    original = frames[0]
    assert female_sentences(original) == len(original) == 400
    changed = {}
    for flip in (0.5, 1):
        sentences = zip(original.sent_more, original.sent_less, frames[flip].sent_more,
                        frames[flip].sent_less, strict=True)  # fmt: skip
        changed[flip] = {i for i, (a, b, c, d) in enumerate(sentences) if (a, b) != (c, d)}
    assert changed[0.5] < changed[1]  # nested: every pair changed at 0.5 is changed at 1
    assert female_sentences(frames[1]) == 0
    # only female sentences change: the male sentence of every pair is kept
    male = ["sent_less" if d == "stereo" else "sent_more" for d in original.stereo_antistereo]
    for flip in (0.5, 1):
        kept = [frames[flip].iloc[i][c] == original.iloc[i][c] for i, c in enumerate(male)]
        assert all(kept)
    assert 0.35 < len(changed[0.5]) / len(original) < 0.65
    assert list(frames[1].stereo_antistereo) == list(original.stereo_antistereo)


def test_eq3_falls_as_the_flip_grows_so_mts_diff_to_ht_grows(demo_file, tmp_path, tiny_bert):
    model = copy.deepcopy(tiny_bert[0])
    model.config._attn_implementation = "eager"
    scores = {}
    for flip in (0.0, 0.5, 1.0):
        pairs = pair_sentences(load_pairs(str(translate(demo_file, tmp_path, flip))))
        unmasked, masked = score_pair_passes(model, tiny_bert[1], pairs, progress=False)
        table = pair_measures(unmasked, masked, ["aula"]).set_index("measure")
        scores[flip] = table.loc["aula", "score"]
    # a flipped pronoun or person-noun pair becomes a tie, which Eq. 3 does not count as
    # a win; flips are nested, so the score can only fall and |Diff| = HT - MT only grow
    assert scores[0.0] >= scores[0.5] >= scores[1.0]
    assert scores[1.0] < scores[0.0]


def test_unknown_languages_directions_and_bad_flips_are_refused(demo_file, tmp_path):
    with pytest.raises(ValueError, match="no demo language 'ja'"):
        write_machine_translation(demo_file, tmp_path / "x.csv", "ja", 0.5, seed=1)
    bad = tmp_path / "bad.csv"
    bad.write_text(demo_file.read_text().replace(",stereo,", ",both,", 1))
    with pytest.raises(ValueError, match="stereo_antistereo is 'both'"):
        write_machine_translation(bad, tmp_path / "x.csv", "en", 0.5, seed=1)
    with pytest.raises(ValueError, match=r"flip must be in \[0, 1\]"):
        write_machine_translation(demo_file, tmp_path / "x.csv", "en", 1.5, seed=1)
