"""``quakemodels info`` for Quake 1 sprites: header, frames, groups and their intervals."""

from __future__ import annotations

from .layout import MAGIC, SYNC_TYPES, VERSION
from .reader import Spr


def describe(m: Spr) -> str:
    """A human-readable report on one Quake 1 sprite."""
    size = len(m.to_bytes())
    lines = [
        f"{m.name or '<bytes>'}: Quake sprite ({MAGIC.decode()} version {VERSION}), {size} bytes"
    ]
    lines.append(f"orientation: {m.type} ({m.orientation})")
    lines.append(f"sync type: {m.sync_type} ({SYNC_TYPES.get(m.sync_type, 'unknown')})")
    lines.append(f"radius: {m.radius:g}, max size: {m.max_width} x {m.max_height}")
    lines.append(f"beam length: {m.beam_length:g}")
    groups = sum(r.is_group for r in m.records)
    lines.append(f"frames: {m.num_frames} ({groups} groups, {len(m.pictures)} pictures)")
    for i, r in enumerate(m.records):
        sizes = ", ".join(
            f"{p.width}x{p.height} at ({p.origin_x}, {p.origin_y})" for p in r.pictures
        )
        if r.is_group and r.intervals is not None:
            ivals = [round(float(x), 4) for x in r.intervals]
            lines.append(f"  frame {i}: group of {len(r.pictures)}, intervals {ivals}: {sizes}")
        else:
            lines.append(f"  frame {i}: {sizes}")
    if m.trailing:
        lines.append(f"trailing: {len(m.trailing)} bytes after the frames")
    return "\n".join(lines)
