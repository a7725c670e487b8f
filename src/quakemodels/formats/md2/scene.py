"""An MD2 in the neutral forms: the exporters' scene (one surface, every frame, the clip table
and its skin) and its frames as stored (:class:`~quakemodels.core.quantized.QuantizedMesh`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from ...archive.vpath import model_game
from ...core.gamepaths import Listings
from ...core.scene import AlphaTest, ExportModel, Material, Surface, model_stem
from ...core.skins import SkinImage, find_skin, skin_rgba
from ...errors import LimitExceededError
from .layout import HEADER_OFFSETS
from .reader import Md2Reader

# Quake II's OpenGL refresh enables GL_ALPHA_TEST with glAlphaFunc(GL_GREATER, 0.666) in
# GL_SetDefaultState (ref_gl/gl_rmisc.c) and draws alias models with it on (gl_mesh.c never
# turns it off), culling one side (GL_CULL_FACE): a skin with an alpha channel loses the texels
# at or below 0.666; an RGB skin (every PCX as decoded here) is drawn whole.
MD2_MATERIAL = Material(alpha_test=AlphaTest("gt", 0.666, "Quake II alpha test > 0.666"))

EXPORT_FLOOR = 128 * 2**20
EXPORT_PER_INPUT_BYTE = 32
"""An export's per-frame arrays (positions and normals, float32, for every distinct (vertex,
texcoord) corner of every frame: 24 bytes each) may take max(EXPORT_FLOOR, 32 × the file
size). Every vanilla-limit model fits the floor (512 frames × 12,288 corners is 151 MB only
with 4 KB of triangles per frame...); a file whose triangles pair every vertex with every
texcoord, which multiplies the corners far beyond the vertices, is refused before anything is
allocated."""


def _check_budget(m: Md2Reader, num_frames: int) -> None:
    """Refuse an export of ``num_frames`` frames whose corners × frames would exceed the budget
    above (counted from the triangle list alone, before any per-frame array exists)."""
    corners = len(m._mesh_corners[0])
    need = 24 * corners * num_frames
    budget = max(EXPORT_FLOOR, EXPORT_PER_INPUT_BYTE * len(m.data))
    if need > budget:
        offset = HEADER_OFFSETS["num_triangles"]
        raise LimitExceededError(
            f"exporting {num_frames} frames × {corners} distinct (vertex, texcoord) corners"
            f" needs {need / 2**20:.0f} MiB of positions and normals, over the budget of"
            f" {budget / 2**20:.0f} MiB for a {len(m.data)}-byte file (the triangles at offset"
            f" {m.ofs_triangles} pair {m.num_vertices} vertices with {m.num_texcoords}"
            " texcoords)",
            field="num_triangles",
            offset=offset,
        )


def _lookup_names(m: Md2Reader) -> list[str]:
    """Skin names for the file lookup: the stored bytes up to the NUL as the file system's own
    names (``os.fsdecode``), so that bytes ≥ 0x80 name the file Quake II would open."""
    return [os.fsdecode(raw.split(b"\0", 1)[0]) for raw in m.skins_raw]


def skin_images(m: Md2Reader) -> list[SkinImage | None]:
    """Each stored skin name's picture (see ``Md2.skin_images``), looked up as :func:`scene`
    looks up the skin it exports (through the model's game, as ``registry.scene`` does), one
    name at a time."""
    listings = Listings()  # one directory listing per folder for every name's lookup
    with model_game(m.name):
        return [skin_rgba(find_skin([n], m.name, None, listings)) for n in _lookup_names(m)]


def scene(
    m: Md2Reader,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
) -> ExportModel:
    """An MD2 as one surface; every frame's positions and normals over its unique corners
    (only ``frames``, decoding only those, in that order and without clips, when given; a
    model has at least one frame: the reader refuses a file without)."""
    _check_budget(m, m.num_frames if frames is None else len(frames))
    positions, normals = m.corner_frames(frames)
    mesh = m.mesh(0 if frames is None else frames[0])
    surface = Surface(
        name="mesh",
        positions=positions,
        normals=normals,
        uvs=mesh.uvs,
        indices=mesh.indices,
        skin_names=tuple(m.skins),
        skin=find_skin(_lookup_names(m), m.name, skin_dir),
        material=MD2_MATERIAL,
    )
    return ExportModel(
        name=model_stem(m.name),
        surfaces=[surface],
        clips=dict(m.animations) if frames is None else {},
        source=Path(m.name) if m.name else None,
        frame_names=list(m.frame_names) if frames is None else [m.frame_names[f] for f in frames],
    )
