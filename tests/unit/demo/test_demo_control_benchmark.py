"""benchmarks/demo_control.py: its counts, by hand (the runs themselves take minutes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "demo_control.py"


@pytest.fixture(scope="module")
def benchmark():
    spec = importlib.util.spec_from_file_location("demo_control", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_marks_bounds_and_leans_are_counted_per_arm(benchmark):
    rows = [
        # arm, world, training, lang, measure, score, p
        ("mirrored", 1, 1, "fr", "sjsd", 0.002, 0.01),
        ("mirrored", 1, 1, "fr", "cps", 48.0, 0.50),
        ("mirrored", 1, 2, "fr", "sjsd", -0.001, 0.30),
        ("mirrored", 1, 2, "fr", "cps", 47.0, 0.049),
        ("drawn", 1, 1, "fr", "sjsd", 0.003, 0.05),  # p = alpha is not marked
        ("drawn", 1, 1, "fr", "cps", 45.0, 0.20),
    ]
    columns = ["arm", "world", "training", "lang", "measure", "score", "p"]
    lines = benchmark.summary_lines(pd.DataFrame(rows, columns=columns), alpha=0.05)
    figures = dict(line.split("=") for line in lines)
    assert len(figures) == len(lines)
    assert figures["mirrored_runs"] == "2" and figures["mirrored_tests"] == "4"
    assert figures["mirrored_marked"] == "2" and figures["mirrored_marked_share"] == "0.5000"
    assert figures["mirrored_marked_sjsd_fr"] == "1" and figures["mirrored_marked_cps_fr"] == "1"
    assert figures["mirrored_sjsd_positive_fr"] == "0.500"
    # 4 tests at alpha 0.05: P(X > 1) = 0.014 > 0.01 >= P(X > 2), so the bound is 2
    assert figures["mirrored_marked_bound"] == "2"
    assert figures["drawn_runs"] == "1" and figures["drawn_marked"] == "0"
    assert figures["drawn_sjsd_positive_fr"] == "1.000"


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--arms", "planted"], "--arms: expected some of"), (["--trainings", "0"], ">= 1")],
)
def test_bad_arguments_are_refused_before_any_run(benchmark, argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        benchmark.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
