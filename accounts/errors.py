"""The refusal every app raises when a person asks for what the site does not allow."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise, lazy


class Refusal(ValueError):
    """A request the site refuses. ``code`` is the protocol's error code (SPEC §7:
    ``not_found``, ``not_allowed``, …); ``message`` is for the person, marked for
    translation and translated when shown. The tables' errors are refusals too
    (``games.errors.TableError``). ``retry_after``: for a refusal by a rate limit, the
    seconds until its window ends (the API's ``Retry-After``)."""

    def __init__(self, code: str, message, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def interpolated(message: Promise, values: dict[str, Any]) -> Promise:
    """``message % values``, made when it is shown: a refusal is often raised where no
    one's language is active (a parser, a database thread) and translated where it is
    sent. ``%`` on a lazy message would fix it in the language active at the raise."""
    return lazy(lambda: str(message) % values, str)()
