"""Extract the bios of one language from one downloaded shard (Zhao et al. 2020 MLBs).

Inputs: ``manifest``: the shard's manifest (its WET files under ``params.dest_root``,
each verified against the manifest's sha256 before it is read); optional ``names``
(the ``blank`` NER fallback's full names) and ``titles`` (a ``freq_titles`` JSON).
Outputs: ``bios``: JSON lines, the shard's bios before post-processing.
Params: ``lang``; ``pipeline``: spaCy package or ``blank``; ``french_conjunction_fix``;
``dest_root``.
"""

import json
from pathlib import Path

from mgbias.bios.pipeline import extract_file, load_extractor, read_names, write_bios
from mgbias.corpora.checksums import sha256_file
from mgbias.workflow.runlog import job_log

smk = snakemake  # noqa: F821 (provided by Snakemake)

with job_log(smk.log[0]) as log:
    manifest = json.loads(Path(smk.input.manifest).read_text(encoding="utf-8"))
    rules, nlp = load_extractor(
        smk.params.lang,
        pipeline=smk.params.pipeline,
        names=[name for path in smk.input.names for name in read_names(path)],
        titles=smk.input.titles[0] if smk.input.titles else None,
        french_conjunction_fix=bool(smk.params.french_conjunction_fix),
    )
    titles = smk.input.titles[0] if smk.input.titles else "the shipped demo lexicon"
    log.info("%s: %d titles from %s", smk.params.lang, len(rules.titles), titles)
    bios = []
    for entry in manifest["files"]:
        wet = Path(smk.params.dest_root) / entry["path"]
        digest = sha256_file(wet)
        if digest != entry["sha256"]:
            raise ValueError(f"{wet}: sha256 {digest} is not the manifest's {entry['sha256']}")
        bios.extend(extract_file(wet, rules, nlp, source=wet.name))
    write_bios(smk.output.bios, bios)
    log.info("%s: %d bios from %d WET files", manifest["shard"], len(bios), len(manifest["files"]))
