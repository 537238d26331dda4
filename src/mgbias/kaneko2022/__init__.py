"""MBE, the multilingual bias evaluation of Kaneko, Imankulova, Bollegala and Okazaki
(2022), beyond its formula (:mod:`mgbias.measures.mbe`):

- :mod:`mgbias.kaneko2022.mining`: Step 1 (§3), the gendered target sentences of a
  parallel corpus, downsampled to equal sizes;
- :mod:`mgbias.kaneko2022.sentences`: the gendered sentence files between mining and
  scoring;
- :mod:`mgbias.kaneko2022.preservation`: gender preservation in translation (Figure 2);
- :mod:`mgbias.kaneko2022.meta`: MBE against human-annotated pair benchmarks (Table 3);
- :mod:`mgbias.kaneko2022.translations`: human, machine and template translations, and
  native names (Tables 4, 5 and 6), with :mod:`mgbias.kaneko2022.template_pairs` (the
  template pairs, §5.2) and :mod:`mgbias.kaneko2022.native_names` (§6).

The modules sit at different layers (``[tool.importlinter]`` in pyproject.toml), so
this ``__init__`` imports none of them. The package is named after the paper, not
``mbe``: :func:`mgbias.mbe` is a public function, which a subpackage of that name
would hide once imported.
"""
