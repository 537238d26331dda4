"""The Japanese models of Kaneko et al. (2022), Table 4: their tokenizers run here.

The cl-tohoku BERTs split words with MeCab (``fugashi``) and the UniDic-lite dictionary
(``unidic-lite``; the older whole-word-masking models use ``ipadic``), then into
WordPiece subwords or characters. A tiny model saved with such a tokenizer is loaded by
:func:`mgbias.mlm.load.load_mlm` and scores translated pairs like any other.
"""

import pytest
from fixtures.tiny_models import build_model, save_pretrained
from transformers import BertJapaneseTokenizer

from mgbias.mlm.load import load_mlm
from mgbias.pairs.passes import score_pair_passes
from mgbias.pairs.scoring import pair_measures

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + (
    "さくら 翔 は 医者 看護 です 。 彼 彼女 に 興味 が ある 美 咲 蓮 ##師 師".split()
)
PAIRS = [
    ("彼は医者です。", "彼女は医者です。"),
    ("翔は看護師です。", "さくらは看護師です。"),
    ("彼は医者に興味がある。", "彼女は医者に興味がある。"),
]


def tokenizer(tmp_path, subword="wordpiece", dic="unidic_lite"):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    return BertJapaneseTokenizer(
        str(vocab),
        word_tokenizer_type="mecab",
        subword_tokenizer_type=subword,
        mecab_kwargs={"mecab_dic": dic},
    )


@pytest.mark.parametrize("dic", ["unidic_lite", "ipadic"])
def test_mecab_splits_words_with_either_dictionary(tmp_path, dic):
    tokens = tokenizer(tmp_path, dic=dic).tokenize("彼女は医者です。")
    assert tokens == ["彼女", "は", "医者", "です", "。"]


def test_character_models_split_words_into_characters(tmp_path):
    # 医, 者, で and す are not in the tiny vocabulary: one [UNK] per character
    tokens = tokenizer(tmp_path, subword="character").tokenize("美咲は医者です。")
    assert tokens == ["美", "咲", "は", "[UNK]", "[UNK]", "[UNK]", "[UNK]", "。"]


@pytest.mark.parametrize("subword", ["wordpiece", "character"])
def test_a_saved_japanese_model_loads_and_scores_translated_pairs(tmp_path, subword):
    japanese = tokenizer(tmp_path, subword=subword)
    directory = save_pretrained(build_model("bert", len(japanese)), japanese, tmp_path / "m")
    model, loaded = load_mlm(str(directory), device="cpu")
    assert type(loaded).__name__ == "BertJapaneseTokenizer"
    assert loaded.tokenize("彼女は医者です。") == japanese.tokenize("彼女は医者です。")
    unmasked, masked = score_pair_passes(model, loaded, PAIRS, progress=False)
    table = pair_measures(unmasked, masked, ["aula", "aul"]).set_index("measure")
    assert (table["n"] == len(PAIRS)).all()
    assert table["score"].between(0, 100).all()
