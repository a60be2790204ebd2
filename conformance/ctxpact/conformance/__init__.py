"""The ctxpact conformance suite: checks any implementation against spec/SPEC.md."""

__all__: list[str] = []
