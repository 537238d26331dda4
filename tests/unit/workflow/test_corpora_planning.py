"""Planning of the parallel and monolingual corpora and the mining's word-list files
(mgbias.workflow.corpora). Named apart from tests/unit/corpora: pytest imports test
files by their base name."""

from __future__ import annotations

import copy

from mgbias.config import validate_config
from mgbias.workflow import corpora

BASE = {
    "languages": ["de", "zh"],
    "corpora": {
        "TED2020": {
            "url": "https://example.org/{world}/{pair}/{src}-{tgt}.zip",
            "codes": {"zh": "zh_cn"},
        },
        "Mine": {"files": "https://example.org/mine/{pair}.{lang}"},
    },
    "monolingual": {"url": "https://example.org/{world}/news.{lang}.gz"},
    "models": {"m": {"source": "org/m"}},
    "wordlists": {"female": ["en_female", "lists/her.txt"], "male": ["en_male"]},
}


def configured() -> dict:
    return validate_config(copy.deepcopy(BASE))


def test_corpora_by_url_and_by_files_in_configured_order():
    config = configured()
    assert corpora.by_url(config) == ["TED2020"]
    assert corpora.by_files(config) == ["Mine"]


def test_a_corpus_spells_a_language_by_its_codes_else_by_the_iso_code():
    config = configured()
    assert corpora.code(config, "TED2020", "zh") == "zh_cn"
    assert corpora.code(config, "TED2020", "de") == "de"
    # codes defaults to {} (the schema)
    assert corpora.code(config, "Mine", "zh") == "zh"
    # OPUS pairs: the two codes sorted
    assert corpora.pair(config, "TED2020", "zh") == "en-zh_cn"
    assert corpora.pair(config, "TED2020", "de") == "de-en"


def test_urls_of_the_moses_zips_the_files_and_the_monolingual_text():
    config = configured()
    assert corpora.url(config, "real", "TED2020", "de-en") == (
        "https://example.org/real/de-en/en-de.zip"
    )
    assert corpora.url(config, "planted", "TED2020", "en-zh_cn") == (
        "https://example.org/planted/en-zh_cn/en-zh_cn.zip"
    )
    files = corpora.file_urls(config, "real", "Mine", "de-en")
    assert files == {
        "en": "https://example.org/mine/de-en.en",
        "de": "https://example.org/mine/de-en.de",
    }
    assert list(files) == ["en", "de"]  # English first
    assert corpora.monolingual_url(config, "planted", "de") == (
        "https://example.org/planted/news.de.gz"
    )


def test_the_moses_zip_of_a_language_is_kept_under_its_corpus_pair_name():
    config = configured()
    assert corpora.moses_zip(config, "real", "TED2020", "zh") == (
        "data/raw/real/TED2020/en-zh_cn.txt.zip"
    )
    assert corpora.moses_zip(config, "planted", "TED2020", "de") == (
        "data/raw/planted/TED2020/de-en.txt.zip"
    )


def test_word_list_files_shipped_names_and_files_of_ones_own():
    config = configured()
    # default: the mining's word lists, female first; a name with a directory or an
    # extension is a file of one's own
    assert corpora.wordlist_files(config, "pkg/wordlists/data") == [
        "pkg/wordlists/data/en_female.txt",
        "lists/her.txt",
        "pkg/wordlists/data/en_male.txt",
    ]
    lists = {"female": ["her.txt"], "male": ["de_male"]}
    assert corpora.wordlist_files(config, "data", lists) == ["her.txt", "data/de_male.txt"]
