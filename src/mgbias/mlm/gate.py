"""The model gate: what a model and its tokenizer must pass before anything is scored.

A model that loads is not yet a model that can be scored. transformers builds a
tokenizer of the model type's five special tokens when a directory has no tokenizer
files (every word then becomes ``[UNK]``), and a model name that is neither a
directory nor reachable on the hub is retried for a minute. Each check below ends in
a one-line error naming the directory, file or count instead:

- :func:`resolve_source`: a local directory (with a readable ``config.json``), or a
  hub id that is in the local cache or answers one request within
  :data:`HUB_PROBE_TIMEOUT` seconds (:class:`ModelLoadError` otherwise, saying both
  why it is no directory and why the hub could not serve it);
- :func:`load_tokenizer`: the tokenizer comes from files of its own directory (or of
  an explicit tokenizer source), never from transformers' empty fallback
  (:class:`ModelFilesError`, :class:`CorruptModelFileError`);
- :func:`check_vocabulary`: the tokenizer's vocabulary fits the model's input
  embedding matrix (:class:`VocabularyMismatchError`; :data:`MIN_VOCAB_SHARE`);
- :func:`check_unknown_tokens`: at most :data:`MAX_UNK_SHARE` of the data's word
  pieces are the tokenizer's unknown token (:class:`UnknownTokensError`).

:func:`mgbias.mlm.load.load_mlm` and :func:`~mgbias.mlm.load.load_encoder` run the
first three on every load (the command line, the API and the workflow's jobs all load
through them); the scoring functions of the API and the workflow's scoring jobs run
the fourth on their sentences before the first forward pass.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mgbias.errors import InputError

__all__ = [
    "HUB_PROBE_TIMEOUT",
    "MAX_UNK_SHARE",
    "MIN_VOCAB_SHARE",
    "ModelFilesError",
    "ModelLoadError",
    "ModelSource",
    "CorruptModelFileError",
    "UnknownCount",
    "UnknownTokensError",
    "VocabularyMismatchError",
    "check_unknown_tokens",
    "check_vocabulary",
    "count_unknown_tokens",
    "load_tokenizer",
    "resolve_source",
]

log = logging.getLogger(__name__)

#: Largest share of the data's word pieces (special tokens not counted) that may be the
#: tokenizer's unknown token. A model's own tokenizer on text of its language leaves
#: almost none (bert-base-uncased's WordPiece on the 3,016 sentences of CrowS-Pairs: 0
#: of 47,049 pieces); a tokenizer that does not fit gives tens of percent (a vocabulary
#: of CrowS-Pairs' 200 most frequent words: 45.8 %), transformers' fallback of five
#: special tokens 100 %. At 5 % a rare character or script (an emoji, a foreign name)
#: still passes; above it, about one word of a 20-piece sentence is scored as noise.
MAX_UNK_SHARE = 0.05

#: Smallest ratio of the tokenizer's size (``len(tokenizer)``) to the rows of the model's
#: input embedding matrix. A model's own tokenizer covers its matrix up to the rows
#: padded for speed (rounded up to a multiple of 8 to 128: DeBERTa-v3 128,001 tokens of
#: 128,100 rows, ModernBERT 50,280 of 50,368); a tokenizer of less than half the rows is
#: another model's, or transformers' fallback of five special tokens.
MIN_VOCAB_SHARE = 0.5

#: Seconds the one request to the hub may take before a hub id that is not in the local
#: cache is declared unreachable (huggingface_hub's own default retries for about a
#: minute; ``HF_HUB_ETAG_TIMEOUT`` is 10 s per try).
HUB_PROBE_TIMEOUT = 5.0

#: What the command line and the API call the two escape hatches, named in the messages.
TOKENIZER_FLAGS = "--tokenizer DIR_OR_ID (tokenizer= in the API)"
ALLOW_UNK_FLAGS = (
    "--allow-unk (allow_unk=True in the API; scoring: allow_unk: true in the workflow "
    "configuration)"
)

#: JSON files of a model or tokenizer directory that are read when present.
JSON_FILES = (
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
)


class ModelLoadError(InputError, OSError):
    """A model name that is no local directory and could not be loaded from the hub."""


class ModelFilesError(InputError, FileNotFoundError):
    """A model or tokenizer directory that lacks files it needs (config, tokenizer)."""


class CorruptModelFileError(InputError, OSError):
    """A config or tokenizer file that cannot be read (corrupt, truncated, an unknown layout)."""


class VocabularyMismatchError(InputError):
    """A tokenizer whose vocabulary does not fit the model's input embedding matrix."""


class UnknownTokensError(InputError):
    """Data whose word pieces are too often the tokenizer's unknown token."""


# ----------------------------------------------------------------------------- sources


@dataclass(frozen=True)
class ModelSource:
    """Where a model or tokenizer is loaded from.

    Attributes
    ----------
    name : str
        As given (a directory or a hub id).
    directory : Path or None
        The local directory, or None for a hub id.
    revision : str or None
        Hub branch, tag or commit (None for a directory).
    cached_only : bool
        A hub id loaded from the local cache only (offline, or the hub unreachable).
    """

    name: str
    directory: Path | None = None
    revision: str | None = None
    cached_only: bool = False

    @property
    def target(self) -> str:
        """What ``from_pretrained`` is given."""
        return str(self.directory) if self.directory is not None else self.name

    @property
    def options(self) -> dict[str, Any]:
        """``from_pretrained``'s keyword arguments for this source."""
        if self.directory is not None:
            return {}
        return {"revision": self.revision, "local_files_only": self.cached_only}


def resolve_source(
    name: str | os.PathLike, revision: str | None = None, *, what: str = "model"
) -> ModelSource:
    """A local directory, or a hub id the hub (or the local cache) can serve now.

    Parameters
    ----------
    name : str or path
        A directory written by ``save_pretrained`` or a hub id (``org/name``).
    revision : str, optional
        Hub branch, tag or commit; ignored for a directory.
    what : {"model", "tokenizer"}
        A model directory needs ``config.json``; a tokenizer directory does not.

    Returns
    -------
    ModelSource

    Raises
    ------
    ModelFilesError
        An existing path that is a file, or a model directory without ``config.json``.
    CorruptModelFileError
        A JSON file of the directory (``config.json``, ``tokenizer.json``, ...) that
        cannot be read.
    ModelLoadError
        A name that is no existing path and no valid hub id, or a hub id that is not in
        the local cache while the hub is offline (``HF_HUB_OFFLINE``), unreachable
        within :data:`HUB_PROBE_TIMEOUT` seconds, or has no such model or revision.
    """
    path = Path(name).expanduser()
    if path.exists():
        if not path.is_dir():
            raise ModelFilesError(
                f"{what} path {path} is a file; expected a {what} directory"
                + (" containing config.json" if what == "model" else "")
            )
        if what == "model" and not (path / "config.json").is_file():
            raise ModelFilesError(
                f"model directory {path} has no config.json; expected a directory written by "
                "save_pretrained (config.json, weights and tokenizer files)"
            )
        check_json_files(path)
        return ModelSource(name=str(name), directory=path)
    return _hub_source(str(name), revision)


def check_json_files(directory: Path) -> None:
    """Raise :class:`CorruptModelFileError` naming the first of :data:`JSON_FILES` not JSON."""
    for file_name in JSON_FILES:
        path = directory / file_name
        if not path.is_file():
            continue
        try:
            json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise CorruptModelFileError(
                f"{path}: not valid JSON ({type(error).__name__}: {error}); the file is "
                "corrupt or truncated: copy or download it again"
            ) from None


def _not_here(name: str) -> str:
    where = "" if Path(name).expanduser().is_absolute() else f" under {Path.cwd()}"
    return f"{name!r} is not a local directory (no such path{where})"


def _hub_source(name: str, revision: str | None) -> ModelSource:
    from huggingface_hub import constants, try_to_load_from_cache
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(name)
    except HFValidationError as error:
        raise ModelLoadError(
            f"{_not_here(name)} and is not a Hugging Face hub id either ({error})"
        ) from None
    cached = isinstance(try_to_load_from_cache(name, "config.json", revision=revision), str)
    if constants.is_offline_mode():
        if cached:
            return ModelSource(name=name, revision=revision, cached_only=True)
        raise ModelLoadError(
            f"{_not_here(name)} and could not be reached on the Hugging Face hub (offline: "
            f"HF_HUB_OFFLINE is set and it is not in the local cache {constants.HF_HUB_CACHE}); "
            "give a model directory, or download the model once online"
        )
    problem, reached = _probe_hub(name, revision)
    if problem is None:
        return ModelSource(name=name, revision=revision)
    if cached and not reached:
        log.warning("%s: the hub cannot be reached (%s); loading the cached copy", name, problem)
        return ModelSource(name=name, revision=revision, cached_only=True)
    if reached:
        raise ModelLoadError(f"{_not_here(name)} and the Hugging Face hub {problem}")
    raise ModelLoadError(
        f"{_not_here(name)} and could not be reached on the Hugging Face hub ({problem}); "
        "give a model directory, or check the id and the connection"
    )


def _probe_hub(name: str, revision: str | None) -> tuple[str | None, bool]:
    """One request for the model's ``config.json``, no retries: ``(problem, reached)``.

    ``problem`` is None when the hub has the file; ``reached`` whether the hub answered.
    """
    from huggingface_hub import constants, get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    url = hf_hub_url(name, "config.json", revision=revision)
    try:
        get_hf_file_metadata(url, timeout=HUB_PROBE_TIMEOUT)
    except GatedRepoError:
        return "holds it as a gated model: accept its terms and log in (hf auth login)", True
    except RepositoryNotFoundError:
        return "has no model of that name (or it is private: log in with hf auth login)", True
    except RevisionNotFoundError:
        return f"has no revision {revision!r} of it", True
    except EntryNotFoundError:
        return f"has no config.json at revision {revision or 'main'}: not a model", True
    except OfflineModeIsEnabled:
        return "offline: HF_HUB_OFFLINE is set", False
    except HfHubHTTPError as error:
        status = getattr(error.response, "status_code", "?")
        return f"{constants.ENDPOINT}: HTTP {status}: {str(error).splitlines()[0]}", False
    except Exception as error:  # noqa: BLE001 - connection refused, DNS, timeout, TLS
        return (
            f"unreachable: {constants.ENDPOINT}: {type(error).__name__}: {error} "
            f"(one try, {HUB_PROBE_TIMEOUT:g} s timeout)",
            False,
        )
    return None, True


# ----------------------------------------------------------------------------- tokenizer


def load_tokenizer(source: ModelSource) -> Any:
    """The tokenizer of ``source``, refused when it comes from no tokenizer file.

    Raises
    ------
    CorruptModelFileError
        A tokenizer file that cannot be read, or (hub) a tokenizer that cannot be loaded.
    ModelFilesError
        No tokenizer file of the class transformers chose: it would build a tokenizer of
        the five special tokens and read every word as ``[UNK]``.
    """
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(source.target, **source.options)
    except Exception as error:  # noqa: BLE001 - tokenizers, sentencepiece, json raise their own
        if source.directory is None:
            raise ModelLoadError(
                f"{source.name!r}: its tokenizer could not be loaded from the Hugging Face "
                f"hub (revision {source.revision or 'default'}): {type(error).__name__}: "
                f"{_first_line(error)}"
            ) from error
        raise CorruptModelFileError(
            f"{source.directory}: cannot load its tokenizer ({type(error).__name__}: "
            f"{_first_line(error)}); expected {_expected_files(None)}; a file may be corrupt: "
            f"copy it again, or pass {TOKENIZER_FLAGS}"
        ) from error
    files = _vocabulary_files(tokenizer)
    if not any(_has_file(source, file_name) for file_name in files):
        where = source.directory if source.directory is not None else repr(source.name)
        raise ModelFilesError(
            f"{where}: no tokenizer files (expected {_expected_files(tokenizer)}); pass "
            f"{TOKENIZER_FLAGS} naming the tokenizer the model was trained with"
        )
    return tokenizer


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else "no message"


def _vocabulary_files(tokenizer: Any) -> list[str]:
    """The files a tokenizer of this class reads its vocabulary from (``tokenizer.json`` first)."""
    names = [str(value) for value in getattr(tokenizer, "vocab_files_names", {}).values()]
    return list(dict.fromkeys(["tokenizer.json", *names]))


def _expected_files(tokenizer: Any | None) -> str:
    if tokenizer is None:
        vocab = "vocab.txt / vocab.json + merges.txt / sentencepiece.bpe.model / spiece.model"
        return f"tokenizer.json, or {vocab} with tokenizer_config.json"
    others = [name for name in _vocabulary_files(tokenizer) if name != "tokenizer.json"]
    if not others:
        return "tokenizer.json"
    return (
        f"tokenizer.json, or {' + '.join(others)} with tokenizer_config.json, as "
        f"{type(tokenizer).__name__} reads them"
    )


def _has_file(source: ModelSource, file_name: str) -> bool:
    if source.directory is not None:
        return (source.directory / file_name).is_file()
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(source.name, file_name, revision=source.revision)
    return isinstance(found, str)


def check_vocabulary(name: str, tokenizer: Any, model: Any, *, tokenizer_name: str = "") -> None:
    """Refuse a tokenizer whose vocabulary does not fit the model's input embeddings.

    ``len(tokenizer)`` (added tokens included) must not exceed the rows of the input
    embedding matrix (an id past them is an index error, or another token's row), nor
    fall below :data:`MIN_VOCAB_SHARE` of them.

    Raises
    ------
    VocabularyMismatchError
        The message names the model, the tokenizer and both sizes.
    """
    rows = int(model.get_input_embeddings().num_embeddings)
    size = len(tokenizer)
    whose = f"the tokenizer ({tokenizer_name})" if tokenizer_name else "its tokenizer"
    if size > rows:
        raise VocabularyMismatchError(
            f"{name}: {whose} has {size:,} tokens but the model's input embedding matrix "
            f"has {rows:,} rows: ids {rows:,} to {size - 1:,} would index past it; the "
            f"tokenizer is not this model's: pass {TOKENIZER_FLAGS} naming the one it was "
            "trained with"
        )
    if size < MIN_VOCAB_SHARE * rows:
        raise VocabularyMismatchError(
            f"{name}: {whose} has {size:,} tokens for the model's {rows:,} embedding rows "
            f"({size / rows:.1%}, below {MIN_VOCAB_SHARE:.0%}): the tokenizer is not this "
            f"model's: pass {TOKENIZER_FLAGS} naming the one it was trained with"
        )


# ----------------------------------------------------------------------------- data


@dataclass(frozen=True)
class UnknownCount:
    """How many of the data's word pieces are the tokenizer's unknown token."""

    n_unknown: int
    n_tokens: int
    unk_token: str | None

    @property
    def share(self) -> float:
        """``n_unknown / n_tokens`` (0 without tokens)."""
        return self.n_unknown / self.n_tokens if self.n_tokens else 0.0


def count_unknown_tokens(tokenizer: Any, sentences: Sequence[str]) -> UnknownCount:
    """Word pieces of ``sentences`` (special tokens not counted) and how many are unknown.

    A tokenizer without an unknown token (byte-level BPE: every string has pieces)
    counts none.
    """
    unk_id = tokenizer.unk_token_id
    texts = [text for text in sentences if isinstance(text, str)]
    if not texts:
        return UnknownCount(0, 0, tokenizer.unk_token)
    ids = tokenizer(
        texts,
        add_special_tokens=False,
        return_attention_mask=False,
        return_token_type_ids=False,
        verbose=False,
    )["input_ids"]
    n_tokens = sum(len(row) for row in ids)
    n_unknown = 0 if unk_id is None else sum(row.count(unk_id) for row in ids)
    return UnknownCount(n_unknown, n_tokens, tokenizer.unk_token)


def check_unknown_tokens(
    tokenizer: Any, sentences: Sequence[str], *, allow_unk: bool = False, what: str = "the data"
) -> UnknownCount:
    """Stop when more than :data:`MAX_UNK_SHARE` of the data's pieces are unknown tokens.

    Parameters
    ----------
    tokenizer
        The model's tokenizer.
    sentences : sequence of str
        Every sentence the model will score.
    allow_unk : bool, default False
        Log a warning instead of raising.
    what : str
        The data, named in the message (a file name, "the sentences").

    Returns
    -------
    UnknownCount

    Raises
    ------
    UnknownTokensError
        ``"<what>: 2,301 of 14,020 tokens (16.4%) are the tokenizer's unknown token
        '[UNK]' ..."``, with the fix, unless ``allow_unk``.
    """
    count = count_unknown_tokens(tokenizer, sentences)
    if count.share <= MAX_UNK_SHARE:
        if count.n_unknown:
            log.info(
                "%s: %d of %d tokens (%.2f%%) are %s",
                what,
                count.n_unknown,
                count.n_tokens,
                100 * count.share,
                count.unk_token,
            )
        return count
    found = (
        f"{what}: {count.n_unknown:,} of {count.n_tokens:,} tokens ({count.share:.1%}) are the "
        f"tokenizer's unknown token {count.unk_token!r} (more than {MAX_UNK_SHARE:.0%})"
    )
    if not allow_unk:
        raise UnknownTokensError(
            f"{found}: the tokenizer does not fit this data or language; check --model and "
            f"--tokenizer, or pass {ALLOW_UNK_FLAGS} to score anyway"
        )
    log.warning("%s; scored anyway (allow_unk): those tokens' scores say nothing", found)
    return count
