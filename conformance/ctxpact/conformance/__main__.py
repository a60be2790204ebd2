"""``python -m ctxpact.conformance`` is the ``ctxpact`` command."""

from ctxpact.conformance.cli import main

raise SystemExit(main())
