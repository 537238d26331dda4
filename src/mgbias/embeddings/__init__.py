"""Static word embeddings: vectors, fastText training, MUSE dictionaries, RCSLS alignment,
bilingual lexicon induction and hard debiasing (Zhao et al. 2020, §3).

- :mod:`~mgbias.embeddings.vectors`: the :class:`~mgbias.embeddings.vectors.Vectors` type,
  fastText ``.vec``/``.bin`` readers, the ``.vec`` writer;
- :mod:`~mgbias.embeddings.train`: skip-gram vectors with the ``fasttext`` package;
- :mod:`~mgbias.embeddings.dictionaries`: MUSE bilingual dictionaries;
- :mod:`~mgbias.embeddings.rcsls`: RCSLS alignment (Joulin et al. 2018);
- :mod:`~mgbias.embeddings.bli`: bilingual lexicon induction by CSLS or nearest neighbour;
- :mod:`~mgbias.embeddings.debias`: hard debiasing and DirectBias (Bolukbasi et al. 2016).

The inBias measure lives with the other measures, :mod:`mgbias.measures.inbias`.
"""
