"""Bias-controlled fine-tuning and its meta-evaluation (Kaneko, Bollegala and Okazaki 2023).

- :mod:`mgbias.finetune.gendered_text`: D_f and D_m, the female and male sentences of a
  monolingual corpus, downsampled to N each, with held-out development sets;
- :mod:`mgbias.finetune.mixture`: D_r, N sentences of which round(N·r) are male;
- :mod:`mgbias.finetune.train`: masked-LM fine-tuning of any Hugging Face MLM on a text,
  checkpointed and resumable, on the training loop the demo pre-training uses
  (:mod:`mgbias.mlm.loop`);
- :mod:`mgbias.finetune.probe`: the template probes of each model (TBS, Table 1; the
  gender words' probabilities, Figure 2; the top predictions, Figure 3), over the
  targets of :mod:`mgbias.finetune.probe_targets`;
- :mod:`mgbias.finetune.meta_evaluation`: each measure's correlation with the male rate
  r across the bias-controlled models (Table 1).
"""

#: The seed of ``transformers.TrainingArguments`` (42), with which the paper fine-tuned:
#: :class:`mgbias.finetune.train.FineTuneConfig`'s default, and the base of the workflow's
#: repeats when ``kaneko2023.finetune`` sets none (this package's ``__init__`` imports
#: nothing, so the planners read it without torch).
TRAINER_SEED = 42
