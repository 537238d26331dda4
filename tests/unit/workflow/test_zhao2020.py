"""Planning of Zhao et al. (2020)'s static embeddings (mgbias.workflow.zhao2020)."""

from __future__ import annotations

import copy

import pytest

from mgbias.config import validate_config
from mgbias.workflow import zhao2020

BASE = {
    "languages": ["de", "es"],
    "worlds": ["real"],
    "corpora": {"TED2020": {"url": "https://example.org/{pair}.zip"}},
    "models": {"m": {"source": "org/m"}},
}


def configured(**section) -> dict:
    """A validated configuration (the schema's defaults filled in) with ``zhao2020``."""
    config = copy.deepcopy(BASE)
    config["zhao2020"] = {"languages": ["en", "de"], "vectors": {"train": {"dim": 5}}, **section}
    return validate_config(config)


def test_without_the_section_nothing_is_planned_and_settings_are_the_schemas():
    config = validate_config(copy.deepcopy(BASE))
    assert not zhao2020.configured(config)
    assert zhao2020.targets(config) == []
    assert zhao2020.alignments(config) == []
    assert zhao2020.languages(config) == []
    assert zhao2020.figure1_panels(config) == []
    # the rules' settings read the schema's defaults
    assert zhao2020.section(config)["threads"] == 1
    assert zhao2020.section(config)["rcsls"] == {}
    assert zhao2020.section(config)["bli"] == {
        "retrievals": ["csls", "nn"], "k": 10, "maxload": 200_000, "center": False,
        "device": "auto",
    }  # fmt: skip
    assert zhao2020.training(config) == {}


def test_grid_of_two_languages_with_endeb():
    config = configured()
    assert zhao2020.debiases(config)  # the schema's default, with en in the grid
    assert zhao2020.alignments(config) == [
        ("en", "de"),
        ("de", "en"),
        ("endeb", "de"),
        ("de", "endeb"),
    ]
    assert zhao2020.inbias_spaces(config)[-1] == ("endeb", "endeb")
    assert zhao2020.grid_keys(config, "bli") == [
        ["real", "en", "de"],
        ["real", "de", "en"],
        ["real", "endeb", "de"],
        ["real", "de", "endeb"],
    ]
    assert zhao2020.grid_keys(config, "inbias")[-1] == ["real", "endeb", "endeb"]
    assert zhao2020.original_keys(config) == [["real", "en"], ["real", "de"]]
    assert zhao2020.targets(config) == [
        "results/tables/zhao2020_inbias_original.csv",
        "results/tables/zhao2020_grid.csv",
        "results/tables/zhao2020_table1.csv",
        "results/tables/zhao2020_table2.csv",
        "results/tables/zhao2020_table12.csv",
        "results/tables/zhao2020_table3.csv",
        "results/tables/zhao2020_table4.csv",
        "results/tables/zhao2020_table13.csv",
    ]


def test_without_debias_or_english_there_is_no_endeb():
    assert not zhao2020.debiases(configured(debias=False))
    config = configured(languages=["de", "es"])
    assert not zhao2020.debiases(config)
    assert zhao2020.alignments(config) == [("de", "es"), ("es", "de")]
    assert "results/tables/zhao2020_table3.csv" not in zhao2020.targets(config)


def test_grid_languages_and_worlds_narrow_the_grid():
    config = configured(languages=["en", "de", "es"], grid_languages=["de", "es"])
    config["worlds"] = ["a", "b"]
    config["zhao2020"]["grid_worlds"] = ["b"]
    assert zhao2020.alignments(config) == [("de", "es"), ("es", "de")]
    assert zhao2020.grid_keys(config, "bli") == [["b", "de", "es"], ["b", "es", "de"]]
    assert zhao2020.original_keys(config) == [["b", "de"], ["b", "es"]]
    # only the grid's languages: no single language, no grid
    single = configured(grid_languages=["de"])
    assert zhao2020.alignments(single) == []
    assert zhao2020.targets(single) == ["results/tables/zhao2020_inbias_original.csv"]


def test_trained_and_downloaded_vectors():
    config = configured()
    assert zhao2020.vectors(config, "real", "de") == "models/vectors/real/de.vec"
    assert zhao2020.space(config, "real", "endeb") == "models/vectors/debiased/real/en.vec"
    assert zhao2020.training(config) == {"dim": 5}
    downloaded = configured(vectors={"url": "https://example.org/{filename}"})
    assert not zhao2020.downloads(config, "vectors") and zhao2020.downloads(downloaded, "vectors")
    assert zhao2020.vectors(downloaded, "real", "de") == "data/raw/zhao2020/vectors/wiki.de.vec"
    assert zhao2020.url(downloaded, "vectors", "wiki.de.vec") == "https://example.org/wiki.de.vec"


def test_dictionaries_and_mibs_of_the_demo_or_downloaded():
    config = configured()
    assert zhao2020.dictionary("endeb", "de", "train") == "en-de.0-5000.txt"
    assert zhao2020.dictionary("de", "en", "test") == "de-en.5000-6500.txt"
    assert zhao2020.dictionary_input(config, "en", "de", "test") == {
        "dictionaries": "data/demo/zhao2020/dictionaries"
    }
    assert zhao2020.mibs_input(config, "de") == {"mibs": "data/demo/zhao2020/mibs"}
    url = {"url": "https://example.org/{filename}"}
    downloaded = configured(dictionaries=url, mibs=url)
    assert zhao2020.dictionary_input(downloaded, "endeb", "de", "train") == {
        "dico_train": "data/raw/zhao2020/dictionaries/en-de.0-5000.txt"
    }
    assert set(zhao2020.mibs_input(downloaded, "de")) == {
        "male_occupations",
        "female_occupations",
        "seeds",
    }
    assert all(
        path.startswith("data/raw/zhao2020/mibs/")
        for path in zhao2020.mibs_input(downloaded, "de").values()
    )


def test_inbias_of_an_aligned_space_and_of_endeb():
    config = configured()
    assert zhao2020.inbias_space_input(config, "real", "de", "endeb") == {
        "vec": "models/vectors/aligned/real/de-endeb.vec",
        "original": "models/vectors/real/de.vec",
        "reference": "results/zhao2020/inbias/real/de.csv",
        "mibs": "data/demo/zhao2020/mibs",
    }
    endeb = zhao2020.inbias_space_input(config, "real", "endeb", "endeb")
    assert endeb["vec"] == "models/vectors/debiased/real/en.vec"
    assert endeb["original"] == "models/vectors/real/en.vec"


def test_inbias_settings_are_the_schemas_with_the_demo_n_strong():
    settings = zhao2020.inbias_settings(configured(inbias={"variant": "pairwise"}))
    assert settings["variant"] == "pairwise"
    assert settings["authors_split"] is False and settings["paired"] is False
    assert settings["n_strong"] > 0
    assert zhao2020.inbias_settings(configured(inbias={"n_strong": 137}))["n_strong"] == 137


@pytest.mark.parametrize(
    ("languages", "panels"),
    [
        (["en", "de"], []),  # no Spanish: no Figure 1
        (["en", "de", "es"], [["real", "es"], ["real", "es-en"], ["real", "es-de"]]),
    ],
)
def test_figure1_panels_need_its_languages(languages, panels):
    config = configured(languages=languages)
    assert zhao2020.figure1_panels(config) == panels
    assert ("results/figures/zhao2020_figure1.png" in zhao2020.targets(config)) == bool(panels)


def test_figure1_spaces_and_settings():
    config = configured(languages=["en", "de", "es"], figure1={"targets": ["en"], "n_pairs": 3})
    assert zhao2020.figure1(config) == {"lang": "es", "targets": ["en"], "pairs": [], "n_pairs": 3}
    assert zhao2020.figure1_spaces(config) == [
        "models/vectors/real/es.vec",
        "models/vectors/aligned/real/es-en.vec",
    ]
