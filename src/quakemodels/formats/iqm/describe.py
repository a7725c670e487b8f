"""``quakemodels info`` for IQM: header, meshes, vertex arrays, joints, anims as text."""

from __future__ import annotations

from ...core.names import plural
from .layout import FORMAT_NAMES, MAGIC, VERSION
from .reader import IqmReader


def describe(m: IqmReader) -> str:
    """A human-readable report on one IQM model."""
    magic = MAGIC.rstrip(b"\0").decode()
    lines = [
        f"{m.name or '<bytes>'}: Inter-Quake Model ({magic} version {VERSION}), {m.size} bytes"
    ]
    lines.append("header:")
    lines.extend(f"  {key:<20} {value!r}" for key, value in m.header.items())
    h = m.header
    lines.append(
        f"counts: {plural(h['num_meshes'], 'mesh', 'meshes')},"
        f" {plural(h['num_vertices'], 'vertex', 'vertices')},"
        f" {plural(h['num_triangles'], 'triangle')}, {plural(h['num_joints'], 'joint')},"
        f" {plural(h['num_anims'], 'anim')}, {plural(h['num_frames'], 'frame')}"
    )
    lines.append("meshes:" if m.mesh_records else "meshes: (none)")
    for mesh in m.mesh_records:
        lines.append(
            f"  {mesh.index}: {mesh.name:<16} {mesh.num_vertices:>6} vertices"
            f" {mesh.num_triangles:>6} triangles  material: {mesh.material!r}"
        )
    lines.append("vertex arrays:" if m.vertex_arrays else "vertex arrays: (none)")
    for a in m.vertex_arrays:
        lines.append(f"  {a.index}: {a.kind:<14} {FORMAT_NAMES[a.format]} x {a.size} @{a.offset}")
    names = m.joint_names
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    lines.append(f"joints ({len(names)}): {shown}" if names else "joints: (none)")
    tags = [n for n in names if n.startswith("tag_")]
    if tags:
        lines.append(f"tags: {', '.join(tags)}")
    lines.append("anims:" if m.anims else "anims: (none)")
    for anim in m.anims:
        loop = ", loops" if anim.loop else ""
        lines.append(
            f"  {anim.name}: frames {anim.first_frame}..{anim.first_frame + anim.num_frames - 1}"
            f" at {anim.framerate:g} fps{loop}"
        )
    if m.frame_bounds is not None and len(m.frame_bounds):
        lo, hi = m.frame_bounds[:, 0:3].min(axis=0), m.frame_bounds[:, 3:6].max(axis=0)
        lines.append(
            "bounds: min ({:.3f}, {:.3f}, {:.3f}) max ({:.3f}, {:.3f}, {:.3f})".format(*lo, *hi)
        )
    if m.comment:
        lines.append(f"comment: {len(m.comment)} bytes")
    if m.extensions:
        lines.append("extensions: " + ", ".join(e.name or "''" for e in m.extensions))
    return "\n".join(lines)


__all__ = ["describe"]
