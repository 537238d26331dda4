"""Write real WET files (``*.warc.wet.gz``) with warcio's writer, for the bios tests."""

from __future__ import annotations

from pathlib import Path

from mgbias.bios.demo import write_wet as write_wet_records


def write_wet(path: Path, pages: list[dict]) -> Path:
    """Write a warcinfo record, then one conversion record per page
    (:func:`mgbias.bios.demo.write_wet`).

    Each page: ``uri``, ``text`` (str, or bytes written verbatim) and optional
    ``lang`` (value of ``WARC-Identified-Content-Language``; omitted when absent).
    """
    records = [(page["uri"], page["text"], page.get("lang")) for page in pages]
    return write_wet_records(path, records, software="mgbias-tests")


# Lines of the bios tests: first sentence, then a body of at least 150 characters.
EN_BODY = (
    "He designed over forty public libraries and schools across New England, and his work "
    "has been featured in several national magazines. He teaches design at a local college."
)
EN_LINE = "John Smith is an American architect based in Boston. " + EN_BODY
ES_BODY = (
    "Ella ha trabajado durante veinte años en hospitales de Madrid y Sevilla, donde dirigió "
    "equipos de cuidados intensivos. Ella también enseña en la universidad de la ciudad."
)
ES_LINE = "María López es una enfermera de Valencia. " + ES_BODY
DE_BODY = (
    "Er schreibt seit zwanzig Jahren über Politik und Wirtschaft für große Zeitungen, und seine "
    "Reportagen wurden mehrfach ausgezeichnet. Er lebt mit seiner Familie in Hamburg."
)
DE_LINE = "Peter Müller ist ein Journalist aus Berlin. " + DE_BODY
FR_BODY = (
    "Elle a conçu de nombreux bâtiments publics à Lyon et à Marseille, et ses projets ont été "
    "présentés dans plusieurs revues nationales. Elle enseigne aussi à l'école d'architecture."
)
FR_LINE = "Claire Martin est architecte à Paris. " + FR_BODY
