"""Native first names in place of transliterated English ones (Kaneko et al. 2022, Table 6)."""

import copy
import re

import numpy as np
import pytest

from mgbias.demo.pairs import crows_pairs_path, write_demo_pairs
from mgbias.kaneko2022.native_names import (
    name_table,
    replace_names,
    replace_pair_names,
    shipped_name_specs,
    shipped_name_table,
    write_named_pairs,
)
from mgbias.kaneko2022.translations import translations_markdown, translations_table
from mgbias.pairs.data import load_pairs, pair_sentences
from mgbias.pairs.passes import score_pair_passes
from mgbias.pairs.scoring import pair_measures
from mgbias.wordlists.genders import FEMALE, MALE


@pytest.fixture(scope="module")
def demo_de(tmp_path_factory):
    """A demo German CrowS-Pairs file: English first names in German sentences."""
    out = tmp_path_factory.mktemp("pairs")
    write_demo_pairs(out, ["de"], seed=5, n_pairs=300)
    return crows_pairs_path(out, "de")


def native_pattern(table):
    forms = {form for names in table.native.values() for name in names for form in name}
    body = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    flags = re.IGNORECASE if table.ignore_case else 0
    return re.compile(rf"(?<![^\W_])(?:{body})(?![^\W_])", flags)


def native_gender(table, token):
    for gender, names in table.native.items():
        for forms in names:
            if any(form.lower() == token.lower() for form in forms):
                return gender
    raise AssertionError(f"{token!r} is no native name")


def test_every_shipped_language_loads_with_ten_native_names_per_gender():
    assert set(shipped_name_specs()) == {"ja", "ru", "de", "es", "fr"}
    for lang in shipped_name_specs():
        table = shipped_name_table(lang)
        assert {gender: len(names) for gender, names in table.native.items()} == {
            MALE: 10,
            FEMALE: 10,
        }
        # no native name is also a foreign one, so a replacement is never undone
        for names in table.native.values():
            for forms in names:
                key = [form.lower() if table.ignore_case else form for form in forms]
                assert not set(key) & set(table.foreign), (lang, forms)
    assert len(shipped_name_table("ru").cases) == 6


def test_only_name_tokens_change_and_genders_are_kept(demo_de):
    table = shipped_name_table("de")
    frame = load_pairs(str(demo_de))
    pairs = list(zip(frame.sent_more, frame.sent_less, strict=True))
    rewritten, changed, tokens = replace_names(pairs, table, seed=3)
    assert changed > 100 and tokens >= 2 * changed  # the demo's name subjects, both sides
    native = native_pattern(table)
    for before, after in zip(pairs, rewritten, strict=True):
        for old, new in zip(before, after, strict=True):
            # the same sentence once every name is blanked out: only names changed
            assert table.pattern.sub("<NAME>", old) == native.sub("<NAME>", new)
            old_names = [table.lookup(m.group(0)) for m in table.pattern.finditer(old)]
            new_names = [m.group(0) for m in native.finditer(new)]
            assert [name.gender for name in old_names] == [
                native_gender(table, token) for token in new_names
            ]
            assert all(token.islower() for token in new_names)  # the demo's case style


def test_a_name_keeps_its_native_name_across_the_pair_and_two_names_get_two():
    table = shipped_name_table("de")
    pair = ("john sagt james , dass mary kommt .", "john sagt mary , dass james kommt .")
    for seed in range(20):
        new, n = replace_pair_names(pair, table, np.random.default_rng(seed))
        assert n == 6
        first = new[0].split()
        second = new[1].split()
        assert first[0] == second[0]  # john → the same name in both sentences
        assert first[2] != first[0]  # james ≠ john, though both are male
        assert (first[2], first[5]) == (second[5], second[2])  # james and mary swap places


def test_same_seed_same_names_and_each_pair_has_its_own_stream(demo_de):
    table = shipped_name_table("de")
    frame = load_pairs(str(demo_de))
    pairs = list(zip(frame.sent_more, frame.sent_less, strict=True))
    first = replace_names(pairs, table, seed=8)
    assert replace_names(pairs, table, seed=8) == first
    assert replace_names(pairs, table, seed=9)[0] != first[0]
    # pair i's names do not depend on the pairs before it
    rng = np.random.default_rng([8, 5])
    assert replace_pair_names(pairs[5], table, rng)[0] == first[0][5]


def test_russian_names_take_the_case_of_the_form_they_replace():
    table = shipped_name_table("ru")
    pair = ("Бобу было трудно , а Сарой все гордились .", "Майкл позвонил Эрлу о том .")
    new, n = replace_pair_names(pair, table, np.random.default_rng(0))
    assert n == 4
    male = {forms[0]: forms for forms in table.native[MALE]}
    female = {forms[0]: forms for forms in table.native[FEMALE]}
    words = new[0].split() + new[1].split()
    dative = [w for w in (words[0], words[11]) if any(w == f[2] for f in male.values())]
    assert len(dative) == 2  # Бобу and Эрлу → dative forms
    assert any(words[5] == f[4] for f in female.values())  # Сарой → instrumental
    assert words[9] in male  # Майкл → nominative
    # lowercase "том" (a pronoun form) is no name: matching keeps the case
    assert new[1].endswith("о том .")


def test_katakana_names_match_whole_names_only():
    table = shipped_name_table("ja")
    pair = ("ジョージはジョーとジョンソン社に行った。", "メアリーはジョーとジョンソン社に行った。")
    new, n = replace_pair_names(pair, table, np.random.default_rng(1))
    assert n == 4  # ジョージ, ジョー (twice), メアリー; not ジョン in ジョンソン
    assert "ジョンソン社" in new[0] and "ジョンソン社" in new[1]
    assert not any(form in "".join(new) for form in ("ジョージ", "メアリー"))


def test_the_authors_japanese_file_has_no_transliterated_names_left():
    """The released Japanese translations use native names already (see the YAML's
    comment); two of their sentences, verbatim, are left as they are."""
    table = shipped_name_table("ja")
    pair = ("さくらはお金を貯めるのが苦手だった。", "翔はそのお金をたくさん使った。")
    assert replace_pair_names(pair, table, np.random.default_rng(0)) == (pair, 0)


def test_a_file_without_names_gives_diff_zero(demo_de, tmp_path, tiny_bert):
    table = shipped_name_table("de")
    frame = load_pairs(str(demo_de))
    keep = [
        i
        for i, pair in enumerate(zip(frame.sent_more, frame.sent_less, strict=True))
        if not any(table.pattern.search(sentence) for sentence in pair)
    ]
    assert len(keep) >= 10
    nameless = frame.iloc[keep].reset_index(drop=True)
    ht = tmp_path / "ht.csv"
    pairs = list(zip(nameless.sent_more, nameless.sent_less, strict=True))
    write_named_pairs(nameless, pairs, str(ht))
    rewritten, changed, tokens = replace_names(pairs, table, seed=1)
    assert (changed, tokens) == (0, 0)
    named = tmp_path / "named.csv"
    write_named_pairs(nameless, rewritten, str(named))
    assert named.read_bytes() == ht.read_bytes()
    model = copy.deepcopy(tiny_bert[0])
    model.config._attn_implementation = "eager"
    records = []
    for method, path in (("HT", ht), ("HT_name", named)):
        unmasked, masked = score_pair_passes(
            model, tiny_bert[1], pair_sentences(load_pairs(str(path))), progress=False
        )
        row = pair_measures(unmasked, masked, ["aula"]).set_index("measure").loc["aula"]
        records.append(
            {
                "lang": "de",
                "model": "tiny",
                "method": method,
                "dataset": path.stem,
                "score": row["score"],
                "p_value": row["p_value"],
                "significant": bool(row["significant"]),
                "n": int(row["n"]),
                "n_ties": int(row["n_ties"]),
            }
        )
    table6 = translations_table(records).set_index("method")
    assert table6.loc["HT_name", "diff"] == 0.0
    text = translations_markdown(translations_table(records))
    assert "Native names (Kaneko et al. 2022, Table 6)" in text
    assert re.search(r"\| de +\| tiny +\| +[0-9.]+ +\| +[0-9]+ \| +0\.00 \|", text)


def test_the_rewritten_file_keeps_order_directions_and_bias_types(demo_de, tmp_path):
    frame = load_pairs(str(demo_de))
    pairs = list(zip(frame.sent_more, frame.sent_less, strict=True))
    rewritten, _, _ = replace_names(pairs, shipped_name_table("de"), seed=2)
    out = tmp_path / "names.csv"
    write_named_pairs(frame, rewritten, str(out))
    again = load_pairs(str(out))
    assert list(zip(again.sent_more, again.sent_less, strict=True)) == rewritten
    assert list(again.stereo_antistereo) == list(frame.stereo_antistereo)
    assert list(again.target) == list(frame.target)  # what the pairs are clustered by
    with pytest.raises(ValueError, match="2 rewritten pairs for 300 pairs"):
        write_named_pairs(frame, rewritten[:2], str(tmp_path / "bad.csv"))


def test_bad_specs_are_refused_with_the_key():
    base = {
        "native": {MALE: ["Ben"], FEMALE: ["Mia"]},
        "foreign": {MALE: ["John"], FEMALE: ["Mary"]},
    }
    assert name_table("xx", base).foreign["John"].gender == MALE
    with pytest.raises(ValueError, match=r"native.female is missing"):
        name_table("xx", {**base, "native": {MALE: ["Ben"]}})
    with pytest.raises(ValueError, match=r"boundary 'space'"):
        name_table("xx", {**base, "boundary": "space"})
    with pytest.raises(ValueError, match=r"'Jo' is listed for 'Jo' \(male\) and 'Jo' \(female\)"):
        name_table("xx", {**base, "foreign": {MALE: ["Jo"], FEMALE: ["Jo"]}})
    with pytest.raises(ValueError, match=r"list of 2 case forms"):
        name_table(
            "xx", {**base, "cases": ["nom", "gen"], "native": {MALE: [["Ben"]], FEMALE: ["Mia"]}}
        )
    with pytest.raises(ValueError, match=r"no native names for 'xx'"):
        shipped_name_table("xx")
