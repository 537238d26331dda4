"""The demo's gender-biased machine translation (Kaneko et al. 2022, Tables 4-5, MT)."""

import copy

import pytest

from mgbias.demo.machine_translation import masculine_forms, write_machine_translation
from mgbias.demo.pairs import crows_pairs_path, write_demo_pairs
from mgbias.pair_data import load_pairs, pair_sentences
from mgbias.pair_passes import score_pair_passes
from mgbias.pair_scoring import pair_measures


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("pairs")
    write_demo_pairs(out, ["de"], seed=3, n_pairs=400)
    return crows_pairs_path(out, "en")


def translate(demo_file, tmp_path, flip):
    path = tmp_path / f"mt_{flip}.csv"
    write_machine_translation(demo_file, path, "en", flip, seed=11)
    return path


def female_tokens(frame):
    forms = masculine_forms("en")
    return sum(token in forms for s in (*frame.sent_more, *frame.sent_less) for token in s.split())


def test_no_flip_rewrites_the_file_byte_for_byte(demo_file, tmp_path):
    assert translate(demo_file, tmp_path, 0.0).read_bytes() == demo_file.read_bytes()


def test_flips_are_nested_and_a_full_flip_leaves_no_female_word(demo_file, tmp_path):
    frames = {flip: load_pairs(str(translate(demo_file, tmp_path, flip))) for flip in (0, 0.5, 1)}
    original = frames[0]
    assert female_tokens(original) > 10
    changed = {}
    for flip in (0.5, 1):
        sentences = zip(original.sent_more, original.sent_less, frames[flip].sent_more,
                        frames[flip].sent_less, strict=True)  # fmt: skip
        changed[flip] = {i for i, (a, b, c, d) in enumerate(sentences) if (a, b) != (c, d)}
    assert changed[0.5] < changed[1]  # nested: every pair changed at 0.5 is changed at 1
    assert female_tokens(frames[1]) == 0
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


def test_other_languages_and_bad_flips_are_refused(demo_file, tmp_path):
    with pytest.raises(ValueError, match="English only"):
        write_machine_translation(demo_file, tmp_path / "x.csv", "de", 0.5, seed=1)
    with pytest.raises(ValueError, match=r"flip must be in \[0, 1\]"):
        write_machine_translation(demo_file, tmp_path / "x.csv", "en", 1.5, seed=1)
