"""Every report caption is valid reStructuredText (Snakemake renders them with docutils)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docutils.core import publish_doctree
from docutils.utils import SystemMessage

CAPTIONS = sorted((Path(__file__).resolve().parents[3] / "report").glob("*.rst"))


def test_the_captions_are_found():
    assert len(CAPTIONS) > 30


@pytest.mark.parametrize("caption", CAPTIONS, ids=lambda p: p.name)
def test_caption_renders_without_docutils_errors(caption):
    # Jinja placeholders are filled by Snakemake before docutils sees the text
    text = caption.read_text(encoding="utf-8").replace("{{", "").replace("}}", "")
    try:
        publish_doctree(text, settings_overrides={"halt_level": 2, "report_level": 5})
    except SystemMessage as err:  # e.g. |Diff| read as an undefined substitution
        pytest.fail(f"{caption.name}: {err}")


def test_an_unescaped_bar_pair_is_caught():
    with pytest.raises(SystemMessage, match="Undefined substitution"):
        publish_doctree(
            "mean |Diff| in points", settings_overrides={"halt_level": 2, "report_level": 5}
        )
