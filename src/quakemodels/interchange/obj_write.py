"""Wavefront OBJ + MTL export of one frame, or one OBJ per frame of a clip.

Positions and normals use the same Y-up rotation as the glTF export ((x, y, z) → (y, z, x);
OBJ has no fixed convention, but Blender's and most importers' default is Y up). OBJ's ``vt``
has v growing upwards, so ``vt`` is ``(s, 1 - t)``. Every distinct (vertex, texcoord) corner
is written once and faces use the same index for ``v``, ``vt`` and ``vn``. When a skin is
found it is written beside the OBJ as PNG and the MTL names it in ``map_Kd``, and in
``map_d`` too when the surface is alpha-tested (a Quake III ``alphaFunc GT0`` or ``GE128``,
Quake II's alpha test) and the skin has an alpha channel: importers then take the skin's alpha
as the dissolve (Blender's alpha input); MTL has no cutoff and no double-sided flag, so the
cutoff and the sides drawn are written as comments. Numbers use
``%.9g``, enough to read every float32 back exactly. Every file is written atomically.
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path

import numpy as np

from ..core.atomic import write_bytes_atomic
from ..core.scene import ExportModel, Material, Surface, require_finite, safe_name, to_y_up
from ..errors import QuakeModelsWarning


def _rows(prefix: str, values: np.ndarray) -> str:
    fmt = prefix + " " + " ".join(["%.9g"] * values.shape[1])
    buf = io.StringIO()
    np.savetxt(buf, values.astype(np.float64), fmt=fmt)
    return buf.getvalue()


def obj_text(
    model: ExportModel, frame: int, mtl_name: str | None, *, number: int | None = None
) -> str:
    """The OBJ text of ``frame`` (an index into ``model``'s frames); the header comment names
    it as frame ``number`` (default ``frame``: a scene of one frame names the source's)."""
    label = frame if number is None else number
    out = [f"# {model.name} frame {label} exported by quakemodels (Y up)\n"]
    if mtl_name:
        out.append(f"mtllib {mtl_name}\n")
    base = 1
    for i, s in enumerate(model.surfaces):
        n = s.positions.shape[1]
        if n == 0:
            continue
        out.append(f"o {safe_name(s.name, f'surface{i}')}\n")
        out.append(_rows("v", to_y_up(s.positions[frame])))
        with np.errstate(invalid="ignore"):  # a signalling NaN texcoord turns quiet
            uv = s.uvs.astype(np.float64)  # (export_obj refuses non-finite ones before this)
        out.append(_rows("vt", np.column_stack([uv[:, 0], 1.0 - uv[:, 1]])))
        out.append(_rows("vn", to_y_up(s.normals[frame])))
        if mtl_name:
            out.append(f"usemtl {_material(s.name, i)}\n")
        idx = s.indices.astype(np.int64) + base
        corners = np.repeat(idx, 3, axis=1)  # v/vt/vn share one index
        out.append(_rows_int("f", corners))
        base += n
    return "".join(out)


def _rows_int(prefix: str, corners: np.ndarray) -> str:
    buf = io.StringIO()
    np.savetxt(buf, corners, fmt=prefix + " %d/%d/%d %d/%d/%d %d/%d/%d")
    return buf.getvalue()


def _material(name: str, i: int) -> str:
    return safe_name(name, f"surface{i}")


def _alpha_mask(s: Surface) -> bool:
    """Whether the MTL gives ``s`` a ``map_d``: its material has an alpha test that keeps the
    high alphas and its skin an alpha channel."""
    test = s.material.alpha_test
    return (
        test is not None
        and test.cutoff is not None
        and s.skin is not None
        and (s.skin.mode == "RGBA")
    )


def _material_notes(s: Surface, warned: set[Material]) -> list[str]:
    """Comment lines saying what MTL cannot: the alpha test's cutoff and the sides drawn; a
    test MTL cannot approach warns once per material (``warned``)."""
    m = s.material
    where = f" of shader {m.shader}" if m.shader else ""
    notes = []
    test = m.alpha_test
    if test is not None and s.skin is not None and s.skin.mode == "RGBA":
        if test.cutoff is None:
            if m not in warned:
                warned.add(m)
                warnings.warn(
                    f"{m.shader or s.name}: alpha test {test.name or test.op} keeps the low"
                    " alphas, which MTL cannot state; exported opaque",
                    QuakeModelsWarning,
                    stacklevel=4,
                )
            notes.append(f"# alpha test {test.name}{where}: not stated, drawn opaque\n")
        else:
            notes.append(
                f"# alpha test {test.name}{where}: drawn where alpha >= {test.cutoff:.6g}"
                " (map_d is the skin's alpha; MTL states no cutoff)\n"
            )
    if m.double_sided:
        side = "only the back side" if m.sides == "back" else "both sides"
        notes.append(f"# {side} drawn{where}: MTL cannot state it\n")
    return notes


def _write_materials(model: ExportModel, folder: Path, stem: str) -> str:
    """Write ``<stem>.mtl`` (and skins as ``<stem>_<surface>.png``); returns the MTL's name."""
    lines = [f"# materials of {model.name}\n"]
    warned: set[Material] = set()
    for i, s in enumerate(model.surfaces):
        lines.append(f"newmtl {_material(s.name, i)}\nKa 0 0 0\nKd 1 1 1\nKs 0 0 0\nd 1\nillum 1\n")
        lines += _material_notes(s, warned)
        if s.skin is not None:
            png = f"{stem}_{_material(s.name, i)}.png"
            write_bytes_atomic(folder / png, s.skin.png_bytes())
            lines.append(f"map_Kd {png}\n")
            if _alpha_mask(s):
                lines.append(f"map_d {png}\n")
    mtl = f"{stem}.mtl"
    write_bytes_atomic(folder / mtl, "".join(lines).encode("utf-8"))
    return mtl


def export_obj(
    model: ExportModel, path: str | os.PathLike[str], frame: int = 0, *, number: int | None = None
) -> list[Path]:
    """Write ``frame`` to ``path`` (.obj) with ``<stem>.mtl`` beside it; returns the OBJ path.
    ``number`` is the frame number the header names (default ``frame``)."""
    target = Path(path)
    num = model.num_frames
    if not -num <= frame < num:
        raise IndexError(f"frame {frame} out of range for {num} frames")
    require_finite(model.select([frame % num], {}), "OBJ")  # before any file is written
    mtl = _write_materials(model, target.parent, target.stem)
    text = obj_text(model, frame % num, mtl, number=number)
    write_bytes_atomic(target, text.encode("utf-8"))
    return [target]


def export_obj_clip(model: ExportModel, folder: str | os.PathLike[str], clip: str) -> list[Path]:
    """One OBJ per frame of ``clip`` in ``folder``: ``<model>_<clip>_<k>.obj``, one shared MTL."""
    try:
        frames = model.clips[clip]
    except KeyError:
        raise KeyError(f"no clip {clip!r}; clips: {', '.join(model.clips)}") from None
    require_finite(model.select(list(frames), {}), "OBJ")  # before any file is written
    out = Path(folder)
    stem = f"{safe_name(model.name, 'model')}_{safe_name(clip, 'clip')}"
    mtl = _write_materials(model, out, stem)
    written = []
    for k, f in enumerate(frames):
        target = out / f"{stem}_{k:03d}.obj"
        write_bytes_atomic(target, obj_text(model, f, mtl).encode("utf-8"))
        written.append(target)
    return written
