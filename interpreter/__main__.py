"""``python -m machikoro``: the same as the ``machikoro`` command."""

import sys

from .cli import console_main

sys.exit(console_main())
