"""`mgbias.workflow.runlog.wildcard_fields`: a job's wildcards as the plain dict of its records."""

from __future__ import annotations

import json

import pytest
from snakemake.iocontainers import Wildcards

from mgbias.files.atomic import write_json
from mgbias.workflow.runlog import wildcard_fields


def wildcards(**values: str) -> Wildcards:
    """The object Snakemake hands a script as ``snakemake.wildcards``."""
    return Wildcards(fromdict=values)


JOB = {"model": "bert", "dataset": "crows", "variant": "perturbed", "lang": "en"}


def test_all_wildcards_in_the_rules_order_as_a_plain_dict():
    fields = wildcard_fields(wildcards(**JOB))
    assert type(fields) is dict
    assert fields == {"model": "bert", "dataset": "crows", "variant": "perturbed", "lang": "en"}
    assert list(fields) == ["model", "dataset", "variant", "lang"]


def test_named_wildcards_in_the_order_given():
    job = wildcards(**JOB)
    fields = wildcard_fields(job, "lang", "model", "dataset")
    assert list(fields.items()) == [("lang", "en"), ("model", "bert"), ("dataset", "crows")]
    # the same values as the attribute access the scripts used before
    assert fields == {"lang": job.lang, "model": job.model, "dataset": job.dataset}


def test_a_job_without_wildcards_gives_an_empty_dict():
    assert wildcard_fields(Wildcards()) == {}


def test_a_plain_mapping_works_too():
    assert wildcard_fields({"world": "w1", "r": "0.5"}, "r") == {"r": "0.5"}


def test_the_result_is_a_new_dict():
    job = {"model": "bert"}
    fields = wildcard_fields(job)
    fields["model"] = "roberta"
    assert job == {"model": "bert"}


def test_a_missing_wildcard_is_named_with_those_the_job_has():
    expected = r"no wildcard\(s\) \['variant'\]; it has \['model', 'lang'\]"
    with pytest.raises(KeyError, match=expected):
        wildcard_fields(wildcards(model="bert", lang="en"), "model", "variant")


def test_a_name_given_twice_is_rejected():
    with pytest.raises(ValueError, match=r"\['lang'\] given more than once"):
        wildcard_fields(wildcards(**JOB), "lang", "model", "lang")


def test_stamped_record_has_the_bytes_of_the_old_spellings(tmp_path):
    """The two spellings the scripts used, ``{**dict(wildcards.items()), ...}`` and
    ``{"model": wildcards.model, ...}``, and the helper write the same file."""
    job = wildcards(**JOB)
    counts = {"n_male": 3, "n_female": 2, "lang": "overridden"}
    old_all = {**dict(job.items()), **counts}
    old_named = {"model": job.model, "dataset": job.dataset, "lang": job.lang, "n": 1}
    new_all = {**wildcard_fields(job), **counts}
    new_named = {**wildcard_fields(job, "model", "dataset", "lang"), "n": 1}
    for old, new in [(old_all, new_all), (old_named, new_named)]:
        assert list(new.items()) == list(old.items())
        write_json(tmp_path / "old.json", old)
        write_json(tmp_path / "new.json", new)
        assert (tmp_path / "new.json").read_bytes() == (tmp_path / "old.json").read_bytes()
    assert json.loads((tmp_path / "new.json").read_text())["model"] == "bert"
    assert new_all["lang"] == "overridden"
