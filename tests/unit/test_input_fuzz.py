"""Damaged input files end in the project's own error, naming the file, or are read.

Valid files of every format a user hands over (CrowS-Pairs and multilingual CrowS-Pairs
CSV, StereoSet and translated CrowS-Pairs JSON, a workflow configuration in YAML, a
fastText ``.vec``, sentence and word-list files) are truncated, byte-flipped, cut into,
or re-encoded (latin-1, Shift-JIS, UTF-16) by hypothesis, then read by the readers the
commands use. Each read must succeed or raise :class:`mgbias.errors.InputError` (a
``ValueError``; :class:`~mgbias.errors.EncodingError` for text that is not UTF-8) whose
message names the file; any other exception fails the test. The number of inputs is
printed at the end of the module ("fuzzed N damaged input files, ... uncaught").
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mgbias.errors import InputError

pytestmark = pytest.mark.properties

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = 120
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same inputs every run: a failure is reproducible
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Inputs read, by reader, and how they ended.
COUNTS: Counter[str] = Counter()
OUTCOMES: Counter[str] = Counter()

# ----------------------------------------------------------------------------- valid files

CROWS = (
    "sent_more,sent_less,stereo_antistereo,bias_type\n"
    '"She is a nurse, not a doctor.","He is a nurse, not a doctor.",stereo,gender\n'
    '"Der Müller ist stärker.","Die Müllerin ist stärker.",antistereo,gender\n'
    "彼は医者です。,彼女は医者です。,stereo,gender\n"
)
MULTILINGUAL = (
    "ID,A_en,B_en,A_x,B_x,stereo_antistereo,bias_type\n"
    "1,He is here.,She is here.,Er ist hier.,Sie ist hier.,stereo,gender\n"
    "2,The man cried.,The woman cried.,Der Mann weinte.,Die Frau weinte.,antistereo,gender\n"
    "3,My father is strong.,My mother is strong.,Mein Vater ist stärker.,"
    "Meine Mutter ist stärker.,stereo,gender\n"
)
TRANSLATED = json.dumps(
    [
        {"direction": "stereo", "bias_type": "gender", "stereotype": "彼女は看護師です。",
         "anti-stereotype": "彼は看護師です。"},
        {"direction": "antistereo", "bias_type": "gender", "stereotype": "彼は医者です。",
         "anti-stereotype": "彼女は医者です。"},
    ],
    ensure_ascii=False,
    indent=1,
)  # fmt: skip


def _sentence(text: str, sentence_id: str, label: str) -> dict:
    return {"sentence": text, "id": sentence_id, "gold_label": label,
            "labels": [{"label": label, "human_id": "h1"}]}  # fmt: skip


STEREOSET = json.dumps(
    {
        "version": "1.0-dev",
        "data": {
            "intersentence": [],
            "intrasentence": [
                {
                    "id": "ex-gender",
                    "target": "mère",
                    "bias_type": "gender",
                    "context": "The mère was very BLANK.",
                    "sentences": [
                        _sentence("The mère was very sweet.", "s1", "stereotype"),
                        _sentence("The mère was very fish.", "s2", "unrelated"),
                        _sentence("The mère was very ambitious.", "s3", "anti-stereotype"),
                    ],
                }
            ],
        },
    },
    ensure_ascii=False,
    indent=1,
)
VEC = "4 3\nhe 0.1 0.2 0.3\nshe -0.1 0.25 1e-3\nmädchen 1 2 3\n医者 0.5 -0.5 0\n"
SENTENCES = "Er ist Arzt.\nSie ist Ärztin.\n彼は医者です。\nThe nurse is here.\n"
GENDERED_TSV = "gender\tsentence\nF\tSie ist Ärztin.\nM\tEr ist Arzt.\n"
WORDS = "# gender words\nsie\nfrau\nmädchen\n"

# ----------------------------------------------------------------------------- damage


@st.composite
def damaged(draw, text: str) -> bytes:
    """``text`` as UTF-8, then truncated, byte-flipped, cut into, or re-encoded."""
    data = text.encode("utf-8")
    how = draw(st.sampled_from(["truncate", "flip", "splice", "reencode", "mixed"]))
    if how in ("reencode", "mixed"):
        encoding = draw(st.sampled_from(["latin-1", "shift_jis", "utf-16", "cp1252"]))
        data = text.encode(encoding, errors="replace")
    if how in ("truncate", "mixed"):
        data = data[: draw(st.integers(0, len(data)))]
    if how in ("flip", "mixed") and data:
        flipped = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(flipped) - 1))
            flipped[at] ^= draw(st.integers(1, 255))
        data = bytes(flipped)
    if how == "splice":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    return data


def _read(name: str, path: Path, data: bytes, reader) -> None:
    """Write ``data`` to ``path`` and read it: success, or an InputError naming the file."""
    path.write_bytes(data)
    COUNTS[name] += 1
    try:
        reader(path)
    except InputError as error:
        assert str(path) in str(error), f"{name}: the message does not name the file: {error}"
        OUTCOMES[type(error).__name__] += 1
    except BaseException:
        OUTCOMES["uncaught"] += 1
        raise
    else:
        OUTCOMES["read"] += 1


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    yield
    total = sum(COUNTS.values())
    uncaught = OUTCOMES.pop("uncaught", 0)
    plugins = request.config.pluginmanager
    reporter = plugins.get_plugin("terminalreporter")
    capture = plugins.get_plugin("capturemanager")
    line = (
        f"fuzzed {total} damaged input files ({dict(sorted(COUNTS.items()))}), "
        f"{uncaught} uncaught exceptions; outcomes {dict(sorted(OUTCOMES.items()))}"
    )
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():  # shown, not captured
            reporter.write_line("")
            reporter.write_line(line)


# ----------------------------------------------------------------------------- pair datasets


@SETTINGS
@given(data=damaged(CROWS))
def test_crows_pairs_csv(tmp_path, data):
    from mgbias.pairs.data import load_pairs

    _read("crows_csv", tmp_path / "pairs.csv", data, lambda p: load_pairs(str(p)))


@SETTINGS
@given(data=damaged(MULTILINGUAL))
def test_multilingual_crows_pairs_csv(tmp_path, data):
    from mgbias.pairs.data import load_pairs

    path = tmp_path / "cps_translated_de_formatted.csv"
    _read("multilingual_csv", path, data, lambda p: load_pairs(str(p), lang="de"))


@SETTINGS
@given(data=damaged(STEREOSET))
def test_stereoset_json(tmp_path, data):
    from mgbias.pairs.data import load_pairs

    _read("stereoset_json", tmp_path / "dev.json", data, lambda p: load_pairs(str(p)))


@SETTINGS
@given(data=damaged(TRANSLATED))
def test_translated_crows_pairs_json(tmp_path, data):
    from mgbias.pairs.data import load_pairs

    _read("translated_json", tmp_path / "ja.json", data, lambda p: load_pairs(str(p)))


# ----------------------------------------------------------------------------- vectors, text


@SETTINGS
@given(data=damaged(VEC))
def test_vec(tmp_path, data):
    from mgbias.embeddings.vectors import read_vec

    _read("vec", tmp_path / "src.vec", data, read_vec)


@SETTINGS
@given(data=damaged(SENTENCES))
def test_sentence_files(tmp_path, data):
    from mgbias.contextual.steps import read_corpus
    from mgbias.mlm.text_lines import iter_text_lines

    _read("corpus", tmp_path / "text.txt", data, read_corpus)
    _read("text_lines", tmp_path / "train.txt", data, lambda p: list(iter_text_lines([p])))


@SETTINGS
@given(data=damaged(GENDERED_TSV))
def test_gendered_sentence_file(tmp_path, data):
    from mgbias.kaneko2022.sentences import read_gendered_sentences

    _read("gendered_tsv", tmp_path / "sentences.tsv", data, read_gendered_sentences)


@SETTINGS
@given(data=damaged(WORDS))
def test_word_list_file(tmp_path, data):
    from mgbias.wordlists import load_wordlist

    _read("word_list", tmp_path / "female.txt", data, load_wordlist)


# ----------------------------------------------------------------------------- configuration


CONFIG = (REPO / "tests" / "configs" / "tiny.yaml").read_text(encoding="utf-8")


@SETTINGS
@given(data=damaged(CONFIG))
def test_workflow_configuration(tmp_path, data):
    from mgbias.config import load_config

    _read("config_yaml", tmp_path / "config.yaml", data, load_config)


DICTIONARY = "he er\nshe sie\ngirl mädchen\ndoctor 医者\n"
NAMES = "Jürgen Müller\nMaría López\n山田太郎\n"
TITLES = json.dumps({"Ärztin": "doctor", "médecin": "doctor"}, ensure_ascii=False)


@SETTINGS
@given(data=damaged(DICTIONARY))
def test_muse_dictionary(tmp_path, data):
    from mgbias.embeddings.dictionaries import read_dictionary

    _read("muse_dictionary", tmp_path / "train.dico", data, read_dictionary)


@SETTINGS
@given(data=damaged(NAMES), titles=damaged(TITLES))
def test_bios_names_and_titles(tmp_path, data, titles):
    from mgbias.bios.pipeline import read_names
    from mgbias.bios.rules import load_title_lexicon

    _read("bios_names", tmp_path / "names.txt", data, read_names)
    _read("bios_titles", tmp_path / "titles.json", titles, load_title_lexicon)
