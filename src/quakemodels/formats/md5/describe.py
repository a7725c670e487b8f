"""``quakemodels info`` for MD5: joints, meshes with their counts and shaders, animations,
tags and bounds as text."""

from __future__ import annotations

import numpy as np

from ...core.names import plural
from .reader import Md5Files


def describe(m: Md5Files) -> str:
    """A human-readable report on one MD5 model and its animations."""
    f = m.mesh_file
    lines = [f"{m.name or '<bytes>'}: Doom 3 MD5 (MD5Version 10), {len(m.data)} bytes"]
    if f.commandline:
        lines.append(f"commandline: {f.commandline}")
    lines.append(
        f"counts: {plural(len(f.names), 'joint')}, {plural(len(f.meshes), 'mesh', 'meshes')},"
        f" {plural(sum(len(b.uvs) for b in f.meshes), 'vertex', 'vertices')},"
        f" {plural(sum(len(b.triangles) for b in f.meshes), 'triangle')},"
        f" {plural(sum(len(b.bias) for b in f.meshes), 'weight')}"
    )
    lines.append("meshes:")
    for i, b in enumerate(f.meshes):
        most = int(b.count.max(initial=0))
        lines.append(
            f"  {i}: {b.name or '(unnamed)'}: {len(b.uvs)} vertices, {len(b.triangles)}"
            f" triangles, {len(b.bias)} weights (at most {most} a vertex), shader {b.shader!r}"
        )
    tags = [f"{f.names[j]} -> {m.tag_names.get(f.names[j], f.names[j])}" for j in m.tags]
    lines.append(f"tags: {', '.join(tags) if tags else '(none)'}")
    lines.append(f"clips ({len(m.anims)}):" if m.anims else "clips: (none: the bind pose)")
    start = 0
    for name, a in m.anims.items():
        last = start + a.num_frames - 1
        lines.append(
            f"  {name:<16} frames {start:>4}-{last:<4} ({a.num_frames} at {a.frame_rate} fps,"
            f" {a.components.shape[1]} animated components)"
        )
        start += a.num_frames
    points = [v.positions for v in m.bound if len(v.positions)]
    if points:
        allp = np.concatenate(points)
        lo, hi = allp.min(axis=0), allp.max(axis=0)
        lines.append(
            "bind-pose bounds: min ({:.3f}, {:.3f}, {:.3f}) max ({:.3f}, {:.3f}, {:.3f})".format(
                *lo, *hi
            )
        )
    return "\n".join(lines)
