"""``quakemodels info FILE...``: header, counts, skins, clips and bounds."""

from __future__ import annotations

import argparse
import sys

from .. import load
from ..errors import ModelFormatError
from ..md2 import Md2
from ..md3 import Md3

HELP = "print a model's header, counts, skins, clip table and bounds"
EXAMPLES = """\
  quakemodels info tris.md2
  quakemodels info models/*.md2
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files")


def describe_md2(m: Md2) -> str:
    """A human-readable report on one MD2 model."""
    lines = [f"{m.name or '<bytes>'}: Quake II MD2 (IDP2 version 8), {len(m.data)} bytes"]
    lines.append("header:")
    for key, value in m.header.items():
        lines.append(f"  {key:<20} {value!r}")
    lines.append(
        f"counts: {m.num_frames} frames, {m.num_vertices} vertices, {m.num_triangles} triangles,"
        f" {m.num_texcoords} texcoords, {len(m.gl_commands)} GL commands, {m.num_skins} skins"
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


def describe_md3(m: Md3) -> str:
    """A human-readable report on one MD3 model."""
    lines = [f"{m.name or '<bytes>'}: Quake III MD3 (IDP3 version 15), {len(m.data)} bytes"]
    lines.append("header:")
    for key, value in m.header.items():
        lines.append(f"  {key:<20} {value!r}")
    verts = sum(s.num_vertices for s in m.surfaces)
    tris = sum(s.num_triangles for s in m.surfaces)
    lines.append(
        f"counts: {m.num_frames} frames, {m.num_tags} tags, {m.num_surfaces} surfaces,"
        f" {verts} vertices, {tris} triangles"
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


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            model = load(path)
            if isinstance(model, Md3):
                print(describe_md3(model))
                continue
            print(describe_md2(model))
        except ModelFormatError as e:
            print(f"{path}: error: {e}", file=sys.stderr)
            status = 1
        except OSError as e:
            print(f"{path}: error: {e.strerror or e}", file=sys.stderr)
            status = 1
    return status
