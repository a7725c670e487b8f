"""``quakemodels.Mdl``: the MDL reader plus the verbs that need more than reading."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .reader import MdlReader

if TYPE_CHECKING:
    from ...check import Finding


class Mdl(MdlReader):
    """A Quake 1 MDL model (IDPO version 6); see :class:`MdlReader` for the arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake', 'quakespasm' or 'any'); never raises."""
        from .check import check_mdl

        return check_mdl(self, engine=engine)
