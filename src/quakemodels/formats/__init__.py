"""Every format quakemodels reads: one line each. A new format adds its folder
(``formats/<name>/__init__.py`` declaring ``FORMAT``), its ksy and one line here; the order
is the order magic and folder tests are tried in."""

from __future__ import annotations

from .contract import Format, declared

FORMATS: tuple[Format, ...] = declared(
    __name__,
    "md2",
    "md3",
    "mdl",
    "q3player",
    "md5",
    "spr",
    "hlspr",
    "sp2",
    "iqm",
)
