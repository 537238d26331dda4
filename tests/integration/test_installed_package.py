"""The package as a user installs it: a wheel in a fresh virtual environment, run anywhere.

A wheel is built from the checkout's sources (offline, with the build tools of
the test environment) and installed into a new virtual environment that sees
the locked dependencies of the test environment through a ``.pth`` file, not
the checkout. Every command runs from an empty temporary directory, so the
schema and the pair benchmarks can only come from the installed package; the
benchmark files come from a loopback server standing in for their host
(``--mirror``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CROWS_SHA = "dfb36986ce0502abbaf7055b9176da3d08d48e07df1251991b5dfbcbceab9d0c"
CROWS_PATH = "nyu-mll/crows-pairs/master/data/crows_pairs_anonymized.csv"
STEREOSET_PATH = "moinnadeem/StereoSet/master/data/dev.json"

pytestmark = pytest.mark.install


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)


def checked(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A new virtual environment with the wheel of the checkout installed."""
    root = tmp_path_factory.mktemp("install")
    source = root / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(REPO / "src", source / "src", ignore=ignore)
    pip = [sys.executable, "-m", "pip"]
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    wheel_options = ["--no-deps", "--no-build-isolation", "--no-index", "-w", str(root / "dist")]
    checked(run([*pip, "wheel", *wheel_options, str(source)], env=offline))
    (wheel,) = (root / "dist").glob("mgbias-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "mgbias/resources/schema.yaml" in names
    assert "mgbias/resources/pair_benchmarks.yaml" in names

    env_dir = root / "venv"
    checked(run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)]))
    python = env_dir / "bin" / "python"
    purelib = checked(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    ).stdout.strip()
    # the locked dependencies, as plain sys.path entries (no .pth of theirs is run,
    # so an editable install of the checkout there stays invisible)
    locked = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    Path(purelib, "locked-dependencies.pth").write_text("\n".join(locked) + "\n")
    install = [str(python), "-m", "pip", "install", "--no-deps", "--ignore-installed", str(wheel)]
    checked(run(install, env={k: v for k, v in offline.items() if k != "PYTHONPATH"}))
    return env_dir


@pytest.fixture(scope="module")
def user(venv, tmp_path_factory):
    """Run a command of the installed package from an empty directory, offline."""
    home = tmp_path_factory.mktemp("home")
    workdir = tmp_path_factory.mktemp("empty")
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / "cache"),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "OMP_NUM_THREADS": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }

    def call(*args: str) -> subprocess.CompletedProcess:
        return run(list(args), cwd=workdir, env=env)

    call.workdir = workdir
    call.cache = home / "cache" / "mgbias"
    return call


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    """A loopback host with the benchmarks' paths: a toy StereoSet and a toy CrowS-Pairs."""
    from httpmirror import Misbehaviour, serve_directory

    root = tmp_path_factory.mktemp("mirror")

    def sentence(text, label):
        return {"sentence": text, "id": label, "labels": [], "gold_label": label}

    stereoset = {
        "version": "toy",
        "data": {
            "intersentence": [],
            "intrasentence": [
                {
                    "id": "g1",
                    "target": "doctor",
                    "bias_type": "gender",
                    "context": "BLANK is a doctor",
                    "sentences": [
                        sentence("he is a doctor", "stereotype"),
                        sentence("she is a doctor", "anti-stereotype"),
                        sentence("a doctor", "unrelated"),
                    ],
                }
            ],
        },
    }
    (root / STEREOSET_PATH).parent.mkdir(parents=True)
    (root / STEREOSET_PATH).write_text(json.dumps(stereoset))
    (root / CROWS_PATH).parent.mkdir(parents=True)
    pd.DataFrame(
        {
            "sent_more": ["he is a doctor", "he is"],
            "sent_less": ["she is a doctor", "she is"],
            "stereo_antistereo": ["stereo", "antistereo"],
            "bias_type": ["gender", "gender"],
        }
    ).to_csv(root / CROWS_PATH, index=False)
    plan = Misbehaviour()
    with serve_directory(root, misbehaviour=plan) as base_url:
        yield base_url, plan


def test_the_installed_package_is_not_the_checkout(venv, user):
    location = checked(user("python", "-c", "import mgbias; print(mgbias.__file__)")).stdout
    assert Path(location.strip()).is_relative_to(venv), location
    assert str(REPO) not in location
    assert "check-config" in checked(user("mgbias", "--help")).stdout
    assert list(user.workdir.iterdir()) == []


def test_check_config_uses_the_shipped_schema(user):
    shutil.copy(REPO / "config" / "paper.yaml", user.workdir / "paper.yaml")
    result = checked(user("mgbias", "check-config", "paper.yaml"))
    assert "paper.yaml: valid; 8 languages, 2 corpora, 29 models, 8 pair datasets" in result.stdout
    bad = (REPO / "config" / "paper.yaml").read_text() + "colour: blue\n"
    (user.workdir / "bad.yaml").write_text(bad)
    result = user("mgbias", "check-config", "bad.yaml")
    assert result.returncode == 2
    line = bad.count("\n")  # the last line, where colour is
    assert f"bad.yaml:{line}: invalid configuration: unknown key 'colour' at the top level" in (
        result.stderr
    )


def test_score_a_shipped_benchmark_by_name(user, fixed_bert_dir, mirror):
    base_url, plan = mirror
    score = ["mgbias", "score", "--model", str(fixed_bert_dir), "--device", "cpu"]
    result = user(*score, "--data", "stereoset", "--mirror", base_url, "--output", "scores.csv")
    checked(result)
    table = pd.read_csv(user.workdir / "scores.csv").set_index("measure")
    # one pair, "he is a doctor" beats "she is a doctor" (p(he) = .3 > p(she) = .2)
    assert table.loc["aul", "score"] == 100.0 and table.loc["aul", "n"] == 1
    assert table.loc["sss", "score"] == 100.0
    assert (user.cache / "data/raw/pairs/stereoset/en/dev.json").is_file()

    # CrowS-Pairs is pinned: the mirror's toy file is refused, naming the shipped digest
    result = user(*score, "--data", "crows_pairs", "--lang", "en", "--mirror", base_url)
    assert result.returncode == 2
    assert CROWS_SHA in result.stderr, result.stderr
    assert plan.requests == [STEREOSET_PATH, CROWS_PATH]
    assert not (user.cache / "data/raw/pairs/crows_pairs/en/crows_pairs_anonymized.csv").exists()


def test_score_a_dataset_of_a_configuration(user, fixed_bert_dir, mirror):
    base_url, _ = mirror
    config = yaml.safe_load((REPO / "tests" / "configs" / "tiny.yaml").read_text())
    config["pair_datasets"] = {
        "crows_pairs": {"url": f"{base_url}/{CROWS_PATH}", "languages": ["en"]}
    }
    config["pair_tables"] = {}
    (user.workdir / "my.yaml").write_text(yaml.safe_dump(config))
    score = ["mgbias", "score", "--model", str(fixed_bert_dir), "--device", "cpu"]
    result = user(*score, "--data", "crows_pairs", "--lang", "en", "--config", "my.yaml")
    checked(result)
    assert "| aul " in result.stdout
