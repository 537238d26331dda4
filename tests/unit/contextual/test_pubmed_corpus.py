"""PubMed XML as a probe domain (Basta et al. 2020's medical domain)."""

from __future__ import annotations

import gzip

import pytest

from mgbias.contextual.corpus import pubmed_abstracts, read_domain_lines

# The layout of NCBI's baseline files (pubmedNNnXXXX.xml.gz): a structured abstract with
# labelled sections and inline markup, an article without an abstract, a plain abstract.
PUBMED = b"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">
<PubmedArticleSet>
<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">101</PMID>
<Article PubModel="Print"><ArticleTitle>Nurses and physicians.</ArticleTitle>
<Abstract>
<AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">The nurse asked the physician
about <i>her</i> shift.   It was long.</AbstractText>
<AbstractText Label="RESULTS" NlmCategory="RESULTS">Dr. Smith said he agreed.
The surgeon left at 5 p.m. yesterday.</AbstractText>
</Abstract></Article></MedlineCitation></PubmedArticle>
<PubmedArticle><MedlineCitation><PMID Version="1">102</PMID>
<Article><ArticleTitle>No abstract here.</ArticleTitle></Article></MedlineCitation></PubmedArticle>
<PubmedArticle><MedlineCitation><PMID Version="1">103</PMID>
<Article><Abstract><AbstractText>A doctor treats patients.</AbstractText></Abstract></Article>
</MedlineCitation></PubmedArticle>
</PubmedArticleSet>
"""


def test_abstracts_join_their_sections_and_skip_articles_without_one():
    assert pubmed_abstracts(PUBMED) == [
        "The nurse asked the physician about her shift. It was long. "
        "Dr. Smith said he agreed. The surgeon left at 5 p.m. yesterday.",
        "A doctor treats patients.",
    ]


def test_a_gzipped_baseline_file_gives_one_sentence_per_line(tmp_path):
    path = tmp_path / "pubmed26n0001.xml.gz"
    path.write_bytes(gzip.compress(PUBMED))
    lines = read_domain_lines(path, format="pubmed")
    assert lines[0] == "The nurse asked the physician about her shift."
    assert lines[1] == "It was long."
    assert lines[-1] == "A doctor treats patients."
    assert "he agreed" in " ".join(lines) and len(lines) >= 5
    assert read_domain_lines(path, format="pubmed", max_lines=2) == lines[:2]
    # the XML read as lines is not what a PubMed domain means
    assert read_domain_lines(path)[0].startswith("<?xml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"one sentence per line\n", r"x.xml.gz: not PubMed XML"),
        (b"<MedlineCitationSet></MedlineCitationSet>", r"<MedlineCitationSet>, expected <Pubmed"),
    ],
)
def test_not_pubmed_xml_is_refused_naming_the_file(tmp_path, data, message):
    path = tmp_path / "x.xml.gz"
    path.write_bytes(gzip.compress(data))
    with pytest.raises(ValueError, match=message):
        read_domain_lines(path, format="pubmed")
    with pytest.raises(ValueError, match=r"format 'xml', expected one of"):
        read_domain_lines(path, format="xml")


def test_pubmed_without_any_abstract_has_no_sentence(tmp_path):
    path = tmp_path / "empty.xml"
    path.write_bytes(b"<PubmedArticleSet><PubmedArticle/></PubmedArticleSet>")
    with pytest.raises(ValueError, match=r"empty.xml: no sentence"):
        read_domain_lines(path, format="pubmed")
