"""scripts/ holds the rules' job entry points and nothing else: every script is the
``script:`` of a rule, and every rule's script exists (the command line lives in
``mgbias.cli``, not in scripts/)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = re.compile(r'^\s+script:\s*\n\s+"\.\./scripts/([\w.]+)"', re.M)


def rule_scripts() -> set[str]:
    """The scripts the rule files run (``script: "../scripts/NAME"``)."""
    return {
        name
        for path in sorted((REPO / "rules").glob("*.smk"))
        for name in SCRIPT.findall(path.read_text(encoding="utf-8"))
    }


def test_every_script_is_run_by_a_rule_and_every_rules_script_exists():
    used = rule_scripts()
    present = {path.name for path in (REPO / "scripts").glob("*.py")}
    assert len(used) > 40
    assert not present - used, f"scripts no rule runs: {sorted(present - used)}"
    assert not used - present, f"rules run missing scripts: {sorted(used - present)}"
