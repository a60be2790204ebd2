"""The suite's own error: what the user gave it is not something it can check."""

from __future__ import annotations

from ctxpact.spec import CtxpactError


class TargetError(CtxpactError, TypeError):
    """Something given to the suite is not an implementation it can check, or not as given.

    A factory whose signature cannot take what its component's factory receives, a claim
    that selects no check of the component, an option no claimed check reads, an option a
    claimed check needs and lacks, a keyword that selects nothing: each is a usage error.
    """
