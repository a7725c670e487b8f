"""``quakemodels info`` for MD2: header, counts, skins, clip table and bounds as text."""

from __future__ import annotations

from ...core.names import plural
from .layout import MAGIC, VERSION
from .reader import Md2Reader


def describe(m: Md2Reader) -> str:
    """A human-readable report on one MD2 model."""
    lines = [
        f"{m.name or '<bytes>'}: Quake II MD2 ({MAGIC.decode()} version {VERSION}),"
        f" {len(m.data)} bytes"
    ]
    lines.append("header:")
    for key, value in m.header.items():
        lines.append(f"  {key:<20} {value!r}")
    lines.append(
        f"counts: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}, {plural(m.num_texcoords, 'texcoord')},"
        f" {plural(len(m.gl_commands), 'GL command')}, {plural(m.num_skins, 'skin')}"
    )
    lines.append(f"skin size: {m.skin_width} x {m.skin_height}")
    lines.append("skins:" if m.skins else "skins: (none)")
    lines.extend(f"  {i}: {s}" for i, s in enumerate(m.skins))
    lines.append(f"clips ({len(m.animations)}):")
    for name, frames in m.animations.items():
        last = frames.stop - 1
        lines.append(f"  {name:<12} frames {frames.start:>3}-{last:<3} ({len(frames)})")
    lo, hi = m.bounds
    lines.append(
        "bounds: min ({:.3f}, {:.3f}, {:.3f}) max ({:.3f}, {:.3f}, {:.3f})".format(*lo, *hi)
    )
    return "\n".join(lines)
