"""What an optional part of the reference says when the extra it needs is not installed."""

from __future__ import annotations

from ctxpact.spec import CtxpactError

#: How a missing extra is reported: what needs it, what is missing, how to install it.
MISSING_EXTRA = "{part} needs {package}, which is not installed: pip install 'ctxpact[{extra}]'"


class MissingExtraError(CtxpactError, ImportError):
    """An optional part of the reference was imported without the extra that it needs.

    Reads like ``ctxpact.reference.postgres needs psycopg (3.2 or later), which is not
    installed: pip install 'ctxpact[postgres]'``; the original :class:`ImportError` is the
    ``__cause__``.
    """

    def __init__(self, *, part: str, package: str, extra: str) -> None:
        self.part = part
        self.package = package
        self.extra = extra
        super().__init__(MISSING_EXTRA.format(part=part, package=package, extra=extra))
