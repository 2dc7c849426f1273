"""``python -m machikoro``: the same as the ``machikoro`` command."""

import sys

from .cli import main

sys.exit(main())
