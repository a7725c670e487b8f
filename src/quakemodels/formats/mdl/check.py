"""Engine-compatibility and sanity checks for Quake 1 MDL models: findings, never an exception.

The engines' load-time rules were read from their source:

* ``quake`` — id's Quake: ``WinQuake/gl_model.c`` (GLQuake) and ``WinQuake/model.c`` (the
  software renderer) ``Mod_LoadAliasModel``. Both refuse a skin taller than 480 pixels
  (``MAX_LBM_HEIGHT``), no vertices, no triangles, no frames; GLQuake refuses more than 1024
  vertices (``MAXALIASVERTS``) and a skin count outside 1..32 (``MAX_SKINS``); the software
  renderer refuses a skin width that is not a multiple of 4 and a frame or skin group interval
  <= 0. Neither checks the fixed arrays it fills: more than 2048 triangles (``MAXALIASTRIS``) or
  256 poses (``MAXALIASFRAMES``) overrun them, and the renderers index vertices and the
  162-entry normal table without bounds checks: errors here.
* ``quakespasm`` — QuakeSpasm (``Quake/gl_model.c``, ``Quake/gl_model.h``): at most 2000
  vertices, 4096 triangles, 256 poses, 1..32 skins; a skin taller than 480 is only a developer
  warning.
* ``any`` — the format itself: structural problems are errors, the engines' limits warnings
  that name the engine.

Warnings in every mode: on-seam flags other than 0 and 0x20 (GLQuake tests for non-zero, the
software renderer for the 0x20 bit), seam vertices that a back-facing triangle moves off the
skin, texcoords outside the skin, degenerate triangles, unused vertices, frame group intervals
that do not increase (the software renderer reads them as end times), data after the model.
"""

from __future__ import annotations

import numpy as np

from ...core.facade import Readable, read_source
from ...core.findings import Finding, Report
from ...core.sections import offset_of
from ...core.trivertx import NUM_ANORMS
from ...errors import ModelFormatError
from .layout import (
    HEADER_OFFSETS,
    NORMAL_INDEX,
    ONSEAM,
    POSE_HEADER_SIZE,
    TEXCOORD,
    TRIANGLE,
    TYPE_SIZE,
    VERTEX,
)
from .limits import ENGINES, VANILLA
from .reader import MdlReader

OTHER_FORMATS = {
    "quake2": "Quake II loads MD2",
    "q2pro": "Q2PRO loads MD2 and MD3",
    "quake3": "Quake III loads MD3",
}


def _limit(r: Report, engine: str, code: str, field: str, offset: int | None, msg: str) -> None:
    """An engine's limit: an error for that engine, a warning naming it under 'any'."""
    r.limit(code, field, offset, f"{msg} ({engine})", engines=(engine,))


def _check_header(r: Report, m: MdlReader) -> None:
    ofs = HEADER_OFFSETS
    for field, value, what in (
        ("num_verts", m.num_vertices, "no vertices"),
        ("num_tris", m.num_triangles, "no triangles"),
        ("num_frames", m.num_header_frames, "no frames"),
        ("num_skins", m.num_skins, "no skins"),
    ):
        if value <= 0:
            r.error("empty", field, ofs[field], f"{field}={value}: the model has {what}")
    for field in ("scale", "origin"):
        values = np.array(m.header[field], np.float64)
        if not np.all(np.isfinite(values)) or np.any(255 * np.abs(values) > 3e38):
            r.error(
                "not-finite",
                field,
                ofs[field],
                f"{field}={tuple(values.tolist())}: vertices decode to values that are not"
                " finite in float32",
            )
    for engine, lim in ENGINES.items():
        max_v, max_t, max_p = lim.max_vertices, lim.max_triangles, lim.max_poses
        if m.num_vertices > max_v:
            _limit(
                r,
                engine,
                "vertices",
                "num_verts",
                ofs["num_verts"],
                f"num_verts={m.num_vertices} is above {max_v}",
            )
        if m.num_triangles > max_t:
            _limit(
                r,
                engine,
                "triangles",
                "num_tris",
                ofs["num_tris"],
                f"num_tris={m.num_triangles} is above {max_t}",
            )
        if m.num_poses > max_p:
            _limit(
                r,
                engine,
                "poses",
                "num_frames",
                ofs["num_frames"],
                f"{m.num_poses} poses are above {max_p} (MAXALIASFRAMES)",
            )
        if m.num_skins > lim.max_skins:
            _limit(
                r,
                engine,
                "skins",
                "num_skins",
                ofs["num_skins"],
                f"num_skins={m.num_skins} is above {lim.max_skins}",
            )
    quake = VANILLA
    if m.skin_height > quake.max_skin_height:
        r.limit(
            "skin-height",
            "skin_height",
            ofs["skin_height"],
            f"skin_height={m.skin_height} is taller than {quake.max_skin_height} (quake)",
            engines=("quake",),
            warn_in=("quakespasm",),
        )
    if m.skin_width % quake.skin_width_multiple:
        r.limit(
            "skin-width",
            "skin_width",
            ofs["skin_width"],
            f"skin_width={m.skin_width} is not a multiple of {quake.skin_width_multiple} (quake,"
            " software renderer)",
            engines=("quake",),
        )
    if m.synctype not in (0, 1):
        r.warning(
            "synctype",
            "synctype",
            ofs["synctype"],
            f"synctype={m.synctype} is neither 0 (ST_SYNC) nor 1 (ST_RAND)",
        )
    if m.trailer:
        kind = " (a Quake ME QMEX block)" if m.trailer[:4] == b"QMEX" else ""
        r.warning(
            "trailing-data",
            None,
            m.ofs_end,
            f"{len(m.trailer)} bytes after the model data{kind}; engines ignore them",
        )


def _check_groups(r: Report, m: MdlReader) -> None:
    for kind, groups in (("frames", m.frame_groups), ("skins", m.skin_groups)):
        for g in groups:
            if g.intervals is None:
                continue
            if len(g.intervals) == 0:
                r.error(
                    "empty-group",
                    "num_time" if kind == "frames" else "num_frames",
                    g.offset + TYPE_SIZE,
                    f"{kind}[{g.index}] is a group of nothing (GLQuake divides by its pose count)",
                )
                continue
            if np.any(g.intervals <= 0) or not np.all(np.isfinite(g.intervals)):
                r.limit(
                    "interval",
                    "time" if kind == "frames" else "frame_times",
                    g.offset + 2 * TYPE_SIZE,
                    f"{kind}[{g.index}] has an interval <= 0 or not finite:"
                    f" {g.intervals.tolist()} (quake, software renderer)",
                    engines=("quake",),
                )
            elif np.any(np.diff(g.intervals) <= 0):
                r.warning(
                    "interval-order",
                    None,
                    g.offset,
                    f"{kind}[{g.index}] intervals do not increase: the software renderer"
                    " reads them as the times each image ends",
                )


def _check_geometry(r: Report, m: MdlReader) -> None:
    tris = m.triangles  # raises a ModelFormatError (a finding) on a bad index
    idx = m.normal_indices
    bad = np.flatnonzero(idx >= NUM_ANORMS)
    if bad.size:
        pose, vertex = divmod(int(bad[0]), max(m.num_vertices, 1))
        offset = m.pose_offsets[pose] + POSE_HEADER_SIZE + VERTEX.itemsize * vertex + NORMAL_INDEX
        r.error(
            "normal-index",
            "normal_index",
            offset,
            f"normal_index={int(idx.flat[bad[0]])} is not below {NUM_ANORMS} ({bad.size} vertices)",
        )
    degenerate = (
        (tris[:, 0] == tris[:, 1]) | (tris[:, 1] == tris[:, 2]) | (tris[:, 0] == tris[:, 2])
    )
    if degenerate.any():
        t = int(np.flatnonzero(degenerate)[0])
        r.warning(
            "degenerate",
            "vertices",
            m.ofs_triangles + TRIANGLE.itemsize * t + offset_of(TRIANGLE, "vertices"),
            f"triangles[{t}] repeats a vertex ({int(degenerate.sum())} such triangles)",
        )
    unused = np.setdiff1d(np.arange(m.num_vertices), tris.reshape(-1))
    if unused.size:
        r.warning(
            "unused-vertex",
            None,
            None,
            f"{unused.size} vertices are used by no triangle (first: {int(unused[0])})",
        )


def _check_texcoords(r: Report, m: MdlReader) -> None:
    v = m.num_vertices
    seam = m.on_seam
    odd = np.flatnonzero((seam != 0) & (seam != ONSEAM))
    if odd.size:
        k = int(odd[0])
        r.warning(
            "on-seam",
            "on_seam",
            m.ofs_texcoords + TEXCOORD.itemsize * k,
            f"texture_coordinates[{k}].on_seam={int(seam[k])} is neither 0 nor 0x20:"
            " GLQuake treats it as on the seam, the software renderer as not"
            f" ({odd.size} such vertices)",
        )
    used = np.unique(m.triangle_texcoords)
    px = m.texcoords_px[used]
    w, h = m.skin_width, m.skin_height
    outside = (px[:, 0] < 0) | (px[:, 0] > w) | (px[:, 1] < 0) | (px[:, 1] > h)
    if outside.any():
        row = int(used[np.flatnonzero(outside)[0]])
        k = row % max(v, 1)
        moved = " after the seam shift (s + skin_width // 2)" if row >= v else ""
        r.warning(
            "texcoord-range",
            "s",
            m.ofs_texcoords + TEXCOORD.itemsize * k + offset_of(TEXCOORD, "s"),
            f"texture_coordinates[{k}] = {m.texcoords_px[row].tolist()} lies outside the"
            f" {w} x {h} skin{moved} ({int(outside.sum())} such corners)",
        )


def _check_skins(r: Report, m: MdlReader) -> None:
    """One warning for the skin images that are palette index 0 everywhere: a blank skin
    (what a converter wrote without an image), which Quake draws black. A skin of one other
    colour is left alone: a flat-coloured model may mean it."""
    if m.num_skin_images <= 0 or m.skin_width <= 0 or m.skin_height <= 0:
        return
    blank = np.flatnonzero(~m.skin_indices.reshape(m.num_skin_images, -1).any(axis=1))
    if blank.size:
        more = f" (and {blank.size - 1} more skin images)" if blank.size > 1 else ""
        r.warning(
            "skin-blank",
            "skins",
            None,
            f"skin image {int(blank[0])} is palette index 0 everywhere{more}: a blank skin,"
            " which Quake draws black",
        )


def check_mdl(
    source: MdlReader | Readable, engine: str = "any", *, name: str | None = None
) -> list[Finding]:
    """Findings for one MDL (a loaded model, its bytes, a path or a binary file) for ``engine``
    ('quake', 'quakespasm' or 'any'; the MD2/MD3 engines report that they load no MDL).

    A file the reader cannot open gives its ModelFormatError as an error finding; never raises
    on any input. An unknown ``engine`` is a caller's mistake and raises ValueError.
    """
    r = Report(engine)
    model = source if isinstance(source, MdlReader) else None
    try:
        data, source_name = (model.data, model.name) if model else read_source(source)  # type: ignore[arg-type]
    except (OSError, TypeError) as e:
        r.error("io", None, None, f"cannot read {source!s}: {e}")
        return r.findings
    return r.run(lambda r: _check(r, data, name or source_name, model))


def _check(r: Report, data: bytes, name: str | None, model: MdlReader | None) -> None:
    if r.engine in OTHER_FORMATS:
        r.error("engine-format", "ident", 0, f"{OTHER_FORMATS[r.engine]} models, not MDL")
    if model is None:
        try:
            model = MdlReader(data, name=name)
        except ModelFormatError as e:
            r.from_error(e)
            return
    m = model
    r.guarded(lambda m: _check_header(r, m), m)
    r.guarded(lambda m: _check_groups(r, m), m)
    r.guarded(lambda m: _check_geometry(r, m), m)
    r.guarded(lambda m: _check_texcoords(r, m), m)
    r.guarded(lambda m: _check_skins(r, m), m)
