"""A frozen multilingual encoder as the occupation classifier's token features: Zhao et
al. (2020), §4.3, Tables 10 and 11 (the authors' ``mbert.py``).

The authors feed ``bert-base-multilingual-cased`` the scrubbed bio as WordPiece tokens
truncated to 120, wrapped as ``[CLS] … [SEP]`` and zero-padded to 150, with the attention
mask; the encoder runs in ``eval()`` under ``no_grad`` (frozen), and its last-layer
hidden states take the place of the fastText lookup in the same BiGRU with attention,
whose padding mask is the attention mask. Any Hugging Face encoder works here.

- :class:`EncoderSettings`: the ``bios: classifier: encoder:`` section (``model``, a key
  of ``models:``; ``name``, the space name of its runs; ``max_pieces``, ``max_len``,
  ``batch_size``, ``cache_mb``, ``disk_cache``; ``labels``: the occupations of its
  monolingual runs; ``precision``: of its forward pass, ``fp32`` (the authors'), ``bf16``
  or ``fp16``).
- :func:`encoder_inputs`: token ids and attention masks of texts (pieces truncated,
  the tokenizer's special tokens added, padded).
- :class:`FrozenEncoder`: the last-layer hidden states of a batch, computed under
  ``no_grad`` with the model in ``eval()`` and its weights not trainable; the batch is
  cut to its longest sequence and run in chunks of ``batch_size`` (memory bounded), in
  ``precision`` (autocast below fp32, :mod:`mgbias.mlm.precision`), and the hidden
  states are returned as float32 whatever the precision.
  Features are computed per training batch (every epoch), unless a split's features fit
  in ``cache_mb``: then :meth:`FrozenEncoder.inputs` computes them once and the
  classifier reads them as its inputs (the demo's small splits; the same numbers up to
  float rounding, since padding is masked). A larger split, with ``disk_cache: true``
  (default false), has its features written once to a float16 file of the disk cache
  (:mod:`mgbias.bios.featcache`, ``$MGBIAS_CACHE_DIR/bios-features/``), keyed by the
  model (:meth:`FrozenEncoder.model_identity`: its hub id and revision, or the sha256 of
  its weights), precision, ``max_pieces``, ``max_len`` and the split's ids and masks;
  later epochs and runs read it through a memory map, each batch's rows as float32 (the
  classifier's inputs within float16's rounding, ``|x| * 2**-11``).

A rule's space (this encoder or a ``.vec`` file) is :func:`mgbias.bios.spaces.load_space`;
this module imports nothing of :mod:`mgbias.bios` but the disk cache
(:mod:`mgbias.bios.featcache`, which imports nothing of it). It imports torch only where a
:class:`FrozenEncoder` runs, so that planning the workflow (which reads
:class:`EncoderSettings`) does not load it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from mgbias.mlm.precision_names import PRECISION_NAMES
from mgbias.settings import schema_settings

if TYPE_CHECKING:
    import torch

#: The authors' M-BERT model (``models:`` key ``mbert`` in config/paper.yaml).
PAPER_ENCODER = "bert-base-multilingual-cased"
#: The occupations of the encoder's monolingual runs: the language's transfer labels
#: (the paper does not say which; the authors' M-BERT runs read their filtered caches,
#: the French one its 7-label cache) or all of the language's.
LABEL_SETS = ("transfer", "all")


@schema_settings("bios.classifier.encoder")
class EncoderSettings:
    """The encoder of the classifier's encoder space (defaults: the authors')."""

    model: str
    name: str = ""
    max_pieces: int = 120
    max_len: int = 150
    batch_size: int = 64
    cache_mb: float = 1024
    labels: str = "transfer"
    precision: str = "fp32"
    disk_cache: bool = False

    def __post_init__(self):
        if not self.name:
            object.__setattr__(self, "name", self.model)

    @classmethod
    def from_config(
        cls, section: Mapping | None, where: str = "bios.classifier.encoder"
    ) -> EncoderSettings | None:
        """The settings of a config section (None without one); unknown keys rejected."""
        if not section:
            return None
        if isinstance(section, Mapping) and "model" not in section:
            raise ValueError(f"{where}: no 'model' (a key of models:)")
        settings = cls.from_mapping(section, where)
        if settings.labels not in LABEL_SETS:
            raise ValueError(f"{where}.labels: {settings.labels!r} is not one of {LABEL_SETS}")
        if not isinstance(settings.disk_cache, bool):
            raise ValueError(f"{where}.disk_cache: {settings.disk_cache!r} is not true or false")
        if settings.precision not in PRECISION_NAMES:
            raise ValueError(
                f"{where}.precision: {settings.precision!r} is not one of {PRECISION_NAMES}"
            )
        if settings.max_len < settings.max_pieces + 2:
            raise ValueError(
                f"{where}: max_len {settings.max_len} cannot hold max_pieces "
                f"{settings.max_pieces} and the special tokens"
            )
        return settings


def encoder_inputs(
    texts: Sequence[str], tokenizer, *, max_pieces: int = 120, max_len: int = 150
) -> tuple[np.ndarray, np.ndarray]:
    """Ids (int32) and attention masks (int8), ``len(texts) x max_len``: each text's
    first ``max_pieces`` sub-word pieces with the tokenizer's special tokens (BERT:
    ``[CLS] … [SEP]``), then the pad id with mask 0."""
    n_special = tokenizer.num_special_tokens_to_add()
    if max_pieces + n_special > max_len:
        raise ValueError(
            f"{max_pieces} pieces and {n_special} special tokens do not fit max_len {max_len}"
        )
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    ids = np.full((len(texts), max_len), pad, dtype=np.int32)
    mask = np.zeros((len(texts), max_len), dtype=np.int8)
    if not len(texts):
        return ids, mask
    # truncation keeps the special tokens: max_pieces pieces between them
    encoded = tokenizer(list(texts), truncation=True, max_length=max_pieces + n_special)
    for row, wrapped in enumerate(encoded["input_ids"]):
        ids[row, : len(wrapped)] = wrapped
        mask[row, : len(wrapped)] = 1
    return ids, mask


class FrozenEncoder:
    """Last-layer hidden states of a frozen Hugging Face encoder (see the module docstring).

    Not a ``torch.nn.Module``: a classifier holding it neither trains it, nor switches
    it to training mode, nor saves it in its state dict or checkpoints.
    """

    def __init__(
        self,
        model,
        tokenizer,
        *,
        max_pieces: int = 120,
        max_len: int = 150,
        batch_size: int = 64,
        name: str = "",
        cache_mb: float = 0,
        precision: str = "fp32",
        disk_cache: bool = False,
        cache_dir: str | Path | None = None,
    ):
        from mgbias.mlm.precision import check_precision

        check_precision(precision, next(model.parameters()).device)
        limit = getattr(model.config, "max_position_embeddings", None)
        n_special = tokenizer.num_special_tokens_to_add()
        if limit is not None and max_pieces + n_special > limit:
            raise ValueError(
                f"encoder {name or type(model).__name__}: max_pieces {max_pieces} + "
                f"{n_special} special tokens exceed its {limit} positions"
            )
        self.model = model.eval()
        self.model.requires_grad_(False)
        self.tokenizer = tokenizer
        self.max_pieces, self.max_len, self.batch_size = max_pieces, max_len, batch_size
        self.cache_mb = cache_mb
        self.precision = precision
        self.name = name
        self.dim = int(model.config.hidden_size)
        self.revision: str | None = None
        #: The hub id or directory the model was loaded from (None: built in memory).
        self.source: str | None = None
        self.disk_cache = disk_cache
        #: The disk cache's folder (None: :func:`mgbias.bios.featcache.feature_cache_dir`).
        self.cache_dir = cache_dir
        self._identity: dict | None = None

    @classmethod
    def load(
        cls,
        source: str,
        settings: EncoderSettings,
        *,
        revision: str | None = None,
        device: str | None = None,
    ) -> FrozenEncoder:
        """The encoder ``source`` (hub id or directory) on ``device`` (auto: CUDA if any);
        fp16 off CUDA is refused before it loads."""
        from mgbias.mlm.load import load_encoder
        from mgbias.mlm.precision import check_precision

        check_precision(settings.precision, device)
        model, tokenizer, commit = load_encoder(source, revision=revision, device=device)
        encoder = cls(
            model,
            tokenizer,
            max_pieces=settings.max_pieces,
            max_len=settings.max_len,
            batch_size=settings.batch_size,
            name=settings.name,
            cache_mb=settings.cache_mb,
            precision=settings.precision,
            disk_cache=settings.disk_cache,
        )
        encoder.revision, encoder.source = commit, source
        return encoder

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def inputs(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's inputs of ``texts``: ids and attention masks
        (:func:`encoder_inputs`), or, when their features fit in ``cache_mb``, the
        features (float32, ``n x T x dim``, T the longest sequence) and masks; larger
        features with ``disk_cache``: the disk cache's read-only float16 memory map of
        them (:meth:`disk_features`) and the masks."""
        ids, mask = encoder_inputs(
            texts, self.tokenizer, max_pieces=self.max_pieces, max_len=self.max_len
        )
        if not len(texts):
            return ids, mask
        length = max(1, int(mask.sum(axis=1).max()))
        if len(texts) * length * self.dim * 4 > self.cache_mb * 2**20:
            if not self.disk_cache:
                return ids, mask
            features = self.disk_features(ids, mask)
            return (ids, mask) if features is None else (features, mask[:, :length])
        import torch

        features = self(torch.as_tensor(ids), torch.as_tensor(mask)).cpu().numpy()
        return features, mask[:, :length]

    def model_identity(self) -> dict:
        """What the disk cache's key knows of the model: a local directory's path and the
        sha256 of its weights files; a hub id and its revision (the resolved commit); for
        a model built in memory (or a hub id without a revision), the sha256 of its
        weights (names, dtypes, shapes and values). Computed once per encoder."""
        if self._identity is None:
            self._identity = self._model_identity()
        return self._identity

    def _model_identity(self) -> dict:
        from mgbias.provenance import model_fingerprint

        source = self.source
        if source is not None and Path(source).expanduser().is_dir():
            directory = Path(source).expanduser().resolve()
            weights = model_fingerprint(directory)["weights"]
            if weights:
                return {"model": str(directory), "revision": self.revision, "weights": weights}
        elif source is not None and self.revision:
            return {"model": source, "revision": self.revision}
        return {"model": source or self.name, "weights_sha256": weights_sha256(self.model)}

    def disk_features(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
        """The features of ``ids`` and ``mask`` (``n x max_len``) from the disk cache,
        computed and written there first when absent or not whole
        (:mod:`mgbias.bios.featcache`): a read-only float16 memory map, ``n x T x dim``
        (T the longest sequence); None when the cache cannot be written (logged)."""
        import torch

        from mgbias.bios.featcache import feature_key, open_entry, write_entry

        key = feature_key(
            self.model_identity(),
            precision=self.precision,
            max_pieces=self.max_pieces,
            max_len=self.max_len,
            ids=ids,
            mask=mask,
        )
        shape = (len(ids), max(1, int(mask.sum(axis=1).max())), self.dim)
        found = open_entry(key, shape, self.cache_dir)
        if found is not None:
            return found

        def blocks():
            for start in range(0, len(ids), self.batch_size):
                rows = slice(start, start + self.batch_size)
                block = self(torch.as_tensor(ids[rows]), torch.as_tensor(mask[rows]))
                yield block.cpu().numpy()

        meta = {"encoder": self.name, "model": self.model_identity(), "precision": self.precision}
        meta.update(max_pieces=self.max_pieces, max_len=self.max_len)
        written = write_entry(key, shape, blocks(), meta, self.cache_dir)
        # not written here (a read-only or full disk, or another job's write of the same
        # entry): that job's entry if it is whole by now, else None (features per batch)
        return written if written is not None else open_entry(key, shape, self.cache_dir)

    def __call__(self, ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """``batch x T x dim`` hidden states, float32, T the batch's longest sequence (the
        columns after it are padding in every row); the forward pass in ``precision``."""
        import torch

        from mgbias.mlm.precision import forward_precision

        if not len(ids):
            return torch.zeros(0, 1, self.dim, device=self.device)
        length = max(1, int(attention_mask.sum(dim=1).max()))
        ids = ids[:, :length].to(self.device, torch.long)
        mask = attention_mask[:, :length].to(self.device, torch.long)
        out = []
        with torch.no_grad():
            for start in range(0, len(ids), self.batch_size):
                chunk = slice(start, start + self.batch_size)
                with forward_precision(self.precision, self.device):
                    states = self.model(input_ids=ids[chunk], attention_mask=mask[chunk])
                out.append(states.last_hidden_state.float())
        return torch.cat(out)


def weights_sha256(model) -> str:
    """The sha256 of a model's state dict: each tensor's name, dtype, shape and bytes,
    in the state dict's order."""
    import hashlib

    import torch

    digest = hashlib.sha256()
    for name, tensor in model.state_dict().items():
        values = tensor.detach().cpu().contiguous()
        digest.update(f"{name} {values.dtype} {tuple(values.shape)}\n".encode())
        digest.update(values.reshape(-1).view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()
