"""docs/architecture.md is the page the import-linter contracts generate."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.architecture import architecture_markdown, summary

REPO = Path(__file__).resolve().parents[2]


def test_the_page_is_current():
    expected = architecture_markdown((REPO / "pyproject.toml").read_text("utf-8"))
    assert (REPO / "docs/architecture.md").read_text("utf-8") == expected, (
        "regenerate: python tests/fixtures/architecture.py > docs/architecture.md"
    )


def test_every_top_level_module_and_package_is_on_the_page():
    page = (REPO / "docs/architecture.md").read_text("utf-8")
    package = REPO / "src/mgbias"
    tops = {p.stem for p in package.glob("*.py")} | {
        p.name for p in package.iterdir() if (p / "__init__.py").is_file()
    }
    missing = [name for name in sorted(tops - {"__init__"}) if f"`mgbias.{name}" not in page]
    assert missing == []


def test_a_module_that_does_not_exist_is_named():
    with pytest.raises(ValueError, match="mgbias.nothing"):
        summary("mgbias.nothing")


def test_a_docstring_reads_as_markdown():
    assert summary("mgbias.cli") == "The `mgbias` command line (docs/cli.md)."
