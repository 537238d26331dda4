"""The SLURM profile's resources as a table, for profiles/slurm/README.md.

``python -m mgbias.workflow.slurm [profiles/slurm/config.yaml]`` prints the Markdown table of
what each
job asks for; the page holds it verbatim and a test checks that it still equals the profile.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

#: The profile shipped with the workflow, relative to the checkout.
DEFAULT_PROFILE = Path("profiles/slurm/config.yaml")


def _amount(expression: object, unit: str) -> str:
    """``2000 * attempt`` -> ``2000 MB × attempt``; a plain number gets its unit."""
    text = str(expression).strip()
    value, times, factor = text.partition("*")
    if times:
        return f"{value.strip()} {unit} × {factor.strip()}"
    return f"{text} {unit}"


def _row(entry: dict, defaults: dict) -> tuple[str, str, str]:
    """A rule's entry over the profile's defaults: its GPU, memory and runtime cells."""
    resources = {**defaults, **entry}
    gpu = resources.get("gpu")
    return (
        f"{gpu} (`--gpus={gpu}`)" if gpu else "–",
        _amount(resources.get("mem_mb"), "MB"),
        _amount(resources.get("runtime"), "min"),
    )


def resource_table(profile_path: str | Path = DEFAULT_PROFILE) -> str:
    """The Markdown table rule | GPU | memory | runtime of a Snakemake SLURM profile.

    The first row is ``default-resources`` (every rule); then one row per distinct entry of
    ``set-resources``, in the profile's order, naming every rule that has it. Values are the
    profile's expressions per attempt (``attempt`` is 1, then 2 and 3 on the retries); a
    rule's entry without ``mem_mb`` or ``runtime`` keeps the default's.

    Raises
    ------
    ValueError
        If the file is not a YAML mapping, or ``default-resources``/``set-resources`` is not
        a mapping (the message names the file and the key).
    """
    path = Path(profile_path)
    profile = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(profile, dict):
        raise ValueError(f"{path}: expected a YAML mapping of profile options")
    defaults = profile.get("default-resources") or {}
    rules = profile.get("set-resources") or {}
    for key, value in (("default-resources", defaults), ("set-resources", rules)):
        if not isinstance(value, dict):
            raise ValueError(f"{path}: {key} must be a mapping, got {type(value).__name__}")
    groups: dict[tuple[str, str, str], list[str]] = {}
    for rule, entry in rules.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: set-resources.{rule} must be a mapping")
        groups.setdefault(_row(entry, defaults), []).append(rule)
    lines = [
        "| rule | GPU | memory | runtime |",
        "| --- | --- | --- | --- |",
        "| every rule (default) | {} | {} | {} |".format(*_row({}, defaults)),
    ]
    for row, names in groups.items():
        lines.append("| {} | {} | {} | {} |".format(", ".join(f"`{n}`" for n in names), *row))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        print(resource_table(args[0] if args else DEFAULT_PROFILE), end="")
    except (OSError, ValueError, yaml.YAMLError) as error:
        print(f"mgbias.workflow.slurm: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
