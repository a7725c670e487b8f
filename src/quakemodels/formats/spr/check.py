"""Engine-compatibility checks for Quake 1 sprites: findings, never an exception.

Rules read from the engines' ``Mod_LoadSpriteModel``/``Mod_LoadSpriteGroup`` (WinQuake's
``model.c`` and ``gl_model.c``, QuakeSpasm's ``gl_model.c``) and the software renderer's
``R_DrawSprite``: at least one frame; a group's intervals above 0 (``interval<=0`` is fatal);
an orientation 0..4 (the software renderer stops on another). Warnings: a sync type other
than 0/1, header max sizes smaller than a frame (the engine sizes the sprite's bounding box
from them), frames past :data:`~.limits.MAX_FRAME_SIDE`, group intervals that do not
increase (they are end times), bytes after the frames.
"""

from __future__ import annotations

import itertools

from ...core.facade import Readable
from ...core.findings import Finding, Report
from ...core.sprite import check_idsp_bounds, check_idsp_trailing, check_sprite, frame_offsets
from .layout import FRAMES, HEADER_OFFSETS, HEADER_SIZE
from .limits import MAX_FRAME_SIDE, MAX_ORIENTATION, MAX_SYNC, MIN_FRAMES
from .reader import Spr

QUAKE_ENGINES = ("quake", "quakespasm")
OTHER_ENGINES = {
    "quake2": "Quake II loads SP2 sprites",
    "q2pro": "Q2PRO loads SP2 sprites",
    "quake3": "Quake III loads no sprite files",
    "halflife": "Half-Life loads IDSP version 2 sprites",
}


def check(source: Spr | Readable, engine: str = "any", *, name: str | None = None) -> list[Finding]:
    """Findings for one Quake 1 sprite (a loaded one, its bytes, a path or a binary file)
    for ``engine``; never raises on any input (an unknown ``engine`` is a ValueError)."""
    return check_sprite(
        source,
        engine,
        Spr,
        name,
        _check,
        other_engines=OTHER_ENGINES,
        where=("ident", 0),
        what="Quake 1 sprites",
    )


def _check(r: Report, m: Spr) -> None:
    ofs = HEADER_OFFSETS
    if m.num_frames < MIN_FRAMES:
        r.limit(
            "empty",
            "num_frames",
            ofs["num_frames"],
            f"num_frames={m.num_frames}: Invalid # of frames (quake)",
            engines=QUAKE_ENGINES,
        )
    if not 0 <= m.type <= MAX_ORIENTATION:
        r.limit(
            "orientation",
            "type",
            ofs["type"],
            f"type={m.type} is no orientation 0..{MAX_ORIENTATION}: R_DrawSprite stops (quake)",
            engines=QUAKE_ENGINES,
        )
    if not 0 <= m.sync_type <= MAX_SYNC:
        r.warning(
            "synctype",
            "sync_type",
            ofs["sync_type"],
            f"sync_type={m.sync_type} is neither 0 (ST_SYNC) nor 1 (ST_RAND)",
        )
    check_idsp_bounds(r, m, ofs)
    starts = frame_offsets(m.records, FRAMES, HEADER_SIZE)
    for i, rec in enumerate(m.records):
        for k, p in enumerate(rec.pictures):
            if max(p.width, p.height) > MAX_FRAME_SIDE or min(p.width, p.height) == 0:
                what = f"frames[{i}]" + (f".group.pictures[{k}]" if rec.is_group else ".single")
                r.warning(
                    "frame-size",
                    f"{what}.width",
                    starts[i],
                    f"{what} is {p.width}x{p.height}: no picture, or larger than {MAX_FRAME_SIDE}",
                )
        if rec.is_group and rec.intervals is not None:
            field = f"frames[{i}].group.intervals"
            ivals = [round(float(x), 6) for x in rec.intervals]
            if len(ivals) == 0:
                r.limit(
                    "empty-group",
                    f"frames[{i}].group.num_intervals",
                    starts[i],
                    f"frames[{i}] is a group of no pictures (quake)",
                    engines=QUAKE_ENGINES,
                )
            elif min(ivals) <= 0:
                r.limit(
                    "interval",
                    field,
                    starts[i],
                    f"{field}={ivals}: Mod_LoadSpriteGroup: interval<=0 (quake)",
                    engines=QUAKE_ENGINES,
                )
            elif any(b <= a for a, b in itertools.pairwise(ivals)):
                r.warning(
                    "interval-order",
                    field,
                    starts[i],
                    f"{field}={ivals} do not increase: they are end times, so a"
                    " picture never shows",
                )
    check_idsp_trailing(r, m)
