"""``python -m mgbias.workflow.layout``: docs/outputs.md, or ``--clean-targets``."""

from mgbias.workflow.layout import main

raise SystemExit(main())
