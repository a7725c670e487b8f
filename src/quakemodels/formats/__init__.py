"""Every format quakemodels reads: one line each. A new format adds its folder, its ksy and
one line here."""

from __future__ import annotations

from ..core.format import Format
from . import hlspr, md2, md3, mdl, q3player, sp2, spr

FORMATS: tuple[Format, ...] = (
    md2.FORMAT,
    md3.FORMAT,
    mdl.FORMAT,
    q3player.FORMAT,
    spr.FORMAT,
    hlspr.FORMAT,
    sp2.FORMAT,
)
