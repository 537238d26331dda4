"""The paper's plan (config/paper.yaml) is made offline, with GPU resources on model rules."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def plan(tmp_path_factory) -> str:
    workdir = tmp_path_factory.mktemp("paper")
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("snakemake")),
            "-n",
            "-s",
            str(REPO / "Snakefile"),
            "--directory",
            str(workdir),
            "--configfile",
            str(REPO / "config" / "paper.yaml"),
            "--cores",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"HF_HUB_OFFLINE": "1", "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (workdir / "data").exists(), "a dry run must not create data"
    return result.stdout + result.stderr


def job_counts(plan: str) -> dict[str, int]:
    table = plan.split("Job stats:")[1].split("Reasons:")[0]
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\w+)\s+(\d+)$", table, re.M)}


def test_paper_plan_has_every_language_corpus_and_model(plan):
    counts = job_counts(plan)
    # 8 languages x 2 corpora; one monolingual model per language (Table 2)
    assert counts["download_corpus"] == 16
    assert counts["mine_gendered"] == 16
    assert counts["score_unmasked"] == 16
    assert counts["mbe"] == 16
    assert "train_mlm" not in counts and "demo_world" not in counts
    # Zhao et al. (2020), §4: the 16 snapshots' listings and shard plans (the shards
    # themselves follow the plans: tests/integration/test_bios_workflow.py)
    assert counts["download_bios_listing"] == counts["bios_plan"] == 16
    assert "demo_bios" not in counts
    # the title lexicons: BiosBias's (en) and the authors' (es, de, fr), pinned
    assert counts["download_bios_titles"] == 4
    assert "data/raw/bios/titles/es.json" in plan
    for model in [
        "gbert-base",
        "bert-base-japanese-wwm",
        "chinese-bert-wwm-ext",
        "roberta-base-russian-v0",
    ]:
        assert f"results/mbe/{model}/real/" in plan


def test_paper_plan_scores_steinborn_models_on_the_public_pair_benchmarks(plan):
    counts = job_counts(plan)
    # CrowS-Pairs (en) + multilingual CrowS-Pairs (en, de, id, th, fi) + StereoSet (en)
    # + CrowS-Pairs' gender pairs for Kaneko et al. (2023) (en) + Kaneko et al. (2022)'s
    # human translations (ja, ru), template pairs (ja, ru) and the human translations with
    # native names (ja, ru)
    assert counts["download_pairs"] == 8 + 6
    # CrowS-Pairs: 5 models x (unperturbed, perturbed); multilingual: 2 models x 5
    # languages; StereoSet: 5 models; the gender pairs: 2 base models + 44 fine-tunings;
    # Kaneko et al. (2022) Table 3: 11 English models on the gender pairs and StereoSet,
    # of which roberta (StereoSet) and albert-base (gender pairs) are scored already
    # Tables 4-6: 6 Japanese and Russian models x (human translations, template pairs,
    # native names); the 44 fine-tunings in 4 jobs, one per grid (base model x corpus)
    assert counts["score_pairs"] == 10 + 10 + 5 + 2 + 20 + 18
    assert counts["kaneko2023_score_pairs"] == 4
    assert counts["pair_measures"] == 71 + 20 + 18
    assert counts["pairs_steinborn_table2"] == counts["pairs_steinborn_table3"] == 1
    assert "results/score/pairs/xlmr/multilingual_crows_pairs/original/th.masked.parquet" in plan
    assert "results/score/pairs/albert/crows_pairs/perturbed/en.masked.parquet" in plan
    assert "data/raw/pairs/multilingual_crows_pairs/fi/cps_translated_fi_formatted.csv" in plan
    assert "data/raw/pairs/crows_pairs/en/crows_pairs_anonymized.csv" in plan
    # Steinborn et al.'s models are not MBE-evaluated (mbe: false)
    assert "results/mbe/xlmr/" not in plan and "results/mbe/bert/" not in plan


def test_paper_plan_has_mbe_table3_over_the_11_english_models(plan):
    """Kaneko et al. (2022), Table 3: MBE and Shf from each model's unmasked pass over the
    CrowS-Pairs gender pairs and StereoSet, on CPU (the model does not run again)."""
    blocks = plan.split("\n\n")
    jobs = [b for b in blocks if re.search(r"^rule mbe_pairs:", b, re.M)]
    assert len(jobs) == 11 * 2
    assert not any(re.search(r"\bgpu=", b) for b in jobs)
    assert "results/mbe/pairs/deberta-v2-xlarge/stereoset/en.json" in plan
    assert "results/mbe/pairs/conv-bert-medium-small/crows_pairs_gender/en.json" in plan
    assert "results/tables/mbe_table3.csv" in plan and "mbe_table3_models.csv" in plan


def test_paper_plan_has_tables_4_and_5_from_translations_and_templates(plan):
    counts = job_counts(plan)
    assert counts["template_pairs"] == 2 and counts["mbe_translations"] == 1
    # the MBE rows: each ja/ru model over its human translations, no model run again
    assert counts["mbe_translated"] == 6
    assert "results/mbe/translated/rubert-base-cased/crows_pairs_ht_ru/ru.json" in plan
    assert "data/mined/templates/ja.csv" in plan and "data/mined/templates/ru.csv" in plan
    assert (
        "results/score/pairs/bert-large-japanese-char/crows_pairs_ht_ja/original/ja.masked.parquet"
        in plan
    )
    assert "results/pairs/measures/rubert-base-cased/template_pairs/original/ru.csv" in plan
    # a model scores only its own language's template pairs
    assert "results/pairs/measures/rubert-base-cased/template_pairs/original/ja.csv" not in plan


def test_paper_plan_has_table_6_from_the_human_translations_with_native_names(plan):
    """Kaneko et al. (2022), Table 6: each ja/ru model on its human translations with
    native first names (rule native_name_pairs), in the same table as Tables 4-5."""
    counts = job_counts(plan)
    assert counts["native_name_pairs"] == 2
    assert "data/mined/native_names/ja.csv" in plan and "data/mined/native_names/ru.csv" in plan
    assert "data/raw/pairs/crows_pairs_ht_names/ru/ru.csv" in plan
    for model, lang in [("bert-large-japanese-char", "ja"), ("rubert-base-cased", "ru")]:
        measures = f"results/pairs/measures/{model}/crows_pairs_ht_names/original/{lang}.csv"
        assert measures in plan
    wrong_language = "results/pairs/measures/rubert-base-cased/crows_pairs_ht_names/original/ja.csv"
    assert wrong_language not in plan


def test_paper_plan_uses_each_corpus_language_codes(plan):
    assert "data/raw/real/TED2020/en-zh_cn.txt.zip" in plan
    assert "data/raw/real/GlobalVoices/en-zhs.txt.zip" in plan
    assert "data/raw/real/TED2020/de-en.txt.zip" in plan


def test_model_rules_declare_a_gpu(plan):
    for block in plan.split("\n\n"):
        if re.search(r"rule (kaneko2023_)?score_(unmasked|pairs):", block):
            assert re.search(r"resources: .*\bgpu=1\b", block), block
        if re.search(r"rule (mine_gendered|download_corpus|download_pairs|pair_measures):", block):
            assert not re.search(r"\bgpu=", block), block


def test_paper_plan_has_the_44_bias_controlled_fine_tunings_on_gpus(plan):
    """Kaneko et al. (2023): 2 models x 2 corpora x 11 rates, each fine-tuned and probed
    on a GPU, then scored on the CrowS-Pairs gender pairs."""
    blocks = plan.split("\n\n")
    finetunings = [b for b in blocks if re.search(r"^rule finetune_mlm:", b, re.M)]
    assert len(finetunings) == 44
    assert all(re.search(r"resources: .*\bgpu=1\b", b) for b in finetunings)
    names = {re.search(r"wildcards: model=(\S+)", b)[1] for b in finetunings}
    assert "bert-news-en-r000-s0" in names and "albert-base-book-en-r100-s0" in names
    # the 2 base models one by one, the 44 fine-tunings one grid (11 rates) per job
    probes = [b for b in blocks if re.search(r"^rule kaneko2023_probe:", b, re.M)]
    assert len(probes) == 2 and all(re.search(r"\bgpu=1\b", b) for b in probes)
    grids = [b for b in blocks if re.search(r"^rule kaneko2023_probe_grid:", b, re.M)]
    assert len(grids) == 4 and all(re.search(r"\bgpu=1\b", b) for b in grids)
    outputs = [re.search(r"^\s+output: (.*)$", b, re.M)[1].split(", ") for b in grids]
    assert all(len(paths) == 3 * 11 for paths in outputs)  # targets, summary, top per rate
    assert "results/score/pairs/bert-book-en-r050-s0/crows_pairs_gender/original/en" in plan
    for target in ["kaneko2023_table1.csv", "kaneko2023_figure2.png", "kaneko2023_figure3.png"]:
        assert target in plan
    for block in blocks:
        if re.search(r"^rule (mine_controlled|mix_controlled|download_controlled):", block, re.M):
            assert not re.search(r"\bgpu=", block), block


def test_paper_plan_probes_the_four_english_domains_and_spanish_wmt13_on_gpus(plan):
    """Basta et al. (2020): an English encoder on TEDx, WMT, PubMed and Europarl, a Spanish
    one on the WMT13 news side; one encoder pass per domain, on a GPU."""
    counts = job_counts(plan)
    assert counts["download_basta2020"] == counts["basta2020_corpus"] == 5
    assert counts["basta2020_vectors"] == counts["basta2020_probes"] == 5
    assert counts["basta2020_results"] == counts["basta2020_table1"] == 1
    blocks = plan.split("\n\n")
    vectors = [b for b in blocks if re.search(r"^rule basta2020_vectors:", b, re.M)]
    assert all(re.search(r"resources: .*\bgpu=1\b", b) for b in vectors)
    jobs = {re.search(r"wildcards: (model=\S+, world=\S+, domain=\S+)", b)[1] for b in vectors}
    assert jobs == {
        *(f"model=bert, world=real, domain={d}" for d in ["TEDx", "WMT", "PubMed", "Europarl"]),
        "model=bert-base-spanish-wwm-uncased, world=real, domain=WMT-es",
    }
    # Gonen & Goldberg's lists from the static-embedding layer's vectors of each language
    for block in vectors:
        lang = "es" if "domain=WMT-es" in block else "en"
        assert re.search(rf"input: .*data/raw/zhao2020/vectors/wiki\.{lang}\.vec", block), block
    assert "data/raw/basta2020/real/Europarl/es-en.tgz" in plan
    assert "data/raw/basta2020/real/PubMed/pubmed26n0001.xml.gz" in plan
    for target in [
        "basta2020_results.csv",
        "basta2020_table1.csv",
        "basta2020_tables2to5.md",
        "basta2020_pca_variance.png",
        "basta2020_layers.png",
        "basta2020_figure1.png",
        # Spanish (WMT-es): Exp. 6-9
        "basta2020_table6.csv",
        "basta2020_table7.csv",
        "basta2020_figure7.png",
        "basta2020_figure8.png",
        "basta2020_figure9.png",
    ]:
        assert target in plan
    for block in blocks:
        if re.search(r"^rule (download_basta2020|basta2020_corpus|basta2020_probes):", block, re.M):
            assert not re.search(r"\bgpu=", block), block


def test_basta2020_static_vectors_may_be_a_file_per_language(tmp_path):
    """``basta2020: static: vectors: {en: FILE, es: FILE}`` (e.g. the paper's word2vec
    GoogleNews and SBWC, fetched by hand) is read as it is, by each language's probe jobs."""
    import yaml

    config = yaml.safe_load((REPO / "config" / "paper.yaml").read_text(encoding="utf-8"))
    files = {"en": "vectors/GoogleNews.bin", "es": "vectors/sbwc.vec"}
    config["basta2020"]["static"]["vectors"] = files
    (tmp_path / "vectors").mkdir()
    for path in files.values():
        (tmp_path / path).write_text("", encoding="utf-8")
    (tmp_path / "paper.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("snakemake")),
            *("-n", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path)),
            *("--configfile", str(tmp_path / "paper.yaml"), "--cores", "2", "basta2020_results"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"HF_HUB_OFFLINE": "1", "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    blocks = result.stdout.split("\n\n")
    vectors = [b for b in blocks if re.search(r"^rule basta2020_vectors:", b, re.M)]
    assert len(vectors) == 5
    for block in vectors:
        path = files["es" if "domain=WMT-es" in block else "en"]
        assert re.search(rf"input: .*{re.escape(path)}", block), block
        assert "zhao2020" not in block


def test_paper_plan_has_zhao2020s_alignment_grid_on_gpus_from_the_published_resources(plan):
    """Zhao et al. (2020), §3: wiki.{en,es,de,fr}.vec, the MUSE dictionaries and the MIBs
    lists downloaded (nothing trained or generated); every alignment of Tables 1-4 on a
    GPU, with BLI and inBias of each aligned space."""
    counts = job_counts(plan)
    assert "train_vectors" not in counts and "demo_embedding_lists" not in counts
    blocks = plan.split("\n\n")
    downloads = {
        re.search(r"wildcards: source=(\S+), filename=(\S+)", b).groups()
        for b in blocks
        if re.search(r"^rule download_zhao2020:", b, re.M)
    }
    languages = ["en", "es", "de", "fr"]
    pairs = [f"{s}-{t}" for s in languages for t in languages if s != t]
    assert downloads == {
        *(("vectors", f"wiki.{lang}.vec") for lang in languages),
        *(("dictionaries", f"{p}.{split}.txt") for p in pairs for split in ["0-5000", "5000-6500"]),
        *(("mibs", f"{lang}_{g}_def_occ") for lang in languages for g in ["male", "female"]),
        *(("mibs", f"{lang}_gender_pairs.json") for lang in languages),
    }
    alignments = [b for b in blocks if re.search(r"^rule zhao2020_align:", b, re.M)]
    assert all(re.search(r"resources: .*\bgpu=1\b", b) for b in alignments)
    directions = {
        re.search(r"wildcards: world=real, src=(\S+), tgt=(\S+)", b).groups() for b in alignments
    }
    others = ["es", "de", "fr"]
    assert directions == {
        *((s, t) for s in languages for t in languages if s != t),
        *(("endeb", t) for t in others),
        *((s, "endeb") for s in others),
    }
    assert counts["zhao2020_bli"] == 18 and counts["zhao2020_inbias_space"] == 19
    assert counts["zhao2020_debias"] == 1 and counts["zhao2020_inbias"] == 4
    # the published English vectors are the source of ENDEB, the MUSE file trains es->de
    assert "data/raw/zhao2020/vectors/wiki.en.vec" in plan
    for block in blocks:
        if re.search(r"^rule zhao2020_align:", block, re.M) and "src=es, tgt=de" in block:
            assert "data/raw/zhao2020/dictionaries/es-de.0-5000.txt" in block
        if re.search(r"^rule (download_zhao2020|zhao2020_inbias|zhao2020_debias):", block, re.M):
            assert not re.search(r"\bgpu=", block), block


def test_paper_plan_draws_zhao2020s_figure1_with_the_papers_six_spanish_pairs(plan):
    import yaml

    from mgbias.embeddings.projection import PAPER_FIGURE1_PAIRS_ES

    figure1 = yaml.safe_load((REPO / "config/paper.yaml").read_text())["zhao2020"]["figure1"]
    assert [tuple(p) for p in figure1["pairs"]] == list(PAPER_FIGURE1_PAIRS_ES)
    assert "results/figures/zhao2020_figure1.png" in plan
    for table in ["table1", "table2", "table3", "table4", "table12", "table13"]:
        assert f"results/tables/zhao2020_{table}.csv" in plan


def test_paper_plan_trains_the_occupation_classifier_on_the_published_and_aligned_spaces(plan):
    """Zhao et al. (2020), §5: the monolingual grid (Tables 6 and 14: 20 spaces x original
    and balanced; Table 10: M-BERT in 4 languages) and the transfer grid (Tables 7-9,
    15-18: 30 runs; Table 11: EN -> ES, DE, FR on M-BERT), on the downloaded vectors and
    the hub's M-BERT, each job on a GPU."""
    counts = job_counts(plan)
    assert counts["bios_split"] == 4 and counts["bios_classifier"] == 40 + 8
    assert counts["bios_finetune"] == 60 + 6
    assert counts["bios_monolingual"] == counts["bios_transfer"] == 1
    assert counts["bios_table10"] == counts["bios_table11"] == 1
    blocks = [
        b
        for b in plan.split("\n\n")
        if re.search(r"^rule (bios_classifier|bios_finetune):", b, re.M)
    ]
    assert all(re.search(r"resources: .*\bgpu=1\b", b) for b in blocks)
    own = next(b for b in blocks if "lang=es, space=es, text=scrubbed, sampling=original" in b)
    assert "data/raw/zhao2020/vectors/wiki.es.vec" in own
    mbert = [b for b in blocks if re.search(r"space=mbert\b", b)]
    languages = {re.search(r"lang=(\w+), space=mbert", b)[1] for b in mbert if "lang=" in b}
    assert languages == {"en", "es", "de", "fr"}
    targets = {re.search(r"src=en, tgt=(\w+), src_space=mbert", b)[1] for b in mbert if "src=" in b}
    assert len(mbert) == 8 + 6 and targets == {"es", "de", "fr"}
    # M-BERT comes from the Hugging Face cache: no vectors, no model directory as input
    assert not any(".vec" in b or "models/mbert" in b for b in mbert)
    assert "results/tables/bios_table10.csv" in plan and "bios_table11.md" in plan
