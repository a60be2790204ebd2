"""Versions of the contract, which spec/SPEC.md and the schemas' ``$id`` s state too."""

#: The version of spec/SPEC.md that this package implements.
SPEC_VERSION = "1"
#: The version segment of every schema's ``$id``: ``https://ctxpact.dev/schemas/<this>/...``.
SCHEMA_VERSION = "1"
