"""The HTML report holds every table and figure, captioned, and renders in Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from snakerun import checked, snakemake

pytestmark = pytest.mark.workflow

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str:
    """Debian's Chromium, installed by the test when missing (needs root)."""
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.skip("chromium is missing and cannot be installed (needs root and apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, timeout=600, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"],
        check=True,
        timeout=900,
        env=env,
        capture_output=True,
    )
    return shutil.which("chromium") or pytest.fail("chromium did not install")


def test_report_holds_tables_and_figures_and_renders(tiny_copy, tmp_path):
    checked(snakemake(tiny_copy, "--report", "report.html", timeout=600))
    html = (tiny_copy / "report.html").read_text(encoding="utf-8")
    for name in ["mbe_scores.csv", "mine_counts.csv", "mbe_figure.png"]:
        assert name in html, name
    for caption in ["Kaneko et al. 2022 (MBE)", "Table 1", "Table 2", "demo world"]:
        assert caption in html, caption
    assert "data:image/png;base64" in html or "image/png" in html

    profile = tmp_path / "chromium-profile"
    command = [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
    dom = subprocess.run(
        [
            *command,
            "--virtual-time-budget=15000",
            "--dump-dom",
            (tiny_copy / "report.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "Kaneko et al. 2022 (MBE)" in dom.stdout  # rendered by the report's scripts

    screenshot = tmp_path / "report.png"
    shot = subprocess.run(
        [
            *command,
            "--virtual-time-budget=15000",
            "--window-size=1280,900",
            f"--screenshot={screenshot}",
            (tiny_copy / "report.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert shot.returncode == 0 and screenshot.stat().st_size > 10_000, shot.stderr[-2000:]


def test_report_figure_is_a_real_png(tiny_run: Path):
    png = (tiny_run / "results/figures/mbe_figure.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
