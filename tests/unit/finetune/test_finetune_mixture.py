"""D_r (Kaneko et al. 2023, §2): exact sizes and rounding, nested prefixes, independent
draws, no sentence in both parts, byte-identical per seed, different seeds differ."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from mgbias.finetune.mixture import mixture_indices, mixture_sizes, write_mixture

GRID = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


@pytest.fixture
def gendered(tmp_path) -> tuple[Path, Path]:
    female = tmp_path / "female.txt"
    male = tmp_path / "male.txt"
    female.write_text("".join(f"she f{i}\n" for i in range(40)), encoding="utf-8")
    male.write_text("".join(f"he m{i}\n" for i in range(40)), encoding="utf-8")
    return female, male


def read(path: Path) -> tuple[list[str], list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [s for s in lines if s.startswith("he ")], [s for s in lines if s.startswith("she ")]


def test_sizes_follow_the_formula_not_the_prose():
    # round(N r) male, N - round(N r) female: r = 0 is all female, r = 1 all male.
    assert mixture_sizes(2_000_000, 0.3) == (600_000, 1_400_000)
    assert mixture_sizes(10, 0.0) == (0, 10)
    assert mixture_sizes(10, 1.0) == (10, 0)
    assert mixture_sizes(1000, 0.25) == (250, 750)


@pytest.mark.parametrize(
    ("n", "r", "half_up", "half_even"),
    [
        (5, 0.5, 3, 2),  # 2.5
        (5, 0.3, 2, 2),  # 1.5 (in binary, 5 * 0.3 = 1.5 exactly; decimal agrees)
        (5, 0.7, 4, 4),  # 3.5
        (10, 0.45, 5, 4),  # 4.5: binary 10 * 0.45 = 4.5; the decimal rule decides
        (3, 0.5, 2, 2),  # 1.5
        (7, 0.5, 4, 4),  # 3.5
        (9, 0.5, 5, 4),  # 4.5
        (7, 0.1, 1, 1),  # 0.7, no tie
        (45, 0.7, 32, 32),  # 31.5, though 45 * 0.7 is 31.499999999999996 in binary
        (25, 0.58, 15, 14),  # 14.5, though 25 * 0.58 is 14.499999999999998 in binary
    ],
)
def test_rounding_of_ties(n, r, half_up, half_even):
    assert mixture_sizes(n, r) == (half_up, n - half_up)
    assert mixture_sizes(n, r, rounding="half_even") == (half_even, n - half_even)
    # half_even is Python's round() on the exact product.
    assert half_even == round(Fraction(repr(r)) * n)


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError, match=r"r must be a number in \[0, 1\], got 1.5"):
        mixture_sizes(10, 1.5)
    with pytest.raises(ValueError, match="rounding must be one of"):
        mixture_sizes(10, 0.5, rounding="up")
    with pytest.raises(ValueError, match="sampling must be one of"):
        mixture_indices(10, 10, 0.5, seed=0, sampling="fresh")
    with pytest.raises(ValueError, match="D_f has 10 lines and D_m 12"):
        mixture_indices(10, 12, 0.5, seed=0)
    with pytest.raises(ValueError, match="N = 11 is larger than D_f"):
        mixture_indices(10, 12, 0.5, seed=0, n=11)


@pytest.mark.parametrize("sampling", ["nested", "independent"])
def test_exact_counts_and_no_sentence_in_both_parts(gendered, tmp_path, sampling):
    female, male = gendered
    for r in GRID:
        out = tmp_path / f"r{r}.txt"
        mixture = write_mixture(female, male, r, out, seed=3, n=30, sampling=sampling)
        males, females = read(out)
        n_male = {0.0: 0, 0.1: 3, 0.25: 8, 0.5: 15, 0.75: 23, 0.9: 27, 1.0: 30}[r]  # 7.5 -> 8
        assert (len(males), len(females)) == (n_male, 30 - n_male)
        # Each line comes from its gender's file and is used once.
        assert set(males) <= set(male.read_text().splitlines())
        assert set(females) <= set(female.read_text().splitlines())
        assert max(Counter(males + females).values(), default=1) == 1
        assert mixture.summary()["n_male"] == n_male
        assert [gender for gender, _ in mixture.order].count("male") == n_male
        assert mixture.summary()["sampling"] == sampling


def test_nested_sets_are_prefixes(gendered, tmp_path):
    female, male = gendered
    parts = {}
    for r in GRID:
        mixture = mixture_indices(40, 40, r, seed=5, n=40)
        parts[r] = (mixture.male.tolist(), mixture.female.tolist())
    for smaller, larger in zip(GRID, GRID[1:], strict=False):
        male_s, female_s = parts[smaller]
        male_l, female_l = parts[larger]
        assert male_l[: len(male_s)] == male_s  # the male part grows by appending
        assert female_s[: len(female_l)] == female_l  # the female part shrinks by truncating
    # Every r uses the same two shuffles; a repeat uses two other ones.
    other = mixture_indices(40, 40, 1.0, seed=5, n=40, repeat=1)
    assert other.male.tolist() != parts[1.0][0]


def test_independent_draws_differ_between_r(gendered):
    low = mixture_indices(40, 40, 0.5, seed=5, sampling="independent")
    high = mixture_indices(40, 40, 0.75, seed=5, sampling="independent")
    assert high.male.tolist()[:20] != low.male.tolist()


def test_byte_identical_per_seed_and_different_across_seeds(gendered, tmp_path):
    female, male = gendered
    first = tmp_path / "a.txt"
    write_mixture(female, male, 0.5, first, seed=11)
    again = tmp_path / "b.txt"
    write_mixture(female, male, 0.5, again, seed=11)
    other = tmp_path / "c.txt"
    write_mixture(female, male, 0.5, other, seed=12)
    repeat = tmp_path / "d.txt"
    write_mixture(female, male, 0.5, repeat, seed=11, repeat=1)
    assert first.read_bytes() == again.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    assert first.read_bytes() != repeat.read_bytes()
    # All 40 lines used at r = 0.5 with N = 40: 20 of each, interleaved (not in blocks).
    lines = first.read_text().splitlines()
    assert len(lines) == 40
    assert [s.startswith("he ") for s in lines] != sorted(s.startswith("he ") for s in lines)


def test_last_line_without_newline_is_copied_whole(tmp_path):
    female, male = tmp_path / "f.txt", tmp_path / "m.txt"
    female.write_text("she a\nshe b", encoding="utf-8")
    male.write_text("he a\nhe b\n", encoding="utf-8")
    out = tmp_path / "mix.txt"
    write_mixture(female, male, 0.0, out, seed=0)
    assert sorted(out.read_text().splitlines()) == ["she a", "she b"]
    assert out.read_text().endswith("\n")
