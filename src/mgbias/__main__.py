"""``python -m mgbias``: the ``mgbias`` command (:func:`mgbias.cli.launch.main`), for an
interpreter whose scripts folder is not on ``PATH``."""

from mgbias.cli.launch import main

raise SystemExit(main())
