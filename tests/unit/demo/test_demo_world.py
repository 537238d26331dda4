"""Tests for the seeded demo world (mgbias.demo): layouts, determinism, planted bias, grammar."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import zipfile
from pathlib import Path

import pytest

from mgbias.demo import (
    OPUS_CORPORA,
    STEREOTYPICALLY_FEMALE_OCCUPATIONS,
    STEREOTYPICALLY_MALE_OCCUPATIONS,
    Meaning,
    WorldSpec,
    balanced,
    describe_world,
    monolingual_corpus,
    parallel_corpus,
    planted,
    render,
    supported_languages,
    write_world,
)
from mgbias.demo.lexicon import (
    OCCUPATIONS,
    PERSON_NOUNS,
    english_gendered_vocabulary,
    first_names,
)
from mgbias.wordlists import load_gender_words
from mgbias.wordlists.genders import FEMALE, MALE

FEMALE_WORDS, MALE_WORDS = load_gender_words(
    ["en_female", "en_female_names"], ["en_male", "en_male_names"]
)
EXPECTED_FILES = [
    "OPUS-TED2020/v1/moses/de-en.txt.zip",
    "OPUS-TED2020/v1/moses/en-es.txt.zip",
    "OPUS-TED2020/v1/moses/en-fr.txt.zip",
    "OPUS-GlobalVoices/v2017q3/moses/de-en.txt.zip",
    "OPUS-GlobalVoices/v2017q3/moses/en-es.txt.zip",
    "OPUS-GlobalVoices/v2017q3/moses/en-fr.txt.zip",
    "news-crawl/en/news.2021.en.shuffled.deduped.gz",
    "news-crawl/de/news.2021.de.shuffled.deduped.gz",
    "news-crawl/es/news.2021.es.shuffled.deduped.gz",
    "news-crawl/fr/news.2021.fr.shuffled.deduped.gz",
    "world.json",
]


def small(spec_factory, seed=7, **overrides):
    values = {"n_parallel": 300, "n_monolingual": 500}
    values.update(overrides)
    return spec_factory(seed, **values)


def file_hashes(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def gendered_hits(sentence: str) -> tuple[bool, bool]:
    tokens = set(sentence.split())
    return bool(tokens & FEMALE_WORDS), bool(tokens & MALE_WORDS)


# ---------------------------------------------------------------------------- layout


def test_write_world_writes_the_real_layout_and_returns_the_paths(tmp_path):
    paths = write_world(small(planted), tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in paths] == EXPECTED_FILES
    assert sorted(file_hashes(tmp_path)) == sorted(EXPECTED_FILES)  # no temp files left
    assert OPUS_CORPORA == {
        "TED2020": ("OPUS-TED2020", "v1"),
        "GlobalVoices": ("OPUS-GlobalVoices", "v2017q3"),
    }


@pytest.mark.parametrize(
    ("zip_path", "corpus", "pair", "lang"),
    [
        ("OPUS-TED2020/v1/moses/de-en.txt.zip", "TED2020", "de-en", "de"),
        ("OPUS-TED2020/v1/moses/en-fr.txt.zip", "TED2020", "en-fr", "fr"),
        ("OPUS-GlobalVoices/v2017q3/moses/en-es.txt.zip", "GlobalVoices", "en-es", "es"),
    ],
)
def test_opus_zip_members_and_line_counts(tmp_path, zip_path, corpus, pair, lang):
    spec = small(planted)
    write_world(spec, tmp_path)
    with zipfile.ZipFile(tmp_path / zip_path) as archive:
        assert archive.namelist() == sorted(
            ["LICENSE", "README", f"{corpus}.{pair}.en", f"{corpus}.{pair}.{lang}"]
        )
        english = archive.read(f"{corpus}.{pair}.en").decode("utf-8").splitlines()
        target = archive.read(f"{corpus}.{pair}.{lang}").decode("utf-8").splitlines()
        assert archive.getinfo("README").date_time == (2020, 1, 1, 0, 0, 0)
    assert len(english) == len(target) == spec.n_parallel
    assert all(line.endswith(" .") for line in english + target)
    # Aligned: a line is a translation of the line with the same number.
    pronouns = {"de": ("sie ", "er "), "es": ("ella ", "él "), "fr": ("elle ", "il ")}[lang]
    for en_line, target_line in zip(english, target, strict=True):
        assert en_line.startswith("she ") == target_line.startswith(pronouns[0])
        assert en_line.startswith("he ") == target_line.startswith(pronouns[1])


def test_monolingual_gzip_has_fixed_header_and_expected_lines(tmp_path):
    spec = small(balanced)
    write_world(spec, tmp_path)
    for lang in ("en", *spec.languages):
        raw = (tmp_path / f"news-crawl/{lang}/news.2021.{lang}.shuffled.deduped.gz").read_bytes()
        assert raw[:3] == b"\x1f\x8b\x08"
        assert raw[3] == 0  # no FNAME flag: no file name in the header
        assert raw[4:8] == b"\x00\x00\x00\x00"  # mtime 0
        lines = gzip.decompress(raw).decode("utf-8").splitlines()
        assert len(lines) == spec.n_monolingual
        assert lines == monolingual_corpus(spec, lang)[0]


def test_world_json_matches_describe_world_and_file_hashes(tmp_path):
    spec = small(planted)
    write_world(spec, tmp_path)
    description = json.loads((tmp_path / "world.json").read_text())
    hashes = description.pop("files")
    assert description == describe_world(spec)
    assert hashes == {k: v for k, v in file_hashes(tmp_path).items() if k != "world.json"}
    assert description["spec"]["male_ratio"] == 2.0
    counts = description["parallel"]["TED2020"]["de-en"]
    assert counts["n"] == spec.n_parallel
    assert counts["male"] + counts["female"] + counts["neutral"] + counts["both"] == spec.n_parallel


# ---------------------------------------------------------------------------- determinism


def test_same_spec_gives_identical_bytes_at_default_size(tmp_path):
    spec = planted(11)
    write_world(spec, tmp_path / "a")
    write_world(spec, tmp_path / "b")
    assert file_hashes(tmp_path / "a") == file_hashes(tmp_path / "b")


def test_different_seed_changes_every_file(tmp_path):
    write_world(small(planted, seed=1), tmp_path / "a")
    write_world(small(planted, seed=2), tmp_path / "b")
    hashes_a, hashes_b = file_hashes(tmp_path / "a"), file_hashes(tmp_path / "b")
    assert hashes_a.keys() == hashes_b.keys()
    assert all(hashes_a[name] != hashes_b[name] for name in hashes_a)


def test_a_file_does_not_depend_on_the_other_languages(tmp_path):
    write_world(small(planted, languages=("de",)), tmp_path / "one")
    write_world(small(planted, languages=("fr", "de")), tmp_path / "two")
    one, two = file_hashes(tmp_path / "one"), file_hashes(tmp_path / "two")
    for name in (
        "OPUS-TED2020/v1/moses/de-en.txt.zip",
        "news-crawl/de/news.2021.de.shuffled.deduped.gz",
        "news-crawl/en/news.2021.en.shuffled.deduped.gz",
    ):
        assert one[name] == two[name]


def test_the_two_corpora_differ_in_text_and_register():
    spec = small(planted, n_parallel=2000)
    ted, _, _ = parallel_corpus(spec, "TED2020", "de")
    global_voices, _, _ = parallel_corpus(spec, "GlobalVoices", "de")
    assert ted != global_voices
    # News-like phrases appear only in GlobalVoices.
    assert not any("according to the report" in line for line in ted)
    assert sum("according to the report" in line for line in global_voices) > 20


# ---------------------------------------------------------------------------- English side


def test_every_english_gender_word_of_the_grammar_is_in_the_shipped_lists():
    vocabulary = english_gendered_vocabulary()
    assert vocabulary[MALE] <= MALE_WORDS
    assert vocabulary[FEMALE] <= FEMALE_WORDS


@pytest.mark.parametrize("factory", [planted, balanced])
def test_english_gender_words_match_the_meaning_category(factory):
    spec = factory(5, n_parallel=3000, n_monolingual=3000)
    english, _, meanings = parallel_corpus(spec, "GlobalVoices", "fr")
    mono, mono_meanings = monolingual_corpus(spec, "en")
    seen = set()
    for sentence, meaning in zip(english + mono, meanings + mono_meanings, strict=True):
        has_female, has_male = gendered_hits(sentence)
        expected = {
            "male": (False, True),
            "female": (True, False),
            "neutral": (False, False),
            "both": (True, True),
        }[meaning.category]
        assert (has_female, has_male) == expected, (sentence, meaning)
        seen.add(meaning.category)
    assert seen == {"male", "female", "neutral", "both"}


def english_text_shares(spec: WorldSpec) -> dict[str, float]:
    """Male share of one-gender sentences and occupation association, from English text."""
    sentences, _ = monolingual_corpus(spec, "en")
    male_only = female_only = 0
    stereotyped = {"male": [0, 0], "female": [0, 0]}  # [stereotyped, total] per gender
    male_jobs, female_jobs = (
        set(STEREOTYPICALLY_MALE_OCCUPATIONS),
        set(STEREOTYPICALLY_FEMALE_OCCUPATIONS),
    )
    for sentence in sentences:
        has_female, has_male = gendered_hits(sentence)
        if has_female == has_male:
            continue
        gender = "male" if has_male else "female"
        male_only += has_male
        female_only += has_female
        tokens = set(sentence.split())
        own, other = (male_jobs, female_jobs) if has_male else (female_jobs, male_jobs)
        if tokens & (own | other):
            stereotyped[gender][0] += bool(tokens & own)
            stereotyped[gender][1] += 1
    return {
        "male_share": male_only / (male_only + female_only),
        "male_stereotyped": stereotyped["male"][0] / stereotyped["male"][1],
        "female_stereotyped": stereotyped["female"][0] / stereotyped["female"][1],
    }


def test_planted_bias_is_in_the_text():
    # ~6000 one-gender sentences: SE of the male share ~0.006, of the association ~0.013.
    shares = english_text_shares(planted(21, n_monolingual=8000))
    assert shares["male_share"] == pytest.approx(2 / 3, abs=0.03)
    assert shares["male_stereotyped"] == pytest.approx(0.8, abs=0.05)
    assert shares["female_stereotyped"] == pytest.approx(0.8, abs=0.05)


def test_balanced_world_has_no_planted_bias_in_the_text():
    shares = english_text_shares(balanced(21, n_monolingual=8000))
    assert shares["male_share"] == pytest.approx(0.5, abs=0.03)
    assert shares["male_stereotyped"] == pytest.approx(0.5, abs=0.05)
    assert shares["female_stereotyped"] == pytest.approx(0.5, abs=0.05)


def test_bias_strengths_are_configurable():
    counts = describe_world(planted(3, n_parallel=4000, male_ratio=4.0, occupation_bias=1.0))
    ted = counts["parallel"]["TED2020"]["en-es"]
    assert ted["male"] / (ted["male"] + ted["female"]) == pytest.approx(0.8, abs=0.03)
    assert ted["occupations"]["male"]["female_stereotyped"] == 0
    assert ted["occupations"]["female"]["male_stereotyped"] == 0
    assert ted["neutral"] / ted["n"] == pytest.approx(0.2, abs=0.03)
    assert ted["both"] / ted["n"] == pytest.approx(0.05, abs=0.015)


# ---------------------------------------------------------------------------- target side


def noun(english: str) -> int:
    return next(i for i, pair in enumerate(PERSON_NOUNS) if english in pair.en)


@pytest.mark.parametrize(
    ("meaning", "expected"),
    [
        (
            # she wants to be a doctor today
            Meaning("female", FEMALE, "pronoun", 0, "occupation", 1, 1, 0),
            {
                "en": "she wants to be a doctor today .",
                "de": "sie will heute ärztin werden .",
                "es": "ella quiere ser médica hoy .",
                "fr": "elle veut être médecin aujourd'hui .",
            },
        ),
        (
            # he works as a nurse
            Meaning("male", MALE, "pronoun", 0, "occupation", 2, 8),
            {
                "en": "he works as a nurse .",
                "de": "er arbeitet als krankenpfleger .",
                "es": "él trabaja como enfermero .",
                "fr": "il travaille comme infirmier .",
            },
        ),
        (
            # my aunt is an engineer
            Meaning("female", FEMALE, "noun", noun("aunt"), "occupation", 0, 0),
            {
                "en": "my aunt is an engineer .",
                "de": "meine tante ist ingenieurin .",
                "es": "mi tía es ingeniera .",
                "fr": "ma tante est ingénieure .",
            },
        ),
        (
            # the woman is tall / the man is tired
            Meaning("female", FEMALE, "noun", noun("woman"), "adjective", 0, 0),
            {
                "en": "the woman is tall .",
                "de": "die frau ist groß .",
                "es": "la mujer es alta .",
                "fr": "la femme est grande .",
            },
        ),
        (
            Meaning("male", MALE, "noun", noun("man"), "adjective", 0, 8),
            {
                "en": "the man is tired .",
                "de": "der mann ist müde .",
                "es": "el hombre está cansado .",
                "fr": "l'homme est fatigué .",
            },
        ),
        (
            # she calls her nephew (German weak noun, accusative possessive)
            Meaning("both", FEMALE, "pronoun", 0, "relation", 1, noun("nephew")),
            {
                "en": "she calls her nephew .",
                "de": "sie ruft ihren neffen an .",
                "es": "ella llama a su sobrino .",
                "fr": "elle appelle son neveu .",
            },
        ),
        (
            # JOHN visits his sister in the city
            Meaning("both", MALE, "name", first_names(MALE).index("john"), "relation", 2,
                    noun("sister"), 5),
            {
                "en": "john visits his sister in the city .",
                "de": "john besucht in der stadt seine schwester .",
                "es": "john visita a su hermana en la ciudad .",
                "fr": "john rend visite à sa sœur en ville .",
            },
        ),
        (
            # my uncle met a girl (German neuter noun)
            Meaning("both", MALE, "noun", noun("uncle"), "relation", 0, noun("girl")),
            {
                "en": "my uncle met a girl .",
                "de": "mein onkel traf ein mädchen .",
                "es": "mi tío conoció a una chica .",
                "fr": "mon oncle a rencontré une fille .",
            },
        ),
    ],
)  # fmt: skip
def test_target_side_agreement(meaning, expected):
    assert {lang: render(meaning, lang) for lang in expected} == expected


def test_female_occupations_in_german_corpus_use_female_forms():
    spec = small(planted, n_parallel=2000)
    english, german, meanings = parallel_corpus(spec, "TED2020", "de")
    female_doctors = [
        de for en, de in zip(english, german, strict=True) if en.startswith("she is a doctor")
    ]
    male_doctors = [
        de for en, de in zip(english, german, strict=True) if en.startswith("he is a doctor")
    ]
    assert female_doctors and male_doctors
    assert all(de.startswith("sie ist") and de.split()[-2] == "ärztin" for de in female_doctors)
    assert all(de.startswith("er ist") and de.split()[-2] == "arzt" for de in male_doctors)


# ---------------------------------------------------------------------------- spec


def test_presets_and_supported_languages():
    assert supported_languages() == ("de", "es", "fr")
    spec = planted(0, ["de", "es"])
    assert (spec.name, spec.male_ratio, spec.occupation_bias) == ("planted", 2.0, 0.8)
    assert spec.languages == ("de", "es")
    assert spec.male_probability == pytest.approx(2 / 3)
    control = balanced(0, ["fr"], n_parallel=10)
    assert (control.name, control.male_ratio, control.occupation_bias) == ("balanced", 1.0, 0.5)
    assert control.n_parallel == 10
    assert WorldSpec.from_mapping(spec.to_dict()) == spec


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"languages": ("de", "it")}, "unsupported language 'it'"),
        ({"languages": ("en",)}, "unsupported language 'en'"),
        ({"languages": ()}, "languages is empty"),
        ({"seed": -1}, "WorldSpec.seed must be a non-negative integer"),
        ({"n_parallel": 0}, "n_parallel must be an integer >= 1"),
        ({"male_ratio": 0.0}, "male_ratio must be > 0"),
        ({"occupation_bias": 1.5}, r"occupation_bias must be in \[0, 1\]"),
        ({"neutral_share": 0.9, "both_share": 0.2}, "neutral_share \\+ both_share"),
    ],
)
def test_invalid_specs_are_rejected(changes, message):
    values = {"name": "x", "seed": 1, "languages": ("de",)}
    values.update(changes)
    with pytest.raises(ValueError, match=message):
        WorldSpec(**values)


def test_unknown_corpus_and_spec_keys_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="unknown corpus 'Europarl'"):
        write_world(small(planted), tmp_path, corpora=["Europarl"])
    with pytest.raises(ValueError, match=r"unknown world spec key\(s\) \['ratio'\]"):
        WorldSpec.from_mapping({"name": "x", "seed": 1, "languages": ["de"], "ratio": 2})
    with pytest.raises(ValueError, match=r"^demo\.world: missing required key\(s\) \['seed'\]"):
        WorldSpec.from_mapping({"name": "x", "languages": ["de"]}, where="demo.world")


# ---------------------------------------------------------------------------- occupation subjects

#: SHA-256 over (relative path, bytes) of every file of ``small(planted)``, recorded before the
#: occupation-subject knobs existed: a world without them keeps its bytes.
KNOBS_OFF_DIGEST = "aad4aa7c5ac53c2f59f5cd5022f5eb02798bca2c971519b7cbc33f2871664f97"
KNOBS = {"occupation_subject_share": 0.3, "gender_free_occupation_share": 0.1}


def world_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_a_world_without_occupation_subject_knobs_keeps_its_bytes(tmp_path):
    write_world(small(planted), tmp_path / "default")
    write_world(
        small(planted, occupation_subject_share=0.0, gender_free_occupation_share=0.0),
        tmp_path / "zero",
    )
    assert world_digest(tmp_path / "default") == KNOBS_OFF_DIGEST
    assert world_digest(tmp_path / "zero") == KNOBS_OFF_DIGEST
    spec = json.loads((tmp_path / "default" / "world.json").read_text())["spec"]
    assert "occupation_subject_share" not in spec


@pytest.mark.parametrize(
    ("meaning", "expected"),
    [
        (
            Meaning("male", MALE, "occupation", 1, "possession", 0, noun("brother")),
            {
                "en": "the doctor calls his brother .",
                "de": "der arzt ruft seinen bruder an .",
                "es": "el médico llama a su hermano .",
                "fr": "le médecin appelle son frère .",
            },
        ),
        (
            Meaning("female", FEMALE, "occupation", 8, "possession", 1, 0, 0),
            {
                "en": "the nurse reads her book today .",
                "de": "die krankenpflegerin liest heute ihr buch .",
                "es": "la enfermera lee su libro hoy .",
                "fr": "l'infirmière lit son livre aujourd'hui .",
            },
        ),
        (
            Meaning("male", MALE, "occupation", 0, "possession", 1, 4),
            {
                "en": "the engineer loses his key .",
                "de": "der ingenieur verliert seinen schlüssel .",
                "es": "el ingeniero pierde su llave .",
                "fr": "l'ingénieur perd sa clé .",
            },
        ),
        (
            # gender-free in English; the referent's gender shows in the other languages
            Meaning("neutral", FEMALE, "occupation", 1, "activity", 0, 2),
            {
                "en": "the doctor reads a book .",
                "de": "die ärztin liest ein buch .",
                "es": "la médica lee un libro .",
                "fr": "la médecin lit un livre .",
            },
        ),
    ],
)  # fmt: skip
def test_occupation_subject_renderings(meaning, expected):
    assert {lang: render(meaning, lang) for lang in expected} == expected


@pytest.mark.parametrize("factory", [planted, balanced])
def test_occupation_subject_sentences_keep_the_category_contract(factory):
    spec = factory(5, n_parallel=2000, n_monolingual=2000, **KNOBS)
    english, _, meanings = parallel_corpus(spec, "TED2020", "es")
    kinds = {}
    for sentence, meaning in zip(english, meanings, strict=True):
        has_female, has_male = gendered_hits(sentence)
        expected = {"male": (False, True), "female": (True, False), "neutral": (False, False),
                    "both": (True, True)}[meaning.category]  # fmt: skip
        assert (has_female, has_male) == expected, (sentence, meaning)
        if meaning.subject_kind == "occupation":
            kinds[meaning.category == "neutral"] = kinds.get(meaning.category == "neutral", 0) + 1
    # shares 0.3 and 0.1 of 2000 meanings (binomial SE about 10 and 7)
    assert kinds[False] == pytest.approx(600, abs=60)
    assert kinds[True] == pytest.approx(200, abs=45)


def possessive_association(spec: WorldSpec) -> dict[str, float]:
    """Share of each possessive's occupation subjects from that gender's stereotyped half."""
    sentences, _ = monolingual_corpus(spec, "en")
    own = {
        "his": set(STEREOTYPICALLY_MALE_OCCUPATIONS),
        "her": set(STEREOTYPICALLY_FEMALE_OCCUPATIONS),
    }
    counts = {"his": [0, 0], "her": [0, 0]}
    for sentence in sentences:
        tokens = sentence.split()
        if tokens[0] != "the" or not ({"his", "her"} & set(tokens)):
            continue
        occupation = tokens[1]
        if occupation not in own["his"] | own["her"]:
            continue
        possessive = "his" if "his" in tokens else "her"
        counts[possessive][0] += occupation in own[possessive]
        counts[possessive][1] += 1
    return {p: hits / total for p, (hits, total) in counts.items()}


def test_occupation_subject_frames_carry_the_planted_association():
    # about 2400 possession sentences: SE of each share about 0.015
    shares = possessive_association(planted(21, n_monolingual=8000, occupation_bias=0.9, **KNOBS))
    assert shares["his"] == pytest.approx(0.9, abs=0.05)
    assert shares["her"] == pytest.approx(0.9, abs=0.05)
    control = possessive_association(balanced(21, n_monolingual=8000, **KNOBS))
    assert control["his"] == pytest.approx(0.5, abs=0.06)
    assert control["her"] == pytest.approx(0.5, abs=0.06)


def test_occupation_subjects_are_counted_in_world_json():
    counts = describe_world(planted(3, n_parallel=2000, occupation_bias=1.0, **KNOBS))
    ted = counts["parallel"]["TED2020"]["en-es"]
    subjects = ted["occupation_subjects"]
    assert subjects["gendered"]["male"]["female_stereotyped"] == 0
    assert subjects["gendered"]["female"]["male_stereotyped"] == 0
    assert subjects["gendered"]["male"]["male_stereotyped"] > 0
    assert sum(subjects["gender_free"]["female"].values()) > 0
    assert counts["spec"]["occupation_subject_share"] == 0.3
    assert WorldSpec.from_mapping(counts["spec"]) == planted(
        3, n_parallel=2000, occupation_bias=1.0, **KNOBS
    )
    assert "occupation_subjects" not in describe_world(small(planted))["monolingual"]["en"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"occupation_subject_share": 1.2}, r"occupation_subject_share must be in \[0, 1\]"),
        ({"gender_free_occupation_share": -0.1}, r"gender_free_occupation_share must be in"),
        ({"occupation_subject_share": 0.5, "gender_free_occupation_share": 0.3},
         "neutral_share \\+ both_share \\+ occupation_subject_share"),
    ],
)  # fmt: skip
def test_invalid_occupation_subject_shares_are_rejected(changes, message):
    with pytest.raises(ValueError, match=message):
        WorldSpec(name="x", seed=1, languages=("de",), **changes)


def test_a_world_without_english_gender_marking_keeps_its_bytes(tmp_path):
    write_world(small(planted, english_gender_marking=0.0), tmp_path / "zero")
    assert world_digest(tmp_path / "zero") == KNOBS_OFF_DIGEST
    spec = json.loads((tmp_path / "zero" / "world.json").read_text())["spec"]
    assert "english_gender_marking" not in spec


@pytest.mark.parametrize("factory", [planted, balanced])
def test_english_gender_marking_adds_the_subjects_gender_adjective_and_nothing_else(factory):
    """The marked world has the same meanings: its German, Spanish and French text is the
    unmarked world's, and its English text differs only by "male"/"female" before the
    occupation of about the configured share of the occupation predicates, the
    adjective agreeing with the subject's gender."""
    plain, marked = small(factory), small(factory, english_gender_marking=0.5)
    for lang in ("de", "es", "fr"):
        assert monolingual_corpus(marked, lang)[0] == monolingual_corpus(plain, lang)[0]
        assert (
            parallel_corpus(marked, "TED2020", lang)[1]
            == (parallel_corpus(plain, "TED2020", lang)[1])
        )
    lines, meanings = monolingual_corpus(marked, "en")
    plain_lines, plain_meanings = monolingual_corpus(plain, "en")
    assert [m._replace(gender_marked=False) for m in meanings] == plain_meanings
    n_occupation, n_marked = 0, 0
    for line, plain_line, meaning in zip(lines, plain_lines, meanings, strict=True):
        if meaning.predicate_kind != "occupation":
            assert not meaning.gender_marked and line == plain_line
            continue
        n_occupation += 1
        if not meaning.gender_marked:
            assert line == plain_line
            continue
        n_marked += 1
        adjective = "male" if meaning.gender == MALE else "female"
        occupation = OCCUPATIONS[meaning.slot_index].en
        expected = re.sub(rf"\b(a|an) {occupation}\b", f"a {adjective} {occupation}", plain_line)
        assert line == expected != plain_line, (line, plain_line)
    assert n_occupation > 50
    # a binomial(n, 0.5) share: 99.9% bound
    assert abs(n_marked / n_occupation - 0.5) < 3.3 * (0.25 / n_occupation) ** 0.5, (
        n_marked,
        n_occupation,
    )


def test_english_gender_marking_words_are_in_the_gender_lists_of_their_category():
    marked = small(planted, english_gender_marking=1.0)
    lines, meanings = monolingual_corpus(marked, "en")
    for line, meaning in zip(lines, meanings, strict=True):
        if meaning.gender_marked:
            words = set(line.split())
            own, other = (
                (MALE_WORDS, FEMALE_WORDS)
                if meaning.gender == MALE
                else (
                    FEMALE_WORDS,
                    MALE_WORDS,
                )
            )
            assert words & own and not words & other, line


def test_a_marked_english_occupation_renders_with_its_adjective():
    meaning = Meaning("female", FEMALE, "pronoun", 0, "occupation", 1, 1, 0, gender_marked=True)
    assert render(meaning, "en") == "she wants to be a female doctor today ."
    assert render(meaning, "de") == "sie will heute ärztin werden ."
    engineer = Meaning("male", MALE, "pronoun", 0, "occupation", 0, 0, -1, gender_marked=True)
    unmarked = render(engineer._replace(gender_marked=False), "en")
    assert unmarked.startswith("he is an ") and render(engineer, "en") == (
        unmarked.replace("is an ", "is a male ")
    )
