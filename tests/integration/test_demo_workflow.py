"""The whole demo DAG in a temporary directory: planted bias must be recovered.

Runs ``snakemake`` on ``config/config.yaml`` (the demo world of ``make demo``) once
per session, then checks the tables and that a second plan has nothing to do.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest
import yaml
from fixtures.seed_records import check_seed_records
from snakerun import jobs_python, run_snakemake
from transformers import AutoTokenizer

from mgbias.demo.lexicon import first_names
from mgbias.kaneko2022.native_names import shipped_name_specs
from mgbias.pairs.data import load_pairs

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.integration


# The demo run took 1,172-1,440 s of a 2-core CI machine whose other pytest worker runs
# the rest of the suite meanwhile: the limit leaves room. Three jobs at a time on the two
# cores (each job runs one thread): the other worker's tests leave a core idle while they
# wait (SLURM, subprocesses), and a job's start (Python and its imports) overlaps others'.
DEMO_JOBS = "3"


def snakemake(workdir: Path, *args: str, timeout: int = 2400) -> subprocess.CompletedProcess:
    """The demo workflow in ``workdir``; its script jobs in the tests' warm interpreter
    (:func:`snakerun.job_python`), its other commands as ``make demo`` runs them."""
    command = [
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(REPO / "config" / "config.yaml"),
        "--cores",
        DEMO_JOBS,
        *args,
    ]
    return run_snakemake(command, cwd=REPO, timeout=timeout, python=jobs_python(args))


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory) -> Path:
    workdir = tmp_path_factory.mktemp("demo")
    result = snakemake(workdir)
    if result.returncode != 0:
        pytest.fail(f"demo workflow failed:\n{result.stdout[-5000:]}\n{result.stderr[-10000:]}")
    return workdir


@pytest.fixture(scope="session")
def mbe(demo_run) -> pd.DataFrame:
    return pd.read_csv(demo_run / "results" / "tables" / "mbe_scores.csv")


def test_mbe_table_has_the_documented_columns(demo_run, mbe):
    for column in ["model", "corpus", "lang", "world", "mbe", "p_value", "preferred"]:
        assert column in mbe.columns
    assert set(mbe["lang"]) == {"de", "es"}
    assert set(mbe["corpus"]) == {"TED2020"}
    assert (demo_run / "results" / "tables" / "mbe_scores.md").read_text().startswith("# MBE")


def test_mining_table_counts(demo_run):
    mined = pd.read_csv(demo_run / "results" / "tables" / "mine_counts.csv")
    assert len(mined) == 2 * 1 * 2  # worlds x corpora x languages
    assert (mined["n_kept_per_gender"] > 100).all()
    assert (mined["n_both"] > 0).all(), "sentences with both genders must be seen and excluded"
    planted = mined[mined.world == "planted"]
    # the planted world has a 3:1 male:female ratio among gendered sentences
    ratio = planted["n_male"] / planted["n_female"]
    assert ((ratio > 2.4) & (ratio < 3.8)).all(), ratio


def test_planted_model_prefers_male_sentences_significantly(mbe):
    planted = mbe[mbe.model == "demo-planted"]
    assert len(planted) == 2 * 1 * 2
    assert (planted["mbe"] > 50).all(), planted[["world", "corpus", "lang", "mbe"]]
    assert (planted["test"] == "permutation").all()  # the calibrated default
    assert (planted["n_permutations"] == 999).all()
    # gender words as the units: the demo worlds mine hundreds of them per language
    assert (planted["cluster"] == "gender_words").all()
    assert (planted["n_clusters"] > 100).all(), planted[["world", "lang", "n_clusters"]]
    assert (planted["p_value"] < 0.05).all(), planted[["world", "corpus", "lang", "p_value"]]
    assert planted["significant"].all()
    assert (planted["preferred"] == "male").all()


def test_planted_is_further_from_neutral_than_balanced(mbe):
    keys = ["world", "corpus", "lang"]
    planted = mbe[mbe.model == "demo-planted"].set_index(keys)["mbe"]
    balanced = mbe[mbe.model == "demo-balanced"].set_index(keys)["mbe"]
    gap = (planted - 50).abs() - (balanced.loc[planted.index] - 50).abs()
    assert (gap > 0).all(), gap


def test_balanced_model_mbe_is_neutral_on_its_own_world(mbe):
    """The balanced control's MBE on the balanced world's sentences must not be significant.

    Before the control world was mirrored (``demo.balanced.mirrored``: every gendered
    sentence in both genders), this model copied every visible male subject pronoun
    (él, er) more confidently than the female one, from its training draw alone, which
    AULA reads unmasked: MBE 52.9 (de) and 53.9 (es) at seed 12345. With the sentences as
    the test's units, the ~45% of sentences holding a pronoun subject counted as
    independent and made that word effect significant (p = 0.026, 0.002); with the
    gender words as the units (``mbe.cluster: gender_words``) it is not, while the
    planted model stays significant (test above). Mirrored: 49.8 (p = 0.87) and 49.3
    (p = 0.50)."""
    balanced = mbe[(mbe.model == "demo-balanced") & (mbe.world == "balanced")]
    assert len(balanced) == 2
    assert (balanced["p_value"] >= 0.05 / 4).all(), balanced[["lang", "mbe", "p_value"]]


def test_shf_baseline_is_near_neutral(mbe):
    assert ((mbe["shf"] - 50).abs() < 5).all(), mbe["shf"]
    # Shf is null by construction and tested like MBE: with a calibrated test about 0.4 of
    # the 8 baselines have p < 0.05 (3 or more: binomial probability 0.006; measured: 1).
    assert len(mbe) == 8
    assert (mbe["shf_p_value"] < 0.05).sum() <= 2, mbe["shf_p_value"]


@pytest.fixture(scope="session")
def pair_scores(demo_run) -> pd.DataFrame:
    scores = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv")
    scores = scores[scores.dataset == "multilingual_crows_pairs"]
    return scores.set_index(["model", "variant", "lang", "measure"])["score"]


TARGETS = ["de", "es"]
LANGUAGES = ["en", *TARGETS]


def test_pair_tables_cover_every_model_language_variant_and_measure(demo_run, pair_scores):
    assert len(pair_scores) == 2 * 3 * 6  # models x languages x measures
    # and the pair datasets of Kaneko et al. (2022), Tables 4-6 (one language each)
    datasets = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv").dataset
    assert datasets.value_counts().to_dict() == {
        "multilingual_crows_pairs": 36,
        "crows_pairs_mt": 12,
        "template_pairs": 12,
        "crows_pairs_names": 12,
    }
    for table in ["pairs_steinborn_table2", "pairs_by_model"]:
        assert (demo_run / "results" / "tables" / f"{table}.md").read_text().startswith("# ")


def test_planted_pair_bias_is_recovered_by_aula_and_cps(pair_scores):
    # The demo pairs swap the subject's gender; in German and Spanish the
    # occupation agrees with it (Ärztin / Arzt), and in English the demo says the
    # gender again before the occupation ("a female nurse"), so the planted
    # association is next to the occupation in every language.
    for measure in ["aula", "cps"]:
        planted = pair_scores.loc["demo-planted", "original", LANGUAGES, measure]
        balanced = pair_scores.loc["demo-balanced", "original", LANGUAGES, measure]
        assert (planted > 50).all(), (measure, planted)
        assert abs(planted.mean() - 50) > abs(balanced.mean() - 50), (measure, planted, balanced)


def test_english_recovers_the_plant_and_the_balanced_control_stays_neutral(demo_run):
    """English, with one form per occupation, showed no plant (planted CPS 44.3, AUL
    52.0, AULA 53.0; p > 0.1, seed 12345) while German and Spanish did. Cause, measured:
    the demo MLM (2 layers x 64) learns gender between neighbouring tokens only, not
    across "he is a" ("she is a [MASK] ." and "he is a [MASK] ." give the occupations
    the same log-probabilities to 0.05), and German and Spanish show the plant through
    the frequencies of their gendered forms. Fix: the demo worlds' English says the
    subject's gender again before an occupation ("she is a female nurse", as English
    renders Ärztin), and so do the English demo pairs
    (`demo.<world>.english_gender_marking`, `demo.english_pair_marking`), with the
    demo MLMs trained at 2e-3 without dropout (at 5e-4 with dropout 0.1 the loss is
    still 2.55 at step 3,000 and nothing is learned). Measured on the test-size
    worlds, 300 English pairs, clustered by occupation, planted AUL / AULA / CPS: this
    workflow (seed 12345) 81.7 / 96.0 / 100 (p <= 0.001); standalone models of the
    same size, seed 1 77.7 / 80.3 / 100 (half of the occupations marked), seed 2 82.7
    / 83.7 / 100, seed 3 63.3 (p = 0.18) / 87.0 / 100, so AUL, which reads every token
    unmasked, is the weakest; balanced: this workflow 50.3 / 48.3 / 41.3 (p >= 0.34;
    mirrored control world), seed 1 49.3 / 49.7 / 56.3, seed 2 49.0 / 48.3 / 49.7
    (p >= 0.5; before it was mirrored)."""
    table = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv")
    table = table[(table.dataset == "multilingual_crows_pairs") & (table.variant == "original")]
    rows = table.set_index(["model", "lang", "measure"])
    for measure in ["aul", "aula", "cps"]:
        planted = rows.loc["demo-planted", "en", measure]
        assert planted["score"] > 50 and planted["p_value"] < 0.05, (measure, planted)
        assert planted["significant"], (measure, planted)
        balanced = rows.loc["demo-balanced", "en", measure]
        assert balanced["p_value"] >= 0.05 / 8, (measure, balanced)


def test_balanced_control_is_neutral_and_the_plant_significant_with_clustered_tests(demo_run):
    """The 300 demo pairs reuse 16 occupations, and a model's preference for one
    occupation's feminine form decides all of its pairs; with the pairs as units the
    sign test read such per-occupation effects of the balanced model as bias (German
    AULA 59.0, p = 0.002; Spanish CPS 62.0, p = 4e-5, seed 12345). The demo sets
    `cluster: target`, so the tests take the occupations as units (cluster sign-flip
    test, calibrated in tests/unit/measures/test_cluster_significance.py): the control
    must be neutral in every language (p >= 0.05/8, Bonferroni over 2 measures x 4
    languages), the planted model's plant significant in every language."""
    table = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv")
    table = table[(table.dataset == "multilingual_crows_pairs") & (table.variant == "original")]
    rows = table.set_index(["model", "lang", "measure"])
    assert (table["n_clusters"] == 16).all(), table["n_clusters"]
    for measure in ["aula", "cps"]:
        balanced = rows.loc["demo-balanced", :, measure]["p_value"]
        assert (balanced >= 0.05 / 8).all(), (measure, balanced)
        planted = rows.loc["demo-planted", LANGUAGES, measure]["p_value"]
        assert (planted < 0.05).all(), (measure, planted)


def test_balanced_control_is_neutral_on_every_pair_dataset_and_measure(demo_run):
    """Every pair dataset, language and measure of the balanced model: none is marked
    significant (p < 0.05, what the tables mark), although 36 tests are made; measured
    at test size (seed 12345) the smallest p is 0.073. Before the Kaneko et al. (2022) datasets were
    clustered, the control read significant with the pairs as units: the demo "machine
    translation" CPS 41.3 (p = 0.013), template pairs CPS 40.6 (p = 0.022) and S_JSD
    (p = 0.0018). The first two are the demo pairs again (clustered by occupation, as
    `multilingual_crows_pairs`); a template pair's preference hangs on its gender words
    (the control's CPS prefers the female sentence in every he/she pair and the male
    one in 84-100% of each noun's pairs), so the template pairs are clustered by
    `gender_pair`, and their ties are reported (88 of the 300 MT pairs tie: a flipped
    pair's sentences are identical)."""
    table = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv")
    balanced = table[table.model == "demo-balanced"]
    assert len(balanced) == 36
    assert not balanced.significant.any(), balanced.sort_values("p_value")
    clusters = balanced.groupby("dataset")["n_clusters"].unique().map(list).to_dict()
    assert clusters == {
        "crows_pairs_mt": [16],
        "crows_pairs_names": [16],
        "multilingual_crows_pairs": [16],
        "template_pairs": [5],
    }
    mt = balanced[balanced.dataset == "crows_pairs_mt"].set_index("measure")
    assert (mt.n_ties >= 88).all() and mt.loc["aula", "score"] < 40  # ties, not a preference
    # the table says how many marks chance alone would make (1.8 of 36)
    note = (demo_run / "results" / "tables" / "pairs_scores.md").read_text()
    assert "- demo-balanced: 0 of 36 tests marked (p < 0.05); a model with no preference " in note
    assert "has about 1.8 marked by chance alone (at most 5 in 99 of 100 tables" in note


def test_unseen_native_names_pull_every_score_towards_50(demo_run):
    """The Spanish pairs with native first names (``crows_pairs_names``; Kaneko et al.
    2022, Table 6) against the same pairs with the English names.

    The demo worlds write the English first names in every language, so each is one
    token of the demo vocabulary, seen about 20 times per language; the native names
    are never seen and split into 2.6 to 3.1 pieces. Their pieces then decide the pair:
    measured at test size (seed 12345, 300 pairs), the mean |AUL(sent_more) -
    AUL(sent_less)| rises from 0.12 to 1.59 (balanced) and from 0.48 to 1.27
    (planted), and the planted model's AUL falls from 73.7 to 58.7, AULA from 80.3
    to 68.3 (German and French: docs/papers/steinborn2022-pairs.md). A control that
    reads neutral with native names is no evidence that the English names biased it.
    """
    per_pair = demo_run / "results" / "pairs" / "per_pair"
    spread = {}
    for model in ("demo-planted", "demo-balanced"):
        for dataset in ("multilingual_crows_pairs", "crows_pairs_names"):
            table = pd.read_csv(per_pair / model / dataset / "original" / "es.csv")
            spread[model, dataset] = (table.aul_more - table.aul_less).abs().mean()
    assert (
        spread["demo-balanced", "crows_pairs_names"]
        > 5 * spread["demo-balanced", "multilingual_crows_pairs"]
    ), spread
    assert (
        spread["demo-planted", "crows_pairs_names"]
        > 1.5 * spread["demo-planted", "multilingual_crows_pairs"]
    ), spread
    scores = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv")
    scores = scores[
        (scores.model == "demo-planted") & (scores.lang == "es") & (scores.variant == "original")
    ]
    score = scores.set_index(["dataset", "measure"])["score"]
    for measure in ("aul", "aula"):
        english = score["multilingual_crows_pairs", measure]
        native = score["crows_pairs_names", measure]
        assert 50 < native < english - 5, (measure, english, native)
    tokenizer = AutoTokenizer.from_pretrained(demo_run / "models" / "demo-planted")
    for gender in ("male", "female"):
        assert all(len(tokenizer.tokenize(name)) == 1 for name in first_names(gender))
        native = shipped_name_specs()["es"]["native"][gender]
        pieces = [len(tokenizer.tokenize(name.lower())) for name in native]
        assert sum(pieces) / len(pieces) > 2, (gender, pieces)


def test_planted_pair_bias_gives_a_negative_sjsd(demo_run):
    # S_JSD < 0: the stereotypical sentence's shared tokens are closer to gold.
    # Measured at test size (x 1e-3, clustered standard errors): planted German
    # -9.96 +- 2.83, Spanish -6.45 +- 2.02; balanced -0.88, 0.19.
    scores = pd.read_csv(demo_run / "results" / "tables" / "pairs_scores.csv")
    scores = scores[scores.dataset == "multilingual_crows_pairs"]
    sjsd = scores[(scores.variant == "original") & (scores.measure == "sjsd")]
    sjsd = sjsd.set_index(["model", "lang"])
    for lang in TARGETS:
        planted = sjsd.loc[("demo-planted", lang)]
        balanced = sjsd.loc[("demo-balanced", lang)]
        assert planted["score"] < -2 * planted["se"], (lang, planted)
        assert abs(planted["score"]) > abs(balanced["score"]), (lang, planted, balanced)
        # the t-test against 0 marks it (the same mark as the tables' ‡)
        assert planted["p_value"] < 0.05 and planted["significant"], (lang, planted)


def test_every_job_wrote_a_log(demo_run):
    logs = list((demo_run / "logs").rglob("*.log"))
    assert any("train_mlm" in str(p) for p in logs)
    assert any("score_unmasked" in str(p) for p in logs)


def test_each_seeded_job_records_the_seed_it_used(demo_run):
    root = yaml.safe_load((REPO / "config/config.yaml").read_text())["seed"]
    seen = check_seed_records(demo_run, root)
    assert {"demo_mt_pairs", "demo_embedding_lists", "train_vectors"} <= seen
    assert "kaneko2023_finetune_grid" in seen  # a record per fine-tuned model
    assert {"basta2020_vectors", "basta2020_probes", "basta2020_clusters"} <= seen


def test_second_run_has_nothing_to_do(demo_run):
    result = snakemake(demo_run, "-n", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Nothing to be done" in result.stdout + result.stderr


# Kaneko et al. (2023): the balanced demo MLM fine-tuned on its own text at male
# rates r = 0, 0.5, 1 (config/demo-full.yaml: also 0.25 and 0.75), per language, three
# times per r (config/config.yaml: repeats 3; seeds 42, 43, 44 and three D_r samples).
KANEKO2023_LANGUAGES = ["de", "en"]  # config/config.yaml (config/demo-full.yaml: all four)
KANEKO2023_RATES = [0.0, 0.5, 1.0]
KANEKO2023_REPEATS = 3


@pytest.fixture(scope="session")
def kaneko2023_figure2(demo_run) -> pd.DataFrame:
    frame = pd.read_csv(demo_run / "results" / "tables" / "kaneko2023_figure2.csv")
    return frame[frame.r.notna()].sort_values(["language", "r"])


def test_bias_control_moves_the_pronoun_share_with_r_in_every_language(kaneko2023_figure2):
    """he/(he+she) at "[MASK] is a(n) [occupation]." (er/sie, él/ella, il/elle), the mean of
    three fine-tunings per r, rises strictly with r, by at least 0.5 from r = 0 to 1, and
    lies within 0.1 of 0.5 at r = 0.5 (Kaneko et al. 2023, §3.4: he and she about equally
    likely there).

    One fine-tuning is not enough for the last bound: at r = 0.5 the share of a single run
    moves with the masking seed alone (the same D_r and example order, seeds 42-47: English
    0.42, 0.53, 0.51, 0.45, 0.50, 0.51; with the order free too, German 0.37-0.51), because
    on 1,000 sentences the number of masked "he" and "she" labels differs by chance. The
    mean of three runs, each with its own D_r sample and seed, measured 0.48 (en) and 0.44
    (de); the endpoints are stable (0.02-0.03 at r = 0, 0.96-0.97 at r = 1).
    """
    assert sorted(set(kaneko2023_figure2.language)) == KANEKO2023_LANGUAGES
    for lang, block in kaneko2023_figure2.groupby("language"):
        share = block.set_index("r")["male_share"]
        assert list(share.index) == KANEKO2023_RATES, lang
        assert (block["n_seeds"] == KANEKO2023_REPEATS).all(), (lang, block)
        assert share.is_monotonic_increasing and share.is_unique, (lang, share)
        assert share[1.0] - share[0.0] >= 0.5, (lang, share)
        assert abs(share[0.5] - 0.5) <= 0.1, (lang, share)


def test_oriented_aula_ranks_the_bias_controlled_models_by_r(demo_run):
    table = pd.read_csv(demo_run / "results" / "tables" / "kaneko2023_table1.csv")
    computed = table[table.source == "computed"]
    aula = computed[(computed.measure == "aula") & (computed.direction == "male")]
    aula = aula.set_index("language")
    assert sorted(aula.index) == KANEKO2023_LANGUAGES
    for lang in KANEKO2023_LANGUAGES:
        assert aula.loc[lang, "n_r"] == len(KANEKO2023_RATES)
        assert aula.loc[lang, "pearson"] >= 0.6, (lang, aula.loc[lang])
    # MBE on the balanced world's TED2020 sentences: every target language of the
    # grid (English, the pivot, has none) follows r
    mbe = computed[computed.measure == "mbe"].set_index("language")
    assert sorted(mbe.index) == [lang for lang in KANEKO2023_LANGUAGES if lang != "en"]
    for lang in mbe.index:
        assert mbe.loc[lang, "n_r"] == len(KANEKO2023_RATES)
        assert mbe.loc[lang, "pearson"] >= 0.6, (lang, mbe.loc[lang])
    # TBS and CPS are recorded (their values are not asserted: TBS's prior
    # "[MASK] is a [MASK]." moves with the pronoun prior)
    assert {"tbs", "cps", "sss", "aul"} <= set(computed.measure)
    reported = table[table.source == "reported"]
    assert len(reported) > 0
    assert (demo_run / "results" / "figures" / "kaneko2023_figure2.png").stat().st_size > 0
    assert (demo_run / "results" / "figures" / "kaneko2023_figure3.png").stat().st_size > 0
    mined = pd.read_csv(demo_run / "results" / "tables" / "kaneko2023_mined.csv")
    assert sorted(mined.lang) == KANEKO2023_LANGUAGES
    assert (mined.n_kept == 1000).all() and (mined.n_dev == 100).all()


def test_mbe_agrees_with_the_original_score_across_the_bias_controlled_grid(demo_run):
    """Kaneko et al. (2022), Table 3, on the English bias-controlled models (r = 0..1).

    Measured with one model per r: MBE 49.0, 50.3, 51.7 and the male-oriented Eq. 3
    50.3, 54.0, 58.0 at r = 0, 0.5, 1 (Spearman 1; 0.90 over the five rates of
    config/demo-full.yaml); with three per r (config/config.yaml), Spearman 0.81
    (p = 0.008) over the nine models; the
    paper's stereotype-oriented Eq. 3 stays at 44-46 for every r (the demo's stereotypes
    concern women and men alike), hence `original: male`.
    """
    tables = demo_run / "results" / "tables"
    models = pd.read_csv(tables / "mbe_table3_models.csv")
    assert len(models) == 9 and set(models.dataset) == {"multilingual_crows_pairs"}
    assert set(models.model) == {
        f"demo-balanced-news-en-r{r:03d}-s{k}" for r in (0, 50, 100) for k in range(3)
    }
    assert (models.n_male > 0).all() and (models.n_female > 0).all()
    table = pd.read_csv(tables / "mbe_table3.csv").set_index(["metric", "method"])
    assert set(table.index) == {
        (metric, method)
        for metric in ("spearman", "pearson", "direction", "diff", "signed_diff")
        for method in ("shf", "mbe")
    }
    assert set(table.original) == {"male"}
    assert table.loc[("spearman", "mbe"), "value"] > 0, table
    assert (tables / "mbe_table3.md").read_text().startswith("# MBE against human-annotated")


def test_the_demo_translations_preserve_every_pronoun(demo_run):
    """Kaneko et al. (2022), Figure 2: the demo renders every pronoun (no drop knob)."""
    table = pd.read_csv(demo_run / "results" / "tables" / "mbe_figure2.csv")
    assert set(table.corpus) == {"TED2020"} and set(table.world) == {"planted", "balanced"}
    assert set(table.gender) == {"male", "female"} and (table.n > 50).all()
    assert (table.pct == 100.0).all(), table
    assert (demo_run / "results" / "figures" / "mbe_figure2.png").stat().st_size > 0


def test_translation_tables_4_to_6_have_their_rows_and_signs(demo_run):
    """Kaneko et al. (2022), Tables 4-6 on the demo pairs: HT, MT, MBE and Tmp in English,
    HT, MBE and HT_name (native first names) in Spanish, each with Diff = method - HT."""
    table = pd.read_csv(demo_run / "results" / "tables" / "mbe_translations.csv")
    rows = table.set_index(["lang", "method", "model"])
    models = {"demo-planted", "demo-balanced"}
    for lang, methods in {"en": ["HT", "MT", "MBE", "Tmp"], "es": ["HT", "MBE", "HT_name"]}.items():
        for method in methods:
            assert {m for (la, me, m) in rows.index if (la, me) == (lang, method)} == models
    assert len(table) == 2 * (4 + 3)
    # MT renders some female words masculine (demo.mt_flip 0.3): a flipped pair becomes a
    # tie, which Eq. 3 never counts as a stereotypical win, so MT can only lose to HT
    for model in models:
        assert rows.loc[("en", "MT", model), "diff"] <= 0
    # the planted association is recovered by the templates and survives native names
    assert (
        rows.loc[("en", "Tmp", "demo-planted"), "score"]
        > rows.loc[("en", "Tmp", "demo-balanced"), "score"]
    )
    assert rows.loc[("es", "HT_name", "demo-planted"), "significant"]
    assert rows.loc[("es", "HT_name", "demo-planted"), "score"] > 50
    # the Spanish file with native names: the same pairs, names alone changed
    named = pd.read_csv(demo_run / "data" / "mined" / "native_names" / "es.csv")
    original = load_pairs(
        str(demo_run / "data/demo/mirror/benchmarks/multilingual_crows_pairs_es.csv"), lang="es"
    )
    assert len(named) == len(original) == 300
    changed = sum(a != b for a, b in zip(named.sent_more, original.sent_more, strict=True))
    assert changed > 200  # most demo subjects are first names
    text = (demo_run / "results" / "tables" / "mbe_translations.md").read_text()
    assert "# Native names (Kaneko et al. 2022, Table 6)" in text


def test_inbias_is_higher_for_the_planted_world_in_every_language(demo_run):
    # Zhao et al. (2020), Eq. 1, on vectors trained on each world's monolingual text:
    # the planted world ties occupations to one gender, the balanced one does not
    table = pd.read_csv(demo_run / "results" / "tables" / "zhao2020_inbias_original.csv")
    inbias = table.pivot(index="lang", columns="world", values="inbias")
    assert sorted(inbias.index) == ["de", "en", "es"]
    for lang, row in inbias.iterrows():
        assert row["planted"] > row["balanced"], (lang, row.to_dict())
    assert (table["n"] > 0).all() and (table["variant"] == "averaged").all()
    markdown = (demo_run / "results" / "tables" / "zhao2020_inbias_original.md").read_text()
    assert markdown.startswith("# Zhao et al. (2020)")


def test_contextual_probes_write_tables_1_to_5_and_figures_2_to_5(demo_run):
    # Basta et al. (2020): every job, every layer, on the probe world's text; the probe
    # MLM (trained on that world's English alone, with the configuration's own training
    # keys) shows the plant, the demo MLM of the planted world (no occupation-subject
    # sentences) hides it from the clustering (tests/integration/test_basta2020_demo_probes.py
    # holds both worlds' probe MLMs to the issue's thresholds)
    tables = demo_run / "results" / "tables"
    frame = pd.read_csv(tables / "basta2020_results.csv", dtype={"layer": str})
    jobs = frame[["model", "world", "domain", "lang"]].drop_duplicates()
    assert len(jobs) == 5 and set(jobs.lang) == {"en", "es", "fr", "de"}
    assert set(jobs.world) == {"planted_probe"}
    assert set(jobs[jobs.model == "probe-planted-en"].domain) == {"TED2020"}
    english = frame[(frame.domain == "TED2020") & frame.layer.isin(["2", "concat"])]
    value = english.set_index(["model", "layer", "experiment", "measure"])["mean"]
    for layer in ("2", "concat"):
        probe = value.loc[("probe-planted-en", layer)]
        assert probe.loc[("clustering", "accuracy")] >= 0.9, layer
        assert probe.loc[("knn", "pearson_r")] >= 0.8, layer
        assert probe.loc[("knn", "pearson_r")] >= probe.loc[("knn", "null_mean")] + 0.5, layer
        hidden = value.loc[("demo-planted", layer, "clustering", "accuracy")]
        assert hidden <= 0.75 < probe.loc[("clustering", "accuracy")], layer
    # a probe-only model (pairs: false, mbe: false) is scored nowhere else
    scores = pd.read_csv(tables / "pairs_scores.csv")
    assert "probe-planted-en" not in set(scores.model)
    assert set(frame.layer) == {"0", "1", "2", "concat"}
    for (_model, domain), block in frame.groupby(["model", "domain"]):
        pca = block[(block.experiment == "pca") & (block.layer == "2")].set_index("measure")
        assert len(pca) == 10 and pca.loc["pc1", "mean"] > max(pca.loc["pc2", "mean"], 0.1)
        knn = block[(block.experiment == "knn") & (block.measure == "pearson_r")]
        # the 16 occupations (in Spanish, both forms of most)
        assert (knn.n_items == 16).all() if domain == "TED2020" else (knn.n_items >= 16).all()
    table1 = pd.read_csv(tables / "basta2020_table1.csv")
    lines = table1[table1.statistic == "lines"]
    assert set(lines.value) == {800.0}
    # Exp. 1's swap: English pairs, Spanish agreement by spaCy morphology, French and
    # German by the demo grammar's analysis, which leaves no sentence refused
    assert (table1[table1.statistic == "swap_n_swapped"].value > 0).sum() == 5
    refused = table1[table1.statistic == "swap_n_refused"].set_index("domain").value
    assert refused["news-crawl-de"] == 0 and refused["news-crawl-fr"] == 0
    assert "| No. lines in direct bias |" in (tables / "basta2020_table1.md").read_text()
    assert (tables / "basta2020_tables2to5.md").read_text().count("## ") == 5
    for figure in ("basta2020_pca_variance.png", "basta2020_layers.png", "basta2020_clusters.png"):
        assert (demo_run / "results" / "figures" / figure).stat().st_size > 0


def test_grammatical_gender_probes_write_tables_6_7_and_figures_1_7_to_9(demo_run):
    # Basta et al. (2020), Exp. 6-9 on the Spanish domain, and on French and German beyond
    # the paper: plumbing and exact properties (d_s orthogonal to d_g, LDA by noun type),
    # no bias threshold (the demo MLM)
    import json

    tables = demo_run / "results" / "tables"
    table6 = pd.read_csv(tables / "basta2020_table6.csv", dtype={"layer": str})
    grammatical = {"news-crawl-es", "news-crawl-fr", "news-crawl-de"}
    assert set(table6.domain) == grammatical and set(table6.layer) == {
        "0",
        "1",
        "2",
        "concat",
    }
    assert set(table6.direction) == {"semantic", "grammatical"}
    for _, block in table6.groupby(["domain", "layer", "direction"]):
        n = block.set_index("forms")["n_occurrences"]
        assert n["female"] > 0 and n["male"] > 0 and n["female"] + n["male"] <= n["all"]
        assert block.direct_bias.between(0, 1).all()
    table7 = pd.read_csv(tables / "basta2020_table7.csv", dtype={"layer": str}).fillna("")
    lists = table7[table7.list != ""]
    assert len(lists) == 3 * 4 * 2 * 2  # domains x layers x lists x experiments
    assert lists[lists.experiment == "clustering"]["mean"].between(0.5, 1).all()
    assert (lists.n_items >= 4).all()
    assert "| Grammar biased words |" in (tables / "basta2020_table7.md").read_text()
    assert "| Female-version of professions |" in (tables / "basta2020_table6.md").read_text()
    probes = demo_run / "results/basta2020/probes/demo-planted/planted_probe"
    counts = pd.read_csv(tables / "basta2020_table1.csv").set_index(["domain", "statistic"])
    for domain in sorted(grammatical):
        summary = json.loads((probes / f"{domain}.json").read_text())
        for layer, done in summary["layers"].items():
            directions = done["grammatical_gender"]["directions"]
            assert abs(directions["dot_semantic_grammatical"]) < 1e-6, (domain, layer)
            lda = directions["lda"]
            assert min(lda["n_types"]) >= 4, domain
            assert len(lda["held_out"]["values"]) == 3
        assert counts.loc[(domain, "nouns_feminine"), "value"] > 0
        assert counts.loc[(domain, "nouns_masculine"), "value"] > 0
    assert ("TED2020", "nouns_feminine") not in counts.index
    for figure in ("figure1", "figure7", "figure8", "figure9"):
        assert (demo_run / "results" / "figures" / f"basta2020_{figure}.png").stat().st_size > 0


def _zhao2020_json(demo_run, kind, pair):
    import json

    return json.loads(
        (demo_run / "results" / "zhao2020" / kind / "planted" / f"{pair}.json").read_text()
    )


def test_bli_of_the_aligned_demo_spaces_is_well_above_chance(demo_run):
    # Zhao et al. (2020), Tables 2 and 4: CSLS (k = 10) on the demo test dictionary.
    # Chance is one word in the target vocabulary (well under 1%); measured: ~7-23%
    accuracies = {}
    for pair in ("en-es", "es-en", "endeb-es", "es-endeb"):
        result = _zhao2020_json(demo_run, "bli", pair)
        assert result["csls"]["k"] == 10 and result["csls"]["n_source_words"] > 10
        assert 0 <= result["nn"]["accuracy"] <= 100
        accuracies[pair] = result["csls"]["accuracy"]
    assert sum(accuracies.values()) / len(accuracies) > 3.0, accuracies


def test_hard_debiasing_lowers_the_english_weak_inbias_by_at_least_half(demo_run):
    # ENDEB (Zhao et al. 2020, Table 3), tested against original English (measured on
    # the planted world: weak inBias ~0.09 -> ~0.007)
    import json

    original = json.loads(
        (demo_run / "results" / "zhao2020" / "inbias" / "planted" / "en.json").read_text()
    )
    debiased = _zhao2020_json(demo_run, "inbias_spaces", "endeb-endeb")
    assert debiased["n"] == original["n"] > 0
    assert debiased["weak"] <= 0.5 * original["weak"], (original["weak"], debiased["weak"])
    assert debiased["inbias"] < original["inbias"]
    assert debiased["p_value"] < 0.05
    # the aligned spaces are scored on the same filtered pairs, with a t-test
    aligned = _zhao2020_json(demo_run, "inbias_spaces", "en-es")
    assert aligned["n"] == original["n"] and 0 <= aligned["p_value"] <= 1


def test_zhao2020_tables_have_the_papers_shapes_and_stars_exactly_below_005(demo_run):
    # Tables 1-4, 12 and 13 cut from the grid; the demo's grid is en and es in the
    # planted world (config/demo-full.yaml: en, es, de, fr in both worlds, 4 x 4)
    tables = demo_run / "results" / "tables"
    read = lambda name: pd.read_csv(tables / f"zhao2020_{name}.csv")  # noqa: E731
    languages = ["EN", "ES"]
    table1 = read("table1")
    assert table1[["row", "col"]].values.tolist() == [[r, c] for r in languages for c in languages]
    assert table1["inbias"].notna().all() and (table1["world"] == "planted").all()
    assert table1["star"].tolist() == (table1["p_value"] < 0.05).tolist()
    diagonal = table1[table1.row == table1.col]
    assert diagonal["p_value"].isna().all() and not diagonal["star"].any()
    original = pd.read_csv(tables / "zhao2020_inbias_original.csv").set_index(["world", "lang"])
    assert diagonal["inbias"].tolist() == pytest.approx(
        [original.loc[("planted", lang), "inbias"] for lang in ("en", "es")], abs=1e-6
    )
    assert table1["paper_used_published_alignment"].tolist() == [False, False, True, False]
    table2 = read("table2")
    assert table2.loc[table2.row == table2.col, "bli_csls"].isna().all()
    assert table2.loc[table2.row != table2.col, "bli_csls"].between(0, 100).all()
    table3 = read("table3")
    assert table3[["row", "col"]].values.tolist() == [
        ["ENDEB", "ENDEB"], ["ENDEB", "ES"], ["ES", "ENDEB"], ["ES", "ES"],
    ]  # fmt: skip
    assert table3["star"].tolist() == (table3["p_value"] < 0.05).tolist()
    assert table3.set_index(["row", "col"]).loc[("ENDEB", "ENDEB"), "star"]  # ENDEB vs EN
    assert len(read("table4")) == 2 and read("table4")["bli_csls"].notna().all()
    for name, first in (("table12", "EN"), ("table13", "ENDEB")):
        split = read(name)
        assert split[["row", "col"]].values.tolist() == [
            ["Strong-gendered", first], ["Strong-gendered", "ES"],
            ["Weak-gendered", first], ["Weak-gendered", "ES"],
        ]  # fmt: skip
        assert split["inbias"].notna().all()
    for name in ("table1", "table2", "table3", "table4", "table12", "table13"):
        assert (tables / f"zhao2020_{name}.md").read_text().startswith("# Zhao et al. (2020)")
    assert "\u2020" in (tables / "zhao2020_table1.md").read_text()  # ES->EN computed here


def test_zhao2020_figure1_projects_six_spanish_pairs_in_three_spaces(demo_run):
    data = pd.read_csv(demo_run / "results" / "tables" / "zhao2020_figure1.csv")
    assert list(dict.fromkeys(data["space"])) == ["es", "es-en", "es-de"]
    for _space, block in data.groupby("space"):
        assert (block["gender"] == "M").sum() == (block["gender"] == "F").sum() == 6
        averages = block.set_index("gender")["projection"]
        assert averages["Avg-F"] > 0 > averages["Avg-M"]  # positive = feminine
    assert (demo_run / "results" / "figures" / "zhao2020_figure1.png").stat().st_size > 0
