"""A griffe extension for ``make docs``: the package's docstrings use Sphinx roles
(``:class:`~quakemodels.Md2```, ``:func:`.write.build```), which Markdown would show as typed.
Each role becomes inline code naming the object as Sphinx would show it (the last part after
``~``, the text as written otherwise), so the API reference reads as the source does."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|data|mod|exc|obj|const):`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    """``text`` with every Sphinx role written as Markdown inline code."""

    def one(match: re.Match[str]) -> str:
        target = match.group(2).lstrip(".")
        if match.group(1):
            target = target.rsplit(".", 1)[-1]
        return f"`{target}`"

    return _ROLE.sub(one, text)


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring griffe loads (see the module docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
