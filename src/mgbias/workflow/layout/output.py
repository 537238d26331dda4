"""One kind of file the workflow writes (:class:`Output`), and the demo mirror's root."""

from __future__ import annotations

from dataclasses import dataclass

#: Root of the generated demo mirror (the stand-in for the remote servers).
DEMO_MIRROR = "data/demo/mirror"

#: The demo pair benchmarks, one file per layout and language, in one directory (inside
#: a mirror, the real servers' layouts: :mod:`mgbias.workflow.mirror_layout`).
DEMO_BENCHMARKS = f"{DEMO_MIRROR}/benchmarks"


@dataclass(frozen=True)
class Output:
    """One kind of file (or directory) the workflow writes.

    Attributes
    ----------
    key : str
        The name rules and input functions look the template up by.
    template : str
        The path, with Snakemake wildcards in braces.
    rule : str
        The rule that writes it.
    holds : str
        What it holds, in a sentence.
    columns : str
        Its columns or fields: prose, or ``module:CONSTANT`` naming a list of
        column names in the library.
    also : tuple of str
        Other rules writing the same kind of path (``models/{model}``: trained
        from scratch or fine-tuned), told apart by wildcard constraints.
    """

    key: str
    template: str
    rule: str
    holds: str
    columns: str = ""
    also: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule that writes this kind of path."""
        return (self.rule, *self.also)
