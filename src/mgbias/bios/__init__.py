"""Multilingual BiosBias from Common Crawl (Zhao et al. 2020, §4).

Modules, one job each:

- :mod:`~mgbias.bios.ccpaths`: the crawl's ``wet.paths.gz`` listings, seeded file selection, shards;
- :mod:`~mgbias.bios.ccfetch`: download of one shard of WET files, resumable file by file;
- :mod:`~mgbias.bios.wet`: streaming the conversion records of a WET file;
- :mod:`~mgbias.bios.rules`: per-language patterns, markers and title lexicons;
- :mod:`~mgbias.bios.extract`: the per-line candidate extractor (no NER);
- :mod:`~mgbias.bios.ner`: spaCy pipelines per language and the name check;
- :mod:`~mgbias.bios.postprocess`: exclusions, deduplication, scrubbing, occupation cap;
- :mod:`~mgbias.bios.pipeline`: WET file to bios, and bios to a JSON-lines dataset;
- :mod:`~mgbias.bios.tables`: Table 5 and the counts behind Figure 2;
- :mod:`~mgbias.bios.demo`: the demo crawl (WET files with planted bios and distractors);
- :mod:`~mgbias.bios.fairness`: the classifier's split, balanced upsampling and |Diff|;
- :mod:`~mgbias.bios.classifier`: the BiGRU-with-attention occupation classifier (§4.1);
- :mod:`~mgbias.bios.training`: its training settings (the authors' defaults);
- :mod:`~mgbias.bios.spaces`: its token features, a ``.vec`` file or a frozen encoder
  (:mod:`~mgbias.bios.encoder`);
- :mod:`~mgbias.bios.experiment`: one seeded run, a transfer run, the runs of a job.

The workflow rules are in ``rules/bios.smk`` (and the downloads in ``rules/download.smk``).
"""
