"""Contextual-embedding probes of gender bias (Basta et al. 2020), for any Hugging Face encoder.

The paper probed ELMo (word-level, 3 layers: "layer 2" and the concatenation); here any
encoder's ``hidden_states`` are the layers (0 = embeddings .. L = last, ``concat`` = all),
and a word's vector pools its sub-word pieces (mean by default, or the first piece).

One job per module:

- :mod:`.words`: the word segmentation every probe shares;
- :mod:`.hidden`: pooled hidden states of chosen words, every layer from one batched
  forward pass; :mod:`.cache`: their safetensors cache (model id, revision, input hash);
- :mod:`.lists`: definitional, equivalent and profession lists (debiaswe; Spanish data);
  :mod:`.biased_words`: Gonen & Goldberg's biased lists derived from static vectors;
- :mod:`.swap`: gender swapping (English pairs; Spanish agreement by morphology), with a
  pluggable analyser; :mod:`.spacy_analysis`: the spaCy analyser;
- :mod:`.plan`: which words of a corpus each experiment reads;
- experiments, pure functions on vectors: :mod:`.direction` (Exp. 1 swap PCA, Exp. 6 LDA
  and Eq. 2), :mod:`.direct_bias` (Exp. 2), :mod:`.clustering` (Exp. 3),
  :mod:`.classification` (Exp. 4), :mod:`.knn` (Exp. 5), :mod:`.grammatical_gender` (Exp. 6–9:
  d_s and d_g, Table 6's forms, Table 7's lists), :mod:`.repeated` (runs, seeds);
- :mod:`.run`: every experiment per layer on cached vectors; :mod:`.steps`: the file-level
  steps of ``scripts/basta2020_{vectors,probes}.py`` and ``mgbias probe``.
"""
