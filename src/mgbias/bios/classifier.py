"""The occupation classifier of Zhao et al. (2020), §4.1 (details: the authors' code): a BiGRU with
attention over frozen word vectors.

- :func:`fit_vocabulary` / :func:`encode`: a binary count vocabulary fit on the training
  bios (``min_df``, ``max_df`` as sklearn's ``CountVectorizer``; lowercase, tokens of two
  or more word characters); out-of-vocabulary tokens are dropped; ids are the vocabulary
  index + 1, 0 pads; sequences of ``max_len`` (110).
- :func:`embedding_matrix`: a fixed ``rows`` x dim matrix (10,000 rows, one shape in
  every language): row i + 1 the vector of word i, rows of words without a vector drawn
  from U(-0.3, 0.3), row 0 zeros.
- :class:`BiGRUAttention`: frozen token features, 1-layer BiGRU (64 per direction), dropout
  0.25, attention ``w2^T (W1 h + b1)`` (no tanh unless ``tanh=True``), masked softmax,
  dropout, linear layer.
- :func:`train`: class-weighted cross-entropy ("balanced" weights), Adam with amsgrad
  (lr 0.005, weight decay 1e-5), batch 512, gradient-norm clip 5, at most 50 epochs; the
  weights of every epoch up to ``min_epochs`` (5), then of each lower development loss,
  are kept; patience 5; a checkpoint after each epoch lets a killed job resume
  (:class:`~mgbias.bios.training.TrainSettings`, imported here).
- :func:`load_for_transfer`: restore a trained model's weights except the embedding, so
  the target language's matrix stays in place (the published code also restored the
  source embedding; not repeated here).

The token features are either that frozen matrix or a frozen encoder's last-layer hidden
states (:mod:`mgbias.bios.encoder`, Tables 10 and 11: per batch, computed once in memory,
or a float16 memory map of its disk cache, whose batches' rows become float32 tensors);
the network, training and prediction are the same. Training and prediction run on the
GPU when present.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
from torch import nn

from mgbias.bios.training import TrainSettings
from mgbias.mlm.devices import pick_device

TOKEN_RE = re.compile(r"(?u)\b\w\w+\b")


def tokens(text: str) -> list[str]:
    """sklearn's default analyzer: lowercase, tokens of two or more word characters."""
    return TOKEN_RE.findall(text.lower())


def fit_vocabulary(texts: Sequence[str], *, min_df: float = 20, max_df: float = 0.8) -> list[str]:
    """Words in at least ``min_df`` and at most ``max_df`` of ``texts`` (an int is a count,
    a float a share), sorted."""
    if not texts:
        raise ValueError("no training texts")
    documents: dict[str, int] = {}
    for text in texts:
        for word in set(tokens(text)):
            documents[word] = documents.get(word, 0) + 1
    n = len(texts)
    low = min_df if isinstance(min_df, int) else min_df * n
    high = max_df if isinstance(max_df, int) else max_df * n
    return sorted(word for word, count in documents.items() if low <= count <= high)


def encode(texts: Sequence[str], vocabulary: Sequence[str], max_len: int = 110) -> np.ndarray:
    """Ids (vocabulary index + 1; unknown words dropped), truncated and 0-padded."""
    index = {word: i + 1 for i, word in enumerate(vocabulary)}
    ids = np.zeros((len(texts), max_len), dtype=np.int64)
    for row, text in enumerate(texts):
        known = [index[w] for w in tokens(text) if w in index][:max_len]
        ids[row, : len(known)] = known
    return ids


def embedding_matrix(
    vocabulary: Sequence[str],
    vectors: Mapping[str, np.ndarray],
    *,
    rows: int = 10_000,
    dim: int | None = None,
    seed: int = 0,
) -> np.ndarray:
    """The frozen embedding: ``rows`` x ``dim``; see the module docstring."""
    if len(vocabulary) + 1 > rows:
        raise ValueError(f"{len(vocabulary)} words need {len(vocabulary) + 1} rows; have {rows}")
    if dim is None:
        if not vectors:
            raise ValueError("no vectors and no dim")
        dim = len(next(iter(vectors.values())))
    rng = np.random.default_rng(seed)
    matrix = np.zeros((rows, dim), dtype=np.float32)
    for i, word in enumerate(vocabulary, start=1):
        vector = vectors.get(word)
        matrix[i] = vector if vector is not None else rng.uniform(-0.3, 0.3, dim)
    return matrix


class BiGRUAttention(nn.Module):
    """The authors' HAN-style classifier over frozen token features: the lookup of a
    frozen embedding matrix (ids, 0 = padding) or a frozen encoder's hidden states
    (:class:`mgbias.bios.encoder.FrozenEncoder`: ids and attention mask, the mask marking
    the tokens); only the GRU, attention and output weights train."""

    def __init__(
        self,
        embedding,
        n_classes: int,
        *,
        hidden: int = 64,
        dropout: float = 0.25,
        tanh: bool = False,
    ):
        super().__init__()
        if isinstance(embedding, np.ndarray):
            self.embedding = nn.Embedding.from_pretrained(
                torch.as_tensor(embedding, dtype=torch.float32), freeze=True, padding_idx=0
            )
            self.encoder = None
            dim = embedding.shape[1]
        else:
            # a plain attribute, not a submodule: never trained, saved or put in train mode
            self.embedding = None
            self.encoder = embedding
            dim = embedding.dim
        self.gru = nn.GRU(dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.w1 = nn.Linear(2 * hidden, hidden)
        self.w2 = nn.Linear(hidden, 1, bias=False)
        self.out = nn.Linear(2 * hidden, n_classes)
        self.tanh = tanh
        for layer in (self.w1, self.w2, self.out):
            nn.init.xavier_normal_(layer.weight)
            if layer.bias is not None:
                nn.init.normal_(layer.bias, 0.0, 0.01)

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor | None = None):
        """Class logits of a batch of id sequences (0 = padding), or with an encoder, of
        ids (or the encoder's features of them, computed beforehand: floats) and their
        attention mask."""
        if self.encoder is None:
            features, mask = self.embedding(ids), ids != 0
        else:
            if attention_mask is None:
                raise ValueError("an encoder's features need the attention mask")
            device = self.gru.weight_ih_l0.device
            features = ids if ids.is_floating_point() else self.encoder(ids, attention_mask)
            features = features.to(device)
            mask = attention_mask[:, : features.shape[1]].to(device) != 0
        return self.attend(features, mask)

    def attend(self, features: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """BiGRU over the masked token features, attention, output layer."""
        lengths = mask.sum(dim=1).clamp(min=1)
        packed = nn.utils.rnn.pack_padded_sequence(
            features, lengths.cpu(), batch_first=True, enforce_sorted=False
        )
        states, _ = self.gru(packed)
        states, _ = nn.utils.rnn.pad_packed_sequence(
            states, batch_first=True, total_length=features.shape[1]
        )
        states = self.dropout(states)
        scores = self.w1(states)
        if self.tanh:
            scores = torch.tanh(scores)
        scores = self.w2(scores).squeeze(-1)
        weights = torch.exp(scores - scores.max(dim=1, keepdim=True).values) * mask
        weights = weights / (weights.sum(dim=1, keepdim=True) + 1e-6)
        context = (weights.unsqueeze(-1) * states).sum(dim=1)
        return self.out(self.dropout(context))


#: :func:`train`'s default: the authors' settings.
AUTHORS_TRAINING = TrainSettings()


def class_weights(labels: np.ndarray, n_classes: int) -> torch.Tensor:
    """sklearn's "balanced" weights: n / (classes x count); absent classes weigh 0."""
    counts = np.bincount(labels, minlength=n_classes).astype(np.float64)
    present = counts > 0
    weights = np.zeros(n_classes)
    weights[present] = len(labels) / (present.sum() * counts[present])
    return torch.as_tensor(weights, dtype=torch.float32)


def _resumable(settings: dict) -> dict:
    """The settings a checkpoint must share with a resumed run (more epochs may follow)."""
    return {k: v for k, v in settings.items() if k not in ("max_epochs", "patience")}


def _arrays(inputs) -> tuple[np.ndarray, ...]:
    """The model's input arrays: ids, or (ids, attention mask)."""
    return inputs if isinstance(inputs, tuple) else (inputs,)


def _rows(inputs, rows, device) -> tuple[torch.Tensor, ...]:
    """The model's inputs of ``rows`` as tensors on ``device``; float16 features (an
    encoder's disk cache, a memory map) as float32."""
    return tuple(torch.as_tensor(_batch(a, rows)).to(device) for a in _arrays(inputs))


def _batch(array: np.ndarray, rows) -> np.ndarray:
    """``array[rows]``, float16 rows converted to float32 (a copy of their own)."""
    part = array[rows]
    return part.astype(np.float32) if part.dtype == np.float16 else part


def model_device(model: nn.Module) -> torch.device:
    """Where the model's trained weights are."""
    return next(model.parameters()).device


def _loss(model, inputs, labels, criterion, batch_size) -> float:
    model.eval()
    device = model_device(model)
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(labels), batch_size):
            batch = slice(start, start + batch_size)
            logits = model(*_rows(inputs, batch, device))
            target = torch.as_tensor(labels[batch]).to(device)
            total += float(criterion(logits, target)) * len(target)
    return total / len(labels)


def train(
    model: BiGRUAttention,
    train_data: tuple,
    dev_data: tuple,
    settings: TrainSettings = AUTHORS_TRAINING,
    *,
    checkpoint: str | Path | None = None,
    device: str | torch.device | None = None,
) -> dict:
    """Train ``model`` in place; keep the weights of the best development loss.

    ``train_data`` and ``dev_data`` are ``(inputs, labels)``, the inputs an id array or
    a tuple of arrays (ids and attention mask). The model moves to ``device`` (default:
    CUDA when available, else CPU). With ``checkpoint``, the state after each epoch is
    saved there (atomically) and a run finding one resumes after its last epoch.
    Returns ``{"epochs", "best_epoch", "dev_loss", "history"}``.
    """
    inputs, labels = train_data
    device = pick_device(None if device is None else str(device))
    model.to(device)
    n_classes = model.out.out_features
    criterion = nn.CrossEntropyLoss(weight=class_weights(labels, n_classes).to(device))
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(
        trainable, lr=settings.lr, weight_decay=settings.weight_decay, amsgrad=True
    )
    generator = torch.Generator().manual_seed(settings.seed)
    torch.manual_seed(settings.seed)
    state = {"epoch": 0, "best_loss": float("inf"), "best_epoch": 0, "best": None, "history": []}
    if checkpoint is not None and Path(checkpoint).exists():
        saved = torch.load(checkpoint, weights_only=False, map_location=device)
        if _resumable(saved["settings"]) != _resumable(asdict(settings)):
            raise ValueError(f"{checkpoint} was written with other settings")
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        generator.set_state(saved["generator"].cpu())
        torch.set_rng_state(saved["torch_rng"].cpu())
        if saved.get("cuda_rng") is not None and torch.cuda.is_available():
            torch.cuda.set_rng_state_all([state.cpu() for state in saved["cuda_rng"]])
        state = saved["state"]
    while state["epoch"] < settings.max_epochs:
        if state["epoch"] - state["best_epoch"] > settings.patience:
            break
        model.train()
        order = torch.randperm(len(labels), generator=generator).numpy()
        for start in range(0, len(labels), settings.batch_size):
            batch = order[start : start + settings.batch_size]
            optimizer.zero_grad()
            logits = model(*_rows(inputs, batch, device))
            loss = criterion(logits, torch.as_tensor(labels[batch]).to(device))
            loss.backward()
            nn.utils.clip_grad_norm_(trainable, settings.clip)
            optimizer.step()
        state["epoch"] += 1
        dev_loss = _loss(model, *dev_data, criterion, settings.batch_size)
        state["history"].append(dev_loss)
        # the authors' trainer saves every epoch up to min_epochs, then only improvements
        if dev_loss < state["best_loss"] or state["epoch"] <= settings.min_epochs:
            state["best_loss"], state["best_epoch"] = dev_loss, state["epoch"]
            state["best"] = {k: v.detach().clone() for k, v in model.state_dict().items()}
        if checkpoint is not None:
            temp = Path(f"{checkpoint}.tmp")
            torch.save(
                {
                    "model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "generator": generator.get_state(),
                    "torch_rng": torch.get_rng_state(),
                    "cuda_rng": torch.cuda.get_rng_state_all() if device.type == "cuda" else None,
                    "state": state,
                    "settings": asdict(settings),
                },
                temp,
            )
            os.replace(temp, checkpoint)
    if state["best"] is not None:
        model.load_state_dict(state["best"])
    return {
        "epochs": state["epoch"],
        "best_epoch": state["best_epoch"],
        "dev_loss": state["best_loss"],
        "history": list(state["history"]),
    }


def predict(model: BiGRUAttention, inputs, batch_size: int = 512) -> np.ndarray:
    """Argmax class of each sequence (``inputs``: ids, or ids and attention mask), on the
    model's device."""
    model.eval()
    device = model_device(model)
    n = len(_arrays(inputs)[0])
    out = []
    with torch.no_grad():
        for start in range(0, n, batch_size):
            batch = slice(start, start + batch_size)
            out.append(model(*_rows(inputs, batch, device)).argmax(dim=1).cpu())
    return torch.cat(out).numpy() if out else np.zeros(0, dtype=np.int64)


def load_for_transfer(model: BiGRUAttention, source_state: Mapping[str, torch.Tensor]) -> None:
    """Load a source model's weights into ``model`` except its embedding (the target's;
    an encoder is not in the state, so every weight of an encoder model loads)."""
    kept = {k: v for k, v in source_state.items() if not k.startswith("embedding.")}
    missing, unexpected = model.load_state_dict(kept, strict=False)
    own = {"embedding.weight"} if model.embedding is not None else set()
    if unexpected or set(missing) != own:
        raise ValueError(f"source state does not fit: missing {missing}, unexpected {unexpected}")
