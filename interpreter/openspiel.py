"""The old path of :mod:`machikoro.adapters.openspiel` (kept for scripts that import it; it warns
once and gives the same objects)."""

import warnings

from .adapters.openspiel import *

warnings.warn("machikoro.openspiel moved to machikoro.adapters.openspiel", DeprecationWarning,
              stacklevel=2)
