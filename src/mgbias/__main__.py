"""``python -m mgbias``: the ``mgbias`` command (:func:`mgbias.cli.main`), for an
interpreter whose scripts folder is not on ``PATH``."""

from mgbias.cli import main

raise SystemExit(main())
