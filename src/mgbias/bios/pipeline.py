"""WET files to a bios dataset: extraction, name check, post-processing, records.

:func:`extract_file` streams one WET file and returns its bios (candidates whose
prefix holds exactly one person); :func:`to_records` post-processes them and makes the
dataset rows (id, name, title, gender, raw, bio, uri, path), written as JSON lines by
:func:`write_records`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mgbias.bios.extract import extract_page
from mgbias.bios.ner import person_name
from mgbias.bios.postprocess import Bio, postprocess, scrub
from mgbias.bios.rules import EXCLUDED_TITLES, LanguageRules
from mgbias.bios.wet import iter_pages
from mgbias.files.atomic import atomic_path
from mgbias.files.textio import read_text

FIELDS = ("id", "name", "title", "gender", "raw", "bio", "uri", "path")


def extract_file(
    path: str | Path, rules: LanguageRules, nlp: Any, *, source: str | None = None
) -> list[Bio]:
    """The bios of one WET file, in file order; ``source`` (default: ``path``) is recorded."""
    source = str(path) if source is None else source
    bios = []
    for page in iter_pages(path):
        for candidate in extract_page(page, rules, path=source):
            name = person_name(nlp, candidate.prefix)
            if name is None:
                continue
            bios.append(
                Bio(
                    raw=candidate.raw,
                    name=name,
                    raw_title=candidate.raw_title,
                    title=candidate.title,
                    gender=candidate.gender,
                    start_pos=candidate.start_pos,
                    uri=candidate.uri,
                    path=candidate.path,
                )
            )
    return bios


def bio_id(bio: Bio) -> str:
    """A stable id: the first 16 hex digits of the SHA-256 of the raw line."""
    return hashlib.sha256(bio.raw.encode("utf-8")).hexdigest()[:16]


def to_record(bio: Bio, rules: LanguageRules) -> dict[str, str]:
    """One dataset row; ``raw`` is the unscrubbed body, ``bio`` the scrubbed one."""
    body = bio.raw[bio.start_pos :].strip()
    return {
        "id": bio_id(bio),
        "name": " ".join(token for token in bio.name if token),
        "title": bio.title,
        "gender": bio.gender,
        "raw": body,
        "bio": scrub(body, rules.scrub_words, bio.name),
        "uri": bio.uri,
        "path": bio.path,
    }


def to_records(
    bios: Iterable[Bio],
    rules: LanguageRules,
    *,
    excluded: Iterable[str] = EXCLUDED_TITLES,
    occupation_cap: int | None = None,
    seed: int = 0,
) -> list[dict[str, str]]:
    """Post-process (:func:`mgbias.bios.postprocess.postprocess`) and make the rows."""
    kept = postprocess(bios, excluded=excluded, occupation_cap=occupation_cap, seed=seed)
    return [to_record(bio, rules) for bio in kept]


def write_records(path: str | Path, records: Iterable[dict[str, str]]) -> int:
    """Write rows as JSON lines (atomically); return how many."""
    n = 0
    with atomic_path(path) as temp, open(temp, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    return n


def read_records(path: str | Path) -> list[dict[str, str]]:
    """The rows of a file written by :func:`write_records`."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_names(path: str | Path | None) -> list[str]:
    """Full names, one per line (blank lines ignored); None -> no names."""
    if path is None:
        return []
    return [line.strip() for line in read_text(path).splitlines() if line.strip()]


def load_extractor(
    lang: str,
    *,
    pipeline: str | None = None,
    names: Iterable[str] = (),
    titles: str | Path | None = None,
    french_conjunction_fix: bool = False,
) -> tuple[LanguageRules, Any]:
    """The rules and the NER pipeline of ``lang`` (arguments as :func:`extract_dataset`)."""
    from mgbias.bios.ner import DEFAULT_PIPELINES, load_pipeline
    from mgbias.bios.rules import load_title_lexicon, rules_for

    lexicon = None if titles is None else load_title_lexicon(titles)
    rules = rules_for(lang, lexicon, french_conjunction_fix=french_conjunction_fix)
    name = DEFAULT_PIPELINES.get(lang, "blank") if pipeline is None else pipeline
    return rules, load_pipeline(lang, name, names=names, label=rules.ner_label)


def write_bios(path: str | Path, bios: Iterable[Bio]) -> int:
    """Write bios before post-processing (one shard's candidates) as JSON lines."""
    n = 0
    with atomic_path(path) as temp, open(temp, "w", encoding="utf-8") as handle:
        for bio in bios:
            row = dataclasses.asdict(bio)
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    return n


def read_bios(path: str | Path) -> list[Bio]:
    """The bios of a file written by :func:`write_bios`."""
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [Bio(**{**row, "name": tuple(row["name"])}) for row in rows]


def extract_dataset(
    wet_files: Iterable[str | Path],
    lang: str,
    output: str | Path | None = None,
    *,
    pipeline: str | None = None,
    names: Iterable[str] = (),
    titles: str | Path | None = None,
    french_conjunction_fix: bool = False,
    occupation_cap: int | None = None,
    seed: int = 0,
) -> list[dict[str, str]]:
    """The bios dataset of ``lang`` from WET files, written to ``output`` (JSON lines) if given.

    ``pipeline`` is the spaCy pipeline (default :data:`mgbias.bios.ner.DEFAULT_PIPELINES`),
    or ``"blank"`` with ``names``; ``titles`` a ``freq_titles``-style JSON (default: the
    project's demo lexicon). Each file's name is recorded as the bio's ``path``.
    """
    rules, nlp = load_extractor(
        lang,
        pipeline=pipeline,
        names=names,
        titles=titles,
        french_conjunction_fix=french_conjunction_fix,
    )
    bios: list[Bio] = []
    for wet in wet_files:
        bios.extend(extract_file(wet, rules, nlp, source=Path(wet).name))
    records = to_records(bios, rules, occupation_cap=occupation_cap, seed=seed)
    if output is not None:
        write_records(output, records)
    return records
