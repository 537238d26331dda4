"""The project's error types for bad input.

:class:`InputError` is the base of every error raised for a file or an option
the user gave: its message names the file (and line, key or option) and says
what was expected, so the command line prints it without a traceback. It is a
``ValueError``, so callers that catch ``ValueError`` keep working.
"""

from __future__ import annotations

__all__ = ["EncodingError", "InputError", "MissingWordsError", "WeightsError"]


class InputError(ValueError):
    """A user's file or option that cannot be used; the message names it."""


class EncodingError(InputError):
    """A text file that is not UTF-8; the message names file, line and byte offset."""


class WeightsError(InputError, OSError):
    """A weights file that cannot be read (corrupt, truncated, not the format its name says)."""


class MissingWordsError(InputError, KeyError):
    """Words a measure needs that a vector space lacks; the message names the space.

    A ``KeyError`` too, for callers that look words up; printed without the quotes
    ``KeyError`` puts around its message.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
