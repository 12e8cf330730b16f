"""The refusal every app raises when a person asks for what the site does not allow."""

from __future__ import annotations


class Refusal(ValueError):
    """A request the site refuses. ``code`` is the protocol's error code (SPEC §7:
    ``not_found``, ``not_allowed``, …); ``message`` is for the person, marked for
    translation and translated when shown. The tables' errors are refusals too
    (``games.errors.TableError``)."""

    def __init__(self, code: str, message) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
