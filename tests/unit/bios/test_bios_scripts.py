"""The shard download script run as Snakemake runs it, then `mgbias bios-extract`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from httpmirror import serve_directory
from snakerun import run_script
from test_bios_pipeline_cli import MARY, NAMES
from wetfiles import EN_LINE, write_wet

from mgbias.bios.ccfetch import fetch_shard
from mgbias.bios.ccpaths import listing_path, write_listing
from mgbias.bios.pipeline import extract_dataset, read_records
from mgbias.cli.main import main

REPO = Path(__file__).resolve().parents[3]
SNAP = "CC-MAIN-2017-13"


def mirror(root: Path) -> list[str]:
    paths = [
        f"crawl-data/{SNAP}/segments/1490218186353.38/wet/f-{i:05d}.warc.wet.gz" for i in range(5)
    ]
    for i, path in enumerate(paths):
        text = EN_LINE if i % 2 == 0 else MARY
        write_wet(
            root / path,
            [
                {
                    "uri": f"http://x/{i}",
                    "text": text.replace("Boston", f"Boston {i}"),
                    "lang": "eng",
                }
            ],
        )
    write_listing(root / listing_path(SNAP), paths)
    return paths


def test_fetch_shard_then_extract(tmp_path: Path) -> None:
    paths = mirror(tmp_path / "mirror")
    params = dict(max_files=4, files_per_shard=3, seed=11)
    expected = fetch_shard(
        tmp_path / "mirror" / listing_path(SNAP),
        SNAP,
        1,
        prefix=f"file://{tmp_path / 'mirror'}",
        dest_root=tmp_path / "direct",
        **params,
    )
    assert expected["shard"] == f"{SNAP}-00001" and len(expected["files"]) == 1  # 4 files: 3 + 1
    assert {f["path"] for f in expected["files"]} <= set(paths)
    with serve_directory(tmp_path / "mirror") as base:
        run_script(
            "download_bios_shard.py",
            input={"listing": str(tmp_path / "mirror" / listing_path(SNAP))},
            output={"manifest": str(tmp_path / "manifest.json")},
            params={
                "prefix": base,
                "snapshot": SNAP,
                "shard": 1,
                "dest_root": str(tmp_path / "local"),
                **params,
            },
        )
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest == expected
    wets = [str(tmp_path / "local" / f["path"]) for f in manifest["files"]]
    names = tmp_path / "names.txt"
    names.write_text("\n".join(NAMES))
    argv = ["bios-extract", "--lang", "en", "--pipeline", "blank", "--names", str(names)]
    assert main([*argv, "--output", str(tmp_path / "bios.jsonl"), "--wet", *wets]) == 0
    records = read_records(tmp_path / "bios.jsonl")
    assert records == extract_dataset(wets, "en", pipeline="blank", names=NAMES)
    assert len(records) == 1


def test_shard_out_of_range(tmp_path: Path) -> None:
    mirror(tmp_path / "mirror")
    with pytest.raises(ValueError, match="has 2 shards; no shard 2"):
        fetch_shard(
            tmp_path / "mirror" / listing_path(SNAP),
            SNAP,
            2,
            prefix=f"file://{tmp_path / 'mirror'}",
            dest_root=tmp_path / "d",
            max_files=None,
            files_per_shard=3,
            seed=0,
        )
