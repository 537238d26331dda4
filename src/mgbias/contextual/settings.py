"""How Basta et al. (2020)'s experiments run (``basta2020.probes``): :class:`ProbeSettings`,
read by :func:`mgbias.contextual.run.run_probes`; defined apart from it so that checking a
configuration loads none of the experiments' libraries."""

from __future__ import annotations

from mgbias.contextual.columns import EXPERIMENTS, GRAMMATICAL_GENDER_EXPERIMENTS
from mgbias.settings import schema_settings

__all__ = ["ProbeSettings"]


@schema_settings("basta2020.probes", ignore=("lists",), what="probe settings")
class ProbeSettings:
    """How the experiments run: the settings of ``basta2020.probes`` (``lists`` aside:
    the word lists are the caller's), each default the schema's, and the seed. Build it
    with ``ProbeSettings.from_mapping(section, **given)`` or with keywords.

    ``experiments``: the experiments to run (1-9); ``runs``: repeated runs of the
    clustering, the SVM and the KNN; ``n_train``: SVM training words; ``knn_k``: KNN
    neighbours; ``n_knn``: professions per gender of Exp. 5; ``n_permutations``: label
    permutations of the KNN's test; ``n_bootstrap``: bootstrap resamples of the direct
    bias; ``svm_gamma``: the RBF kernel's gamma; ``n_lda_train``: noun types per gender
    of Exp. 6's LDA; ``n_components``: principal components of the gender direction's
    PCA (Exp. 1, §5.2.2).
    """

    experiments: tuple[int, ...]
    runs: int
    n_train: int
    knn_k: int
    n_knn: int
    n_permutations: int
    n_bootstrap: int
    svm_gamma: str | float
    n_lda_train: int
    seed: int = 0
    n_components: int = 10

    def __post_init__(self) -> None:
        experiments = tuple(sorted(set(self.experiments)))
        known = EXPERIMENTS + GRAMMATICAL_GENDER_EXPERIMENTS
        bad = [e for e in experiments if e not in known]
        if bad:
            raise ValueError(f"experiments {bad}: expected some of {list(known)}")
        object.__setattr__(self, "experiments", experiments)
