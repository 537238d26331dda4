"""Write real WET files (``*.warc.wet.gz``) with warcio's writer, for the bios tests."""

from __future__ import annotations

import io
from pathlib import Path

from warcio.warcwriter import WARCWriter


def write_wet(path: Path, pages: list[dict]) -> Path:
    """Write a warcinfo record, then one conversion record per page.

    Each page: ``uri``, ``text`` (str, or bytes written verbatim) and optional
    ``lang`` (value of ``WARC-Identified-Content-Language``; omitted when absent).
    One gzip member per record, as Common Crawl writes them.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        writer.write_record(
            writer.create_warcinfo_record(path.name, {"software": "mgbias-tests", "format": "WET"})
        )
        for page in pages:
            body = page["text"] if isinstance(page["text"], bytes) else page["text"].encode()
            headers = {"Content-Type": "text/plain"}
            if page.get("lang") is not None:
                headers["WARC-Identified-Content-Language"] = page["lang"]
            record = writer.create_warc_record(
                page["uri"],
                "conversion",
                payload=io.BytesIO(body),
                length=len(body),
                warc_content_type="text/plain",
                warc_headers_dict=headers,
            )
            writer.write_record(record)
    return path


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
