"""Planning of the parallel and monolingual corpora (``corpora:``, ``monolingual:``) and of
the word-list files of the mining (Kaneko et al. 2022, MBE step 1): which corpora are
downloaded and which packed from files of one's own, their URLs and archives.

Plain functions of the validated configuration (:func:`mgbias.config.validate_config`
fills ``corpora.<name>.codes``); wildcards are passed as strings. ``rules/common.smk``,
``rules/download.smk``, ``rules/mine.smk`` and ``rules/mbe.smk`` adapt them to the rules.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from mgbias.corpora.opus import opus_pair
from mgbias.languages import PIVOT
from mgbias.workflow import layout


def by_url(config: Mapping[str, Any]) -> list[str]:
    """The corpora given as an OPUS moses zip per language pair (``url``), in configured
    order (rule ``download_corpus``)."""
    return [name for name, entry in config["corpora"].items() if "url" in entry]


def by_files(config: Mapping[str, Any]) -> list[str]:
    """The corpora given as two plain-text files per language pair (``files``), in
    configured order (rule ``download_corpus_files``)."""
    return [name for name, entry in config["corpora"].items() if "files" in entry]


def code(config: Mapping[str, Any], corpus: str, lang: str) -> str:
    """The corpus's own spelling of the ISO language code ``lang`` (its ``codes``, e.g.
    zh -> zh_cn), else ``lang`` itself."""
    return config["corpora"][corpus]["codes"].get(lang, lang)


def pair(config: Mapping[str, Any], corpus: str, lang: str) -> str:
    """The OPUS pair name of English and ``lang`` in ``corpus`` (e.g. de-en)."""
    return opus_pair(PIVOT, code(config, corpus, lang))


def _target(pair_name: str) -> str:
    """The language of a pair name (``de-en``) that is not English (``de``)."""
    return next(c for c in pair_name.split("-") if c != PIVOT)


def url(config: Mapping[str, Any], world: str, corpus: str, pair_name: str) -> str:
    """The URL of the moses zip of ``pair_name`` (e.g. de-en) in ``corpus`` (its ``url``
    template: {world}, {pair}, {src} = en, {tgt})."""
    template = config["corpora"][corpus]["url"]
    return template.format(world=world, pair=pair_name, src=PIVOT, tgt=_target(pair_name))


def file_urls(config: Mapping[str, Any], world: str, corpus: str, pair_name: str) -> dict[str, str]:
    """The two plain-text files of ``pair_name`` in a ``files`` corpus, by language
    (English first)."""
    template = config["corpora"][corpus]["files"]
    tgt = _target(pair_name)
    fields = {"world": world, "pair": pair_name, "src": PIVOT, "tgt": tgt}
    return {lang: template.format(lang=lang, **fields) for lang in (PIVOT, tgt)}


def monolingual_url(config: Mapping[str, Any], world: str, lang: str) -> str:
    """The URL of the monolingual text of ``lang`` in ``world`` (``monolingual.url``)."""
    return config["monolingual"]["url"].format(world=world, lang=lang)


def moses_zip(config: Mapping[str, Any], world: str, corpus: str, lang: str) -> str:
    """The downloaded moses zip holding English and ``lang`` in ``corpus``."""
    return layout.path("raw_corpus", world=world, corpus=corpus, pair=pair(config, corpus, lang))


def wordlist_files(
    config: Mapping[str, Any], shipped: str, lists: Mapping[str, list[str]] | None = None
) -> list[str]:
    """The files of the word lists ``lists`` ({female, male}; default the mining's
    ``wordlists``), female first: a name with an extension or a directory is a file of
    one's own, any other a shipped list, ``<name>.txt`` in the directory ``shipped``."""
    lists = lists or config["wordlists"]
    files = []
    for name in lists["female"] + lists["male"]:
        is_file = os.path.splitext(name)[1] != "" or os.sep in name
        files.append(name if is_file else os.path.join(shipped, f"{name}.txt"))
    return files
