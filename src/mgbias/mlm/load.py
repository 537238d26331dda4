"""Load a masked language model and its tokenizer from the Hugging Face hub or a directory."""

from __future__ import annotations

import logging
from pathlib import Path

import torch
from transformers import (
    AutoModelForMaskedLM,
    AutoTokenizer,
    PreTrainedModel,
    PreTrainedTokenizerBase,
)
from transformers.utils.hub import cached_file, extract_commit_hash

log = logging.getLogger(__name__)


class ModelLoadError(OSError):
    """A model name was treated as a hub id and could not be loaded."""


def pick_device(preferred: str | None = None) -> torch.device:
    """Choose the device to run a model on.

    Parameters
    ----------
    preferred : str, optional
        A torch device string (``"cpu"``, ``"cuda"``, ``"cuda:1"``, ...) to use
        as given, or ``None``/``"auto"`` for CUDA when available, else CPU.

    Raises
    ------
    ValueError
        If ``preferred`` names CUDA but no CUDA device is available.
    """
    if preferred is None or preferred == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(preferred)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {preferred!r} was requested but CUDA is not available")
    return device


def load_mlm(
    name_or_path: str,
    *,
    revision: str | None = None,
    device: str | torch.device | None = None,
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Load a masked LM and its tokenizer, in eval mode, ready for scoring.

    The model is loaded with ``attn_implementation="eager"`` because only the
    eager attention returns attention weights (needed by AULA and MBE).

    Parameters
    ----------
    name_or_path : str
        An existing local directory (``save_pretrained`` layout with
        ``config.json``) or a Hugging Face hub id such as ``"bert-base-cased"``.
    revision : str, optional
        Hub branch, tag or commit; ignored for local directories.
    device : str or torch.device, optional
        Passed to :func:`pick_device`.

    Returns
    -------
    tuple[PreTrainedModel, PreTrainedTokenizerBase]
        The model (on ``device``, ``eval()``) and its tokenizer. The resolved
        hub commit, when known, is available through :func:`model_revision`.

    Raises
    ------
    FileNotFoundError
        If ``name_or_path`` is an existing path that is not a model directory.
    ModelLoadError
        If ``name_or_path`` is not an existing path and loading it as a hub id
        failed (the original exception is chained).
    """
    target = pick_device(None if device is None else str(device))
    path = Path(name_or_path).expanduser()
    if path.exists():
        if not path.is_dir():
            raise FileNotFoundError(
                f"model path {path} is a file; expected a model directory containing config.json"
            )
        if not (path / "config.json").is_file():
            raise FileNotFoundError(
                f"model directory {path} has no config.json; expected a directory written by "
                "save_pretrained (config.json, weights and tokenizer files)"
            )
        tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModelForMaskedLM.from_pretrained(path, attn_implementation="eager")
        commit = None
    else:
        try:
            tokenizer = AutoTokenizer.from_pretrained(name_or_path, revision=revision)
            model = AutoModelForMaskedLM.from_pretrained(
                name_or_path, revision=revision, attn_implementation="eager"
            )
        except Exception as exc:
            raise ModelLoadError(
                f"{name_or_path!r} is not an existing directory, so it was treated as a Hugging "
                f"Face hub id (revision {revision or 'default'}), and it could not be loaded: {exc}"
            ) from exc
        commit = _resolved_commit(name_or_path, revision)
    # Plain attribute: read by model_revision(); transformers never serialises it.
    model.config._commit_hash = commit
    model.eval()
    model.to(target)
    log.info("loaded %s (revision %s) on %s", name_or_path, commit or "local", target)
    return model, tokenizer


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
