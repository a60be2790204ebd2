"""The ctxpact reference implementation: small, exact and deterministic.

It is the model the conformance suite compares other implementations against.
"""

__all__: list[str] = []
