"""Engine-compatibility checks for Half-Life sprites: findings, never an exception.

Errors for ``halflife`` (warnings under ``any``): no frames, an orientation outside 0..4 or
a texture format outside 0..3, a palette of more than 256 colours, a group interval <= 0.
Warnings: a palette of fewer than 256 colours (the engine reads 256), frames larger than 256
or not multiples of 8 on a side (Valve's sprgen refuses them), header max sizes smaller
than a frame, group intervals that do not increase, bytes after the frames.
"""

from __future__ import annotations

import itertools

from ...core.facade import Readable
from ...core.findings import Finding, Report
from ...core.sprite import check_idsp_bounds, check_idsp_trailing, check_sprite, frame_offsets
from .layout import FRAMES, HEADER_OFFSETS, HEADER_SIZE
from .limits import (
    FRAME_SIDE_MULTIPLE,
    MAX_FRAME_SIDE,
    MAX_ORIENTATION,
    MAX_TEX_FORMAT,
    MIN_FRAMES,
    PALETTE_COLORS,
)
from .reader import HlSpr

ENGINES = ("halflife",)
OTHER_ENGINES = {
    "quake": "Quake loads IDSP version 1 sprites",
    "quakespasm": "QuakeSpasm loads IDSP version 1 sprites",
    "quake2": "Quake II loads SP2 sprites",
    "q2pro": "Q2PRO loads SP2 sprites",
    "quake3": "Quake III loads no sprite files",
}


def check(
    source: HlSpr | Readable, engine: str = "any", *, name: str | None = None
) -> list[Finding]:
    """Findings for one Half-Life sprite (a loaded one, its bytes, a path or a binary
    file) for ``engine``; never raises on any input (an unknown ``engine`` is a
    ValueError)."""
    return check_sprite(
        source,
        engine,
        HlSpr,
        name,
        _check,
        other_engines=OTHER_ENGINES,
        where=("version", 4),
        what="Half-Life's",
    )


def _check(r: Report, m: HlSpr) -> None:
    ofs = HEADER_OFFSETS
    if m.num_frames < MIN_FRAMES:
        r.limit(
            "empty",
            "num_frames",
            ofs["num_frames"],
            f"num_frames={m.num_frames}: no frames",
            engines=ENGINES,
        )
    if not 0 <= m.type <= MAX_ORIENTATION:
        r.limit(
            "orientation",
            "type",
            ofs["type"],
            f"type={m.type} is no orientation 0..{MAX_ORIENTATION}",
            engines=ENGINES,
        )
    if not 0 <= m.tex_format <= MAX_TEX_FORMAT:
        r.limit(
            "tex-format",
            "tex_format",
            ofs["tex_format"],
            f"tex_format={m.tex_format} is no texture format 0..{MAX_TEX_FORMAT}",
            engines=ENGINES,
        )
    palette_at = HEADER_SIZE
    if len(m.colors) > PALETTE_COLORS:
        r.limit(
            "palette",
            "palette.num_colors",
            palette_at,
            f"palette.num_colors={len(m.colors)} is above {PALETTE_COLORS}",
            engines=ENGINES,
        )
    elif len(m.colors) < PALETTE_COLORS:
        r.warning(
            "palette",
            "palette.num_colors",
            palette_at,
            f"palette.num_colors={len(m.colors)}: the engine reads {PALETTE_COLORS} colours",
        )
    check_idsp_bounds(r, m, ofs)
    starts = frame_offsets(m.records, FRAMES, m.frames_offset)
    for i, rec in enumerate(m.records):
        what = f"frames[{i}]" + (".group.pictures" if rec.is_group else ".single")
        for p in rec.pictures:
            sides = (p.width, p.height)
            if max(sides) > MAX_FRAME_SIDE or any(s % FRAME_SIDE_MULTIPLE for s in sides):
                r.warning(
                    "frame-size",
                    f"{what}.width",
                    starts[i],
                    f"{what} is {p.width}x{p.height}: sprgen makes sides that are multiples"
                    f" of {FRAME_SIDE_MULTIPLE} up to {MAX_FRAME_SIDE}",
                )
                break
        if rec.is_group and rec.intervals is not None:
            field = f"frames[{i}].group.intervals"
            ivals = [round(float(x), 6) for x in rec.intervals]
            if ivals and min(ivals) <= 0:
                r.limit(
                    "interval",
                    field,
                    starts[i],
                    f"{field}={ivals}: an interval <= 0",
                    engines=ENGINES,
                )
            elif any(b <= a for a, b in itertools.pairwise(ivals)):
                r.warning(
                    "interval-order",
                    field,
                    starts[i],
                    f"{field}={ivals} do not increase: they are end times",
                )
    check_idsp_trailing(r, m)
