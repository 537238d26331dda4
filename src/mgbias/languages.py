"""Language codes accepted in configuration.

A language is named by its ISO 639-1 code (two letters). The codes below are
the 183 codes of ISO 639-1 (Library of Congress registration authority list).
Corpora that spell a language differently (OPUS TED2020 uses ``zh_cn``,
GlobalVoices ``zhs``) map the ISO code to their own spelling in the corpus
configuration (``codes:``), so the rest of the workflow speaks ISO only.
"""

from __future__ import annotations

ISO_639_1: frozenset[str] = frozenset(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr
    cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn
    gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki
    kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml
    mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt
    qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te
    tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh
    zu
    """.split()
)

PIVOT = "en"
"""The language of the word lists; parallel corpora are read as PIVOT-target pairs."""


def is_language(code: str) -> bool:
    """Return whether ``code`` is an ISO 639-1 language code."""
    return code in ISO_639_1
