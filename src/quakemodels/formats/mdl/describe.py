"""``quakemodels info`` for MDL: header, counts, skins, frame groups, clips and bounds."""

from __future__ import annotations

from .layout import MAGIC, VERSION
from .reader import MdlReader


def describe(m: MdlReader) -> str:
    """A human-readable report on one MDL model."""
    lines = [
        f"{m.name or '<bytes>'}: Quake MDL ({MAGIC.decode()} version {VERSION}),"
        f" {len(m.data)} bytes"
    ]
    lines.append("header:")
    for key, value in m.header.items():
        lines.append(f"  {key:<20} {value!r}")
    lines.append(
        f"counts: {m.num_header_frames} frames ({m.num_poses} poses), {m.num_vertices} vertices,"
        f" {m.num_triangles} triangles, {m.num_skins} skins ({m.num_skin_images} images)"
    )
    lines.append(f"skin size: {m.skin_width} x {m.skin_height}")
    for sg in m.skin_groups:
        if sg.is_group and sg.intervals is not None:
            lines.append(
                f"  skin {sg.index}: group of {sg.num_images}, intervals {sg.intervals.tolist()}"
            )
    groups = [g for g in m.frame_groups if g.is_group]
    lines.append(f"frame groups ({len(groups)}):" if groups else "frame groups: (none)")
    for g in groups:
        intervals = [] if g.intervals is None else g.intervals.tolist()
        lines.append(
            f"  frame {g.index}: poses {g.first_pose}-{g.first_pose + g.num_poses - 1}"
            f" ({g.num_poses}), intervals {[round(x, 4) for x in intervals]}"
        )
    lines.append(f"clips ({len(m.animations)}):")
    for name, poses in m.animations.items():
        lines.append(f"  {name:<12} poses {poses.start:>3}-{poses.stop - 1:<3} ({len(poses)})")
    if m.trailer:
        lines.append(f"trailer: {len(m.trailer)} bytes after the model at offset {m.ofs_end}")
    lo, hi = m.bounds
    lines.append(
        "bounds: min ({:.3f}, {:.3f}, {:.3f}) max ({:.3f}, {:.3f}, {:.3f})".format(*lo, *hi)
    )
    return "\n".join(lines)
