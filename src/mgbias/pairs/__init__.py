"""The pair measures on multilingual CrowS-Pairs and the other pair benchmarks
(Steinborn et al. 2022), beyond the measures' formulas (:mod:`mgbias.measures`):

- :mod:`mgbias.pairs.benchmarks`: the public pair benchmarks shipped by name;
- :mod:`mgbias.pairs.named`: a pair dataset by name, downloaded and verified;
- :mod:`mgbias.pairs.data`: the pairs of a benchmark as the scoring passes see them;
- :mod:`mgbias.pairs.passes`: the two model passes (unmasked, masked) of every pair
  measure;
- :mod:`mgbias.pairs.scoring`: every pair measure of one model on one dataset, from its
  two passes.

The modules sit at different layers (``[tool.importlinter]`` in pyproject.toml), so
this ``__init__`` imports none of them.
"""
