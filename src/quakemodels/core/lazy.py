"""Names imported on their first use: a package's public names (a module ``__getattr__``,
PEP 562) and a format's services.

Packages keep start-up light by naming, for each public name, the module that defines it; the
module is imported when the name is first looked up, and the name is then kept in the
importing module's namespace, so later lookups are plain ones.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any


def import_attribute(module: str, name: str) -> Any:
    """``name`` from the module ``module`` (an absolute name), imported now. Through the
    import statement's own machinery (``__import__``), which ``python -X importtime`` times
    and lists (``importlib.import_module`` bypasses it, so a test of what start-up imports
    would not see the module)."""
    __import__(module)
    return getattr(sys.modules[module], name)


def lazy_attribute(module: str, where: Mapping[str, str], name: str) -> Any:
    """``name`` from the module ``where[name]`` (relative to ``module``'s package:
    ``".model"``), imported now and set on ``module``; AttributeError for a name ``where``
    does not list, as for any module without it."""
    source = where.get(name)
    if source is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    importer = sys.modules[module]
    value = import_attribute(f"{importer.__package__}{source}", name)
    setattr(importer, name, value)
    return value
