"""The :class:`Md3` users get: the reader plus checking (writing joins here too)."""

from __future__ import annotations

from ...core.findings import Finding
from .check import check_md3
from .reader import Md3Reader


class Md3(Md3Reader):
    """A Quake III MD3 model (IDP3 version 15): see :class:`Md3Reader` for its arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake2', 'q2pro', 'quake3' or 'any'); never raises."""
        return check_md3(self, engine=engine)
