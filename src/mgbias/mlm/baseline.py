"""The structural baseline of a masked LM: a randomly initialised copy of it.

A pair measure can lean to one sentence of a pair for reasons of form alone (which
sentence has more modified tokens, which is longer), and then a model with no
knowledge at all gets a "significant preference". The copy built here has the
model's architecture, configuration and tokenizer, and transformers' own
initialisation of every weight (``AutoModelForMaskedLM.from_config``), seeded: what
a measure gives on a benchmark with no learned knowledge is its score of this copy.
It is built in memory on purpose, so the refusal of checkpoints with randomly
initialised weights (:func:`mgbias.mlm.load.check_loading_info`) does not apply.

A model that transformers itself initialised with ``torch.manual_seed(seed)`` (a
"tiny random" test model) is its own random copy of that seed, weight for weight.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from mgbias.seeds import check_seed

if TYPE_CHECKING:
    from transformers import PreTrainedModel

#: Appended to a model's name to name its structural baseline (``bert~random``); a
#: configured model name cannot contain it (``models`` in the config schema).
BASELINE_SUFFIX = "~random"

#: The key of a workflow model entry (``params.models`` of the scoring rules) that makes
#: :func:`mgbias.mlm.load.load_each` yield the random copy with this seed.
SEED_KEY = "structural_baseline_seed"

#: What the baseline's score means, in the words every report uses.
BASELINE_MEANING = "what the measure gives with no learned knowledge"


def baseline_name(model: str) -> str:
    """The name of ``model``'s structural baseline: ``model`` + :data:`BASELINE_SUFFIX`."""
    return f"{model}{BASELINE_SUFFIX}"


def random_copy(model: PreTrainedModel, seed: int) -> PreTrainedModel:
    """A randomly initialised copy of a masked LM: same configuration, new weights.

    The copy is built by ``AutoModelForMaskedLM.from_config`` from a copy of
    ``model.config`` with the model's attention implementation, its weights drawn by
    transformers' own initialisation after ``torch.manual_seed(seed)``; torch's
    global random state is restored afterwards (:func:`torch.random.fork_rng`), so
    the call changes nothing else. The copy is in eval mode, on the model's device,
    in its dtype. Use it with the model's own tokenizer.

    Parameters
    ----------
    model : transformers.PreTrainedModel
        A masked LM (``*ForMaskedLM``); it is not changed.
    seed : int
        Non-negative; the same seed gives the same weights, byte for byte.

    Returns
    -------
    transformers.PreTrainedModel
        The copy, of the model's class.

    Raises
    ------
    ValueError
        A seed that is not a non-negative integer.
    """
    import torch  # here: the names above serve the workflow's planning, without torch
    from transformers import AutoModelForMaskedLM

    seed = check_seed(seed, "structural baseline seed")
    config = copy.deepcopy(model.config)
    parameter = next(model.parameters())
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        fresh = AutoModelForMaskedLM.from_config(
            config, attn_implementation=model.config._attn_implementation
        )
    fresh.to(device=parameter.device, dtype=parameter.dtype)
    fresh.eval()
    return fresh
