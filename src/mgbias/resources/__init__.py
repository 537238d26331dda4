"""Files shipped inside the package, found wherever mgbias is installed.

``schema.yaml``
    The schema of a workflow configuration (every key, its type and default);
    :func:`mgbias.config.validate_config` applies it, ``mgbias check-config``
    and the workflow (``rules/common.smk``) validate against it.
``pair_benchmarks.yaml``
    The public sentence-pair benchmarks by name (URL template, languages,
    file format, pinned sha256): ``mgbias score --data NAME`` and a
    configuration's ``pair_datasets: {x: {benchmark: NAME}}`` refer to them
    (:mod:`mgbias.pairs.benchmarks`).
``templates.yaml``
    The template probes per language (Kurita et al.'s template, the gender
    words, the article rule, the sentence of Kaneko et al.'s 2023 Figure 3):
    :func:`mgbias.mlm.templates.template_spec`.
``professions_bolukbasi2016.json``
    Bolukbasi et al.'s (2016) professions with their definitional and
    stereotypical scores (tolga-b/debiaswe, MIT license; notice in
    ``NOTICE-professions_bolukbasi2016.txt``):
    :func:`mgbias.wordlists.professions.load_professions`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["resource_path"]


def resource_path(name: str) -> Path:
    """The path of a shipped file (the package is installed unzipped, as pip does).

    Raises
    ------
    FileNotFoundError
        No such file ships with the package.
    """
    path = Path(str(resources.files(__name__).joinpath(name)))
    if not path.is_file():
        raise FileNotFoundError(f"{name}: no such file in the mgbias package ({path.parent})")
    return path
