"""Configuration validation: defaults, and errors that name the key."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mgbias.config import ConfigError, load_config, load_schema, schema_path, validate_config

REPO = Path(__file__).resolve().parents[2]
SCHEMA = schema_path()


@pytest.fixture()
def demo_config() -> dict:
    """The full demo's configuration, which sets every section."""
    with open(REPO / "config" / "demo-full.yaml", encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.mark.parametrize(
    "name",
    [
        *("config/config.yaml", "config/paper.yaml"),
        *("config/demo-full.yaml", "tests/configs/tiny.yaml"),
    ],
)
def test_shipped_configs_are_valid(name):
    config = load_config(REPO / name, SCHEMA)
    assert config["languages"]
    assert config["mbe"]["weighting"] in {"cosine", "dot"}


def test_a_schema_is_read_once_and_each_caller_gets_its_own_copy(tmp_path):
    first = load_schema()
    first["properties"].clear()  # a caller changing its copy changes no other
    assert "languages" in load_schema()["properties"]
    path = tmp_path / "schema.yaml"
    path.write_text("type: object\n", encoding="utf-8")
    assert load_schema(path) == {"type": "object"}
    path.write_text("type: object\nrequired: [seed]\n", encoding="utf-8")  # edited
    assert load_schema(path) == {"type": "object", "required": ["seed"]}
    path.unlink()
    with pytest.raises(ConfigError, match="schema.yaml"):
        load_schema(path)


def test_paper_config_weights_mbe_as_the_published_code_and_the_demo_as_eq2():
    # the authors' code's dot products most likely produced Table 2 (Kaneko et al. 2022)
    assert load_config(REPO / "config/paper.yaml", SCHEMA)["mbe"]["weighting"] == "dot"
    assert load_config(REPO / "config/config.yaml", SCHEMA)["mbe"]["weighting"] == "cosine"


def test_defaults_are_filled(demo_config):
    del demo_config["mbe"]
    del demo_config["seed"]
    config = validate_config(demo_config, SCHEMA)
    assert config["seed"] == 12345
    assert config["mbe"] == {
        "weighting": "cosine",
        "chunk_size": 2048,
        "test": "permutation",
        "permutations": 999,
        "alpha": 0.05,
        "cluster": "gender_words",
    }
    assert config["scoring"]["batch_size"] == 64
    assert config["scoring"]["precision"] == "fp32"  # the papers' numbers


def test_fp16_on_a_cpu_device_is_refused_with_its_key(demo_config):
    demo_config["scoring"].update(precision="fp16", device="cpu")
    with pytest.raises(ConfigError, match=r"key 'scoring.precision': fp16 needs a CUDA device, "
                       r"but scoring.device is cpu"):  # fmt: skip
        validate_config(demo_config, SCHEMA)
    demo_config["scoring"]["device"] = "auto"  # CUDA where the jobs find it; checked there
    validate_config(demo_config, SCHEMA)
    demo_config["scoring"]["precision"] = "fp8"
    with pytest.raises(ConfigError, match=r"key 'scoring.precision': expected one of"):
        validate_config(demo_config, SCHEMA)
    demo_config["scoring"]["precision"] = "bf16"
    demo_config["basta2020"]["vectors"] = {"precision": "fp16", "device": "cpu"}
    with pytest.raises(ConfigError, match=r"key 'basta2020.vectors.precision': fp16 needs"):
        validate_config(demo_config, SCHEMA)


def test_models_scored_together_are_configured_and_scored_on_the_same_data(demo_config):
    demo_config["scoring"]["together"] = ["demo-planted", "demo-balanced"]
    validate_config(copy.deepcopy(demo_config), SCHEMA)
    demo_config["scoring"]["together"] = ["demo-planted", "nowhere"]
    with pytest.raises(ConfigError, match=r"key 'scoring.together.1': 'nowhere' is not a model"):
        validate_config(copy.deepcopy(demo_config), SCHEMA)
    # a probe model scores neither pairs nor mined sentences: not the demo models' data
    demo_config["scoring"]["together"] = ["demo-planted", "probe-planted-en"]
    with pytest.raises(
        ConfigError,
        match=r"key 'scoring.together': 'demo-planted' and 'probe-planted-en' are not scored "
        r"on the same sentence sets \(differing: balanced/GlobalVoices/de, "
        r"balanced/GlobalVoices/es, balanced/GlobalVoices/fr and 9 more\)",
    ):
        validate_config(copy.deepcopy(demo_config), SCHEMA)
    # one language fewer for one of them: its pair files differ too
    demo_config["scoring"]["together"] = ["demo-planted", "demo-balanced"]
    demo_config["models"]["demo-balanced"]["languages"] = ["de"]
    with pytest.raises(ConfigError) as raised:
        validate_config(copy.deepcopy(demo_config), SCHEMA)
    messages = [str(error) for error in raised.value.errors]
    assert any("same sentence sets" in message for message in messages), messages
    assert any("same pair files" in message for message in messages), messages


def test_demo_settings_downstream_of_the_worlds_have_defaults(demo_config):
    for key in ("mt_flip", "n_pairs", "english_pair_marking"):
        del demo_config["demo"][key]
    demo = validate_config(demo_config, SCHEMA)["demo"]
    assert demo["mt_flip"] == 0.0 and demo["n_pairs"] == 200
    assert demo["english_pair_marking"] is False
    demo_config["demo"]["mt_flip"] = 1.5
    with pytest.raises(ConfigError, match="demo.mt_flip"):
        validate_config(demo_config, SCHEMA)


def test_unknown_top_level_key_is_named(demo_config):
    demo_config["langauges"] = ["de"]
    with pytest.raises(ConfigError, match=r"unknown key 'langauges' at the top level"):
        validate_config(demo_config, SCHEMA)


def test_unknown_nested_key_is_named(demo_config):
    demo_config["mbe"]["weigting"] = "dot"
    with pytest.raises(ConfigError, match=r"unknown key 'weigting' under 'mbe'.*weighting"):
        validate_config(demo_config, SCHEMA)


def test_wrong_type_is_named(demo_config):
    demo_config["mlm_training"]["steps"] = "many"
    with pytest.raises(ConfigError, match=r"key 'mlm_training.steps': expected integer, got str"):
        validate_config(demo_config, SCHEMA)


def test_fine_tuning_switches_are_booleans_without_filled_defaults(demo_config):
    finetune = demo_config["kaneko2023"]["finetune"]
    validate_config(demo_config, SCHEMA)
    # FineTuneConfig holds the defaults: a key filled into every run's settings would
    # change the fine-tuning jobs' params and rerun them
    assert not {"deterministic", "group_by_length", "compile"} & set(finetune)
    finetune["deterministic"] = "yes"
    expected = r"key 'kaneko2023.finetune.deterministic': expected boolean, got str"
    with pytest.raises(ConfigError, match=expected):
        validate_config(demo_config, SCHEMA)


def test_wrong_enum_is_named(demo_config):
    demo_config["mbe"]["weighting"] = "cos"
    with pytest.raises(ConfigError, match=r"key 'mbe.weighting': expected one of \['cosine'"):
        validate_config(demo_config, SCHEMA)


def test_mbe_test_and_permutations_are_checked(demo_config):
    demo_config["mbe"]["test"] = "mcnemar_unit"
    with pytest.raises(ConfigError, match=r"key 'mbe.test': expected one of \['permutation'"):
        validate_config(demo_config, SCHEMA)
    demo_config["mbe"]["test"] = "permutation"
    demo_config["mbe"]["permutations"] = 0
    with pytest.raises(ConfigError, match=r"key 'mbe.permutations'"):
        validate_config(demo_config, SCHEMA)
    # 1 / (19 + 1) = 0.05 is not below alpha = 0.05: the test could never reject.
    demo_config["mbe"]["permutations"] = 19
    with pytest.raises(ConfigError, match=r"'mbe.permutations': 19 .*expected at least 20"):
        validate_config(demo_config, SCHEMA)
    demo_config["mbe"]["permutations"] = 20
    validate_config(demo_config, SCHEMA)
    demo_config["mbe"].update(test="mcnemar_sentence", permutations=19)  # McNemar ignores it
    validate_config(demo_config, SCHEMA)


def test_unknown_language_code_is_named(demo_config):
    demo_config["languages"] = ["de", "xx"]
    with pytest.raises(ConfigError, match=r"key 'languages.1': unknown language code 'xx'"):
        validate_config(demo_config, SCHEMA)


def test_pivot_is_not_a_target(demo_config):
    demo_config["languages"] = ["en"]
    with pytest.raises(ConfigError, match="pivot"):
        validate_config(demo_config, SCHEMA)


def test_model_needs_source_or_train(demo_config):
    demo_config["models"]["bad"] = {"languages": ["de"]}
    with pytest.raises(ConfigError, match=r"key 'models.bad': expected exactly one of"):
        validate_config(demo_config, SCHEMA)


def test_allow_untrained_head_defaults_to_false_and_must_be_a_boolean(demo_config):
    demo_config["models"]["bert"] = {"source": "bert-base-cased", "allow_untrained_head": True}
    config = validate_config(copy.deepcopy(demo_config), SCHEMA)
    assert config["models"]["bert"]["allow_untrained_head"] is True
    assert config["models"]["demo-planted"]["allow_untrained_head"] is False
    demo_config["models"]["bert"]["allow_untrained_head"] = "yes"
    with pytest.raises(
        ConfigError, match=r"key 'models.bert.allow_untrained_head': expected boolean, got str"
    ):
        validate_config(demo_config, SCHEMA)


def test_model_world_must_exist(demo_config):
    demo_config["models"]["demo-planted"]["train"]["world"] = "elsewhere"
    with pytest.raises(ConfigError, match=r"models.demo-planted.train.world.*'elsewhere'"):
        validate_config(demo_config, SCHEMA)


def test_a_further_demo_world_is_known_to_models_and_probes_but_not_to_every_stage(
    demo_config,
):
    config = validate_config(copy.deepcopy(demo_config), SCHEMA)
    assert config["worlds"] == ["planted", "balanced"]
    assert config["models"]["probe-planted-en"]["train"]["world"] == "planted_probe"
    # a further world gets no defaults: its settings are all given
    del demo_config["demo"]["planted_probe"]["occupation_bias"]
    with pytest.raises(ConfigError, match=r"demo.planted_probe.*occupation_bias"):
        validate_config(copy.deepcopy(demo_config), SCHEMA)
    del demo_config["demo"]["planted_probe"]
    with pytest.raises(ConfigError, match=r"models.probe-planted-en.train.world.*planted_probe"):
        validate_config(copy.deepcopy(demo_config), SCHEMA)
    minimal = {
        "languages": ["de"],
        "worlds": ["planted", "nowhere"],
        "corpora": {"TED2020": {"url": "file://x/{pair}.zip"}},
        "models": {"m": {"source": "bert-base-cased"}},
        "demo": {},
    }
    with pytest.raises(ConfigError, match=r"key 'worlds'.*\['nowhere'\]"):
        validate_config(minimal, SCHEMA)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"languages": ["en", "xx"]}, r"models.probe-planted-en.train.languages.*xx"),
        ({"languages": ["it"]}, r"models.probe-planted-en.train.languages.*\['it'\] not among"),
        ({"steps": 0}, r"models.probe-planted-en.train.steps"),
        ({"hidden": 8}, r"unknown key 'hidden' under 'models.probe-planted-en.train'"),
    ],
)
def test_a_model_s_own_training_keys_are_checked(demo_config, change, message):
    demo_config["models"]["probe-planted-en"]["train"].update(change)
    with pytest.raises(ConfigError, match=message):
        validate_config(demo_config, SCHEMA)


def test_validation_does_not_need_a_copy(demo_config):
    original = copy.deepcopy(demo_config)
    validate_config(demo_config, SCHEMA)
    assert demo_config["languages"] == original["languages"]


def test_workflow_stops_before_any_job_on_bad_config(tmp_path, demo_config):
    demo_config["languages"] = ["de", "qq"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(demo_config), encoding="utf-8")
    snakemake = Path(sys.executable).with_name("snakemake")
    result = subprocess.run(
        [
            str(snakemake),
            "-n",
            "-s",
            str(REPO / "Snakefile"),
            "--directory",
            str(tmp_path),
            "--configfile",
            str(bad),
            "--cores",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "key 'languages.1': unknown language code 'qq'" in result.stdout + result.stderr
    assert not (tmp_path / "data").exists()


def test_pair_dataset_defaults_are_filled(demo_config):
    config = validate_config(demo_config, SCHEMA)
    assert config["pair_measures"] == ["aul", "aula", "cps", "sss", "sjsd", "bsjsd"]
    assert config["pair_datasets"]["stereoset"]["bias_type"] == "gender"
    assert config["pair_datasets"]["stereoset"]["perturb"] is False
    assert config["models"]["demo-planted"]["mbe"] is True


def test_pair_dataset_model_must_exist(demo_config):
    demo_config["pair_datasets"]["stereoset"]["models"] = ["demo-planted", "xlmr"]
    with pytest.raises(ConfigError, match=r"pair_datasets.stereoset.models': \['xlmr'\]"):
        validate_config(demo_config, SCHEMA)


def test_pair_dataset_language_code_is_checked(demo_config):
    demo_config["pair_datasets"]["stereoset"]["languages"] = ["en", "xx"]
    with pytest.raises(ConfigError, match=r"pair_datasets.stereoset.languages.1'.*'xx'"):
        validate_config(demo_config, SCHEMA)


def test_one_file_for_several_languages_is_an_error(demo_config):
    demo_config["pair_datasets"]["stereoset"]["url"] = "https://example.org/dev.json"
    with pytest.raises(ConfigError, match=r"pair_datasets.stereoset.url'.*\{lang\}"):
        validate_config(demo_config, SCHEMA)
    demo_config["pair_datasets"]["stereoset"]["languages"] = ["en"]
    validate_config(demo_config, SCHEMA)


def test_paper_tables_name_configured_datasets(demo_config):
    demo_config["pair_tables"]["steinborn_table2"] = "wino"
    with pytest.raises(ConfigError, match=r"pair_tables.steinborn_table2': 'wino'"):
        validate_config(demo_config, SCHEMA)


def test_table3_needs_a_perturbed_dataset(demo_config):
    demo_config["pair_datasets"]["crows_pairs"]["perturb"] = False
    with pytest.raises(ConfigError, match=r"pair_datasets.crows_pairs.perturb': must be true"):
        validate_config(demo_config, SCHEMA)


def test_unknown_pair_measure_is_named(demo_config):
    demo_config["pair_measures"] = ["cps", "seat"]
    with pytest.raises(ConfigError, match=r"pair_measures"):
        validate_config(demo_config, SCHEMA)


def test_zhao2020_languages_need_monolingual_text_and_settings_are_checked(demo_config):
    config = copy.deepcopy(demo_config)
    config["zhao2020"]["languages"] = ["en", "it"]
    with pytest.raises(ConfigError, match=r"zhao2020.languages': \['it'\] have no monolingual"):
        validate_config(config)
    config = copy.deepcopy(demo_config)
    config["zhao2020"]["inbias"] = {"variant": "summed"}
    with pytest.raises(ConfigError, match=r"zhao2020"):
        validate_config(config)
    config = copy.deepcopy(demo_config)
    del config["zhao2020"]["vectors"]
    with pytest.raises(ConfigError, match=r"vectors"):
        validate_config(config)
    config = copy.deepcopy(demo_config)
    config["zhao2020"]["figure1"] = {"lang": "es", "targets": ["en", "tr"]}
    with pytest.raises(ConfigError, match=r"zhao2020.figure1': \['tr'\] are not among"):
        validate_config(config)
    config = copy.deepcopy(demo_config)
    config["zhao2020"]["figure1"]["pairs"] = [["médico", "médica", "médicx"]]
    with pytest.raises(ConfigError, match=r"figure1"):
        validate_config(config)
    # downloaded vectors need no monolingual text; a URL template names {filename}
    config = copy.deepcopy(demo_config)
    config["zhao2020"]["languages"] = ["en", "it"]
    config["zhao2020"]["vectors"] = {"url": "https://example.org/wiki.{filename}"}
    del config["zhao2020"]["figure1"]  # the demo's is Spanish
    assert validate_config(config)["zhao2020"]["languages"] == ["en", "it"]
    config["zhao2020"]["mibs"] = {"url": "https://example.org/intrinsic/"}
    with pytest.raises(ConfigError, match=r"zhao2020.mibs.url': .* does not match"):
        validate_config(config)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.update(models=["nope"]), r"'basta2020.models': 'nope' is not one"),
        (lambda b: b.update(worlds=["real"]), r"'basta2020.worlds': 'real' is not one"),
        (lambda b: b.update(spacy={}), r"'basta2020.domains.news-crawl-es': swapping 'es' needs"),
        (lambda b: b.update(lists="static"), r"basta2020"),
        (
            lambda b: b.update(static={"vectors": {"en": "GoogleNews.bin"}}),
            r"'basta2020.static.vectors': a file has no vectors of \['de', 'es', 'fr'\]",
        ),
        (
            lambda b: b.update(static={"vectors": "word2vec"}),
            r"basta2020.static.vectors",
        ),
    ],
)
def test_basta2020_section_is_checked(demo_config, change, message):
    config = copy.deepcopy(demo_config)
    change(config["basta2020"])
    with pytest.raises(ConfigError, match=message):
        validate_config(config, SCHEMA)


def test_basta2020_static_vectors_come_from_zhao2020_or_a_file_per_language(demo_config):
    config = copy.deepcopy(demo_config)
    files = {"en": "GoogleNews.bin", "es": "sbwc.vec", "fr": "fr.vec", "de": "de.vec"}
    config["basta2020"]["static"] = {"vectors": files}
    static = validate_config(config, SCHEMA)["basta2020"]["static"]
    assert static == {"vectors": files, "n_biased": 500, "n_extended": 2500, "top_n": 50000}
    config = copy.deepcopy(demo_config)
    config["basta2020"]["static"] = {"vectors": "zhao2020"}
    config["zhao2020"]["languages"] = ["en", "de"]
    del config["zhao2020"]["figure1"]  # the demo's is Spanish
    with pytest.raises(ConfigError, match=r"zhao2020 has no vectors of \['es', 'fr'\]"):
        validate_config(config, SCHEMA)


def test_a_mirrored_world_must_be_balanced(demo_config):
    assert validate_config(copy.deepcopy(demo_config), SCHEMA)["demo"]["balanced"]["mirrored"]
    demo_config["demo"]["planted"]["mirrored"] = True
    with pytest.raises(
        ConfigError,
        match=r"key 'demo.planted.mirrored': a mirrored world is exactly balanced.*"
        r"got male_ratio 3.0 and occupation_bias 0.9",
    ):
        validate_config(copy.deepcopy(demo_config), SCHEMA)
    demo_config["demo"]["planted"]["mirrored"] = "yes"
    with pytest.raises(ConfigError, match=r"key 'demo.planted.mirrored': expected boolean"):
        validate_config(demo_config, SCHEMA)
