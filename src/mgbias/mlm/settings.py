"""The settings of the demo MLM's training (``mlm_training``): :class:`MLMTrainingConfig`,
read by :func:`mgbias.mlm.train.train_mlm`; defined apart from it so that checking a
configuration loads no model library."""

from __future__ import annotations

from mgbias.seeds import check_seed
from mgbias.settings import schema_settings

__all__ = ["MLMTrainingConfig"]


@schema_settings("mlm_training", what="MLM training setting(s)")
class MLMTrainingConfig:
    """Hyper-parameters of the demo MLM (tokenizer + model + optimisation): the
    settings of ``mlm_training``, each default the schema's, and the seed.

    Attributes
    ----------
    seed : int
        Seeds weight initialisation, batch sampling, masking and dropout.
    vocab_size : int
        Target WordPiece vocabulary size (special tokens included); the
        vocabulary is smaller when the corpus has fewer useful merges.
    hidden_size, num_hidden_layers, num_attention_heads, intermediate_size : int
        BERT shape; ``hidden_size`` must be divisible by ``num_attention_heads``.
    max_length : int
        Longest sequence in tokens, special tokens included. Longer lines are
        truncated; it is also the model's ``max_position_embeddings`` and the
        tokenizer's ``model_max_length``.
    batch_size : int
        Sentences per optimisation step.
    steps : int
        Optimisation steps (batches are sampled with replacement).
    learning_rate : float
        Peak AdamW learning rate (linear warm-up over the first 5% of the
        steps, then linear decay to zero).
    mlm_probability : float
        Share of non-special tokens selected for prediction.
    dropout : float
        Dropout on hidden states and attention probabilities (BERT's
        ``hidden_dropout_prob`` and ``attention_probs_dropout_prob``; 0.1 in
        Devlin et al. 2019).
    threads : int
        ``torch.set_num_threads`` during training (restored afterwards).
    """

    seed: int = 0
    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_length: int
    batch_size: int
    steps: int
    learning_rate: float
    mlm_probability: float
    dropout: float
    threads: int

    def __post_init__(self) -> None:
        check_seed(self.seed, "MLMTrainingConfig.seed")
        for name in (
            "vocab_size",
            "hidden_size",
            "num_hidden_layers",
            "num_attention_heads",
            "intermediate_size",
            "batch_size",
            "steps",
            "threads",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(
                    f"MLMTrainingConfig.{name} must be a positive integer, got {value!r}"
                )
        if self.max_length < 3:
            raise ValueError(
                f"MLMTrainingConfig.max_length must be at least 3 ([CLS], one token, [SEP]), "
                f"got {self.max_length!r}"
            )
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"MLMTrainingConfig.hidden_size ({self.hidden_size}) must be divisible by "
                f"num_attention_heads ({self.num_attention_heads})"
            )
        if not 0.0 < self.mlm_probability < 1.0:
            raise ValueError(
                f"MLMTrainingConfig.mlm_probability must be in (0, 1), got {self.mlm_probability!r}"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"MLMTrainingConfig.dropout must be in [0, 1), got {self.dropout!r}")
        if not self.learning_rate > 0.0:
            raise ValueError(
                f"MLMTrainingConfig.learning_rate must be positive, got {self.learning_rate!r}"
            )
