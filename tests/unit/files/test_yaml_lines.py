"""The one YAML loader: syntax errors as file:line:column, duplicate keys refused, key lines."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mgbias.files import yaml_lines
from mgbias.files.yaml_lines import YAMLInputError, load_yaml, parse_yaml, read_yaml

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "name",
    [
        "config/config.yaml",
        "config/paper.yaml",
        "config/examples/own-model.yaml",
        "config/examples/kaneko2023-only.yaml",
        "config/examples/mbe-only.yaml",
        "config/examples/pairs-only.yaml",
        "config/demo-full.yaml",
        "src/mgbias/resources/schema.yaml",
        "src/mgbias/resources/pair_benchmarks.yaml",
        "src/mgbias/resources/native_names.yaml",
    ],
)
def test_shipped_files_read_as_pyyaml_reads_them(name):
    path = REPO / name
    assert load_yaml(path) == yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "name", ["config/config.yaml", "config/paper.yaml", "src/mgbias/resources/schema.yaml"]
)
def test_libyaml_and_pure_python_loaders_give_the_same_data_and_key_lines(name):
    # the libyaml loader reads; the pure-Python one describes errors: they must agree
    if not yaml.__with_libyaml__:
        pytest.skip("PyYAML without libyaml: one loader")
    text = (REPO / name).read_text(encoding="utf-8")
    fast = yaml_lines._parsed(yaml_lines._FastLineLoader, text, name)
    pure = yaml_lines._parsed(yaml_lines.LineLoader, text, name)
    assert fast.data == pure.data
    assert dict(fast.lines) == dict(pure.lines)
    assert len(fast.lines) > 50


def test_syntax_error_is_file_line_column(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("languages: [de, fr\nworlds: [real]\n", encoding="utf-8")
    with pytest.raises(YAMLInputError) as caught:
        read_yaml(path)
    # the flow sequence opened on line 1 meets the ':' of line 2, column 7
    assert str(caught.value) == (
        f"{path}:2:7: expected ',' or ']', but got ':' (while parsing a flow sequence at line 1)"
    )


def test_tab_indentation_is_named_at_its_place():
    with pytest.raises(YAMLInputError, match=r"^c\.yaml:2:1: found character '\\t'"):
        parse_yaml("models:\n\tm: {source: x}\n", "c.yaml")


def test_duplicate_key_names_both_lines():
    text = "models:\n  a: {source: x}\n  b: {source: y}\n  a: {source: z}\n"
    with pytest.raises(YAMLInputError) as caught:
        parse_yaml(text, "c.yaml")
    assert str(caught.value) == (
        "c.yaml:4:3: duplicate key 'a' (first given at line 2); a key may appear once in a mapping"
    )


def test_duplicate_key_in_a_flow_mapping_and_at_the_top():
    with pytest.raises(
        YAMLInputError, match=r"^c\.yaml:1:17: duplicate key 'x' \(first given at line 1\)"
    ):
        parse_yaml("m: {x: 1, y: 2, x: 3}\n", "c.yaml")
    with pytest.raises(
        YAMLInputError, match=r"^c\.yaml:3:1: duplicate key 'seed' \(first given at line 1\)"
    ):
        parse_yaml("seed: 1\nlanguages: [de]\nseed: 2\n", "c.yaml")


def test_a_key_overriding_a_merged_one_is_not_a_duplicate():
    text = "base: &b {world: planted, steps: 3}\nmodel:\n  <<: *b\n  world: balanced\n"
    document = parse_yaml(text, "c.yaml")
    assert document.data["model"] == {"world": "balanced", "steps": 3}
    assert document.line("model.world") == 4  # the explicit key
    assert document.line("model.steps") == 1  # merged: where the anchor gives it


def test_key_lines_and_nearest_enclosing_key():
    text = "languages: [de, fr]\nmodels:\n  my.model:\n    source: x\n    languages:\n      - de\n"
    document = parse_yaml(text, "c.yaml")
    assert document.where("models.my.model.source") == "c.yaml:4"
    assert document.where("models.my.model.languages.0") == "c.yaml:6"
    assert document.where(("languages", 1)) == "c.yaml:1"
    assert document.where("models.my.model.revision") == "c.yaml:3"  # not given: its model
    assert document.where("pair_datasets.x") == "c.yaml"


def test_empty_file_is_none(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing\n", encoding="utf-8")
    assert load_yaml(path) is None


def test_non_utf8_names_line_and_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("seed: 1\nlanguages: [de]  # Grüße\n".encode("latin-1"))
    with pytest.raises(YAMLInputError, match=r":2: byte 29 \(b'\\xfc'\) is not UTF-8"):
        read_yaml(path)


def test_two_documents_are_refused():
    with pytest.raises(YAMLInputError, match=r"^c\.yaml:2:1: but found another document"):
        parse_yaml("a: 1\n---\nb: 2\n", "c.yaml")


def test_missing_file_is_named(tmp_path):
    with pytest.raises(YAMLInputError, match=r"nope\.yaml: cannot be read"):
        read_yaml(tmp_path / "nope.yaml")


def test_a_control_character_is_placed():
    with pytest.raises(YAMLInputError, match=r"^c\.yaml:2:8: character U\+0007 is not allowed"):
        parse_yaml("seed: 1\nlanguag\x07es: [de]\n", "c.yaml")
