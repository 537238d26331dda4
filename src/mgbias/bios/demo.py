"""The demo's Common Crawl: WET files with planted bios in en, es, de and fr.

:func:`demo_pages` makes the pages of one language: planted bios (two occupations per
language with a planted gender skew, :data:`PLANTED`) and distractors that one extraction
rule each must reject (first person, both genders, a title followed by a comma, a line
too short, no listed person). :func:`write_demo_crawl` spreads the pages of every
language over the WET files of each snapshot (real WARC/WET records, written with
warcio), repeats the first planted bio of each language in the last file (an exact
duplicate, kept once), and writes the snapshot's ``wet.paths.gz``. The names of every
page go to a name list, the patterns of the ``blank`` NER fallback.

The extracted dataset of a language is then exactly the planted bios: per occupation
and gender, :data:`PLANTED` bios per snapshot (times ``scale``). A share of them
(``ambiguous``) do not name their place of work: the classifier's demo (rules/bios.smk)
can tell their occupation only from gendered words, which scrubbing removes.
"""

from __future__ import annotations

import datetime
import io
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mgbias.bios.ccpaths import check_snapshot, write_listing

#: Planted bios per language and snapshot: (occupation, gender) -> count.
PLANTED = {
    ("nurse", "F"): 3,
    ("nurse", "M"): 1,
    ("journalist", "M"): 3,
    ("journalist", "F"): 1,
}

#: Kinds of distractor, one page each per language and snapshot.
DISTRACTORS = ("first_person", "both_genders", "title_comma", "too_short", "no_person")

# Per language: the surface of each (occupation, gender), the "is a" phrase per gender,
# the body per gender (>= 150 characters after the first sentence) with the place of
# work of each occupation (so that the scrubbed bio still tells the occupation), a first-person
# sentence, a sentence of each gender (added to a line of the other), a place, a word
# that is no name (the subject of the no-person distractor), and name parts.
_LANG = {
    "en": dict(
        iso="eng",
        work={
            "nurse": "in hospital wards caring for patients",
            "journalist": "in newsrooms writing reports for newspapers",
        },
        neutral="in several places working with many people",
        titles={
            ("nurse", "F"): "nurse",
            ("nurse", "M"): "nurse",
            ("journalist", "M"): "journalist",
            ("journalist", "F"): "journalist",
        },
        isa={"F": "is a", "M": "is a"},
        body={
            "M": "He has worked {work} for twenty years, and his work has been "
            "featured in several national magazines. He also teaches at the local college "
            "and mentors students.",
            "F": "She has worked {work} for twenty years, and her work has been "
            "featured in several national magazines. She also teaches at the local college "
            "and mentors students.",
        },
        first_person="I love my work.",
        gendered={"F": "She often helps.", "M": "He often helps."},
        place="in Boston",
        nobody="The studio",
        first={"F": ["Mary", "Anna", "Linda", "Susan"], "M": ["John", "Peter", "Mark"]},
        last=["Smith", "Brown", "Jones", "Taylor", "Walker"],
    ),
    "es": dict(
        iso="spa",
        work={
            "nurse": "en hospitales cuidando pacientes",
            "journalist": "en periódicos escribiendo reportajes",
        },
        neutral="en varios lugares con mucha gente",
        titles={
            ("nurse", "F"): "enfermera",
            ("nurse", "M"): "enfermero",
            ("journalist", "M"): "periodista",
            ("journalist", "F"): "periodista",
        },
        isa={"F": "es una", "M": "es un"},
        body={
            "M": "Él ha trabajado durante veinte años {work} de "
            "Madrid y Sevilla, donde dirigió equipos grandes. Él también enseña en la "
            "universidad de la ciudad cada semana.",
            "F": "Ella ha trabajado durante veinte años {work} de "
            "Madrid y Sevilla, donde dirigió equipos grandes. Ella también enseña en la "
            "universidad de la ciudad cada semana.",
        },
        first_person="Yo amo mi trabajo.",
        gendered={"F": "Ella ayuda.", "M": "Él ayuda."},
        place="de Valencia",
        nobody="El estudio",
        first={"F": ["María", "Lucía", "Carmen", "Elena"], "M": ["Pablo", "Jorge", "Luis"]},
        last=["López", "García", "Moreno", "Ruiz", "Torres"],
    ),
    "de": dict(
        iso="deu",
        work={"nurse": "in Kliniken mit Patienten", "journalist": "in Redaktionen mit Reportagen"},
        neutral="an vielen Orten mit Menschen",
        titles={
            ("nurse", "F"): "Krankenschwester",
            ("nurse", "M"): "Krankenpfleger",
            ("journalist", "M"): "Journalist",
            ("journalist", "F"): "Journalistin",
        },
        isa={"F": "ist eine", "M": "ist ein"},
        body={
            "M": "Er arbeitet seit zwanzig Jahren {work} in Hamburg "
            "und Berlin, und die Arbeit wurde mehrfach ausgezeichnet. Er lebt mit der "
            "Familie in der Stadt.",
            "F": "Sie arbeitet seit zwanzig Jahren {work} in "
            "Hamburg und Berlin, und die Arbeit wurde mehrfach ausgezeichnet. Sie lebt mit "
            "der Familie in der Stadt.",
        },
        first_person="Ich liebe meine Arbeit.",
        gendered={"F": "Sie hilft oft.", "M": "Er hilft oft."},
        place="aus Berlin",
        nobody="Das Studio",
        first={"F": ["Anna", "Petra", "Sabine", "Julia"], "M": ["Peter", "Klaus", "Jan"]},
        last=["Müller", "Schmidt", "Fischer", "Weber", "Becker"],
    ),
    "fr": dict(
        iso="fra",
        work={
            "nurse": "dans des hôpitaux auprès des patients",
            "journalist": "dans des journaux comme reporter",
        },
        neutral="dans plusieurs endroits avec des gens",
        titles={
            ("nurse", "F"): "infirmière",
            ("nurse", "M"): "infirmier",
            ("journalist", "M"): "journaliste",
            ("journalist", "F"): "journaliste",
        },
        isa={"F": "est", "M": "est"},
        body={
            "M": "Il a travaillé pendant vingt ans {work} de "
            "Lyon et de Marseille, où il a dirigé de grandes équipes. Il enseigne aussi à "
            "l'université de la ville.",
            "F": "Elle a travaillé pendant vingt ans {work} de "
            "Lyon et de Marseille, où elle a dirigé de grandes équipes. Elle enseigne aussi "
            "à l'université de la ville.",
        },
        first_person="Je fais mon travail.",
        gendered={"F": "Elle aide.", "M": "Il aide."},
        place="à Paris",
        nobody="Le studio",
        first={"F": ["Claire", "Sophie", "Julie", "Marie"], "M": ["Pierre", "Louis", "Paul"]},
        last=["Martin", "Bernard", "Dubois", "Laurent", "Moreau"],
    ),
}

LANGUAGES = tuple(_LANG)

#: Names per language, gender and snapshot (enough for ``scale`` 40).
_MAX_NAMES = 256


@dataclass(frozen=True)
class Page:
    """One page of the demo crawl: its text, and what extraction must make of it."""

    lang: str
    uri: str
    text: str
    kind: str  # "planted" or a distractor kind
    name: str
    title: str  # the occupation (planted pages)
    gender: str
    ambiguous: bool = False  # a planted bio whose body does not tell the occupation


def _names(lang: str, gender: str, snapshot_index: int):
    spec = _LANG[lang]
    offset = snapshot_index * 7
    for i in range(_MAX_NAMES):
        firsts = spec["first"][gender]
        last = spec["last"][(i + offset) % len(spec["last"])]
        yield f"{firsts[i % len(firsts)]} {last}{'' if i < 20 else ' ' + str(i)}"


def _line(lang: str, name: str, occupation: str, gender: str, ambiguous: bool = False) -> str:
    spec = _LANG[lang]
    title = spec["titles"][(occupation, gender)]
    work = spec["neutral"] if ambiguous else spec["work"][occupation]
    body = spec["body"][gender].format(work=work)
    return f"{name} {spec['isa'][gender]} {title} {spec['place']}. {body}"


def n_ambiguous(count: int, share: float) -> int:
    """How many of a group of ``count`` planted bios are ambiguous (rounded half up)."""
    return int(count * share + 0.5)


def demo_pages(
    lang: str,
    snapshot: str,
    snapshot_index: int = 0,
    *,
    scale: int = 1,
    ambiguous: float = 0.0,
) -> list[Page]:
    """The planted bios and distractors of ``lang`` in ``snapshot`` (names differ per
    snapshot, so no bio of one snapshot duplicates one of another).

    ``scale`` multiplies the :data:`PLANTED` counts; the first ``ambiguous`` share of each
    (occupation, gender) group (:func:`n_ambiguous`) has a body with the language's
    neutral place of work, so that only the gendered words of the unscrubbed bio hint at
    the occupation (through the planted skew).
    """
    if lang not in _LANG:
        raise ValueError(f"no demo bios for language {lang!r}; known: {LANGUAGES}")
    if not isinstance(scale, int) or scale < 1:
        raise ValueError(f"demo scale must be an integer >= 1, got {scale!r}")
    if not 0.0 <= ambiguous <= 1.0:
        raise ValueError(f"demo ambiguous share must be in [0, 1], got {ambiguous!r}")
    spec = _LANG[lang]
    pages: list[Page] = []
    used: set[str] = set()

    def fresh(gender: str) -> str:
        for name in _names(lang, gender, snapshot_index):
            if name not in used:
                used.add(name)
                return name
        raise AssertionError("demo names exhausted")

    def add(
        kind: str, name: str, text: str, occupation: str = "", gender: str = "", vague=False
    ) -> None:
        uri = f"http://demo-{lang}.example.org/{snapshot}/{kind}/{len(pages)}"
        pages.append(Page(lang, uri, text, kind, name, occupation, gender, vague))

    for (occupation, gender), count in PLANTED.items():
        vague = n_ambiguous(count * scale, ambiguous)
        for j in range(count * scale):
            name = fresh(gender)
            line = _line(lang, name, occupation, gender, j < vague)
            add("planted", name, line, occupation, gender, j < vague)
    other = {"F": "M", "M": "F"}
    for kind in DISTRACTORS:
        gender = "F"
        name = fresh(gender)
        line = _line(lang, name, "nurse", gender)
        if kind == "first_person":
            line = f"{line} {spec['first_person']}"
        elif kind == "both_genders":
            line = f"{line} {spec['gendered'][other[gender]]}"
        elif kind == "title_comma":
            title = spec["titles"][("nurse", gender)]
            line = line.replace(f" {title} ", f" {title}, ", 1)
        elif kind == "too_short":
            line = line.split(". ")[0] + ". " + spec["gendered"][gender]
        elif kind == "no_person":
            line = line.replace(name, spec["nobody"], 1)
        add(kind, name, line)
    return pages


def segment_of(snapshot: str) -> str:
    """The demo's one segment directory name of ``snapshot`` (digits as the real ones)."""
    year, week = check_snapshot(snapshot).split("-")[2:]
    return f"15{year}{week}000000.00"


def wet_paths(snapshot: str, n_files: int) -> list[str]:
    """The crawl paths of the demo's WET files of ``snapshot``, listing order."""
    segment = segment_of(snapshot)
    stamp = snapshot.replace("CC-MAIN-", "").replace("-", "")
    return [
        f"crawl-data/{snapshot}/segments/{segment}/wet/"
        f"CC-MAIN-{stamp}000000-{stamp}235959-{i:05d}.warc.wet.gz"
        for i in range(n_files)
    ]


def snapshot_date(snapshot: str) -> str:
    """The Monday of a snapshot's week (``CC-MAIN-2018-13`` → ``2018-03-26T00:00:00Z``),
    the demo's fixed WARC-Date."""
    year, week = (int(part) for part in check_snapshot(snapshot).split("-")[2:4])
    return datetime.date.fromisocalendar(year, week, 1).strftime("%Y-%m-%dT00:00:00Z")


def _record_id(path: Path, index: int, uri: str) -> str:
    """A WARC-Record-ID that depends only on the file name, record position and URI."""
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{path.name}#{index}#{uri}')}>"


def write_wet(
    path: str | Path,
    pages: Iterable[tuple[str, str | bytes, str | None]],
    software: str = "mgbias-demo",
    date: str | None = None,
) -> Path:
    """A WET file: a warcinfo record, then one conversion record per (uri, text, lang).

    ``text`` is a str (written as UTF-8) or bytes (written verbatim); ``lang`` is the
    ``WARC-Identified-Content-Language`` value, or None to leave the header out. One gzip
    member per record, as Common Crawl writes them. With ``date`` (``WARC-Date``, e.g.
    ``2018-03-26T00:00:00Z``) the file is the same bytes on every call: record IDs are
    derived from the file name, position and URI instead of drawn at random.
    """
    from warcio.warcwriter import WARCWriter

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        info = writer.create_warcinfo_record(path.name, {"software": software, "format": "WET"})
        if date is not None:
            info.rec_headers.replace_header("WARC-Record-ID", _record_id(path, 0, ""))
            info.rec_headers.replace_header("WARC-Date", date)
        writer.write_record(info)
        for index, (uri, text, lang) in enumerate(pages, start=1):
            body = text if isinstance(text, bytes) else text.encode("utf-8")
            headers = {"Content-Type": "text/plain"}
            if date is not None:
                headers["WARC-Record-ID"] = _record_id(path, index, uri)
                headers["WARC-Date"] = date
            if lang is not None:
                headers["WARC-Identified-Content-Language"] = lang
            record = writer.create_warc_record(
                uri,
                "conversion",
                payload=io.BytesIO(body),
                length=len(body),
                warc_content_type="text/plain",
                warc_headers_dict=headers,
            )
            writer.write_record(record)
    return path


def write_demo_crawl(
    root: str | Path,
    snapshots: list[str],
    n_files: int,
    languages: list[str] | None = None,
    *,
    scale: int = 1,
    ambiguous: float = 0.0,
) -> dict:
    """Write each snapshot's WET files and ``wet.paths.gz`` under ``root`` (the crawl's
    root); return the planted bios and every name: ``{"planted": [...], "names": [...]}``.
    ``scale`` and ``ambiguous`` as in :func:`demo_pages`."""
    languages = list(LANGUAGES) if languages is None else languages
    if n_files < 1:
        raise ValueError(f"n_files must be >= 1, got {n_files}")
    root = Path(root)
    planted: list[dict] = []
    names: set[str] = set()
    for index, snapshot in enumerate(sorted(snapshots)):
        paths = wet_paths(snapshot, n_files)
        files: list[list[tuple[str, str, str | None]]] = [[] for _ in paths]
        position = 0
        for lang in languages:
            pages = demo_pages(lang, snapshot, index, scale=scale, ambiguous=ambiguous)
            for page in pages:
                files[position % n_files].append((page.uri, page.text, _LANG[lang]["iso"]))
                position += 1
                names.add(page.name)
                if page.kind == "planted":
                    planted.append(
                        {
                            "snapshot": snapshot,
                            "lang": lang,
                            "name": page.name,
                            "title": page.title,
                            "gender": page.gender,
                            "ambiguous": page.ambiguous,
                        }
                    )
            first = pages[0]
            files[-1].append((first.uri + "/copy", first.text, _LANG[lang]["iso"]))
        for path, records in zip(paths, files, strict=True):
            write_wet(root / path, records, date=snapshot_date(snapshot))
        write_listing(root / f"crawl-data/{snapshot}/wet.paths.gz", paths)
    return {"planted": planted, "names": sorted(names)}
