"""Pair benchmarks read into one normalised table (one loader per benchmark).

Every loader returns a :class:`pandas.DataFrame` starting with the columns
``pair_id``, ``sent_more`` (the more stereotypical sentence), ``sent_less``,
``stereo_antistereo`` and ``bias_type``, followed by the source's own columns
(:mod:`mgbias.datasets.frame`):

- :func:`load_crowspairs`: CrowS-Pairs CSV (Nangia et al. 2020);
- :func:`load_stereoset`: StereoSet intrasentence JSON (Nadeem et al. 2021),
  as (stereotype, anti-stereotype) pairs;
- :func:`load_multilingual_crowspairs`: one language of the multilingual
  CrowS-Pairs of Steinborn et al. (2022);
- :func:`load_translated_crowspairs`: human (or machine) translations of the
  CrowS-Pairs gender pairs in the layout Kaneko et al. (2022) released.

:func:`filter_bias_type` keeps one bias type (``"gender"`` by default).
"""

from mgbias.datasets.crowspairs import load_crowspairs
from mgbias.datasets.frame import DIRECTIONS, PAIR_COLUMNS, filter_bias_type
from mgbias.datasets.multilingual_crowspairs import (
    language_from_file_name,
    load_multilingual_crowspairs,
)
from mgbias.datasets.stereoset import load_stereoset
from mgbias.datasets.translated_crowspairs import load_translated_crowspairs

__all__ = [
    "DIRECTIONS",
    "PAIR_COLUMNS",
    "filter_bias_type",
    "language_from_file_name",
    "load_crowspairs",
    "load_translated_crowspairs",
    "load_multilingual_crowspairs",
    "load_stereoset",
]
