"""The old path of :mod:`machikoro.adapters.pettingzoo` (kept for scripts that import it; it warns
once and gives the same objects)."""

import warnings

from .adapters.pettingzoo import *

warnings.warn("machikoro.pettingzoo moved to machikoro.adapters.pettingzoo", DeprecationWarning,
              stacklevel=2)
