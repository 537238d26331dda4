"""Template probes (Kurita et al. 2019; Kaneko et al. 2023, Figures 2 and 3) on tiny BERTs.

Two models: a seeded random BERT, whose numbers are checked against one
forward pass per sentence with the full head; and a fixed-weight BERT (every
weight 0, MLM-head bias = chosen log-probabilities), whose prediction ignores
the context, so by hand: p_tgt = p_prior = p[word] for every target, every
association is 0 and TBS = 0, P(he) = 0.3 and P(she) = 0.2.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import torch
from fixtures.tiny_models import SHAPE, build_model
from fixtures.tiny_models import fixed_bert as build_fixed_bert

from mgbias.finetune.probe_targets import template_targets
from mgbias.mlm.templates import (
    TBS_COLUMNS,
    TemplateSpec,
    article_for,
    encode_template,
    fill_template,
    single_token_id,
    tbs_summary,
    tbs_table,
    template_logprobs,
    template_spec,
)
from mgbias.mlm.top_predictions import gender_class, top_predictions
from mgbias.mlm.wordpiece import build_bert_tokenizer
from mgbias.wordlists.professions import load_professions

VOCAB = [
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "he", "she", "is", "a", "an", "doctor",
    "engineer", "nur", "##se", "alter", "ego", ".", "er", "sie", "ist", "arzt", "ärztin",
    "it",
]  # fmt: skip
# Fixed model: softmax(bias) = these probabilities (they sum to 1).
PROBABILITIES = np.full(len(VOCAB), 0.01)
PROBABILITIES[[5, 6, 7, 8]] = [0.3, 0.2, 0.15, 0.15]
PROBABILITIES[22] = 1.0 - PROBABILITIES[:22].sum()  # "it": 0.02
TARGETS = ["doctor", "engineer", "nurse", "alter ego"]


@pytest.fixture(scope="module")
def tokenizer():
    return build_bert_tokenizer(VOCAB, model_max_length=32)


@pytest.fixture(scope="module")
def random_bert():
    """The BERT of ``build_model`` (2 layers of 16), 32 positions, seed 0."""
    return build_model("bert", len(VOCAB), max_positions=32, seed=0)


@pytest.fixture(scope="module")
def fixed_bert():
    """The same shape, every weight 0 and the head's bias ``log PROBABILITIES``."""
    return build_fixed_bert(PROBABILITIES, **SHAPE, max_position_embeddings=32)


def naive_logprobs(model, ids: np.ndarray, position: int) -> np.ndarray:
    """One unbatched forward pass, full head, log-softmax at ``position``."""
    with torch.no_grad():
        logits = model(input_ids=torch.tensor(ids)[None]).logits[0, position]
    return torch.log_softmax(logits.double(), dim=-1).numpy()


# ----------------------------------------------------------------------------- templates


def test_article_by_first_letter_and_filled_sentences():
    spec = template_spec("en")
    rule = spec.articles
    assert [article_for(t, rule) for t in ["engineer", "understudy", "Actor", "nurse"]] == [
        "an",
        "an",
        "an",
        "a",
    ]
    assert fill_template(spec, "engineer")[0] == "[MASK] is an engineer."
    assert fill_template(spec, "nurse")[0] == "[MASK] is a nurse."
    assert fill_template(spec, "alter ego", "<mask>") == ("<mask> is an alter ego.", (13, 22))
    german = template_spec("de")
    assert (german.male, german.female) == ("er", "sie")
    assert fill_template(german, "ärztin")[0] == "[MASK] ist ärztin."
    assert (template_spec("es").male, template_spec("fr").female) == ("él", "elle")
    assert "work obligations" in spec.figure3_sentence
    override = template_spec("en", figure3_sentence="[MASK] works here .")
    assert override.figure3_sentence == "[MASK] works here ." and override.male == "he"


def test_bad_templates_are_rejected(tmp_path):
    with pytest.raises(ValueError, match=r"needs exactly one \[TARGET\]"):
        TemplateSpec("xx", "[MASK] is", "he", "she")
    with pytest.raises(ValueError, match=r"an \[ARTICLE\] placeholder and an 'articles' rule"):
        TemplateSpec("xx", "[MASK] is [ARTICLE] [TARGET].", "he", "she")
    with pytest.raises(ValueError, match="male and female word are both"):
        TemplateSpec("xx", "[MASK] is [TARGET].", "he", "he")
    with pytest.raises(ValueError, match=r"no template for language 'xx'; languages: \['de'"):
        template_spec("xx")
    bad = tmp_path / "t.yaml"
    bad.write_text("languages:\n  en: {template: '[MASK] [TARGET]', male: he, female: she, x: 1}\n")
    with pytest.raises(ValueError, match=r"t.yaml, language 'en': unknown key\(s\) \['x'\]"):
        template_spec("en", bad)


def test_multi_piece_target_is_masked_whole_for_the_prior(tokenizer):
    spec = template_spec("en")
    nurse = encode_template(tokenizer, spec, "nurse")
    assert tokenizer.convert_ids_to_tokens(nurse.input_ids.tolist()) == [
        "[CLS]", "[MASK]", "is", "a", "nur", "##se", ".", "[SEP]",
    ]  # fmt: skip
    assert nurse.attribute_position == 1 and nurse.target_positions.tolist() == [4, 5]
    prior = tokenizer.convert_ids_to_tokens(nurse.prior_ids(tokenizer.mask_token_id).tolist())
    assert prior == ["[CLS]", "[MASK]", "is", "a", "[MASK]", "[MASK]", ".", "[SEP]"]
    ego = encode_template(tokenizer, spec, "alter ego")
    assert ego.target_positions.tolist() == [4, 5]  # "an" stays in the prior
    assert tokenizer.convert_ids_to_tokens(int(ego.input_ids[3])) == "an"


def test_gender_word_must_be_one_token(tokenizer):
    assert single_token_id(tokenizer, "he") == 5
    with pytest.raises(ValueError, match=r"gender word 'they' is not one token .*\['\[UNK\]'\]"):
        single_token_id(tokenizer, "they")


# ----------------------------------------------------------------------------- probabilities


def test_batched_equals_one_at_a_time_and_a_naive_pass(random_bert, tokenizer):
    spec = template_spec("en")
    batched = template_logprobs(random_bert, tokenizer, spec, TARGETS, batch_size=64)
    single = pd.concat(
        [template_logprobs(random_bert, tokenizer, spec, [t], batch_size=1) for t in TARGETS],
        ignore_index=True,
    )
    pd.testing.assert_frame_equal(batched, single, check_exact=False, atol=1e-6, rtol=0)
    he, she = 5, 6
    for row, target in zip(batched.itertuples(), TARGETS, strict=True):
        encoding = encode_template(tokenizer, spec, target)
        visible = naive_logprobs(random_bert, encoding.input_ids, 1)
        prior = naive_logprobs(random_bert, encoding.prior_ids(4), 1)
        np.testing.assert_allclose(
            [row.logp_target_male, row.logp_target_female, row.logp_prior_male,
             row.logp_prior_female],
            [visible[he], visible[she], prior[he], prior[she]],
            atol=1e-5,
        )  # fmt: skip
    assert batched["n_target_tokens"].tolist() == [1, 1, 2, 2]
    # The random model does read the target: the prior differs from the visible-target value.
    assert not np.allclose(batched["logp_target_male"], batched["logp_prior_male"], atol=1e-4)


def test_tbs_by_hand_from_the_model_probabilities(random_bert, tokenizer):
    spec = template_spec("en")
    logprobs = template_logprobs(random_bert, tokenizer, spec, TARGETS)
    table = tbs_table(logprobs, neutral=[True, False, True, False])
    assert list(table.columns) == TBS_COLUMNS
    by_hand = [
        (tm - pm) - (tf - pf)
        for tm, tf, pm, pf in zip(
            logprobs.logp_target_male, logprobs.logp_target_female,
            logprobs.logp_prior_male, logprobs.logp_prior_female, strict=True,
        )
    ]  # fmt: skip
    np.testing.assert_allclose(table["bias"], by_hand, rtol=1e-12)
    summary = tbs_summary(table, spec)
    assert summary["tbs"] == pytest.approx(np.mean(by_hand), rel=1e-12)
    # its two parts: the targets' mean log ratio less the prior's
    target_ratio = np.mean(logprobs.logp_target_male - logprobs.logp_target_female)
    prior_ratio = np.mean(logprobs.logp_prior_male - logprobs.logp_prior_female)
    assert summary["log_ratio_target"] == pytest.approx(target_ratio, rel=1e-12)
    assert summary["log_ratio_prior"] == pytest.approx(prior_ratio, rel=1e-12)
    assert summary["tbs"] == pytest.approx(target_ratio - prior_ratio, rel=1e-9)
    # the standard errors over the targets: sd (n - 1) / sqrt(n), by hand
    assert summary["tbs_se"] == pytest.approx(np.std(by_hand, ddof=1) / 2, rel=1e-12)
    neutral_male = np.exp(logprobs.logp_target_male[[0, 2]].to_numpy())
    assert summary["p_male_se"] == pytest.approx(
        abs(neutral_male[0] - neutral_male[1]) / 2, rel=1e-9
    )
    p_male = np.mean(np.exp(logprobs.logp_target_male[[0, 2]]))
    p_female = np.mean(np.exp(logprobs.logp_target_female[[0, 2]]))
    assert summary["p_male"] == pytest.approx(p_male, rel=1e-12)
    assert summary["male_share"] == pytest.approx(p_male / (p_male + p_female), rel=1e-12)
    assert (summary["n_targets"], summary["n_neutral"]) == (4, 2)


def test_context_free_model_gives_tbs_zero_and_its_word_probabilities(fixed_bert, tokenizer):
    spec = template_spec("en")
    table = tbs_table(template_logprobs(fixed_bert, tokenizer, spec, TARGETS))
    np.testing.assert_allclose(table["p_target_male"], 0.3, rtol=1e-5)
    np.testing.assert_allclose(table["p_target_female"], 0.2, rtol=1e-5)
    np.testing.assert_allclose(table[["assoc_male", "assoc_female", "bias"]], 0.0, atol=1e-6)
    summary = tbs_summary(table, spec)
    assert summary["tbs"] == pytest.approx(0.0, abs=1e-6)
    assert summary["male_share"] == pytest.approx(0.6, rel=1e-5)


def test_repeated_or_missing_targets_are_rejected(random_bert, tokenizer):
    spec = template_spec("en")
    with pytest.raises(ValueError, match=r"listed twice: \['doctor'\]"):
        template_logprobs(random_bert, tokenizer, spec, ["doctor", "doctor"])
    with pytest.raises(ValueError, match="no targets"):
        template_logprobs(random_bert, tokenizer, spec, [])


# ----------------------------------------------------------------------------- targets


def test_bolukbasi_professions_and_their_neutral_subset():
    professions = load_professions()
    assert len(professions) == 320 and professions["profession"].is_unique
    neutral = template_targets("bolukbasi2016_neutral", "en")["target"].tolist()
    assert len(neutral) == 21 and {"writer", "musician", "alter ego"} <= set(neutral)
    every = template_targets("bolukbasi2016", "en")
    assert len(every) == 320 and int(every["neutral"].sum()) == 21
    row = professions.set_index("profession").loc["actress"]
    assert (row.definitional, row.stereotypical, row.neutral) == (-1.0, 0.0, False)
    with pytest.raises(ValueError, match="is English; language 'de' needs its own list"):
        template_targets("bolukbasi2016", "de")


def test_demo_and_file_targets(tmp_path):
    english = template_targets("demo", "en")
    assert len(english) == 16 and english["neutral"].all()
    german = template_targets("demo", "de")["target"].tolist()
    assert {"arzt", "ärztin"} <= set(german) and len(german) == 32
    french = template_targets("demo", "fr")["target"].tolist()
    assert french.count("pilote") == 1  # same form for both genders: once
    listed = tmp_path / "targets.txt"
    listed.write_text("# occupations\nwriter\nalter_ego\n\nwriter\n", encoding="utf-8")
    assert template_targets(listed, "xx")["target"].tolist() == ["writer", "alter ego"]
    listed.write_text("two words\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"targets.txt, line 1: 'two words' contains whitespace"):
        template_targets(listed, "en")
    with pytest.raises(FileNotFoundError, match="neither a known list"):
        template_targets(tmp_path / "none.txt", "en")


# ----------------------------------------------------------------------------- top predictions


def test_top_predictions_by_hand(fixed_bert, tokenizer):
    top = top_predictions(fixed_bert, tokenizer, "[MASK] is a doctor.", {"he"}, {"she"}, k=5)
    # Specials are not ranked; "is" and "a" tie at 0.15 and the lower id comes first.
    assert top["word"].tolist() == ["he", "she", "is", "a", "it"]
    np.testing.assert_allclose(top["prob"], [0.3, 0.2, 0.15, 0.15, 0.02], rtol=1e-5)
    assert top["gender_class"].tolist() == ["male", "female", "neither", "neither", "neither"]
    assert top["rank"].tolist() == [1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match=r"exactly one \[MASK\]"):
        top_predictions(fixed_bert, tokenizer, "he is a doctor.", {"he"}, {"she"})
    # [CLS] [MASK] is a doctor . [SEP]: 7 tokens; a limit below refuses the sentence
    assert len(top_predictions(fixed_bert, tokenizer, "[MASK] is a doctor.", {"he"}, {"she"},
                               max_length=7)) == 5  # fmt: skip
    with pytest.raises(ValueError, match=r"is 7 tokens long .* more than the 6 the model reads"):
        top_predictions(fixed_bert, tokenizer, "[MASK] is a doctor.", {"he"}, {"she"}, max_length=6)


def test_gender_class():
    assert gender_class("She", {"he"}, {"she"}) == "female"
    with pytest.raises(ValueError, match="in both"):
        gender_class("x", {"x"}, {"x"})


def test_probability_of_a_word_at_the_slot_is_a_probability(random_bert, tokenizer):
    table = tbs_table(template_logprobs(random_bert, tokenizer, template_spec("en"), TARGETS))
    assert ((table.p_target_male > 0) & (table.p_target_male + table.p_target_female < 1)).all()
    assert math.isfinite(tbs_summary(table, template_spec("en"))["tbs"])


def test_top_predictions_are_classed_by_the_languages_shipped_lists_by_default():
    from mgbias.finetune.probe import gender_lists
    from mgbias.wordlists import load_gender_words

    english = template_spec("en")
    female, male = gender_lists(None, None, english)
    assert {"she", "woman", "mother"} <= female and {"he", "man", "father"} <= male
    assert (female, male) == load_gender_words("kaneko2023_en_female", "kaneko2023_en_male")
    assert gender_class("man", male, female) == "male"  # "neither" with he and she alone
    german = template_spec("de")
    assert gender_lists(None, None, german) == load_gender_words(
        "kaneko2023_de_female", "kaneko2023_de_male"
    )
    assert gender_lists(["en_female"], ["en_male"], english) == load_gender_words(
        "en_female", "en_male"
    )
