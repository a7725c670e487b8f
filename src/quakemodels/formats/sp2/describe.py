"""``quakemodels info`` for Quake II sprites: frames with size, origin and image name."""

from __future__ import annotations

from .layout import FRAME, MAGIC, VERSION
from .reader import Sp2


def describe(m: Sp2) -> str:
    """A human-readable report on one Quake II sprite."""
    lines = [
        f"{m.name or '<bytes>'}: Quake II sprite ({MAGIC.decode()} version {VERSION}),"
        f" {len(m.to_bytes())} bytes",
        f"frames: {m.num_frames}",
    ]
    for i, (name, (w, h), (ox, oy)) in enumerate(
        zip(m.image_names, m.sizes, m.origins, strict=True)
    ):
        lines.append(f"  frame {i}: {w}x{h}, origin ({ox}, {oy}), image {name!r}")
    if m.trailing:
        extra, rest = divmod(len(m.trailing), FRAME.itemsize)
        what = f" ({extra} more frame records)" if extra and not rest else ""
        lines.append(f"trailing: {len(m.trailing)} bytes after the frames{what}")
    return "\n".join(lines)
