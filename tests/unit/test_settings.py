"""settings_from_mapping: a dataclass from a mapping, its keys checked."""

from __future__ import annotations

import dataclasses

import pytest

from mgbias.errors import InputError
from mgbias.settings import settings_from_mapping


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
