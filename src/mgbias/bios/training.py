"""The occupation classifier's training settings (Zhao et al. 2020, §4.1; taken
from the authors' code, as the paper states none), stated once and without torch:
:func:`mgbias.bios.classifier.train` reads a :class:`TrainSettings`, and
:class:`mgbias.bios.experiment.ClassifierSettings` (the ``bios: classifier:`` section,
read by the workflow's planner) takes its training defaults from it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TrainSettings"]


@dataclass(frozen=True)
class TrainSettings:
    """The authors' training settings, from their released code (the paper states none)."""

    lr: float = 0.005
    weight_decay: float = 1e-5
    batch_size: int = 512
    clip: float = 5.0
    max_epochs: int = 50
    min_epochs: int = 5
    patience: int = 5
    seed: int = 0
