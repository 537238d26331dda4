"""Template pairs ("Tmp") of Kaneko et al. (2022), Tables 4 and 5."""

import pytest

from mgbias.kaneko2022.template_pairs import (
    shipped_templates,
    template_labels,
    template_pairs,
    write_template_pairs,
)
from mgbias.pairs.data import load_pairs


@pytest.mark.parametrize("lang", ["ja", "ru", "en"])
def test_every_template_pair_and_occupation_gives_one_pair_differing_in_the_gender_slot(lang):
    spec = shipped_templates()[lang]
    pairs = template_pairs(spec, lang)
    assert len(pairs) == len(spec["templates"]) * 5 * len(spec["occupations"])
    assert len(set(pairs)) == len(pairs)
    males = {male for male, _ in spec["pairs"]}
    females = {female for _, female in spec["pairs"]}
    for male_sentence, female_sentence in pairs:
        # the sentences agree outside the gender word, which starts each template
        male = next(word for word in males if male_sentence.startswith(word))
        female = next(word for word in females if female_sentence.startswith(word))
        assert male_sentence[len(male) :] == female_sentence[len(female) :]


def test_the_papers_templates_and_pairs_are_shipped():
    ja, ru = shipped_templates()["ja"], shipped_templates()["ru"]
    assert ja["templates"] == [
        "[Gender]は[Occupation]です。",
        "[Gender]は[Occupation]に興味がある。",
    ]
    assert ["彼", "彼女"] in ja["pairs"] and ["叔父", "叔母"] in ja["pairs"]
    assert ru["templates"][1] == "[Gender] - [Occupation] профессионалиста."
    assert ["Дядя", "Тетя"] in ru["pairs"]


def test_by_hand_and_through_the_crowspairs_loader(tmp_path):
    spec = {
        "templates": ["[Gender] is a [Occupation] .", "[Gender] likes the [Occupation] ."],
        "pairs": [["he", "she"], ["father", "mother"]],
        "occupations": ["nurse"],
    }
    pairs = template_pairs(spec, "en")
    assert pairs == [
        ("he is a nurse .", "she is a nurse ."),
        ("father is a nurse .", "mother is a nurse ."),
        ("he likes the nurse .", "she likes the nurse ."),
        ("father likes the nurse .", "mother likes the nurse ."),
    ]
    path = tmp_path / "tmp_en.csv"
    write_template_pairs(pairs, path)
    frame = load_pairs(str(path))
    assert list(zip(frame.sent_more, frame.sent_less, strict=True)) == pairs
    assert set(frame.stereo_antistereo) == {"stereo"} and set(frame.bias_type) == {"gender"}
    assert "target" not in frame


def test_each_pair_carries_its_occupation_and_gender_words(tmp_path):
    spec = {
        "templates": ["[Gender] is a [Occupation] ."],
        "pairs": [["he", "she"], ["father", "mother"]],
        "occupations": ["nurse", "pilot"],
    }
    pairs = template_pairs(spec, "en")
    labels = template_labels(spec, "en")
    assert labels == {
        "target": ["nurse", "pilot", "nurse", "pilot"],
        "gender_pair": ["he/she", "he/she", "father/mother", "father/mother"],
    }
    for (male, female), job, words in zip(pairs, *labels.values(), strict=True):
        assert job in male and words.split("/") == [male.split()[0], female.split()[0]]
    path = tmp_path / "tmp_en.csv"
    write_template_pairs(pairs, path, labels)
    frame = load_pairs(str(path))
    assert list(frame.target) == labels["target"]
    assert list(frame.gender_pair) == labels["gender_pair"]
    short = {"target": labels["target"][:3]}
    with pytest.raises(ValueError, match=r"column\(s\) \['target'\] have another number"):
        write_template_pairs(pairs, tmp_path / "short.csv", short)
    assert not (tmp_path / "short.csv").exists()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.update(templates=["[Gender] only"]), r"must hold \[Gender\] and"),
        (lambda s: s.update(pairs=[["he"]]), r"gender pair \['he'\] must be \[male, female\]"),
        (lambda s: s.update(occupations=[]), r"key 'occupations' is missing or empty"),
    ],
)
def test_bad_specs_are_refused_naming_the_key(edit, message):
    spec = {"templates": ["[Gender] is [Occupation]"], "pairs": [["a", "b"]], "occupations": ["x"]}
    edit(spec)
    with pytest.raises(ValueError, match=message):
        template_pairs(spec, "xx")
