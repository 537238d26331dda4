"""The pooled hidden states of target words, as the probes read them, and the names of
their layers; no model library (the probing jobs read cached vectors without torch).

:mod:`mgbias.contextual.hidden` extracts them from an encoder; :mod:`mgbias.contextual.cache`
stores them; :mod:`mgbias.contextual.run` probes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["CONCAT", "WordVectors", "parse_layers"]

#: The layer name of the concatenation of every hidden state (the paper's "concatenation").
CONCAT = "concat"


def parse_layers(spec: str | int | Iterable[str | int], n_hidden_states: int) -> list[str]:
    """Layer names from a specification: ``"all"``, ``"last"``, ``"concat"``, indices.

    ``"all"`` means every hidden state ``0 .. L`` and the concatenation; ``"last"`` is
    ``L`` (the paper's "layer 2" for a 2-layer encoder); negative indices count from the
    end. A comma-separated string is split. Returns names in canonical form (``"0"``,
    ``"2"``, ``"concat"``), without duplicates, in the order given.

    Raises
    ------
    ValueError
        An index out of ``[-n_hidden_states, n_hidden_states)`` or an unknown name.
    """
    if isinstance(spec, str):
        items: list[str | int] = [part.strip() for part in spec.split(",") if part.strip()]
    elif isinstance(spec, int):
        items = [spec]
    else:
        items = list(spec)
    names: list[str] = []
    for item in items:
        if item == "all":
            expanded = [str(index) for index in range(n_hidden_states)] + [CONCAT]
        elif item == CONCAT:
            expanded = [CONCAT]
        elif item == "last":
            expanded = [str(n_hidden_states - 1)]
        else:
            try:
                index = int(item)
            except (TypeError, ValueError):
                raise ValueError(
                    f"layer {item!r}: expected an index, 'last', 'concat' or 'all'"
                ) from None
            if not -n_hidden_states <= index < n_hidden_states:
                raise ValueError(
                    f"layer {index} out of range: the model has {n_hidden_states} hidden "
                    f"states (0 = embeddings .. {n_hidden_states - 1} = last layer)"
                )
            expanded = [str(index % n_hidden_states)]
        names.extend(name for name in expanded if name not in names)
    if not names:
        raise ValueError(f"no layer requested in {spec!r}")
    return names


@dataclass(frozen=True)
class WordVectors:
    """Pooled hidden states of target words, one row per target.

    Attributes
    ----------
    vectors
        ``(n_targets, len(layers), hidden)`` float32 or float16.
    layers
        The hidden-state indices stored, ascending.
    n_hidden_states
        How many hidden states the model returns (layers + 1).
    sentence_index, word_index
        ``(n_targets,)`` int64: which word of which sentence.
    found
        ``(n_targets,)`` bool; False where the length limit cut every piece of the word.
    n_pieces
        ``(n_targets,)`` int64: sub-word pieces pooled.
    metadata
        Provenance (model id, revision, input hash, pooling, ...), JSON-ready.
    """

    vectors: np.ndarray
    layers: tuple[int, ...]
    n_hidden_states: int
    sentence_index: np.ndarray
    word_index: np.ndarray
    found: np.ndarray
    n_pieces: np.ndarray
    metadata: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.vectors.shape[0])

    @property
    def layer_names(self) -> list[str]:
        """Names :meth:`layer` accepts: the stored indices, plus ``concat`` if all are stored."""
        names = [str(index) for index in self.layers]
        if self.layers == tuple(range(self.n_hidden_states)):
            names.append(CONCAT)
        return names

    def layer(self, name: str | int) -> np.ndarray:
        """``(n_targets, d)`` float32 vectors of one layer, ``"last"``, or ``"concat"``.

        ``concat`` joins the stored layers ``0 .. L`` along the features (ELMo's
        3 x 1024 = 3072-d "concatenation").
        """
        if name == CONCAT:
            if self.layers != tuple(range(self.n_hidden_states)):
                raise KeyError(
                    f"'concat' needs every hidden state 0..{self.n_hidden_states - 1}; "
                    f"stored: {list(self.layers)}"
                )
            return self.vectors.astype(np.float32).reshape(len(self), -1)
        index = self.n_hidden_states - 1 if name == "last" else int(name) % self.n_hidden_states
        if index not in self.layers:
            raise KeyError(f"layer {name!r} is not stored; stored: {list(self.layers)}")
        return self.vectors[:, self.layers.index(index)].astype(np.float32)
