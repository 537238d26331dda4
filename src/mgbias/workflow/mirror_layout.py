"""The file layouts of the real servers, as a mirror of them holds their files.

A mirror (the demo world's ``data/demo/mirror``, or a local copy of the servers) keeps
each source's own paths, so that the downloaders read it as they read the servers. The
demo writes its worlds and benchmarks in these layouts; :mod:`mgbias.workflow.layout` places the
mirror in the workflow. Kept apart from :mod:`mgbias.workflow.layout` so that the demo's jobs,
whose code inputs are their imports, do not rerun when an unrelated output path changes.
"""

__all__ = ["BENCHMARK_FILES", "MIRROR_NEWS_CRAWL", "MIRROR_OPUS_ZIP"]

#: OPUS: a Moses-format zip per language pair and release.
MIRROR_OPUS_ZIP = "{opus_dir}/{release}/moses/{pair}.txt.zip"
#: WMT news-crawl: one shuffled, deduplicated gzip per language and year.
MIRROR_NEWS_CRAWL = "news-crawl/{lang}/news.{year}.{lang}.shuffled.deduped.gz"
#: The pair benchmarks, one file per layout and language (the demo's, in one directory).
BENCHMARK_FILES = {
    "crows_pairs": "crows_pairs_{lang}.csv",
    "stereoset": "stereoset_{lang}.json",
    "multilingual_crows_pairs": "multilingual_crows_pairs_{lang}.csv",
}
