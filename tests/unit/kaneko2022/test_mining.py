"""MBE Step 1: gendered sentence mining and equal-size downsampling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mgbias.kaneko2022.mining import (
    WORD_SEPARATOR,
    MiningCounts,
    downsample_to_equal,
    mine_gendered_sentences,
    mine_parallel,
)

FEMALE = frozenset({"she", "her", "woman", "wife"})
MALE = frozenset({"he", "his", "man", "husband"})


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


PAIRS = [
    ("He is a doctor.", "Er ist Arzt."),
    ("She is a nurse.", "Sie ist Krankenschwester."),
    ("The man and his wife.", "Der Mann und seine Frau."),
    ("Hello.", "Hallo."),
    ("Her brother left.", "  Ihr Bruder ging.  "),
    ("His car.", ""),
    ("He", "Er\r\nging\u2028weg"),
    ("The shepherd.", "Der Schäfer."),
    ("A woman.", "   "),
]


def test_mine_parallel_writes_target_sides_and_counts(tmp_path):
    out_female, out_male = tmp_path / "f.txt", tmp_path / "m.txt"
    counts = mine_parallel(iter(PAIRS), FEMALE, MALE, out_female, out_male, progress=False)
    assert counts == MiningCounts(
        n_pairs=9, n_female=2, n_male=2, n_both=1, n_neutral=2, n_empty=2, n_kept_per_gender=0
    )
    total = counts.n_female + counts.n_male + counts.n_both + counts.n_neutral + counts.n_empty
    assert total == counts.n_pairs
    assert out_female.read_text(encoding="utf-8") == (
        "Sie ist Krankenschwester.\nIhr Bruder ging.\n"
    )
    assert out_male.read_text(encoding="utf-8") == "Er ist Arzt.\nEr ging weg\n"


def test_mine_parallel_writes_each_sentences_gender_words(tmp_path):
    female = FEMALE | {"ex-wife"}
    pairs = [*PAIRS, ("She met her ex-wife.", "Sie traf ihre Ex-Frau.")]
    outputs = {name: tmp_path / name for name in ("f.txt", "m.txt", "f.words", "m.words")}
    counts = mine_parallel(
        iter(pairs),
        female,
        MALE,
        outputs["f.txt"],
        outputs["m.txt"],
        progress=False,
        words_female=outputs["f.words"],
        words_male=outputs["m.words"],
    )
    assert (counts.n_female, counts.n_male, counts.n_both) == (3, 2, 1)
    assert lines_of(outputs["f.txt"]) == [
        "Sie ist Krankenschwester.",
        "Ihr Bruder ging.",
        "Sie traf ihre Ex-Frau.",
    ]
    assert lines_of(outputs["f.words"]) == ["she", "her", "ex wife|her|she|wife"]
    assert outputs["m.txt"].read_text(encoding="utf-8") == "Er ist Arzt.\nEr ging weg\n"
    assert outputs["m.words"].read_text(encoding="utf-8") == "he\nhe\n"
    assert WORD_SEPARATOR == "|"
    # the sentence files are those written without words files
    plain_f, plain_m = tmp_path / "plain_f.txt", tmp_path / "plain_m.txt"
    mine_parallel(iter(pairs), female, MALE, plain_f, plain_m, progress=False)
    assert plain_f.read_bytes() == outputs["f.txt"].read_bytes()
    assert plain_m.read_bytes() == outputs["m.txt"].read_bytes()


def test_mine_parallel_needs_both_words_files_or_neither(tmp_path):
    with pytest.raises(ValueError, match="expected both words files or neither"):
        mine_parallel(
            iter(PAIRS),
            FEMALE,
            MALE,
            tmp_path / "f.txt",
            tmp_path / "m.txt",
            progress=False,
            words_female=tmp_path / "f.words",
        )


def test_downsample_keeps_equal_sizes_in_original_order(tmp_path):
    female_lines = [f"f{i}" for i in range(50)]
    male_lines = [f"m{i}" for i in range(20)]
    in_f = write_lines(tmp_path / "in_f.txt", female_lines)
    in_m = write_lines(tmp_path / "in_m.txt", male_lines)
    out_f, out_m = tmp_path / "out" / "f.txt", tmp_path / "out" / "m.txt"
    k = downsample_to_equal(in_f, in_m, out_f, out_m, seed=7)
    assert k == 20
    kept_female = lines_of(out_f)
    assert lines_of(out_m) == male_lines  # the smaller side is kept whole
    assert len(kept_female) == len(set(kept_female)) == 20
    indices = [female_lines.index(line) for line in kept_female]
    assert indices == sorted(indices)
    assert sorted(path.name for path in out_f.parent.iterdir()) == ["f.txt", "m.txt"]


def test_downsample_is_seeded(tmp_path):
    in_f = write_lines(tmp_path / "in_f.txt", [f"f{i}" for i in range(50)])
    in_m = write_lines(tmp_path / "in_m.txt", [f"m{i}" for i in range(20)])

    def run(seed: int, name: str) -> bytes:
        out_f, out_m = tmp_path / f"{name}_f.txt", tmp_path / f"{name}_m.txt"
        downsample_to_equal(in_f, in_m, out_f, out_m, seed=seed)
        return out_f.read_bytes()

    assert run(3, "a") == run(3, "b")
    assert run(3, "a") != run(4, "c")


def test_genders_use_different_random_streams(tmp_path):
    # Only the larger side is ever sampled; the same 100 lines are sampled once as the
    # female side and once as the male side, with the same seed.
    hundred = write_lines(tmp_path / "hundred.txt", [f"line {i}" for i in range(100)])
    thirty = write_lines(tmp_path / "thirty.txt", [f"other {i}" for i in range(30)])
    as_female, as_male = tmp_path / "as_female.txt", tmp_path / "as_male.txt"
    downsample_to_equal(hundred, thirty, as_female, tmp_path / "unused1.txt", seed=11)
    downsample_to_equal(thirty, hundred, tmp_path / "unused2.txt", as_male, seed=11)
    assert len(lines_of(as_female)) == len(lines_of(as_male)) == 30
    assert lines_of(as_female) != lines_of(as_male)


def test_downsample_is_uniform(tmp_path):
    n_lines, k, n_seeds = 10, 3, 400
    in_f = write_lines(tmp_path / "in_f.txt", [str(i) for i in range(n_lines)])
    in_m = write_lines(tmp_path / "in_m.txt", [str(i) for i in range(k)])
    kept = [0] * n_lines
    for seed in range(n_seeds):
        downsample_to_equal(in_f, in_m, tmp_path / "f.txt", tmp_path / "m.txt", seed=seed)
        for line in lines_of(tmp_path / "f.txt"):
            kept[int(line)] += 1
    # Each line is kept with probability k / n = 0.3; 4 standard deviations is 0.092.
    frequencies = [count / n_seeds for count in kept]
    assert all(abs(freq - k / n_lines) < 0.092 for freq in frequencies), frequencies


def test_downsample_edge_cases(tmp_path):
    in_f = tmp_path / "in_f.txt"
    in_f.write_text("a\nb\nc", encoding="utf-8")  # no final newline
    in_m = write_lines(tmp_path / "in_m.txt", ["x", "y", "z"])
    out_f, out_m = tmp_path / "f.txt", tmp_path / "m.txt"
    assert downsample_to_equal(in_f, in_m, out_f, out_m, seed=1) == 3
    assert out_f.read_text(encoding="utf-8") == "a\nb\nc\n"
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert downsample_to_equal(empty, in_m, out_f, out_m, seed=1) == 0
    assert out_f.read_bytes() == out_m.read_bytes() == b""
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        downsample_to_equal(in_f, in_m, out_f, out_m, seed=-1)


def test_downsample_without_companions_gives_the_bytes_of_before(tmp_path):
    # Recorded with the code before companions existed: seed 7, 12 female and 5 male lines.
    in_f = write_lines(tmp_path / "in_f.txt", [f"f{i}" for i in range(12)])
    in_m = write_lines(tmp_path / "in_m.txt", [f"m{i}" for i in range(5)])
    out_f, out_m = tmp_path / "f.txt", tmp_path / "m.txt"
    assert downsample_to_equal(in_f, in_m, out_f, out_m, seed=7) == 5
    assert out_f.read_bytes() == b"f0\nf2\nf7\nf9\nf11\n"
    assert out_m.read_bytes() == b"m0\nm1\nm2\nm3\nm4\n"


def test_downsample_copies_the_same_lines_of_the_companions(tmp_path):
    in_f = write_lines(tmp_path / "in_f.txt", [f"f{i}" for i in range(50)])
    in_m = write_lines(tmp_path / "in_m.txt", [f"m{i}" for i in range(20)])
    in_fw = write_lines(tmp_path / "in_f.words", [f"fw{i}" for i in range(50)])
    in_mw = write_lines(tmp_path / "in_m.words", [f"mw{i}" for i in range(20)])
    out = tmp_path / "out"
    out.mkdir()
    companions = ((in_fw, out / "f.words"), (in_mw, out / "m.words"))
    k = downsample_to_equal(in_f, in_m, out / "f.txt", out / "m.txt", seed=7, companions=companions)
    assert k == 20
    kept_female = lines_of(out / "f.txt")
    assert lines_of(out / "f.words") == [line.replace("f", "fw") for line in kept_female]
    assert lines_of(out / "m.words") == [f"mw{i}" for i in range(20)]
    # the companions change neither the draws nor the sentence files
    downsample_to_equal(in_f, in_m, tmp_path / "f.txt", tmp_path / "m.txt", seed=7)
    assert (tmp_path / "f.txt").read_bytes() == (out / "f.txt").read_bytes()
    assert (tmp_path / "m.txt").read_bytes() == (out / "m.txt").read_bytes()
    assert sorted(path.name for path in out.iterdir()) == ["f.txt", "f.words", "m.txt", "m.words"]


def test_downsample_rejects_a_companion_of_another_length(tmp_path):
    in_f = write_lines(tmp_path / "in_f.txt", ["f0", "f1", "f2"])
    in_m = write_lines(tmp_path / "in_m.txt", ["m0", "m1"])
    in_fw = write_lines(tmp_path / "in_f.words", ["fw0", "fw1", "fw2"])
    in_mw = write_lines(tmp_path / "in_m.words", ["mw0", "mw1", "mw2"])
    out = tmp_path / "out"
    out.mkdir()
    companions = ((in_fw, out / "f.words"), (in_mw, out / "m.words"))
    with pytest.raises(ValueError, match=r"in_m.words: has 3 lines, but .*in_m.txt has 2"):
        downsample_to_equal(in_f, in_m, out / "f.txt", out / "m.txt", seed=0, companions=companions)
    assert list(out.iterdir()) == []  # no output appears


def test_downsample_failure_keeps_previous_outputs(tmp_path):
    in_f = write_lines(tmp_path / "in_f.txt", ["a", "b"])
    out_f, out_m = tmp_path / "f.txt", tmp_path / "m.txt"
    out_f.write_text("old female\n", encoding="utf-8")
    out_m.write_text("old male\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError):
        downsample_to_equal(in_f, tmp_path / "absent.txt", out_f, out_m, seed=0)
    assert lines_of(out_f) == ["old female"] and lines_of(out_m) == ["old male"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt", "in_f.txt", "m.txt"]


def test_mine_gendered_sentences_end_to_end(tmp_path):
    pairs = [(f"She said {i}.", f"Sie sagte {i}.") for i in range(12)]
    pairs += [(f"He said {i}.", f"Er sagte {i}.") for i in range(5)]
    pairs += [("Her husband came.", "Ihr Mann kam."), ("Nobody came.", "")]
    out_f, out_m = tmp_path / "t" / "female.txt", tmp_path / "t" / "male.txt"
    counts = mine_gendered_sentences(
        iter(pairs), FEMALE, MALE, out_f, out_m, seed=5, workdir=tmp_path / "scratch"
    )
    assert counts.to_dict() == {
        "n_pairs": 19,
        "n_female": 12,
        "n_male": 5,
        "n_both": 1,
        "n_neutral": 0,
        "n_empty": 1,
        "n_kept_per_gender": 5,
    }
    assert lines_of(out_m) == [f"Er sagte {i}." for i in range(5)]
    kept = lines_of(out_f)
    assert len(kept) == 5 and set(kept) <= {f"Sie sagte {i}." for i in range(12)}
    assert list((tmp_path / "scratch").iterdir()) == []  # scratch files removed
    again = tmp_path / "again"
    mine_gendered_sentences(iter(pairs), FEMALE, MALE, again / "f.txt", again / "m.txt", seed=5)
    assert (again / "f.txt").read_bytes() == out_f.read_bytes()


def test_mine_gendered_sentences_keeps_each_sentences_words(tmp_path):
    pairs = [(f"She said {i}.", f"Sie sagte {i}.") for i in range(6)]
    pairs += [(f"Her cat {i}.", f"Ihre Katze {i}.") for i in range(6)]
    pairs += [(f"He said {i}.", f"Er sagte {i}.") for i in range(3)]
    pairs += [("His wife's man.", "Seine Frau.")]  # both: dropped
    pairs += [(f"His man {i}.", f"Sein Mann {i}.") for i in range(2)]
    out = tmp_path / "out"
    counts = mine_gendered_sentences(
        iter(pairs),
        FEMALE,
        MALE,
        out / "f.txt",
        out / "m.txt",
        seed=3,
        words_female=out / "f.words",
        words_male=out / "m.words",
    )
    assert (counts.n_female, counts.n_male, counts.n_both, counts.n_kept_per_gender) == (
        12,
        5,
        1,
        5,
    )
    expected_words = {"Sie": "she", "Ihre": "her", "Er": "he", "Sein": "his|man"}
    for gender in ("f", "m"):
        sentences = lines_of(out / f"{gender}.txt")
        assert len(sentences) == 5
        words = lines_of(out / f"{gender}.words")
        assert words == [expected_words[sentence.split()[0]] for sentence in sentences]
    again = tmp_path / "again"
    mine_gendered_sentences(iter(pairs), FEMALE, MALE, again / "f.txt", again / "m.txt", seed=3)
    assert (again / "f.txt").read_bytes() == (out / "f.txt").read_bytes()
    assert sorted(path.name for path in out.iterdir()) == ["f.txt", "f.words", "m.txt", "m.words"]


def test_mining_counts_json_round_trip():
    counts = MiningCounts(10, 3, 4, 1, 1, 1, 3)
    assert MiningCounts.from_dict(json.loads(json.dumps(counts.to_dict()))) == counts
    with pytest.raises(ValueError, match=r"missing keys \['n_kept_per_gender'\]"):
        MiningCounts.from_dict({k: v for k, v in counts.to_dict().items() if k[-1] != "r"})
    with pytest.raises(ValueError, match=r"unknown keys \['n_other'\]"):
        MiningCounts.from_dict({**counts.to_dict(), "n_other": 1})
    with pytest.raises(ValueError, match="'n_male' must be a non-negative integer"):
        MiningCounts.from_dict({**counts.to_dict(), "n_male": -2})
