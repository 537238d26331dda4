"""Exp. 4: RBF-kernel SVM on the extended biased list (Basta et al. 2020, §5.2.2).

One random contextual vector per word of the extended biased list found in the corpus; an
SVM with an RBF kernel (scikit-learn ``SVC``; the paper gives no hyper-parameters: C = 1,
``gamma`` ``"scale"`` by default, ``"auto"`` = 1/n_features as in scikit-learn < 0.22) is
trained on ``n_train`` random words (the paper: 1,000) and tested on the others; the
score is the test accuracy. The split is stratified by label so both genders are in
training (a small-list safeguard; with 1,000 of 5,000 words it changes nothing material).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from mgbias.contextual.repeated import Repeated, one_per_word, run_rng, run_seed

__all__ = ["classification_experiment", "svm_accuracy"]


def svm_accuracy(
    train: np.ndarray,
    train_labels: np.ndarray,
    test: np.ndarray,
    test_labels: np.ndarray,
    *,
    c: float = 1.0,
    gamma: str | float = "scale",
) -> float:
    """Test accuracy of ``SVC(kernel="rbf", C=c, gamma=gamma)`` fitted on the training rows."""
    model = SVC(kernel="rbf", C=c, gamma=gamma)
    model.fit(np.asarray(train, dtype=np.float64), train_labels)
    return float(np.mean(model.predict(np.asarray(test, dtype=np.float64)) == test_labels))


def classification_experiment(
    matrix: np.ndarray,
    words: Sequence[str],
    male: Mapping[str, bool],
    *,
    n_train: int = 1000,
    runs: int = 10,
    seed: int = 0,
    c: float = 1.0,
    gamma: str | float = "scale",
) -> Repeated:
    """Exp. 4 over ``runs`` runs; ``matrix`` row ``i`` is an occurrence of ``words[i]``.

    Raises
    ------
    ValueError
        If ``n_train`` leaves fewer than 2 words to test or under 2 per label to train.
    """
    keep = np.array([w in male for w in words], dtype=bool)
    rows, kept = np.asarray(matrix)[keep], [w for w, k in zip(words, keep, strict=True) if k]
    n_words = len(set(kept))
    if not 2 <= n_train <= n_words - 2:
        raise ValueError(
            f"classification: n_train = {n_train} of {n_words} words in the corpus; expected "
            f"2 <= n_train <= {n_words - 2}"
        )
    values = []
    for run in range(runs):
        distinct, picks = one_per_word(kept, run_rng(seed, "classification", run))
        labels = np.array([bool(male[w]) for w in distinct], dtype=int)
        train, test = train_test_split(
            np.arange(len(distinct)),
            train_size=n_train,
            stratify=labels,
            random_state=run_seed(seed, "svm_split", run),
        )
        x = rows[picks]
        values.append(
            svm_accuracy(x[train], labels[train], x[test], labels[test], c=c, gamma=gamma)
        )
    return Repeated(tuple(values), n_words, {"n_train": n_train, "n_test": n_words - n_train})
