"""`python -m balancelab` is the `balancelab` command."""
from .cli import main

raise SystemExit(main())
