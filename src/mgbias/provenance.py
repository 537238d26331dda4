"""Provenance: which code, model, data and settings produced an output, and when.

Every output of the command line gets a JSON sidecar, ``<output>.provenance.json``
(for a directory output, such as a fine-tuned model, ``<directory>/provenance.json``;
:mod:`mgbias.cli.provenance`),
and every table of the workflow a record, ``results/provenance/tables/<rule>.json``
(:func:`job_provenance`), as does each job that draws random numbers from a seed of
its own, beside its first output (:data:`mgbias.workflow.layout.SEEDED_JOB_RULES`), with the
``seed`` it used. A record holds:

- ``mgbias``: the version, and the git commit of the source tree with whether it
  had uncommitted changes (when it runs from a git checkout);
- ``python`` and ``libraries``: the versions of torch, transformers and the other
  numerical libraries the process had imported (none is imported for the record);
  ``installed``: the versions of the same libraries installed in the environment
  (from the package metadata), which a workflow table's record needs because its
  job imports no torch while the jobs that ran the models did;
- ``model``: id, revision and the sha256 of each weights file and each tokenizer
  file (:func:`model_fingerprint`); ``data``/``inputs``: paths and sha256 of the files read;
- the settings: bias type, language, measures, seed, tie rule, alpha, batch size,
  device and precision, where the command has them;
- ``command`` (the command line) or ``rule``, and the configuration file;
- ``started`` and ``finished``, ISO 8601 in UTC.

The times are the only volatile fields, and they live only here: the tables
themselves are the same bytes for the same configuration. Records are written
atomically with the umask's mode (:mod:`mgbias.files.atomic`).

This module imports nothing heavy: torch, transformers and huggingface_hub are
only looked up when the process has already imported them.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import importlib.metadata
import platform
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mgbias.files.atomic import write_json
from mgbias.files.file_hashes import file_sha256

__all__ = [
    "Provenance",
    "collect",
    "file_sha256",
    "git_state",
    "job_provenance",
    "job_record",
    "mgbias_version",
    "model_fingerprint",
    "now",
    "sidecar_path",
    "summary_row",
    "write_sidecar",
]

#: Suffix of a file output's sidecar.
SIDECAR_SUFFIX = ".provenance.json"
#: Name of a directory output's record, inside it.
DIRECTORY_RECORD = "provenance.json"
#: Weights files of a Hugging Face model directory, hashed by :func:`model_fingerprint`.
WEIGHTS_PATTERNS = (
    "model.safetensors",
    "model-*-of-*.safetensors",
    "pytorch_model.bin",
    "pytorch_model-*-of-*.bin",
)
#: Tokenizer files of a Hugging Face model directory (those ``save_pretrained`` of the
#: tokenizers writes), hashed by :func:`model_fingerprint`: the same weights with another
#: vocabulary give other scores.
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "spiece.model",
    "sentencepiece.bpe.model",
    "tokenizer.model",
)
#: Libraries whose versions are recorded when the process has imported them.
LIBRARIES = ("torch", "transformers", "tokenizers", "numpy", "pandas", "scipy", "fasttext")

_SRC = Path(__file__).resolve().parent


def now() -> str:
    """The current time, ISO 8601 in UTC to the second: ``2026-01-31T12:00:00Z``."""
    moment = _dt.datetime.now(_dt.UTC).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


@functools.cache
def mgbias_version() -> str:
    """The version of mgbias (:func:`mgbias._version.version`): the installed metadata's,
    else the source tree's ``pyproject.toml``, else ``"unknown"``."""
    from mgbias._version import version

    return version()


@functools.cache
def git_state() -> dict[str, Any] | None:
    """The git commit of the mgbias source tree and whether it had changes, or None.

    None when mgbias does not run from a git checkout (an installed package) or
    git is not available. ``dirty`` is true when tracked files differ from the
    commit (untracked files are ignored).
    """
    root = _SRC.parents[1]
    try:
        top = _git(root, "rev-parse", "--show-toplevel")
        if top is None or Path(top).resolve() != root:
            return None  # mgbias lies inside some other repository (a virtual environment)
        commit = _git(root, "rev-parse", "HEAD")
        status = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):  # no git, or a hung one
        return None
    if commit is None:
        return None
    return {"commit": commit, "dirty": bool(status)}


def _git(root: Path, *args: str) -> str | None:
    result = subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return result.stdout.strip() if result.returncode == 0 else None


def _hub_blob_sha256(path: Path) -> str | None:
    """The sha256 the Hugging Face cache names a large file's blob by, if it does.

    The hub cache keeps a snapshot's files as links to ``blobs/<sha256>`` for
    files stored with Git LFS (weights), verified at download.
    """
    target = path.resolve()
    if target.parent.name == "blobs" and re.fullmatch(r"[0-9a-f]{64}", target.name):
        return target.name
    return None


def _weights_files(directory: Path) -> list[Path]:
    found: list[Path] = []
    for pattern in WEIGHTS_PATTERNS:
        found += sorted(directory.glob(pattern))
    return found


def _tokenizer_files(directory: Path) -> list[Path]:
    return [directory / name for name in TOKENIZER_FILES if (directory / name).is_file()]


def model_fingerprint(
    model: str | Path, revision: str | None = None, tokenizer: str | Path | None = None
) -> dict[str, Any]:
    """Model id, revision and the sha256 of each weights file and each tokenizer file.

    Parameters
    ----------
    model
        A local model directory (``save_pretrained`` layout) or a Hugging Face hub id.
    revision
        The hub revision asked for (None: the default branch).
    tokenizer
        A tokenizer directory given apart from the model (``--tokenizer``); None: the
        model's own.

    Returns
    -------
    dict
        ``id``, ``revision``, ``dtype`` (the weights' dtype config.json names),
        ``weights`` (file name -> sha256, of
        ``model.safetensors``, ``pytorch_model.bin`` or their shards),
        ``tokenizer`` (file name -> sha256, of the :data:`TOKENIZER_FILES` present;
        with a separate ``tokenizer`` directory, also ``tokenizer_path``) and, for a
        hub id, ``commit`` (the snapshot the local cache holds). A hub model not
        in the local cache gets empty ``weights`` and ``tokenizer`` and a ``note``;
        nothing is downloaded.
    """
    record: dict[str, Any] = {"id": str(model), "revision": revision}
    directory = Path(model)
    if directory.is_dir():
        record["path"] = str(directory)
        record["dtype"] = _stored_dtype(directory)
        record["weights"] = {p.name: file_sha256(p) for p in _weights_files(directory)}
        return _with_tokenizer(record, directory, tokenizer)
    snapshot = _hub_snapshot(str(model), revision)
    if snapshot is None:
        record["weights"] = {}
        record["note"] = "not in the local Hugging Face cache; weights not hashed"
        return _with_tokenizer(record, None, tokenizer)
    record["commit"] = snapshot.name
    record["dtype"] = _stored_dtype(snapshot)
    record["weights"] = {
        p.name: _hub_blob_sha256(p) or file_sha256(p) for p in _weights_files(snapshot)
    }
    return _with_tokenizer(record, snapshot, tokenizer)


def _with_tokenizer(
    record: dict[str, Any], own: Path | None, tokenizer: str | Path | None
) -> dict[str, Any]:
    """``record`` with ``tokenizer``: the sha256 of the tokenizer files it was read from."""
    directory = own
    if tokenizer is not None and Path(tokenizer).is_dir():
        directory = Path(tokenizer)
        record["tokenizer_path"] = str(directory)
    record["tokenizer"] = (
        {p.name: file_sha256(p) for p in _tokenizer_files(directory)} if directory else {}
    )
    return record


def _stored_dtype(directory: Path) -> str | None:
    """The weights' dtype ``config.json`` names (``dtype``, formerly ``torch_dtype``)."""
    import json

    try:
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(config, dict):
        return None
    found = config.get("dtype") or config.get("torch_dtype")
    return str(found) if found is not None else None


def _hub_snapshot(repo_id: str, revision: str | None) -> Path | None:
    """The local snapshot directory of a hub model, without any network access."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    try:
        found = try_to_load_from_cache(repo_id, "config.json", revision=revision)
    except Exception:  # an id that is not a valid repo id: nothing cached
        return None
    if not isinstance(found, str):
        return None
    return Path(found).parent


def _libraries() -> dict[str, str]:
    """Versions of the recorded libraries this process has imported (imports none)."""
    versions = {}
    for name in LIBRARIES:
        module = sys.modules.get(name)
        version = getattr(module, "__version__", None) if module is not None else None
        if version is not None:
            versions[name] = str(version)
    return versions


def _plain(value: Any) -> Any:
    """``value`` as JSON can hold it: paths as strings, tuples and sets as lists."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


@functools.cache
def installed_libraries() -> dict[str, str]:
    """Installed versions of :data:`LIBRARIES` (package metadata; imports none of them)."""
    versions = {}
    for name in LIBRARIES:
        for distribution in (name, f"{name}-wheel"):
            try:
                versions[name] = importlib.metadata.version(distribution)
                break
            except importlib.metadata.PackageNotFoundError:
                continue
    return versions


def collect(**fields: Any) -> dict[str, Any]:
    """A provenance record: the given fields plus mgbias's version, git state and libraries.

    Fields that are None are left out; paths become strings. ``libraries`` lists
    torch, transformers and the like only when the process had imported them;
    ``installed`` their installed versions.
    """
    record: dict[str, Any] = {
        "mgbias": {"version": mgbias_version(), "git": git_state()},
        "python": platform.python_version(),
        "libraries": _libraries(),
        "installed": installed_libraries(),
    }
    record.update({key: _plain(value) for key, value in fields.items() if value is not None})
    return record


def sidecar_path(output: str | Path) -> Path:
    """Where the record of ``output`` goes: ``<output>.provenance.json``, or
    ``<output>/provenance.json`` for a directory."""
    output = Path(output)
    if output.is_dir():
        return output / DIRECTORY_RECORD
    return output.with_name(output.name + SIDECAR_SUFFIX)


def write_sidecar(output: str | Path, record: Mapping[str, Any]) -> Path:
    """Write ``record`` beside ``output`` (atomically, with the umask's mode); return its path.

    The record also gets ``output``: its path and sha256 (for a directory, the
    sha256 of each file in it), which ties the record to the bytes it describes.
    """
    output = Path(output)
    record = dict(record)
    if output.is_file():
        record["output"] = {"path": str(output), "sha256": file_sha256(output)}
    else:
        files = sorted(p for p in output.rglob("*") if p.is_file() and p.name != DIRECTORY_RECORD)
        record["output"] = {
            "path": str(output),
            "files": {p.relative_to(output).as_posix(): file_sha256(p) for p in files},
        }
    target = sidecar_path(output)
    write_json(target, _plain(record))
    return target


class Provenance:
    """Record start and end time around a block of work, then build the record.

    >>> with Provenance(seed=0) as run:
    ...     pass  # the work
    >>> sorted(k for k in run.record() if k in ("started", "finished", "seed"))
    ['finished', 'seed', 'started']
    """

    def __init__(self, **fields: Any) -> None:
        self.fields = dict(fields)
        self.started: str | None = None
        self.finished: str | None = None

    def __enter__(self) -> Provenance:
        self.started = now()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.finished = now()

    def record(self, **more: Any) -> dict[str, Any]:
        """The record: :func:`collect` of the fields, ``more`` and the two times."""
        return collect(**self.fields, **more, started=self.started, finished=self.finished or now())


# ------------------------------------------------------------------ the workflow

#: Config keys copied into a workflow record's ``settings`` when present.
_WORKFLOW_SETTINGS = (
    "seed",
    "languages",
    "pair_measures",
    "pair_tie_rule",
    "pair_alpha",
    "scoring",
    "mbe",
)


#: The key under which the workflow adds its configuration files to the config it passes
#: to the jobs (rules/common.smk); left out of ``config_sha256``.
CONFIGFILES_KEY = "_configfiles"


def _named(section: Any) -> dict[str, Any]:
    """A Snakemake ``input``/``output``/``params``/``wildcards`` section as a dict."""
    if section is None:
        return {}
    if hasattr(section, "items"):
        try:
            return dict(section.items())
        except TypeError:
            pass
    return {k: v for k, v in vars(section).items() if not k.startswith("_")}


def _paths(value: Any) -> list[str]:
    if isinstance(value, (str, Path)):
        return [str(value)]
    if isinstance(value, (list, tuple)):
        return [p for item in value for p in _paths(item)]
    return []


def _hash_inputs(inputs: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    hashed: dict[str, dict[str, str]] = {}
    for name, value in inputs.items():
        if name == "code":
            continue  # the library files: the git commit and version say which
        files = {p: file_sha256(p) for p in _paths(value) if Path(p).is_file()}
        if files:
            hashed[name] = files
    return hashed


def _workflow_models(config: Mapping[str, Any], inputs: Iterable[str]) -> dict[str, Any]:
    """Fingerprints of the configured models whose name is a directory in an input path."""
    models = config.get("models") or {}
    parts = {part for path in inputs for part in Path(path).parts}
    found = {}
    for name, entry in models.items():
        if name not in parts:
            continue
        entry = entry or {}
        local = Path("models") / name
        if local.is_dir():
            found[name] = model_fingerprint(local)
        elif isinstance(entry.get("source"), str):
            found[name] = model_fingerprint(entry["source"], entry.get("revision"))
        else:
            found[name] = {"id": name, "weights": {}}
    return found


def _workflow_data(config: Mapping[str, Any], inputs: Iterable[str]) -> dict[str, Any]:
    """sha256 of the downloaded data behind the inputs: the pair benchmark files of
    the datasets, and the parallel corpora of the worlds and corpora, whose names
    are directories of the input paths."""
    parts = {part for path in inputs for part in Path(path).parts}
    folders = [
        Path("data/raw/pairs") / name for name in config.get("pair_datasets") or {} if name in parts
    ]
    worlds = [world for world in config.get("worlds") or [] if world in parts]
    for world in worlds:
        folders += [
            Path("data/raw") / world / corpus
            for corpus in config.get("corpora") or {}
            if corpus in parts
        ]
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
            if path.is_file() and not path.name.endswith(".sha256"):
                found[str(path)] = file_sha256(path)
    return found


def params_seed(params: Mapping[str, Any]) -> Any:
    """The seed a job's params hand it: ``seed``, or ``seeds`` (one per run of a job of
    several seeded runs, as a list); None for a job without."""
    return params["seed"] if "seed" in params else params.get("seeds")


def _output_files(value: Any) -> dict[str, str]:
    """sha256 of each file of an output: the file, or every file under a directory."""
    found = {}
    for path in map(Path, _paths(value)):
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        found.update({str(p): file_sha256(p) for p in files if p.is_file()})
    return found


def job_record(job: Any, *, started: str | None = None, seed: Any = None) -> dict[str, Any]:
    """The provenance record of one workflow job (``job``: Snakemake's ``snakemake`` object).

    Holds the rule and wildcards, the params (and ``seed``, the job's own seed: ``seed``
    when given, the seed the job reports it used, else :func:`params_seed`), the
    configuration's settings and
    its sha256, the configuration files with their sha256 (named by the workflow
    under :data:`CONFIGFILES_KEY`), every input file's sha256 (the library code aside: the version
    and git commit say which), the fingerprints of the models and the sha256 of
    the pair benchmark files behind the inputs, and the sha256 of each output.
    """
    import json

    config = dict(getattr(job, "config", None) or {})
    config_files = [str(p) for p in config.pop(CONFIGFILES_KEY, None) or []]
    inputs = _named(getattr(job, "input", None))
    input_paths = [p for value in inputs.values() for p in _paths(value)]
    outputs = {
        name: _output_files(value)
        for name, value in _named(getattr(job, "output", None)).items()
        if name != "provenance"
    }
    settings = {key: config[key] for key in _WORKFLOW_SETTINGS if key in config}
    params = _named(getattr(job, "params", None))
    canonical = json.dumps(_plain(config), sort_keys=True, ensure_ascii=False)
    return collect(
        rule=getattr(job, "rule", None),
        wildcards=_named(getattr(job, "wildcards", None)),
        params=params,
        # the seed the job drew its random numbers from (derived per job from the config's
        # root seed, mgbias.seeds): the command line's --seed with it gives the same numbers
        seed=params_seed(params) if seed is None else seed,
        settings=settings,
        config_sha256=hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
        config_files={p: file_sha256(p) if Path(p).is_file() else None for p in config_files},
        models=_workflow_models(config, input_paths),
        data=_workflow_data(config, input_paths),
        inputs=_hash_inputs(inputs),
        outputs=outputs,
        started=started,
        finished=now(),
    )


@contextmanager
def job_provenance(job: Any) -> Iterator[dict[str, Any]]:
    """Around a workflow script's work: on success, write the job's provenance record.

    The record goes to the job's ``provenance`` output (``output.provenance``);
    a job without one writes nothing. On failure nothing is written, and
    Snakemake removes the job's outputs, the record included. A job whose seed sits in
    its settings rather than in ``params.seed`` says the one it used by setting
    ``"seed"`` in the dictionary this yields.
    """
    started = now()
    used: dict[str, Any] = {}
    yield used
    target = _named(getattr(job, "output", None)).get("provenance")
    if target:
        write_json(target, job_record(job, started=started, seed=used.get("seed")))


#: Columns of the run's provenance summary (``results/provenance/summary.csv``).
SUMMARY_COLUMNS = [
    "rule",
    "tables",
    "mgbias_version",
    "git_commit",
    "git_dirty",
    "models",
    "weights_sha256",
    "data",
    "data_sha256",
    "seed",
    "device",
    "config_sha256",
    "config_files",
    "started",
    "finished",
]


def summary_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """One row of the provenance summary from a workflow job's record.

    Models and data are joined with ``; `` in a fixed order, each model as
    ``name=id@revision`` and each weights file as ``name:file=sha256``.
    """
    git = (record.get("mgbias") or {}).get("git") or {}
    models = record.get("models") or {}
    params = record.get("params") or {}
    settings = record.get("settings") or {}
    scoring = settings.get("scoring") or {}
    seed = record.get("seed")
    seed = params.get("seed", settings.get("seed")) if seed is None else seed
    data = record.get("data") or {}
    return {
        "rule": record.get("rule"),
        "tables": "; ".join(
            sorted(p for files in (record.get("outputs") or {}).values() for p in files)
        ),
        "mgbias_version": (record.get("mgbias") or {}).get("version"),
        "git_commit": git.get("commit", ""),
        "git_dirty": git.get("dirty", ""),
        "models": "; ".join(
            f"{name}={model.get('id')}@{model.get('commit') or model.get('revision') or ''}"
            for name, model in sorted(models.items())
        ),
        "weights_sha256": "; ".join(
            f"{name}:{file}={digest}"
            for name, model in sorted(models.items())
            for file, digest in sorted((model.get("weights") or {}).items())
        ),
        "data": "; ".join(sorted(data)),
        "data_sha256": "; ".join(data[path] for path in sorted(data)),
        "seed": seed,
        "device": scoring.get("device", ""),
        "config_sha256": record.get("config_sha256"),
        "config_files": "; ".join(sorted(record.get("config_files") or {})),
        "started": record.get("started"),
        "finished": record.get("finished"),
    }
