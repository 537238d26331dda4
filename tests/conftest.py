"""Shared test settings: offline, deterministic, paths of the checkout, shared fixtures."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# No digest of a large test file is kept in the user's cache (tests/unit/files/test_file_hashes.py
# turns the cache on in a temporary folder).
os.environ.setdefault("MGBIAS_HASH_CACHE", "off")
# One thread per math library in the test processes and every command they start: `make
# test` runs two workers on two cores, beside the demo workflow's two jobs, and a library
# that starts one thread per core on a shared machine waits for its threads to be scheduled
# (OpenBLAS and OpenMP spin while they wait). Snakemake sets them per job from its threads.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

sys.path.insert(0, str(REPO / "tests"))


def pytest_configure(config) -> None:
    """One torch thread in the test process: `make test` runs two workers on two cores,
    and torch's default of one thread per core each made small models stall (a training
    test of a second took up to a minute). Workflow jobs set their own threads."""
    import torch
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(1)
    # numpy may have loaded its BLAS before the variables above were set
    threadpool_limits(1)
    # transformers binds its log handler to sys.stderr when its logging is first used:
    # bind it now, to the session's stream, not to one test's capsys stream, which is
    # closed after that test (a later warning then printed "--- Logging error ---")
    from transformers.utils import logging as transformers_logging

    transformers_logging.get_logger("transformers")


# Session fixtures of the tiny models every tier shares (tests/fixtures/tiny_models.py).
pytest_plugins = ["fixtures.tiny_models"]


#: Test files that run a whole workflow or train models, longest first. `make test` runs
#: the suite on two workers file by file in collection order (``pytest -n 2 --dist loadfile
#: --no-loadscope-reorder``); these files start first, so the short files fill in around them.
LONG_FILES = (
    "tests/integration/test_demo_workflow.py",
    "tests/workflow/test_slurm.py",
    "tests/integration/test_basta2020_demo_probes.py",
)


def pytest_collection_modifyitems(config, items) -> None:
    """Put the tests of :data:`LONG_FILES` first, in that order; the rest keep theirs."""
    rank = {path: index for index, path in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONG_FILES)))


@pytest.fixture(scope="session", autouse=True)
def vec_cache_dir(tmp_path_factory) -> Path:
    """The session's own cache of parsed .vec files (``MGBIAS_CACHE_DIR``), which the
    workflow's jobs inherit: the tests leave the user's cache alone."""
    root = tmp_path_factory.mktemp("mgbias-cache")
    os.environ["MGBIAS_CACHE_DIR"] = str(root)
    os.environ.pop("MGBIAS_VEC_CACHE", None)
    return root / "vec"


@pytest.fixture(scope="session")
def repo() -> Path:
    """The root of the checkout under test."""
    return REPO


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory) -> Path:
    """A completed run of tests/configs/tiny.yaml in a copy of the workflow (read-only: copy it).

    One run per test session: under ``pytest -n`` the workers share it through a lock
    in the session's common temporary directory, so it is built once, by the first
    worker that needs it. A failed run is recorded and fails the other workers at once.
    """
    import shutil

    from filelock import FileLock
    from snakerun import checked, copy_workflow, snakemake

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this session
    base = root / "tiny-shared"
    workdir, done, failed = base / "run", base / "done", base / "failed"
    with FileLock(str(base) + ".lock"):
        if failed.exists():
            raise AssertionError(f"the shared tiny run failed:\n{failed.read_text()}")
        if not done.exists():
            shutil.rmtree(base, ignore_errors=True)
            copy_workflow(workdir)
            try:
                checked(snakemake(workdir))
            except AssertionError as error:
                failed.write_text(str(error))
                raise
            done.touch()
    return workdir


@pytest.fixture()
def tiny_copy(tiny_run, tmp_path) -> Path:
    """A private copy of the completed tiny run, modification times kept."""
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(tiny_run, copy, symlinks=True)
    return copy
