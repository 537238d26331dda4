"""The version of mgbias, also when it runs from a source tree without installed metadata."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

__all__ = ["version"]

#: ``pyproject.toml`` of a source checkout: ``src/mgbias/_version.py`` -> repository root.
_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def version(pyproject: Path = _PYPROJECT) -> str:
    """The installed distribution's version; else ``pyproject.toml``'s; else ``"unknown"``.

    A shared checkout run with ``PYTHONPATH=src`` (a GPU node, say) has no installed
    metadata, so the version is read from the source tree's ``pyproject.toml``.
    """
    try:
        return metadata.version("mgbias")
    except metadata.PackageNotFoundError:
        pass
    try:
        with open(pyproject, "rb") as handle:
            project = tomllib.load(handle).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return "unknown"
    if project.get("name") != "mgbias" or not isinstance(project.get("version"), str):
        return "unknown"
    return project["version"]
