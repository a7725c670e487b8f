"""``quakemodels.Mdl``: the MDL reader plus its engine checks."""

from __future__ import annotations

from ...core.findings import Finding
from .check import check_mdl
from .reader import MdlReader


class Mdl(MdlReader):
    """A Quake 1 MDL model (IDPO version 6); see :class:`MdlReader` for the arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake', 'quakespasm' or 'any'); never raises."""
        return check_mdl(self, engine=engine)
