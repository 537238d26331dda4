"""The sentences of a probe domain from its download (Basta et al. 2020, §5.2.1).

The paper's domains are the English sides of parallel corpora (OPUS TED2013 and Europarl
moses zips, WMT13 News Commentary in a tgz, a biomedical corpus) and the Spanish side of
WMT13; the demo's are the demo world's news-crawl gzip and OPUS zips. One reader for all:
a zip or tar member by name, or the whole of a gzip or plain text file.

PubMed (``format="pubmed"``): a PubMed/MEDLINE XML file as NCBI distributes it
(``pubmedNNnXXXX.xml.gz`` of the annual baseline: ``PubmedArticleSet`` of
``PubmedArticle``), whose abstracts (every ``AbstractText`` section, in order) are split
into sentences by spaCy's rule-based sentencizer, one sentence per line.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path
from xml.etree import ElementTree

__all__ = ["pubmed_abstracts", "pubmed_sentences", "read_domain_lines"]

#: Line formats of a domain's text.
FORMATS = ("lines", "pubmed")


def _open_bytes(path: Path, member: str | None) -> bytes:
    data = path.read_bytes()
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if member is None or member not in names:
                raise ValueError(f"{path}: member {member!r} not in the zip ({names[:10]})")
            data = archive.read(member)
    elif member is not None and tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            try:
                handle = archive.extractfile(member)
            except KeyError:
                handle = None
            if handle is None:
                raise ValueError(f"{path}: member {member!r} not in the tar archive")
            data = handle.read()
    elif member is not None:
        raise ValueError(f"{path}: a member ({member!r}) is given but it is not an archive")
    if data[:2] == b"\x1f\x8b":
        data = gzip.GzipFile(fileobj=io.BytesIO(data)).read()
    return data


def pubmed_abstracts(xml: bytes, source: str = "<xml>") -> list[str]:
    """The abstracts of a PubMed XML document, one string per article with an abstract
    (its ``AbstractText`` sections joined by a space, inline markup kept as text).

    Raises
    ------
    ValueError
        Not XML, or not a ``PubmedArticleSet``, naming ``source``.
    """
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as err:
        raise ValueError(f"{source}: not PubMed XML: {err}") from None
    if root.tag != "PubmedArticleSet":
        raise ValueError(f"{source}: root element <{root.tag}>, expected <PubmedArticleSet>")
    abstracts = []
    for abstract in root.iter("Abstract"):
        sections = [" ".join("".join(t.itertext()).split()) for t in abstract.iter("AbstractText")]
        text = " ".join(section for section in sections if section)
        if text:
            abstracts.append(text)
    return abstracts


def pubmed_sentences(abstracts: list[str], lang: str = "en") -> list[str]:
    """The sentences of ``abstracts`` by spaCy's sentencizer (punctuation rules of
    ``spacy.blank(lang)``), stripped, empty ones dropped."""
    import spacy

    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    nlp.max_length = max([nlp.max_length, *(len(text) + 1 for text in abstracts)])
    return [
        sentence.text.strip()
        for doc in nlp.pipe(abstracts, batch_size=256)
        for sentence in doc.sents
        if sentence.text.strip()
    ]


def read_domain_lines(
    path: str | Path,
    *,
    member: str | None = None,
    max_lines: int = 0,
    format: str = "lines",
    lang: str = "en",
) -> list[str]:
    """Non-empty, stripped lines of ``path`` (or of its archive ``member``), the first
    ``max_lines`` if > 0; with ``format="pubmed"``, the sentences of its abstracts.

    Raises
    ------
    ValueError
        A missing member, a member given for a non-archive, an unknown format, a PubMed
        file that is not PubMed XML, or no line at all.
    """
    path = Path(path)
    if format not in FORMATS:
        raise ValueError(f"{path}: format {format!r}, expected one of {FORMATS}")
    data = _open_bytes(path, member)
    if format == "pubmed":
        lines = pubmed_sentences(pubmed_abstracts(data, str(path)), lang)
    else:
        lines = [line.strip() for line in data.decode("utf-8").splitlines()]
    lines = [line for line in lines if line]
    if max_lines > 0:
        lines = lines[:max_lines]
    if not lines:
        raise ValueError(f"{path}: no sentence")
    return lines
