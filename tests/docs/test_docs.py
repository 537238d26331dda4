"""Every fenced ``bash``, ``python`` and ``yaml`` block of the documentation runs here.

The documents: README.md, docs/**/*.md and profiles/slurm/README.md. Sybil parses them
(its Markdown code-block parsers); each block is one test, named ``<file>:<line>``.

- ``python`` blocks run with Sybil's Python evaluator, one namespace per document, in the
  order they appear (a block runs the earlier blocks of its document first when it is
  selected alone).
- ``yaml`` blocks must parse; a block that is a workflow configuration (a mapping with
  ``languages`` and ``models``) goes through :func:`mgbias.config.load_config`, as
  ``mgbias check-config`` does, from a file in the document's sandbox.
- ``bash`` blocks run with ``bash -e`` in the document's sandbox, a temporary copy of the
  workflow (Snakefile, rules, scripts, config, src, profiles, Makefile, ...) whose
  ``.venv/bin`` holds the commands of the interpreter running the tests and is first on
  ``PATH`` (so ``mgbias`` and ``.venv/bin/snakemake`` are this checkout's), and whose
  ``HOME`` is inside it. They run offline (``HF_HUB_OFFLINE=1``,
  ``TRANSFORMERS_OFFLINE=1``), each within :data:`TIMEOUT_S` seconds; the blocks of one
  document share its sandbox, so a block can read what an earlier one wrote. Their
  ``mgbias`` runs each command in a fork of a server that has imported the command line
  and the model libraries once (:mod:`fixtures.command_server`: the console script's
  entry point with the block's arguments, directory, environment and streams), which
  spares each command about eight CPU seconds of imports.

The sandbox makes commands runnable as written:

- every model a document names (``--model NAME``, ``load_model("NAME")``) that is not a
  path of the sandbox is a local directory of that very name holding a tiny BERT
  (random weights, a WordPiece vocabulary of the sandbox's sentences): a local directory
  is loaded before the hub is asked, so ``--model google-bert/bert-base-multilingual-cased``
  loads it;
- the files the quick tasks name are small files of the real formats: ``male.txt`` and
  ``female.txt`` (one sentence a line), ``crows_pairs_anonymized.csv`` (CrowS-Pairs'
  columns), ``cps_translated_de_formatted.csv`` (the multilingual CrowS-Pairs' columns),
  and the German-English parallel corpus ``TED2020.de-en.en`` / ``TED2020.de-en.de``
  (OPUS Moses layout: line i of one is the translation of line i of the other);
- the inputs of docs/api.md's command examples (:mod:`fixtures.api_sandbox`): word
  vectors ``de.vec`` / ``en.vec`` with MUSE dictionaries and MIBs-style lists, an
  English ``corpus.txt``, a WET file ``CC-MAIN-demo.warc.wet.gz`` and ``names.txt``.

Markers, an HTML comment on the line just before a block:

- ``<!-- docs: dry-run REASON -->``: the block runs, but every ``make`` becomes
  ``make -n`` and every ``snakemake`` gets ``-n``: for a run too long for the suite (the
  paper configuration, ``make demo``), SLURM submission, or ``make test`` itself;
- ``<!-- docs: skip REASON -->``: nothing of the block can run here (a download from the
  network, a DVC remote); the test is skipped with the reason. Keep these rare.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sybil import Document
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(
    {
        REPO / "README.md",
        *(REPO / "docs").rglob("*.md"),
        REPO / "profiles/slurm/README.md",
    }
)
#: Seconds a bash block may run.
TIMEOUT_S = 300
#: The checkout's files a bash block may use, copied into its sandbox.
SANDBOX_PARTS = (
    *("Snakefile", "rules", "scripts", "config", "src", "profiles", "envs", "report"),
    *("tests/configs", "Makefile", "pyproject.toml", "requirements.lock"),
    *("params.yaml", "dvc.yaml"),
)
MARKER = re.compile(r"<!--\s*docs:\s*(?P<kind>dry-run|skip)\b\s*(?P<reason>.*?)\s*-->")
MODEL_NAMES = (
    re.compile(r"--model[ =]+([^\s\\$'\"]+)"),
    re.compile(r"load_model\(\s*[\"']([^\"']+)[\"']"),
)

# ------------------------------------------------------------------------ sandbox inputs

SUBJECTS = {
    "male": ("he", "my father", "the man", "my brother", "the king"),
    "female": ("she", "my mother", "the woman", "my sister", "the queen"),
}
GERMAN_SUBJECTS = {
    "he": "er",
    "she": "sie",
    "my father": "mein Vater",
    "my mother": "meine Mutter",
    "the man": "der Mann",
    "the woman": "die Frau",
    "my brother": "mein Bruder",
    "my sister": "meine Schwester",
    "the king": "der König",
    "the queen": "die Königin",
}
PREDICATES = {
    "works here": "arbeitet hier",
    "reads a book": "liest ein Buch",
    "is at home": "ist zu Hause",
    "likes music": "mag Musik",
}
NEUTRAL = {"the weather is good": "das Wetter ist gut", "we read a book": "wir lesen ein Buch"}
OCCUPATIONS = ("nurse", "engineer", "doctor", "teacher", "pilot", "secretary")
GERMAN_OCCUPATIONS = {
    "nurse": ("ein Krankenpfleger", "eine Krankenschwester"),
    "doctor": ("ein Arzt", "eine Ärztin"),
    "teacher": ("ein Lehrer", "eine Lehrerin"),
    "pilot": ("ein Pilot", "eine Pilotin"),
}


def sandbox_files() -> dict[str, str]:
    """The small input files of the quick tasks, by file name."""
    english, german = [], []
    for gender in ("male", "female"):
        for subject in SUBJECTS[gender]:
            for predicate, translation in PREDICATES.items():
                english.append(f"{subject} {predicate} .")
                german.append(f"{GERMAN_SUBJECTS[subject]} {translation} .")
    for sentence, translation in NEUTRAL.items():
        english.append(f"{sentence} .")
        german.append(f"{translation} .")
    files = {"TED2020.de-en.en": "\n".join(english) + "\n"}
    files["TED2020.de-en.de"] = "\n".join(german) + "\n"
    for gender in ("male", "female"):
        lines = [
            f"{GERMAN_SUBJECTS[subject]} {translation} ."
            for subject in SUBJECTS[gender]
            for translation in PREDICATES.values()
        ]
        files[f"{gender}.txt"] = "\n".join(lines) + "\n"
    rows = [
        ",sent_more,sent_less,stereo_antistereo,bias_type,annotations,anon_writer,anon_annotators"
    ]
    for index, occupation in enumerate(OCCUPATIONS):
        stereo, anti = ("she", "he") if index % 2 == 0 else ("he", "she")
        direction = "stereo" if index % 3 else "antistereo"
        rows.append(
            f"{index},{stereo} is a {occupation} .,{anti} is a {occupation} .,{direction},gender,"
            f"\"[['gender'], ['gender'], ['gender'], ['gender'], ['gender']]\",a0,"
            f"\"['a1', 'a2', 'a3', 'a4']\""
        )
    rows.append(
        f"{len(OCCUPATIONS)},the old man reads a book .,the young man reads a book .,stereo,age,"
        "\"[['age'], ['age'], ['age'], ['age'], ['age']]\",a0,\"['a1', 'a2', 'a3', 'a4']\""
    )
    files["crows_pairs_anonymized.csv"] = "\n".join(rows) + "\n"
    rows = ["ID,A_en,B_en,A_x,B_x,stereo_antistereo,bias_type"]
    for index, (english, german) in enumerate(GERMAN_OCCUPATIONS.items()):
        rows.append(
            f"{index},she is a {english} .,he is a {english} .,"
            f"sie ist {german[1]} .,er ist {german[0]} .,stereo,gender"
        )
    files["cps_translated_de_formatted.csv"] = "\n".join(rows) + "\n"
    return files


def vocabulary(files: dict[str, str]) -> list[str]:
    """BERT's special tokens, then every lower-cased word of the sandbox's files."""
    words = set()
    for text in files.values():
        words.update(text.lower().replace(",", " ").split())
    return ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]


def model_names() -> list[str]:
    """Every model name the documents pass to a command or to ``load_model``."""
    names = set()
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for pattern in MODEL_NAMES:
            names.update(pattern.findall(text))
    return sorted(name for name in names if not name.startswith(("/", ".", "~", "<")))


@pytest.fixture(scope="session")
def docs_inputs(tmp_path_factory) -> Path:
    """A directory with the sandbox's input files and a tiny BERT in ``tiny-bert/``."""
    from fixtures.api_sandbox import corpus_text, target_words, write_api_files
    from fixtures.tiny_models import build_model, save_pretrained

    from mgbias.mlm.wordpiece import build_bert_tokenizer

    root = tmp_path_factory.mktemp("docs-inputs")
    files = sandbox_files()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    write_api_files(root)  # docs/api.md's command examples: vectors, a corpus, a WET file
    tokenizer = build_bert_tokenizer(
        vocabulary({**files, "corpus.txt": corpus_text(), "targets": target_words()}),
        model_max_length=64,
    )
    model = build_model("bert", len(tokenizer), attn_implementation="eager")
    save_pretrained(model, tokenizer, root / "tiny-bert")
    return root


def environment(sandbox: Path) -> dict[str, str]:
    """Offline, one thread, the sandbox's commands first, the sandbox's own HOME."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MGBIAS_")}
    env.update(
        PATH=f"{sandbox / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(sandbox / "src"),
        HOME=str(sandbox / "home"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        OMP_NUM_THREADS="1",
        TOKENIZERS_PARALLELISM="false",
    )
    return env


@pytest.fixture(scope="session")
def mgbias_server(tmp_path_factory):
    """The command server of the blocks' ``mgbias``, imported under their environment."""
    from fixtures.command_server import CommandServer

    home = tmp_path_factory.mktemp("docs-server")
    (home / "home").mkdir()
    env = environment(home)
    env["PYTHONPATH"] = str(REPO / "src")
    with CommandServer(env) as server:
        yield server


def command_bin(directory: Path, server) -> Path:
    """``directory/.venv/bin``: the interpreter's commands, ``mgbias`` run by ``server``."""
    bin_dir = directory / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for entry in Path(sys.executable).parent.iterdir():
        target = bin_dir / entry.name
        if entry.name == "mgbias":
            server.write_client(target)
        elif entry.name.startswith("python"):  # a venv's interpreter finds its venv by path
            target.write_text(f'#!/bin/sh\nexec "{entry}" "$@"\n', encoding="utf-8")
            target.chmod(0o755)
        else:
            target.symlink_to(entry)
    return bin_dir


def make_sandbox(directory: Path, inputs: Path, server) -> Path:
    """A copy of the workflow with the quick tasks' files and models, ready for commands."""
    directory.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for part in SANDBOX_PARTS:
        source = REPO / part
        target = directory / part
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, target)
    command_bin(directory, server)
    (directory / "home").mkdir()
    for item in inputs.iterdir():
        if item.is_file():
            shutil.copy2(item, directory / item.name)
    for name in model_names():
        target = directory / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(inputs / "tiny-bert", target_is_directory=True)
    return directory


# ------------------------------------------------------------------------ evaluators


def marker(example) -> tuple[str, str] | None:
    """``(kind, reason)`` of the marker on the line before ``example``'s block, if any."""
    before = example.document.text[: example.region.start].rstrip("\n").rsplit("\n", 1)[-1]
    found = MARKER.fullmatch(before.strip())
    return (found["kind"], found["reason"]) if found else None


def dry_run(script: str) -> str:
    """``script`` with ``make -n`` for every ``make`` and ``-n`` after every ``snakemake``."""
    script = re.sub(r"(?<![\w/.$-])make(?=[ \t]|$)", "make -n", script, flags=re.M)
    return re.sub(r"(?<![\w-])((?:\S*/)?snakemake)(?=[ \t]|$)", r"\1 -n", script, flags=re.M)


def run_bash(example) -> None:
    sandbox = example.namespace["__sandbox__"]
    script = str(example.parsed)
    if (marker(example) or ("", ""))[0] == "dry-run":
        script = dry_run(script)
    try:
        result = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", script],
            cwd=sandbox,
            env=environment(sandbox),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as error:
        raise AssertionError(f"the block ran longer than {TIMEOUT_S} s:\n{script}") from error
    if result.returncode != 0:
        raise AssertionError(
            f"exit status {result.returncode} of\n{script}\n--- stdout\n{result.stdout[-3000:]}"
            f"\n--- stderr\n{result.stderr[-5000:]}"
        )


def check_yaml(example) -> None:
    from mgbias.config import load_config

    text = str(example.parsed)
    data = yaml.safe_load(text)
    if isinstance(data, dict) and {"languages", "models"} <= data.keys():
        path = example.namespace["__sandbox__"] / f"docs-config-{example.line}.yaml"
        path.write_text(text, encoding="utf-8")
        load_config(path)


PARSERS = (
    PythonCodeBlockParser(),
    CodeBlockParser("bash", evaluator=run_bash),
    CodeBlockParser("yaml", evaluator=check_yaml),
)


class Parsed:
    """A document parsed by Sybil, its examples in order, and which of them have run."""

    def __init__(self, path: Path) -> None:
        self.document = Document.parse(str(path), *PARSERS)
        self.examples = list(self.document)
        self.ran: set[int] = set()


_PARSED: dict[Path, Parsed] = {}


def parsed(path: Path) -> Parsed:
    if path not in _PARSED:
        _PARSED[path] = Parsed(path)
    return _PARSED[path]


def blocks():
    for path in DOCUMENTS:
        for index, example in enumerate(parsed(path).examples):
            yield pytest.param(path, index, id=f"{path.relative_to(REPO)}:{example.line}")


def test_the_documents_have_blocks():
    """The documents this test reads exist and hold blocks (a renamed file fails here)."""
    assert REPO / "README.md" in DOCUMENTS and REPO / "profiles/slurm/README.md" in DOCUMENTS
    assert all(path.is_file() for path in DOCUMENTS)
    assert sum(len(parsed(path).examples) for path in DOCUMENTS) >= 10


def test_dry_run_rewrites_make_and_snakemake():
    assert dry_run("make demo && make report CONFIG=x.yaml") == (
        "make -n demo && make -n report CONFIG=x.yaml"
    )
    assert dry_run(".venv/bin/snakemake --cores all\nsnakemake -s S") == (
        ".venv/bin/snakemake -n --cores all\nsnakemake -n -s S"
    )
    assert dry_run("mgbias score --model m  # no make here, $make") == (
        "mgbias score --model m  # no make -n here, $make"
    )


@pytest.mark.parametrize(("path", "index"), list(blocks()))
def test_block(
    path: Path, index: int, docs_inputs, mgbias_server, tmp_path_factory, monkeypatch
) -> None:
    document = parsed(path)
    example = document.examples[index]
    found = marker(example)
    if found and found[0] == "skip":
        pytest.skip(found[1] or "marked skip")
    namespace = document.document.namespace
    if "__sandbox__" not in namespace:
        name = re.sub(r"\W", "-", str(path.relative_to(REPO)))
        namespace["__sandbox__"] = make_sandbox(
            tmp_path_factory.mktemp("docs") / name, docs_inputs, mgbias_server
        )
    monkeypatch.chdir(namespace["__sandbox__"])
    for env_key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(env_key, "1")
    python = isinstance(example.region.evaluator, PythonEvaluator)
    for earlier in range(index if python else 0):  # it may need the earlier blocks' names
        previous = document.examples[earlier]
        if earlier in document.ran or not isinstance(previous.region.evaluator, PythonEvaluator):
            continue
        document.ran.add(earlier)  # once, even when it fails (its own test reports it)
        if (marker(previous) or ("",))[0] != "skip":
            previous.evaluate()
    document.ran.add(index)
    example.evaluate()


def test_a_failing_block_fails_and_a_marked_one_is_recognised(tmp_path, docs_inputs):
    """The evaluators report what went wrong: a bash block's exit status and output, a
    workflow configuration's invalid key; the markers are read from the line before."""
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- docs: skip no network here -->\n```bash\ncurl https://example.org\n```\n\n"
        "```bash\necho checking >&2; exit 3\n```\n\n"
        "```yaml\nlanguages: [de]\nmodels: {m: {source: x}}\nno_such_key: 1\n```\n\n"
        "<!-- docs: dry-run too long -->\n```bash\nmake demo\n```\n",
        encoding="utf-8",
    )
    document = Document.parse(str(page), *PARSERS)
    skipped, failing, config, dry = list(document)
    assert marker(skipped) == ("skip", "no network here")
    assert marker(failing) is None and marker(dry) == ("dry-run", "too long")
    document.namespace["__sandbox__"] = tmp_path
    with pytest.raises(AssertionError, match=r"(?s)exit status 3 of.*checking"):
        failing.evaluate()
    from mgbias.config import ConfigError

    with pytest.raises(ConfigError, match="no_such_key"):
        config.evaluate()


LINK = re.compile(r"\]\((?!https?://|mailto:|#)([^)\s]+?)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: str(path.relative_to(REPO)))
def test_relative_links_point_at_files(path: Path) -> None:
    """Every relative Markdown link of a document names a file or directory of the checkout."""
    text = path.read_text(encoding="utf-8")
    missing = sorted(
        {target for target in LINK.findall(text) if not (path.parent / target).exists()}
    )
    assert not missing, f"{path.relative_to(REPO)} links to missing paths: {missing}"


def test_the_served_command_is_the_installed_one(mgbias_server, tmp_path):
    """The blocks' ``mgbias`` (a client of the command server) prints, writes and exits as
    the console script does, in the caller's directory and environment."""
    client = mgbias_server.write_client(tmp_path / "mgbias")
    (tmp_path / "bad.yaml").write_text("languages: [de]\nmodels: {}\nno_such_key: 1\n")
    env = {**environment(tmp_path), "COLUMNS": "71"}
    (tmp_path / "home").mkdir()
    for argv in (["check-config", "bad.yaml"], ["--version"], ["score", "--no-such-option"]):
        served, installed = (
            subprocess.run(
                [str(command), *argv], cwd=tmp_path, env=env, capture_output=True, text=True
            )
            for command in (client, Path(sys.executable).with_name("mgbias"))
        )
        assert (served.returncode, served.stdout, served.stderr) == (
            installed.returncode,
            installed.stdout,
            installed.stderr,
        ), argv
    assert served.returncode == 2 and "mgbias score: error:" in served.stderr
