"""``quakemodels info`` for MD3: header, counts, tags, surfaces, frame names and bounds as text."""

from __future__ import annotations

from ...core.names import plural
from .layout import MAGIC, VERSION
from .reader import Md3Reader


def describe(m: Md3Reader) -> str:
    """A human-readable report on one MD3 model."""
    lines = [
        f"{m.name or '<bytes>'}: Quake III MD3 ({MAGIC.decode()} version {VERSION}),"
        f" {len(m.data)} bytes"
    ]
    lines.append("header:")
    for key, value in m.header.items():
        lines.append(f"  {key:<20} {value!r}")
    verts = sum(s.num_vertices for s in m.surfaces)
    tris = sum(s.num_triangles for s in m.surfaces)
    lines.append(
        f"counts: {plural(m.num_frames, 'frame')}, {plural(m.num_tags, 'tag')},"
        f" {plural(m.num_surfaces, 'surface')}, {plural(verts, 'vertex', 'vertices')},"
        f" {plural(tris, 'triangle')}"
    )
    lines.append("tags:" if m.tags.names else "tags: (none)")
    lines.extend(f"  {k}: {name}" for k, name in enumerate(m.tags.names))
    lines.append("surfaces:" if m.surfaces else "surfaces: (none)")
    for s in m.surfaces:
        shaders = ", ".join(sh.name or "''" for sh in s.shaders) or "(none)"
        lines.append(
            f"  {s.index}: {s.name:<20} {s.num_vertices:>5} vertices {s.num_triangles:>5}"
            f" triangles  shaders: {shaders}"
        )
    frames = m.frames
    distinct = list(dict.fromkeys(frames.names))
    shown = ", ".join(repr(n) for n in distinct[:8]) + (", ..." if len(distinct) > 8 else "")
    lines.append(f"frame names ({len(distinct)} distinct): {shown}")
    lo, hi = m.bounds
    lines.append(
        "bounds: min ({:.3f}, {:.3f}, {:.3f}) max ({:.3f}, {:.3f}, {:.3f})".format(*lo, *hi)
    )
    return "\n".join(lines)
