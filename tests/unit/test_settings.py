"""settings_from_mapping: a dataclass from a mapping, its keys checked."""

from __future__ import annotations

import dataclasses

import pytest

from mgbias.errors import InputError
from mgbias.settings import SECTIONS, schema_settings, section_class, settings_from_mapping
from mgbias.workflow.schema import load_schema


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: list = dataclasses.field(default_factory=list)
    label: str = dataclasses.field(default="", init=False)

    def __post_init__(self):
        if self.x < 0:
            raise ValueError(f"Point.x must be >= 0, got {self.x}")


@dataclasses.dataclass
class Defaults:
    a: int = 1
    b: str = "b"


def test_missing_fields_take_the_defaults_and_given_ones_are_passed():
    assert settings_from_mapping(Point, {"x": 3}, "point") == Point(3, 0, [])
    assert settings_from_mapping(Point, {"x": 3, "y": 4, "tags": ["t"]}, "point") == Point(
        3, 4, ["t"]
    )
    assert settings_from_mapping(Defaults, None, "d") == Defaults(1, "b")
    assert settings_from_mapping(Defaults, {}, "d") == Defaults(1, "b")


def test_unknown_keys_name_where_the_keys_and_the_allowed_keys():
    with pytest.raises(InputError) as caught:
        settings_from_mapping(Point, {"x": 1, "z": 2, "w": 3}, "section.point")
    assert str(caught.value) == (
        "section.point: unknown keys ['w', 'z']; expected among ['tags', 'x', 'y']"
    )
    # a field that __init__ does not take is no key either
    with pytest.raises(InputError, match=r"unknown keys \['label'\]"):
        settings_from_mapping(Point, {"x": 1, "label": "a"}, "point")
    # keys that are no strings are named, not a crash
    with pytest.raises(InputError, match=r"d: unknown keys \['7'\]"):
        settings_from_mapping(Defaults, {7: 1}, "d")
    assert issubclass(InputError, ValueError)


def test_what_names_the_kind_of_key():
    with pytest.raises(InputError) as caught:
        settings_from_mapping(Defaults, {"c": 1}, "RCSLSConfig", what="RCSLS setting(s)")
    assert (
        str(caught.value)
        == "RCSLSConfig: unknown RCSLS setting(s) ['c']; expected among ['a', 'b']"
    )


def test_ignored_keys_are_allowed_but_not_passed():
    ignored = {"grid", "runs"}
    built = settings_from_mapping(Defaults, {"a": 5, "grid": [1], "runs": 2}, "d", ignore=ignored)
    assert built == Defaults(5, "b")
    with pytest.raises(InputError) as caught:
        settings_from_mapping(Defaults, {"c": 1}, "d", ignore=ignored)
    assert str(caught.value) == "d: unknown keys ['c']; expected among ['a', 'b', 'grid', 'runs']"


def test_a_field_without_default_is_required():
    with pytest.raises(InputError) as caught:
        settings_from_mapping(Point, {"y": 1}, "point")
    assert str(caught.value) == "point: missing required key(s) ['x']"
    with pytest.raises(InputError, match="point: missing required"):
        settings_from_mapping(Point, None, "point")


def test_the_dataclass_still_checks_its_values():
    with pytest.raises(ValueError, match="Point.x must be >= 0, got -1"):
        settings_from_mapping(Point, {"x": -1}, "point")


def test_a_mapping_and_a_dataclass_are_required():
    with pytest.raises(InputError, match=r"point: expected a mapping of settings, got list \[1\]"):
        settings_from_mapping(Point, [1], "point")
    with pytest.raises(TypeError, match="is not a dataclass"):
        settings_from_mapping(dict, {}, "d")
    with pytest.raises(TypeError, match="is not a dataclass"):
        settings_from_mapping(Defaults(), {}, "d")


# ------------------------------------------------------------ settings of a config section


def schema_node(section: str) -> dict:
    node = load_schema()
    for name in section.split("."):
        node = node["properties"][name]
    return node


def test_a_field_the_schema_gives_a_default_takes_it_and_a_list_is_copied():
    @schema_settings("basta2020.probes", ignore=("lists",))
    class Probes:
        runs: int
        experiments: list
        n_components: int = 10

    schema = schema_node("basta2020.probes")["properties"]
    first, second = Probes(), Probes.from_mapping({"runs": 3, "lists": "demo"})
    assert (first.runs, first.experiments) == (
        schema["runs"]["default"],
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
    )
    assert (second.runs, second.n_components, Probes.section) == (3, 10, "basta2020.probes")
    first.experiments.append(10)
    assert Probes().experiments == schema["experiments"]["default"]  # a copy each
    with pytest.raises(InputError, match=r"^basta2020.probes: unknown keys \['run'\]"):
        Probes.from_mapping(run=3)
    with pytest.raises(InputError, match=r"^here: unknown keys \['run'\]"):
        Probes.from_mapping({"run": 3}, where="here")


def test_a_default_stated_in_the_class_and_in_the_schema_is_refused():
    with pytest.raises(
        TypeError,
        match=r"Twice.steps states a default \(10\), but the schema's "
        r"mlm_training.steps states one \(3000\)",
    ):

        @schema_settings("mlm_training")
        class Twice:
            steps: int = 10

    with pytest.raises(KeyError, match="schema has no key 'mlm_trainin'"):
        schema_settings("mlm_trainin")(type("Typo", (), {}))


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_each_section_is_read_by_its_class_and_the_class_reads_every_key(section):
    cls = section_class(section)
    assert cls.section == section
    fields = {field.name: field for field in dataclasses.fields(cls) if field.init}
    properties = schema_node(section).get("properties", {})
    # every key the schema allows is a setting of the class or another reader's
    assert set(properties) <= set(fields) | cls.ignored_keys, section
    for name, entry in properties.items():
        if "default" in entry and name in fields:
            field = fields[name]
            default = (
                field.default_factory() if field.default is dataclasses.MISSING else field.default
            )
            assert default == entry["default"], (section, name)
