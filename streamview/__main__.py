"""Entry point for ``python -m streamview``."""

from streamview.cli import main

raise SystemExit(main())
