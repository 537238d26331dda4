"""Tables 1 and 2 of Kaneko et al. (2022) in the shapes the paper prints."""

import pandas as pd

from mgbias.report.tables import mbe_markdown, mbe_table, mining_markdown, mining_table


def counts(corpus, lang, female, male):
    return {
        "world": "real",
        "corpus": corpus,
        "lang": lang,
        "n_pairs": female + male + 7,
        "n_female": female,
        "n_male": male,
        "n_both": 3,
        "n_neutral": 4,
        "n_empty": 0,
        "n_kept_per_gender": min(female, male),
    }


def test_table1_pivots_the_count_after_downsampling_and_keeps_the_extracted_one():
    # German TED of the paper: 2,373 sentences kept per gender, printed "4.7K" (4,746)
    records = [counts("TED2020", "de", 2373, 9120), counts("GlobalVoices", "de", 50, 40)]
    frame = mining_table(records)
    ted = frame.set_index("corpus").loc["TED2020"]
    assert ted["kept_total"] == 4746 and ted["total"] == 11493
    assert frame.set_index("corpus").loc["GlobalVoices", "kept_total"] == 80
    table1 = mining_markdown(frame).split("## All counts")[0]
    assert "4746" in table1 and "11493" not in table1 and "| de " in table1


def mbe_row(model, lang, corpus, score, p):
    return {
        "model": model,
        "world": "real",
        "corpus": corpus,
        "lang": lang,
        "score": score,
        "p_value": p,
        "significant": p < 0.05,
        "preferred": "male" if score > 50 else "female",
        "shf": 50.0,
        "shf_p_value": 1.0,
        "n_male": 3,
        "n_female": 3,
        "n_comparisons": 9,
        "weighting": "dot",
        "test": "permutation",
        "n_permutations": 999,
        "model_id": model,
    }


def test_table2_is_one_table_when_each_language_has_one_model():
    rows = [
        mbe_row("gbert-base", "de", "TED2020", 54.69, 0.001),
        mbe_row("gbert-base", "de", "GlobalVoices", 49.0, 0.3),
        mbe_row("bert-base-spanish", "es", "TED2020", 61.25, 0.2),
        mbe_row("bert-base-spanish", "es", "GlobalVoices", 44.5, 0.01),
    ]
    text = mbe_markdown(mbe_table(rows))
    table2 = text.split("## All columns")[0]
    assert table2.count("## world: real") == 1 and "## model:" not in table2
    lines = [line for line in table2.splitlines() if line.startswith(("| de", "| es"))]
    assert len(lines) == 2
    de = [cell.strip() for cell in lines[0].strip("|").split("|")]
    es = [cell.strip() for cell in lines[1].strip("|").split("|")]
    # columns: lang, model, then the corpora in sorted order (GlobalVoices, TED2020)
    assert de == ["de", "gbert-base", "49.00", "54.69 ‡"]
    assert es == ["es", "bert-base-spanish", "44.50 ‡", "61.25"]


def test_table2_keeps_a_block_per_model_when_a_language_has_several():
    rows = [
        mbe_row(model, lang, corpus, 50.0 + i, 0.5)
        for i, model in enumerate(["demo-planted", "demo-balanced"])
        for lang in ("de", "es")
        for corpus in ("TED2020", "GlobalVoices")
    ]
    text = mbe_markdown(pd.DataFrame(mbe_table(rows)))
    assert "## model: demo-balanced, world: real" in text
    assert "## model: demo-planted, world: real" in text


def test_table2_names_the_clustered_test_and_keeps_records_without_units():
    clustered = {**mbe_row("m", "de", "TED2020", 52.9, 0.8), "cluster": "gender_words"}
    clustered["n_clusters"] = 231
    plain = mbe_row("m", "es", "TED2020", 53.9, 0.002)  # written before the test had units
    frame = mbe_table([clustered, plain])
    assert frame.set_index("lang").loc["de", "n_clusters"] == 231
    assert pd.isna(frame.set_index("lang").loc["es", "n_clusters"])
    text = mbe_markdown(frame)
    assert "whole groups of sentences sharing their gender words were relabelled" in text
    table2 = text.split("## All columns")[0]
    assert "| 52.90     |" in table2 and "| 53.90 ‡   |" in table2  # p = 0.8: no mark
    only_plain = mbe_markdown(mbe_table([plain]))
    assert "gender words" not in only_plain


def test_table2_marks_a_score_the_sets_lengths_may_decide():
    from mgbias.measures.mbe_length import SetLengths, length_record

    long_male = SetLengths(male=14.2, female=12.9, p_value=0.003, rho=0.55, rho_p_value=1e-9)
    leaning = {**mbe_row("m", "de", "TED2020", 61.2, 0.001), **length_record(long_male, 61.2, 0.05)}
    level = SetLengths(male=13.0, female=13.1, p_value=0.7, rho=0.55, rho_p_value=1e-9)
    fine = {**mbe_row("m", "es", "TED2020", 58.0, 0.002), **length_record(level, 58.0, 0.05)}
    frame = mbe_table([leaning, fine])
    assert frame["length_lean"].tolist() == [True, False]
    assert frame.set_index("lang").loc["de", "length_male"] == 14.2
    table2 = mbe_markdown(frame).split("## All columns")[0]
    assert "| 61.20 ‡ § |" in table2 and "| 58.00 ‡   |" in table2
    assert "§ = the two sets' token counts differ" in table2
