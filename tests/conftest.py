"""Shared test settings: offline, deterministic, paths of the checkout."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

sys.path.insert(0, str(REPO / "tests"))


@pytest.fixture(scope="session")
def repo() -> Path:
    """The root of the checkout under test."""
    return REPO
