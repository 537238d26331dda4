"""How a word repeated in a ``.vec`` file is read: one place for the choices and the default.

``"error"`` (the default) refuses the file, naming both lines; ``"first"`` keeps the word's
first row and drops the later ones, as fastText's ``idx`` does
(:func:`mgbias.embeddings.vectors.read_vec`). The API's ``duplicates`` and the command
line's ``--duplicates`` of ``align``, ``bli``, ``debias`` and ``inbias`` take them. This
module imports nothing, so that the command line's parser can name the choices.
"""

from __future__ import annotations

__all__ = ["DEFAULT_DUPLICATES", "DUPLICATES", "DUPLICATES_HINT"]

#: The ways to read a repeated word.
DUPLICATES = ("error", "first")
#: The default: a repeated word is an error.
DEFAULT_DUPLICATES = DUPLICATES[0]
#: How a duplicate-word error says to read the file anyway.
DUPLICATES_HINT = "or read with duplicates='first', on the command line --duplicates first"
