"""Load a masked language model and its tokenizer from the Hugging Face hub or a directory.

Every load passes the model gate first (:mod:`mgbias.mlm.gate`): a name that is no
directory must be a hub id the local cache or the hub can serve now, the tokenizer
must come from tokenizer files and fit the model's embedding matrix.

``AutoModelForMaskedLM.from_pretrained`` initialises at random every weight a
checkpoint lacks (an encoder saved without its MLM head, a head of another
shape); such a model still runs, and every score of it is noise.
:func:`load_mlm` therefore reads the loading information and refuses such a
model (:class:`UntrainedHeadError`) unless told to accept it. :func:`load_encoder`
loads the encoder alone (``AutoModel``: hidden states, no head), refusing one whose
encoder weights are not all in the checkpoint.

A checkpoint whose weights hold NaN or infinite values (a fine-tuning that
diverged, a file damaged in a way its format does not notice) also loads and
runs; every score of it is NaN, or a number computed from NaN-free corners of
it. Both loaders refuse it (:class:`NonFiniteWeightsError`, naming the tensors).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import torch
from transformers import (
    AutoModelForMaskedLM,
    PreTrainedModel,
    PreTrainedTokenizerBase,
)
from transformers.utils.hub import cached_file, extract_commit_hash

from mgbias.errors import InputError, WeightsError
from mgbias.mlm.devices import pick_device
from mgbias.mlm.gate import (
    ModelLoadError,
    ModelSource,
    check_vocabulary,
    load_tokenizer,
    resolve_source,
)

log = logging.getLogger(__name__)


#: File names of a model directory's weights, as ``save_pretrained`` writes them (with shards).
WEIGHT_PATTERNS = ("*.safetensors", "pytorch_model*.bin", "*.safetensors.index.json")


def weight_files(directory: str | Path) -> list[Path]:
    """The weights files of a local model directory, sorted by name."""
    directory = Path(directory)
    return sorted({f for pattern in WEIGHT_PATTERNS for f in directory.glob(pattern)})


@contextlib.contextmanager
def reading_model_files(directory: Path) -> Iterator[None]:
    """Turn a failure to read a local model directory into a :class:`WeightsError` naming it.

    A corrupt or truncated ``model.safetensors`` makes safetensors raise a bare
    ``SafetensorError`` ("incomplete metadata, file not fully covered"), and a truncated
    ``pytorch_model.bin`` an ``OSError`` or an unpickling error, none naming the file.
    Each weights file is then opened on its own to name the one that fails.
    """
    try:
        yield
    except (UntrainedHeadError, WeightsError):
        raise
    except Exception as error:  # noqa: BLE001 - safetensors, torch and tokenizers raise their own
        raise WeightsError(_unreadable(directory, error)) from error


def _unreadable(directory: Path, error: Exception) -> str:
    files = weight_files(directory)
    for weights in files:
        problem = _weights_problem(weights)
        if problem:
            return (
                f"{weights}: cannot read the weights ({problem}); the file is corrupt or "
                "truncated: copy or download it again"
            )
    if not files:
        return (
            f"model directory {directory} has no weights file (expected model.safetensors or "
            f"pytorch_model.bin): {type(error).__name__}: {error}"
        )
    return (
        f"model directory {directory}: cannot load it ({type(error).__name__}: {error}); its "
        f"weights files {[f.name for f in files]} open, so a config or tokenizer file may be "
        "corrupt"
    )


def _weights_problem(path: Path) -> str | None:
    """Why one weights file cannot be read, or ``None`` when it can."""
    try:
        if path.name.endswith(".index.json"):
            import json

            json.loads(path.read_text(encoding="utf-8"))
        elif path.suffix == ".safetensors":
            from safetensors import safe_open

            with safe_open(str(path), framework="pt") as handle:
                for key in handle.keys():
                    handle.get_slice(key)
            _check_safetensors_size(path)
        else:
            torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - any failure is the answer
        return f"{type(error).__name__}: {error}"
    return None


def _check_safetensors_size(path: Path) -> None:
    """Raise when the header promises more tensor bytes than the file holds."""
    import json
    import struct

    with open(path, "rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    ends = [info["data_offsets"][1] for key, info in header.items() if key != "__metadata__"]
    need = 8 + length + max(ends, default=0)
    size = path.stat().st_size
    if size < need:
        raise ValueError(f"{size} bytes, but its header describes {need}")


class UntrainedHeadError(ValueError):
    """A checkpoint lacks weights of the masked LM (its MLM head, usually), so they are random."""


class NotMaskedLMError(InputError):
    """A model of a type that makes no masked-token predictions (GPT-2, T5, ...)."""


def check_masked_lm(source: ModelSource) -> None:
    """Refuse a model whose configuration no masked-LM class takes (a causal LM, an
    encoder-decoder), in one line naming its type, before its weights are read.

    A configuration that cannot be read is left to ``from_pretrained``, whose error the
    loader reports.
    """
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_MASKED_LM_MAPPING_NAMES

    try:
        config = AutoConfig.from_pretrained(source.target, **source.options)
    except Exception:  # noqa: BLE001 - reported by the load itself
        return
    if config.model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES:
        return
    architectures = ", ".join(getattr(config, "architectures", None) or []) or "no architecture"
    raise NotMaskedLMError(
        f"{source.name}: a {config.model_type!r} model ({architectures}), not a masked "
        "language model: the measures read its predictions at masked positions, which a "
        "masked LM makes (BERT, RoBERTa, XLM-R and the other types "
        "AutoModelForMaskedLM loads)"
    )


class NonFiniteWeightsError(WeightsError):
    """A checkpoint whose weights hold NaN or infinite values."""


def non_finite_weights(model: torch.nn.Module) -> list[tuple[str, int, int]]:
    """``(name, non-finite values, values)`` of each parameter holding NaN or infinity.

    A tensor's sum is finite when all its values are (NaN and infinity carry
    into the sum), so the values are counted only for a tensor whose sum is not
    (it may also have overflowed): about a third of the time of checking every value.
    """
    found = []
    with torch.no_grad():
        for name, weight in model.named_parameters():
            if torch.isfinite(weight.sum()):
                continue
            bad = int((~torch.isfinite(weight)).sum())
            if bad:
                found.append((name, bad, weight.numel()))
    return found


def check_finite_weights(name: str, model: torch.nn.Module) -> None:
    """Refuse a model any of whose weights is NaN or infinite.

    Raises
    ------
    NonFiniteWeightsError
        Naming ``name``, how many weight tensors hold such values and the first
        few with their counts.
    """
    found = non_finite_weights(model)
    if not found:
        return
    tensors = sum(1 for _ in model.parameters())
    shown = [f"{key} ({bad:,} of {total:,} values)" for key, bad, total in found]
    raise NonFiniteWeightsError(
        f"{name}: {len(found)} of {tensors} weight tensors hold NaN or infinite values: "
        f"{_listing(shown, 3)}. The checkpoint is broken (a training run that diverged, or a "
        "damaged file), and every score of it would be NaN or meaningless: use another "
        "checkpoint of the model"
    )


#: How many weight names an error or warning lists before "... and N more".
LISTED_WEIGHTS = 10


def load_mlm(
    name_or_path: str,
    *,
    revision: str | None = None,
    device: str | torch.device | None = None,
    allow_untrained_head: bool = False,
    attn_implementation: str | None = "eager",
    tokenizer: str | None = None,
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Load a masked LM and its tokenizer, in eval mode, ready for scoring.

    The model is loaded with ``attn_implementation="eager"`` because only the
    eager attention returns attention weights (needed by AULA and MBE). The model
    gate (:mod:`mgbias.mlm.gate`) runs first: the name must be a directory, or a hub
    id in the local cache or reachable now; the tokenizer must come from tokenizer
    files (never transformers' fallback of five special tokens) and fit the model's
    input embedding matrix. The loading information is then checked with
    :func:`check_loading_info`: weights missing from the checkpoint, or of another
    shape there, were initialised at random, and the model is refused unless
    ``allow_untrained_head``.

    Parameters
    ----------
    name_or_path : str
        An existing local directory (``save_pretrained`` layout with
        ``config.json``) or a Hugging Face hub id such as ``"bert-base-cased"``.
    revision : str, optional
        Hub branch, tag or commit; ignored for local directories.
    device : str or torch.device, optional
        Passed to :func:`pick_device`: a device, or ``None`` or ``"auto"`` (the
        configuration's and the command line's default) for CUDA when available,
        else CPU.
    allow_untrained_head : bool, default False
        Load a model with randomly initialised weights anyway, with a warning
        (its scores are noise; for tests of the machinery only).
    attn_implementation : str or None, default "eager"
        Attention implementation: ``"eager"`` for scoring (attention weights);
        ``None`` for transformers' default (``"sdpa"`` where the model supports
        it), as fine-tuning uses.
    tokenizer : str, optional
        A directory or hub id to load the tokenizer from instead of the model's own
        (a checkpoint saved without its tokenizer); a hub id is read at ``revision``
        only when it is the model's.

    Returns
    -------
    tuple[PreTrainedModel, PreTrainedTokenizerBase]
        The model (on ``device``, ``eval()``) and its tokenizer. The resolved
        hub commit, when known, is available through :func:`model_revision`.

    Raises
    ------
    ModelFilesError
        If ``name_or_path`` is an existing path that is not a model directory, or
        the tokenizer's directory has no tokenizer files.
    ModelLoadError
        If ``name_or_path`` is not an existing path and is no hub id, or the hub
        cannot serve it (offline and not cached, unreachable, no such model); or
        loading it as a hub id failed (the original exception is chained).
    CorruptModelFileError, WeightsError
        A tokenizer, config or weights file that cannot be read (named).
    VocabularyMismatchError
        If the tokenizer's vocabulary does not fit the model's embedding matrix.
    UntrainedHeadError
        If the checkpoint lacks weights of the masked LM (or holds them in
        another shape) and ``allow_untrained_head`` is false.
    NotMaskedLMError
        If the configuration is of a type no masked-LM class takes (GPT-2, T5, ...).
    NonFiniteWeightsError
        If a weight holds NaN or an infinite value.
    """
    target = pick_device(None if device is None else str(device))
    source = resolve_source(name_or_path, revision)
    options = {"attn_implementation": attn_implementation, "output_loading_info": True}
    # A weight of another shape is then re-initialised and reported like a missing one.
    options["ignore_mismatched_sizes"] = True
    check_masked_lm(source)
    loaded_tokenizer = _gated_tokenizer(source, tokenizer)
    if source.directory is not None:
        name = str(source.directory)
        with reading_model_files(source.directory), _without_load_report():
            model, info = AutoModelForMaskedLM.from_pretrained(name, **options)
        commit = None
    else:
        name = name_or_path
        try:
            with _without_load_report():
                model, info = AutoModelForMaskedLM.from_pretrained(
                    name_or_path, **source.options, **options
                )
        except Exception as exc:
            raise ModelLoadError(
                f"{name_or_path!r} is not an existing directory, so it was treated as a Hugging "
                f"Face hub id (revision {revision or 'default'}), and it could not be loaded: {exc}"
            ) from exc
        commit = _resolved_commit(name_or_path, revision)
    check_vocabulary(name, loaded_tokenizer, model, tokenizer_name=tokenizer or "")
    check_loading_info(
        name, info, model_class=type(model).__name__, allow_untrained_head=allow_untrained_head
    )
    # Plain attribute: read by model_revision(); transformers never serialises it.
    model.config._commit_hash = commit
    model.eval()
    model.to(target)
    check_finite_weights(name, model)  # on the model's device
    log.info("loaded %s (revision %s) on %s", name_or_path, commit or "local", target)
    return model, loaded_tokenizer


def _gated_tokenizer(model_source: ModelSource, tokenizer: str | None) -> PreTrainedTokenizerBase:
    """The model's own tokenizer, or that of ``tokenizer`` (a directory or hub id)."""
    if tokenizer is None:
        return load_tokenizer(model_source)
    same = tokenizer == model_source.name
    revision = model_source.revision if same else None
    return load_tokenizer(resolve_source(tokenizer, revision, what="tokenizer"))


def load_encoder(name_or_path: str, *, revision: str | None = None, device: str | None = None):
    """Any Hugging Face encoder (``AutoModel``; an MLM head is not needed) and its tokenizer.

    The model gate of :func:`load_mlm` applies (:mod:`mgbias.mlm.gate`). Returns
    ``(model, tokenizer, revision)``: the hub commit when known, else ``revision``.
    """
    from transformers import AutoModel

    source = resolve_source(name_or_path, revision)
    tokenizer = load_tokenizer(source)
    local = source.directory is not None
    with reading_model_files(source.directory) if local else contextlib.nullcontext():
        with _without_load_report():  # an MLM head left unused, a pooler missing: both unread
            model, info = AutoModel.from_pretrained(
                source.target, output_loading_info=True, **source.options
            )
    check_vocabulary(source.target, tokenizer, model)
    missing = sorted(info.get("missing_keys") or ())
    untrained = [key for key in missing if not key.startswith("pooler.")]
    if untrained:
        raise ValueError(
            f"{source.target}: {len(untrained)} encoder weight(s) are not in the checkpoint and "
            f"would be random, e.g. {untrained[:5]}; its hidden states would be noise"
        )
    log.info("%s loaded as %s (unused: pooler %s)", source.target, type(model).__name__, missing)
    model.eval()
    model.to(pick_device(device))
    check_finite_weights(source.target, model)
    commit = None if local else _resolved_commit(name_or_path, revision)
    return model, tokenizer, commit or revision


def initialised_weights(loading_info: Mapping[str, object]) -> list[str]:
    """Weights that ``from_pretrained`` initialised at random, sorted, as readable strings.

    Parameters
    ----------
    loading_info : mapping
        The dictionary ``from_pretrained(..., output_loading_info=True)``
        returns: ``missing_keys`` (names of weights the checkpoint lacks; a
        weight tied to another one, as the decoder to the input embeddings, is
        not listed) and ``mismatched_keys`` (``(name, checkpoint shape, model
        shape)`` of weights re-initialised because of another shape, with
        ``ignore_mismatched_sizes=True``).

    Returns
    -------
    list[str]
        Missing names, then ``"name (checkpoint shape [a, b], model [c, d])"``
        for mismatched weights.
    """
    missing = sorted(loading_info.get("missing_keys") or ())
    mismatched = [
        f"{key} (checkpoint shape {list(saved)}, model {list(wanted)})"
        for key, saved, wanted in sorted(loading_info.get("mismatched_keys") or (), key=str)
    ]
    return missing + mismatched


def check_loading_info(
    name: str,
    loading_info: Mapping[str, object],
    *,
    model_class: str = "the masked LM",
    allow_untrained_head: bool = False,
) -> None:
    """Refuse a model whose checkpoint lacked weights; log the checkpoint weights left unused.

    Parameters
    ----------
    name : str
        The model's directory or hub id, named in the messages.
    loading_info : mapping
        ``from_pretrained(..., output_loading_info=True)``'s second value (see
        :func:`initialised_weights`); ``unexpected_keys`` are checkpoint
        weights the model has no place for, normal for a real pretraining
        checkpoint (BERT's next-sentence head ``cls.seq_relationship.*``, its
        pooler), and logged at info level only.
    model_class : str
        Class the checkpoint was loaded into, named in the messages.
    allow_untrained_head : bool, default False
        Warn (``logging.WARNING``) instead of raising.

    Raises
    ------
    UntrainedHeadError
        If weights were initialised at random and ``allow_untrained_head`` is false.
    """
    unexpected = sorted(loading_info.get("unexpected_keys") or ())
    if unexpected:
        log.info(
            "%s: %d checkpoint weight(s) unused by %s (normal for a pretraining checkpoint): %s",
            name,
            len(unexpected),
            model_class,
            _listing(unexpected),
        )
    initialised = initialised_weights(loading_info)
    if not initialised:
        return
    found = (
        f"{name}: {len(initialised)} weight(s) of {model_class} are not in the checkpoint "
        f"(or have another shape there) and were initialised at random: {_listing(initialised)}"
    )
    if not allow_untrained_head:
        raise UntrainedHeadError(
            f"{found}. The model's MLM head was never trained, so every score of it would be "
            "noise. Use a checkpoint with a trained MLM head (one saved from a *ForMaskedLM "
            "model), or pass --allow-untrained-head (mgbias score) or set "
            "allow_untrained_head: true for this model in the workflow configuration to score "
            "it anyway."
        )
    log.warning(
        "%s. Loaded anyway (allow_untrained_head): EVERY SCORE OF THIS MODEL IS NOISE.", found
    )


def _listing(names: list[str], limit: int = LISTED_WEIGHTS) -> str:
    shown = ", ".join(names[:limit])
    rest = len(names) - limit
    return f"{shown}, ... and {rest} more" if rest > 0 else shown


class _DropLoadReport(logging.Filter):
    """Drops transformers' LOAD REPORT record: :func:`check_loading_info` reports the same keys."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "LOAD REPORT" not in str(record.msg)


@contextlib.contextmanager
def _without_load_report() -> Iterator[None]:
    logger = logging.getLogger("transformers.modeling_utils")
    report_filter = _DropLoadReport()
    logger.addFilter(report_filter)
    try:
        yield
    finally:
        logger.removeFilter(report_filter)


def _resolved_commit(repo_id: str, revision: str | None) -> str | None:
    """The commit a hub checkout resolved to, read from its cache path (None if unknown)."""
    try:
        config_file = cached_file(repo_id, "config.json", revision=revision)
    except Exception:  # the model loaded; an unknown commit must not fail the load
        return None
    return extract_commit_hash(config_file, None)


def model_revision(model: PreTrainedModel) -> str | None:
    """Commit hash of the hub checkout a model was loaded from, or None (local or unknown)."""
    return getattr(model.config, "_commit_hash", None)


def load_each(
    entries: Iterable[Mapping], *, device: str | torch.device | None = None
) -> Iterator[tuple[Mapping, PreTrainedModel, PreTrainedTokenizerBase]]:
    """Load the models of one job, one after another, with :func:`load_mlm`.

    ``entries`` are the ``params.models`` of a scoring or probing rule: mappings with
    ``model_id``, ``revision`` and ``allow_untrained_head``
    (:func:`mgbias.workflow.model_entries`). Yields ``(entry, model,
    tokenizer)``; a model is loaded when the caller asks for the next one, so only one is
    held at a time when the caller lets the previous go. An entry with
    ``structural_baseline_seed`` yields the random copy of its model with that seed
    (:func:`mgbias.mlm.baseline.random_copy`) and the model's tokenizer.
    """
    from mgbias.mlm.baseline import SEED_KEY, random_copy

    for entry in entries:
        model, tokenizer = load_mlm(
            entry["model_id"],
            revision=entry["revision"],
            device=device,
            allow_untrained_head=entry["allow_untrained_head"],
        )
        if entry.get(SEED_KEY) is not None:
            model = random_copy(model, entry[SEED_KEY])
        yield entry, model, tokenizer
        del model, tokenizer  # not held while the next one loads


def entry_fields(entry: Mapping, model: PreTrainedModel) -> dict[str, str | None]:
    """The provenance fields of a model :func:`load_each` loaded from ``entry``:
    ``model`` (its name in the configuration), ``model_id`` and ``revision`` (the one
    asked for, else the hub commit the model came from; None for a local directory), and
    a structural baseline's ``structural_baseline_seed``."""
    from mgbias.mlm.baseline import SEED_KEY

    seed = entry.get(SEED_KEY)
    return {
        "model": entry["model"],
        "model_id": entry["model_id"],
        "revision": entry["revision"] or model_revision(model),
        **({} if seed is None else {SEED_KEY: seed}),
    }
