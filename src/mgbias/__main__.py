"""``python -m mgbias``: the ``mgbias`` command (:func:`mgbias.launch.main`), for an
interpreter whose scripts folder is not on ``PATH``."""

from mgbias.launch import main

raise SystemExit(main())
