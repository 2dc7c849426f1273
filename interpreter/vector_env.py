"""The old path of :mod:`machikoro.adapters.vector_env` (kept for scripts that import it; it warns
once and gives the same objects)."""

import warnings

from .adapters.vector_env import *

warnings.warn("machikoro.vector_env moved to machikoro.adapters.vector_env", DeprecationWarning,
              stacklevel=2)
