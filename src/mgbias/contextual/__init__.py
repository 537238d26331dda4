"""Contextual-embedding probes of gender bias (Basta et al. 2020), for any Hugging Face encoder.

One job per module:

- :mod:`~mgbias.contextual.words`: the word segmentation every probe shares;
- :mod:`~mgbias.contextual.hidden`: pooled hidden states of chosen words, every layer from
  one batched forward pass; :mod:`~mgbias.contextual.cache`: their safetensors cache with
  model id, revision and input hash;
"""
