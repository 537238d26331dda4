"""Import closures: which library files a workflow script runs (rule code inputs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mgbias.workflow import code_inputs
from mgbias.workflow.code_inputs import ImportCache, import_closure, imported_modules

REPO = Path(__file__).resolve().parents[3]


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture()
def tree(tmp_path):
    """A small mgbias package: relative, nested, lazy and package imports."""
    write(
        tmp_path / "src",
        {
            "mgbias/__init__.py": "",
            "mgbias/a.py": "import numpy\nfrom .b import thing\n",
            "mgbias/b.py": "def thing():\n    from mgbias.sub import deep\n",
            "mgbias/c.py": "X = 1\n",
            "mgbias/unused.py": "",
            "mgbias/sub/__init__.py": (
                "from mgbias.sub.eager import E\n"
                "def __getattr__(name):\n    from mgbias.sub import lazy\n"
            ),
            "mgbias/sub/eager.py": "E = 1\n",
            "mgbias/sub/lazy.py": "",
            "mgbias/sub/deep.py": "from .. import c\n",
        },
    )
    write(tmp_path, {"scripts/job.py": "import os\nfrom mgbias.a import thing\n"})
    return tmp_path


def names(paths, root):
    return [str(path.relative_to((root / "src" / "mgbias").resolve())) for path in paths]


def test_closure_follows_relative_nested_and_package_imports(tree):
    closure = names(import_closure(tree / "scripts/job.py", tree / "src"), tree)
    # a -> b (relative) -> sub.deep (inside a function) -> c (two dots up);
    # sub/__init__ runs first and imports eager at module level; its lazy
    # __getattr__ import is not followed, and nothing imports unused.py.
    assert closure == [
        "__init__.py",
        "a.py",
        "b.py",
        "c.py",
        "sub/__init__.py",
        "sub/deep.py",
        "sub/eager.py",
    ]


def test_imported_modules_ignores_other_packages_and_missing_names(tree):
    found = imported_modules(tree / "src/mgbias/a.py", tree / "src")
    assert found == {"mgbias.b"}
    (tree / "scripts/bad.py").write_text("from mgbias.a import (\n")
    with pytest.raises(SyntaxError) as error:
        imported_modules(tree / "scripts/bad.py", tree / "src")
    assert "bad.py" in str(error.value.filename)


def test_imports_are_found_in_every_kind_of_block_and_not_in_strings(tree):
    write(
        tree / "src",
        {
            "mgbias/blocks.py": (
                '"""Docstring: from mgbias import unused."""\n'
                "class K:\n    import mgbias.c\n"
                "    def f(self):\n        with open('x'):\n            import mgbias.a\n"
                "for _ in ():\n    pass\nelse:\n    import mgbias.b\n"
                "while False:\n    from mgbias.sub import eager\n"
                "try:\n    pass\nexcept ImportError:\n    from mgbias.sub import lazy\n"
                "finally:\n    from mgbias.sub import deep\n"
                "match 1:\n    case 1:\n        from mgbias import unused\n"
                "f = lambda: 'import mgbias.nothing'\n"
            )
        },
    )
    found = imported_modules(tree / "src/mgbias/blocks.py", tree / "src")
    assert found == {
        "mgbias",
        "mgbias.a",
        "mgbias.b",
        "mgbias.c",
        "mgbias.sub",
        "mgbias.sub.eager",
        "mgbias.sub.lazy",
        "mgbias.sub.deep",
        "mgbias.unused",
    }


def test_a_file_changed_in_the_same_process_is_read_again(tree):
    script = tree / "scripts/job.py"
    assert imported_modules(script, tree / "src") == {"mgbias.a"}
    script.write_text("import mgbias.c\nimport mgbias.sub.lazy\n")  # another size
    assert imported_modules(script, tree / "src") == {"mgbias.c", "mgbias.sub.lazy"}


def test_a_saved_cache_gives_the_same_closure_without_parsing(tree, monkeypatch):
    script, src, saved = tree / "scripts/job.py", tree / "src", tree / "cache/imports.json"
    expected = import_closure(script, src)
    assert import_closure(script, src, ImportCache(saved)) == expected
    assert saved.is_file()

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed although cached")

    monkeypatch.setattr(code_inputs.ast, "parse", no_parsing)
    assert import_closure(script, src, ImportCache(saved)) == expected


def test_a_full_shared_cache_keeps_only_what_the_last_plan_used(tree, monkeypatch):
    script, src, saved = tree / "scripts/job.py", tree / "src", tree / "imports.json"
    import_closure(script, src, ImportCache(saved))
    first = ImportCache(saved)
    # other checkouts' versions of the same modules, under the limit: kept
    first.entries.update({f"old{i}": [] for i in range(5)})
    first.added = True
    first.save()
    assert len(ImportCache(saved).entries) == len(first.entries)
    monkeypatch.setattr(ImportCache, "LIMIT", 4)
    cache = ImportCache(saved)
    (tree / "src/mgbias/b.py").write_text("from mgbias.sub import lazy\n")  # a new entry
    closure = import_closure(script, src, cache)
    kept = ImportCache(saved)
    assert not any(key.startswith("old") for key in kept.entries)
    assert set(kept.entries) == cache._used & set(cache.entries)
    assert import_closure(script, src, kept) == closure


def test_the_workflow_cache_is_in_the_cache_root(monkeypatch, tmp_path):
    monkeypatch.setenv("MGBIAS_CACHE_DIR", str(tmp_path / "root"))
    assert code_inputs.shared_cache_path() == tmp_path / "root" / "code-imports.json"


def test_a_cached_file_edited_since_is_parsed_again(tree):
    script, src, saved = tree / "scripts/job.py", tree / "src", tree / "imports.json"
    import_closure(script, src, ImportCache(saved))
    (tree / "src/mgbias/b.py").write_text("from mgbias.sub import lazy\n")
    closure = names(import_closure(script, src, ImportCache(saved)), tree)
    assert closure == [
        "__init__.py",
        "a.py",
        "b.py",
        "sub/__init__.py",
        "sub/eager.py",
        "sub/lazy.py",
    ]


@pytest.mark.parametrize(
    "content",
    ["{not json", '{"header": {"format": 0, "python": [3, 11]}, "imports": {}}', "[1, 2]"],
)
def test_a_broken_or_foreign_cache_file_is_started_afresh(tree, content):
    script, src, saved = tree / "scripts/job.py", tree / "src", tree / "imports.json"
    saved.write_text(content)
    assert ImportCache(saved).entries == {}
    assert import_closure(script, src, ImportCache(saved)) == import_closure(script, src)
    assert ImportCache(saved).entries  # rewritten


def test_a_cache_that_cannot_be_written_changes_nothing(tree):
    (tree / "a-file").write_text("")
    cache = ImportCache(tree / "a-file" / "imports.json")  # its folder is a file
    closure = import_closure(tree / "scripts/job.py", tree / "src", cache)
    assert closure == import_closure(tree / "scripts/job.py", tree / "src")


def test_a_failed_write_leaves_no_partial_file(tree, monkeypatch):
    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(code_inputs.os, "replace", full_disk)
    folder = tree / "cache"
    import_closure(tree / "scripts/job.py", tree / "src", ImportCache(folder / "imports.json"))
    assert list(folder.iterdir()) == []


def test_the_mbe_script_runs_the_modules_the_hand_lists_had_missed():
    closure = names(import_closure(REPO / "scripts/mbe.py", REPO / "src"), REPO)
    assert {
        "mlm/unmasked_cache.py",
        "mlm/scores.py",
        "kaneko2022/sentences.py",
        "measures/mbe.py",
    } <= set(closure)
    # one measure's job does not run the others
    assert not {"measures/sjsd.py", "measures/cps.py"} & set(closure)
    scoring = names(import_closure(REPO / "scripts/score_pairs.py", REPO / "src"), REPO)
    assert "mlm/scores.py" in scoring and not any(p.startswith("measures/") for p in scoring)


def test_the_demo_world_does_not_rerun_when_an_output_path_changes():
    # the demo's worlds and benchmarks are the root of every demo job: their scripts run
    # the mirror's layouts (mgbias.workflow.mirror_layout), not the workflow's output paths
    for script in ("demo_world.py", "demo_pairs.py"):
        closure = names(import_closure(REPO / "scripts" / script, REPO / "src"), REPO)
        assert "workflow/mirror_layout.py" in closure, script
        assert not [name for name in closure if name.startswith("workflow/layout/")], script


def test_a_code_digest_lists_the_meaning_of_the_script_and_its_closure(tree):
    from mgbias.workflow.code_inputs import code_digest, meaning_digest

    script, src, out = tree / "scripts/job.py", tree / "src", tree / "digests"
    path, changed = code_digest(script, src, out)
    assert (path, changed) == (out / "job.txt", [])
    lines = dict(line.split(" ") for line in path.read_text().splitlines())
    expected = [
        "scripts/job.py",
        *(f"src/mgbias/{n}" for n in names(import_closure(script, src), tree)),
    ]
    assert list(lines) == expected
    assert lines["src/mgbias/c.py"] == meaning_digest(b"X = 1\n")
    assert path.stat().st_mtime == 0  # new: older than any output of a completed run
    # a comment, a docstring, blank lines: the digest is not rewritten
    (src / "mgbias/c.py").write_text('"""The c module."""\n\n# one\nX = 1  # one\n')
    (tree / "scripts/job.py").write_text('"""A job."""\nimport os\n\nfrom mgbias.a import thing\n')
    assert code_digest(script, src, out) == (path, [])
    assert path.stat().st_mtime == 0
    # a change of what the code does: rewritten now, naming the file
    (src / "mgbias/c.py").write_text("X = 2\n")
    assert code_digest(script, src, out) == (path, ["src/mgbias/c.py"])
    assert path.stat().st_mtime > 0
    # a module left out (run only for some jobs): another digest, without its line
    left, _ = code_digest(script, src, out, leave_out=[src / "mgbias/c.py"])
    assert left.name == "job-without-c.txt" and "src/mgbias/c.py" not in left.read_text()


def test_meaning_digest_of_nested_docstrings_and_of_a_syntax_error(tmp_path):
    from mgbias.workflow.code_inputs import meaning_digest

    with_docs = b'class A:\n    """A."""\n    def f(self):\n        """F."""\n'
    assert meaning_digest(with_docs) == meaning_digest(
        b"class A:\n    def f(self):\n        pass\n"
    )
    assert meaning_digest(b"x = 'a'\n") != meaning_digest(b"x = 'b'\n")  # a literal counts
    with pytest.raises(SyntaxError, match="broken.py"):
        meaning_digest(b"def (:\n", tmp_path / "broken.py")
