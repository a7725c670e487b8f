"""The optional compiled modules (``setup.py``: the weld and first-mesh decodes, MD5's scanner,
IQM's first pose, the game folder stamps), each found the one way: absent when the install
had no C compiler, switched off by ``QUAKEMODELS_PURE_PYTHON`` (any non-empty value), and then
the plain Python path each one's caller keeps serves (tests prove the two equal)."""

from __future__ import annotations

import os
import sys
from types import ModuleType

PURE_PYTHON = "QUAKEMODELS_PURE_PYTHON"
"""The environment variable that turns every compiled module off."""


def pure_python() -> bool:
    """True when :data:`PURE_PYTHON` is set to a non-empty value."""
    return bool(os.environ.get(PURE_PYTHON))


def compiled(module: str) -> ModuleType | None:
    """The compiled module ``module`` (``quakemodels.core._weld``), or None when it is not
    built or :func:`pure_python` says to do without it."""
    if pure_python():
        return None
    try:
        __import__(module)  # the import statement's path: -X importtime sees it
    except ImportError:
        return None
    return sys.modules[module]
