"""`mgbias gendered-text`, `mgbias mix-gendered-text` and `mgbias finetune` end to end."""

from __future__ import annotations

import json

from fixtures.text import gendered_lines, write_lines
from fixtures.tiny_models import save_tiny_mlm

from mgbias.cli.main import main


def test_data_and_finetune_commands(tmp_path, capsys):
    base = save_tiny_mlm(tmp_path / "base")
    lines = gendered_lines("he", 30) + gendered_lines("she", 25) + ["the man met the woman ."]
    corpus = write_lines(tmp_path / "news.txt", lines)
    data = tmp_path / "data"
    command = ["gendered-text", "--text", str(corpus), "--output", str(data), "--n-dev", "5"]
    assert main(command) == 0
    counts = json.loads(capsys.readouterr().out)
    assert (counts["n_female"], counts["n_male"], counts["n_both"]) == (25, 30, 1)
    assert counts["n_kept"] == 20  # min(25, 30) - 5

    mix = tmp_path / "d_r.txt"
    arguments = ["--female", str(data / "female.txt"), "--male", str(data / "male.txt")]
    assert main(["mix-gendered-text", *arguments, "--r", "0.25", "--output", str(mix)]) == 0
    assert json.loads(capsys.readouterr().out)["n_male"] == 5
    assert sum(line.startswith("he ") for line in mix.read_text().splitlines()) == 5
    assert main(["mix-gendered-text", *arguments, "--r", "2", "--output", str(mix)]) == 2
    assert "argument --r: must lie between 0 and 1, got 2" in capsys.readouterr().err

    out = tmp_path / "model"
    command = ["finetune", "--model", str(base), "--text", str(mix), "--output", str(out)]
    options = ["--dev", str(data / "dev_female.txt"), str(data / "dev_male.txt"), "--epochs", "1"]
    options += ["--lr", "1e-3", "--devices", "1", "--line-by-line", "--threads", "1"]
    assert main([*command, *options]) == 0
    summary = json.loads((out / "training.json").read_text())
    assert summary["config"]["devices"] == 1 and summary["config"]["line_by_line"] is True
    assert summary["steps"] == 3 and summary["dev"]["n_examples"] == 10  # 20 lines / 8
    assert summary["config"]["max_grad_norm"] == 1.0
    # the defaults: deterministic, no length grouping, no compilation
    assert summary["config"]["deterministic"] is True
    assert summary["config"]["group_by_length"] is False and summary["config"]["compile"] is False
    # --no-deterministic and --group-by-length reach the run (same lines, same steps)
    grouped = tmp_path / "grouped"
    command = ["finetune", "--model", str(base), "--text", str(mix), "--output", str(grouped)]
    options = ["--epochs", "1", "--devices", "1", "--line-by-line", "--threads", "1"]
    assert main([*command, *options, "--no-deterministic", "--group-by-length"]) == 0
    config = json.loads((grouped / "training.json").read_text())["config"]
    assert config["deterministic"] is False and config["group_by_length"] is True
    # --no-clip: no gradient-norm clipping (it used to fall back to the default, 1.0)
    unclipped = tmp_path / "unclipped"
    command = ["finetune", "--model", str(base), "--text", str(mix), "--output", str(unclipped)]
    assert main([*command, "--epochs", "1", "--devices", "1", "--no-clip"]) == 0
    assert json.loads((unclipped / "training.json").read_text())["config"]["max_grad_norm"] is None
    assert main([*command, "--block-size", "4000", "--devices", "0"]) == 2
    assert "argument --devices: must be at least 1, got 0" in capsys.readouterr().err
