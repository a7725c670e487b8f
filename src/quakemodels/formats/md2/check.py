"""Engine-compatibility and sanity checks for MD2 models: a list of findings, never an exception.

``check_md2(model_or_bytes, engine=...)`` reports what would stop a model from loading in an
engine, or make it look wrong there, as :class:`Finding` objects (severity, field, byte offset,
message, code). The engines' own load-time checks were read from their source:

* ``quake2`` — id's GL renderer, ``ref_gl/gl_model.c`` ``Mod_LoadAliasModel``: drops a model whose
  skin is taller than 480 (``MAX_LBM_HEIGHT``), or that has no vertices / more than 2048, no
  texcoords, no triangles or no frames. Nothing else is checked: sections are copied into a hunk
  of ``ofs_end`` bytes, skins go into a fixed array of 32, and the renderer draws the GL commands
  and indexes the 162-entry normal table without bounds checks, so those become errors here.
  ``qfiles.h`` limits it does not check (4096 triangles, 512 frames) are warnings.
* ``q2pro`` — ``src/refresh/models.c`` ``MOD_LoadMD2`` / ``MOD_ValidateMD2`` and
  ``inc/format/md2.h``: a model with no triangles, no frames or fewer than 3 vertices or
  texcoords loads as empty; otherwise ≤ 2048 vertices, ≤ 6144 triangles (``TESS_MAX_INDICES``
  / 3), ≤ 512 frames, ≤ 32 skins, 40 + 4·V ≤ framesize ≤ 40 + 4·2048, every section inside the
  file (64-bit sums), ``ofs_tris``/``ofs_st`` 2-aligned and ``ofs_frames``/framesize 4-aligned,
  skin sides 1..8192, skin names NUL-terminated; triangles with an index out of range are dropped
  and at least one must remain; at most 6144 distinct (vertex, texcoord) pairs. GL commands and
  ``ofs_end`` are ignored.
* ``quake3`` loads MD3 only: an MD2 is an error; the format checks still run.
* ``any`` — the format itself: structural problems are errors, the engines' limits warnings
  that name the engine.

Modder pitfalls are warnings in every mode: texcoords outside the skin, degenerate triangles,
unused vertices, ``ofs_end`` not the file size, GL commands whose triangles differ from the
triangle list, overlapping sections, skin files that cannot be found beside the model.
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from ...core.facade import Readable, read_source
from ...core.findings import (
    Finding,
    Report,
    degenerate_triangles,
    non_ascii_names,
    unused_vertices,
)
from ...core.gamepaths import Listings
from ...core.sections import more as _more
from ...core.sections import offset_of, span_error
from ...core.skins import MAX_NAMES, skin_exists
from ...core.trivertx import NUM_ANORMS
from ...errors import ModelFormatError
from .layout import (
    FRAME_HEADER_SIZE,
    FRAME_NAME_OFFSET,
    FRAME_NAME_SIZE,
    HEADER,
    HEADER_FIELDS,
    HEADER_OFFSETS,
    HEADER_SIZE,
    MAGIC,
    NORMAL_INDEX,
    POSITION,
    SKIN_NAME_SIZE,
    TRIANGLE,
    VERSION,
    VERTEX_SIZE,
)
from .limits import Q2PRO, Q2PRO_MAX_TESS_VERTS, Q2PRO_MAX_TEXTURE, VANILLA
from .reader import Md2Reader, gl_corners, spans, walk_gl_commands

# -- header ---------------------------------------------------------------------------------------


def _check_header(r: Report, h: dict[str, int], size: int) -> None:
    """Counts, engine limits, framesize, alignment, section bounds and ofs_end: header only."""
    ofs = HEADER_OFFSETS
    q2, q2pro = VANILLA, Q2PRO
    max_framesize = FRAME_HEADER_SIZE + VERTEX_SIZE * q2pro.max_vertices
    for name in HEADER_FIELDS[2:]:
        if h[name] < 0:
            r.error("negative", name, ofs[name], f"{name}={h[name]} is negative")
    v, st = h["vertices_per_frame"], h["num_tex_coords"]
    t, f = h["num_triangles"], h["num_frames"]
    w, ht, fs = h["skin_width_px"], h["skin_height_px"], h["bytes_per_frame"]

    # Quake II: Mod_LoadAliasModel's ERR_DROPs.
    if r.engine == "quake2":
        if ht > q2.max_skin_height:
            r.error(
                "skin-height",
                "skin_height_px",
                ofs["skin_height_px"],
                f"skin_height_px={ht} is taller than the GL renderer's {q2.max_skin_height}",
            )
        for name, value, what in (
            ("vertices_per_frame", v, "no vertices"),
            ("num_tex_coords", st, "no texcoords"),
            ("num_triangles", t, "no triangles"),
            ("num_frames", f, "no frames"),
        ):
            if value <= 0:
                r.error(
                    "empty",
                    name,
                    ofs[name],
                    f"{name}={value}: Quake II refuses a model with {what}",
                )
    elif r.engine == "any" and ht > q2.max_skin_height:
        r.warning(
            "skin-height",
            "skin_height_px",
            ofs["skin_height_px"],
            f"skin_height_px={ht} is taller than Quake II's GL renderer allows"
            f" ({q2.max_skin_height})",
        )

    # Q2PRO treats these as an empty model that draws nothing.
    q2pro_empty = t < 1 or st < 3 or v < 3 or f < 1
    if r.engine == "q2pro" and q2pro_empty:
        r.warning(
            "empty",
            None,
            None,
            f"Q2PRO loads this as an empty model (triangles={t}, texcoords={st},"
            f" vertices={v}, frames={f}; it needs ≥1, ≥3, ≥3, ≥1)",
        )
    q2pro_validates = r.engine == "q2pro" and not q2pro_empty
    q2pro_names = ("q2pro",) if q2pro_validates else ()

    if v > q2.max_vertices:
        r.limit(
            "too-many-vertices",
            "vertices_per_frame",
            ofs["vertices_per_frame"],
            f"vertices_per_frame={v} exceeds {q2.max_vertices} (Quake II and Q2PRO)",
            engines=("quake2", *q2pro_names),
        )
    if t > q2.max_triangles:
        r.limit(
            "too-many-triangles",
            "num_triangles",
            ofs["num_triangles"],
            f"num_triangles={t} exceeds Quake II's MAX_TRIANGLES {q2.max_triangles}"
            f" (Q2PRO: {q2pro.max_triangles})",
            engines=q2pro_names if t > q2pro.max_triangles else (),
            warn_in=("quake2",),
        )
    if f > q2.max_frames:
        r.limit(
            "too-many-frames",
            "num_frames",
            ofs["num_frames"],
            f"num_frames={f} exceeds MAX_FRAMES {q2.max_frames} (Quake II, Q2PRO)",
            engines=q2pro_names,
            warn_in=("quake2",),
        )
    if h["num_skins"] > q2.max_skins:
        r.limit(
            "too-many-skins",
            "num_skins",
            ofs["num_skins"],
            f"num_skins={h['num_skins']} exceeds {q2.max_skins} (Quake II's fixed skin array"
            " would overflow; Q2PRO refuses it)",
            engines=("quake2", *q2pro_names),
        )
    for name, value in (("skin_width_px", w), ("skin_height_px", ht)):
        if not 1 <= value <= Q2PRO_MAX_TEXTURE:
            r.limit(
                "skin-size",
                name,
                ofs[name],
                f"{name}={value} is outside Q2PRO's 1..{Q2PRO_MAX_TEXTURE}",
                engines=q2pro_names,
            )

    minimum = FRAME_HEADER_SIZE + 4 * v
    if f > 0 and fs < minimum:
        r.error(
            "framesize-small",
            "bytes_per_frame",
            ofs["bytes_per_frame"],
            f"bytes_per_frame={fs} is below 40 + 4 × {v} vertices = {minimum}",
        )
    if fs > max_framesize:
        r.limit(
            "framesize-large",
            "bytes_per_frame",
            ofs["bytes_per_frame"],
            f"bytes_per_frame={fs} exceeds Q2PRO's 40 + 4 × {q2pro.max_vertices} = {max_framesize}",
            engines=q2pro_names,
        )

    # Alignment: Q2PRO reads the sections in place as typed structs.
    for name, align, value in (
        ("ofs_triangles", 2, h["ofs_triangles"]),
        ("ofs_tex_coords", 2, h["ofs_tex_coords"]),
        ("ofs_frames", 4, h["ofs_frames"]),
        ("bytes_per_frame", 4, fs),
    ):
        if value % align:
            r.limit(
                "alignment",
                name,
                ofs[name],
                f"{name}={value} is not a multiple of {align} (Q2PRO refuses it)",
                engines=q2pro_names,
            )

    # Section bounds (Python ints: no overflow) and overlaps.
    covered: list[tuple[int, int, str]] = []
    for span in spans(h):
        if span.count <= 0 or span.rel < 0:
            # Q2PRO bounds-checks the offset even for an empty section.
            if q2pro_validates and span.rel > size and span.ofs_field != "ofs_gl_cmds":
                r.error(
                    "section-past-end",
                    span.ofs_field,
                    span.field_offset,
                    f"{span.ofs_field}={span.rel} is past the end of the file ({size} bytes);"
                    " Q2PRO checks it even with no items",
                )
            continue
        error = span_error(span, size, HEADER_SIZE)
        if error is not None:
            code = "section-past-end" if span.end > size else "section-in-header"
            r.error(code, error.field, error.offset, str(error))
        if span.end > span.start:
            covered.append((span.start, span.end, span.ofs_field))
    covered.sort()
    reach, reach_name = -1, ""
    for start, stop, ofs_name in covered:
        if start < reach:
            r.warning(
                "section-overlap",
                ofs_name,
                start,
                f"{ofs_name}={start} starts inside the section of {reach_name} (ends at {reach})",
            )
        if stop > reach:
            reach, reach_name = stop, ofs_name

    end = h["ofs_end"]
    last = max((c[1] for c in covered), default=HEADER_SIZE)
    if end < last and end >= 0:
        # Quake II allocates ofs_end bytes and copies every section to its own offset in them.
        r.limit(
            "ofs-end-short",
            "ofs_end",
            ofs["ofs_end"],
            f"ofs_end={end} is before the end of the last section ({last}): Quake II copies"
            " the sections into a buffer of ofs_end bytes and overruns it",
            engines=("quake2",),
        )
    if end != size:
        r.warning(
            "ofs-end",
            "ofs_end",
            ofs["ofs_end"],
            f"ofs_end={end} is not the file size {size} (three.js's MD2Loader refuses such files)",
        )
    if r.engine == "quake2" and h["num_gl_cmds"] <= 0 and t > 0:
        r.warning(
            "no-gl-commands",
            "num_gl_cmds",
            ofs["num_gl_cmds"],
            "no GL commands: Quake II's GL renderer draws only GL commands, so nothing is drawn",
        )


# -- sections -------------------------------------------------------------------------------------


def _check_names(r: Report, m: Md2Reader) -> None:
    unterminated = [i for i, raw in enumerate(m.skins_raw) if b"\0" not in raw]
    if unterminated:
        i = unterminated[0]
        r.error(
            "skin-name-unterminated",
            "skins",
            m.ofs_skins + SKIN_NAME_SIZE * i,
            f"skins[{i}] has no NUL within its {SKIN_NAME_SIZE} bytes (Q2PRO refuses it,"
            f" Quake II reads past it){_more(len(unterminated))}",
        )
    if r.engine in ("quake2", "q2pro") and not m.num_skins and not _under_players(m.name):
        # Quake II draws a model without skins with its missing-texture pattern; a player
        # model is the exception: the game gives it players/<model>/<skin>.pcx by name
        r.warning(
            "no-skins",
            "num_skins",
            HEADER_OFFSETS["num_skins"],
            "num_skins=0: the model names no skin, so Quake II draws it with its"
            " missing-texture pattern (a player model under players/ gets its skin by name)",
        )
    empty = [i for i, raw in enumerate(m.skins_raw) if raw[:1] == b"\0"]
    if empty:
        i = empty[0]
        r.warning(
            "skin-name-empty",
            "skins",
            m.ofs_skins + SKIN_NAME_SIZE * i,
            f"skins[{i}] is an empty name{_more(len(empty))}",
        )
    non_ascii_names(
        r,
        m.skins_raw,
        "skin-name-bytes",
        "skins",
        lambda i: m.ofs_skins + SKIN_NAME_SIZE * i,
        lambda i: f"skins[{i}]",
        "a game file system lookup (pak and zip names, case folded as ASCII) may not find it",
    )
    if m.num_frames:
        raws = m.frame_names_raw
        bad = [i for i, raw in enumerate(raws) if b"\0" not in raw]
        if bad:
            i = bad[0]
            r.warning(
                "frame-name-unterminated",
                "name",
                m.ofs_frames + m.framesize * i + FRAME_NAME_OFFSET,
                f"frames[{i}].name has no NUL within its {FRAME_NAME_SIZE} bytes{_more(len(bad))}",
            )


def _under_players(name: str | None) -> bool:
    """Whether the model's path has a folder named ``players`` (a Quake II player model)."""
    parts = os.path.normpath(name).replace("\\", "/").lower().split("/") if name else []
    return "players" in parts[:-1]


def _triangle_records(m: Md2Reader) -> npt.NDArray[np.int32]:
    """(T,6) int32: the reader's raw triangle records (3 vertex then 3 texcoord indices),
    unchecked: the checker reports the ranges."""
    rec = m.triangle_records
    return np.concatenate(
        [rec["vertex_indices"].reshape(-1, 3), rec["tex_point_indices"].reshape(-1, 3)], axis=1
    ).astype(np.int32)


def _check_triangles(r: Report, m: Md2Reader) -> npt.NDArray[np.bool_]:
    """Index ranges and degenerate triangles; returns which triangles have valid indices."""
    rec = _triangle_records(m)
    valid = np.ones(len(rec), dtype=bool)
    for cols, limit, field, what in (
        (slice(0, 3), m.num_vertices, "vertex_indices", "vertices"),
        (slice(3, 6), m.num_texcoords, "tex_point_indices", "texcoords"),
    ):
        at = offset_of(TRIANGLE, field)
        values = rec[:, cols]
        bad = (values < 0) | (values >= limit)
        valid &= ~bad.any(axis=1)
        flat = np.flatnonzero(bad)
        if flat.size:
            tri, corner = divmod(int(flat[0]), 3)
            offset = m.ofs_triangles + TRIANGLE.itemsize * tri + at + 2 * corner
            code = "vertex-index" if field == "vertex_indices" else "texcoord-index"
            r.limit(
                code,
                field,
                offset,
                f"triangles[{tri}].{field}[{corner}]={int(values.flat[flat[0]])} is outside"
                f" 0..{limit - 1} ({limit} {what}; Q2PRO drops such triangles)"
                f"{_more(flat.size)}",
                engines=("quake2", "quake3", "any"),
                warn_in=("q2pro",),
            )
    if r.engine == "q2pro" and len(rec) and not valid.any():
        r.error(
            "no-valid-triangles",
            "num_triangles",
            HEADER_OFFSETS["num_triangles"],
            "no triangle has all its indices in range: Q2PRO refuses the model",
        )
    degenerate_triangles(
        r,
        rec[:, :3],
        "vertex_indices",
        lambda i: (m.ofs_triangles + TRIANGLE.itemsize * i, f"triangles[{i}]"),
    )
    if r.engine == "q2pro" and valid.any():
        # Q2PRO merges corners with equal vertex and equal (s, t) values, then caps the count.
        st = m.texcoords_px
        good = rec[valid]
        corners_v = good[:, :3].reshape(-1).astype(np.int64)
        corners_st = st[good[:, 3:].reshape(-1)].astype(np.int64) & 0xFFFF
        keys = (corners_v << 32) | (corners_st[:, 0] << 16) | corners_st[:, 1]
        unique = int(np.unique(keys).size)
        if unique > Q2PRO_MAX_TESS_VERTS:
            r.error(
                "too-many-unique-vertices",
                "num_triangles",
                HEADER_OFFSETS["num_triangles"],
                f"{unique} distinct (vertex, texcoord) corners exceed Q2PRO's"
                f" TESS_MAX_VERTICES {Q2PRO_MAX_TESS_VERTS}",
            )
    return valid


def _check_position_range(r: Report, m: Md2Reader) -> None:
    """Finite scales and translates whose vertices decode past float32's range (byte x scale
    + translate above 3.4e38): the engine's float math gives infinity there."""
    positions = m.positions  # (F,V,3) float32, inf where the decode overflowed
    over = np.logical_not(np.isfinite(positions).all(axis=1, keepdims=False))  # (F,3)
    bad_frames = np.flatnonzero(over.any(axis=1))
    if not bad_frames.size:
        return
    f = int(bad_frames[0])
    axis = int(np.flatnonzero(over[f])[0])
    scale, translate = float(m.scales[f, axis]), float(m.translates[f, axis])
    r.error(
        "non-finite",
        "scale",
        m.ofs_frames + f * m.framesize + offset_of(m.frame_records.dtype, "scale") + 4 * axis,
        f"frames[{f}].scale[{axis}]={scale:g} with translate[{axis}]={translate:g}: vertices"
        f" decode past float32's range (to infinity){_more(bad_frames.size)}",
    )


def _check_geometry(r: Report, m: Md2Reader, valid: npt.NDArray[np.bool_]) -> None:
    """Normal indices, unused vertices and triangles of zero area in every frame."""
    if not m.num_frames or not m.num_vertices:
        return
    prefix = m.frame_records.dtype
    finite_fields = True
    for field, values in (("scale", m.scales), ("translate", m.translates)):
        at = offset_of(prefix, field)
        bad_frames = np.flatnonzero(~np.isfinite(values).all(axis=1))
        if bad_frames.size:
            finite_fields = False
            f = int(bad_frames[0])
            axis = int(np.flatnonzero(~np.isfinite(values[f]))[0])
            r.error(
                "non-finite",
                field,
                m.ofs_frames + f * m.framesize + at + 4 * axis,
                f"frames[{f}].{field}[{axis}]={float(values[f, axis])} is not a finite number:"
                f" the frame's vertices are not either{_more(bad_frames.size)}",
            )
    if finite_fields:
        _check_position_range(r, m)
    normals = m.normal_indices
    bad = np.flatnonzero(normals >= NUM_ANORMS)
    if bad.size:
        frame, vertex = divmod(int(bad[0]), m.num_vertices)
        offset = (
            m.ofs_frames
            + frame * m.framesize
            + FRAME_HEADER_SIZE
            + VERTEX_SIZE * vertex
            + NORMAL_INDEX
        )
        r.limit(
            "normal-index",
            "normal_index",
            offset,
            f"frames[{frame}].vertices[{vertex}].normal_index={int(normals.flat[bad[0]])} is"
            f" not below {NUM_ANORMS} (Quake II reads past its normal table; Q2PRO uses a zero"
            f" normal){_more(bad.size)}",
            engines=("quake2", "quake3", "any"),
            warn_in=("q2pro",),
        )
    rec = _triangle_records(m)[valid]
    unused_vertices(
        r,
        rec[:, :3],
        m.num_vertices,
        lambda i: (m.ofs_frames + FRAME_HEADER_SIZE + VERTEX_SIZE * i, f"vertex {i}"),
    )
    if rec.size:
        _zero_area(r, m, rec, valid)


ZERO_AREA_MIN_TESTS = 1 << 20
ZERO_AREA_TESTS_PER_BYTE = 4
"""The zero-area test does at most max(2**20, 4 × file size) triangle-frame tests (a few ms
per MB): distinct triangles × distinct frames, and when a file has more than that, frames
evenly spread over the animation, with the number tested stated in the finding."""
ZERO_AREA_CHUNK_MIN = 1 << 12  # triangle-frames tested at once, at the least


def _zero_area(
    r: Report, m: Md2Reader, rec: npt.NDArray[np.int32], valid: npt.NDArray[np.bool_]
) -> None:
    """Triangles of zero area in every frame, on the compressed integer coordinates (exact:
    int32 holds every cross product of differences within ±255). Each distinct triangle
    (sorted indices) and each distinct frame is tested once."""
    s = np.sort(rec[:, :3].astype(np.int64), axis=1)
    proper = np.flatnonzero((s[:, 0] != s[:, 1]) & (s[:, 1] != s[:, 2]))
    if not proper.size:
        return
    # Distinct triangles by one int64 key per sorted triple (valid indices come from int16
    # fields, so three fit in 45 bits): keys sort in the rows' lexicographic order, as
    # np.unique(axis=0) gives, many times faster than its sort of void rows.
    width = max(int(s[proper].max()) + 1, 1)
    key = (s[proper, 0] * width + s[proper, 1]) * width + s[proper, 2]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    tris = s[proper][first]
    inverse = inverse.reshape(-1)
    xyz = m.frame_records["vertices"][:, :, POSITION]  # (F,V,3) uint8 compressed positions
    rows = np.ascontiguousarray(xyz).reshape(m.num_frames, -1)
    frames = np.unique(
        rows.view(np.dtype((np.void, rows.shape[1]))).reshape(-1), return_index=True
    )[1]
    frames.sort()
    budget = max(ZERO_AREA_MIN_TESTS, ZERO_AREA_TESTS_PER_BYTE * len(m.data))
    sampled = len(tris) * len(frames) > budget
    if sampled:
        keep = max(1, budget // len(tris))
        frames = frames[np.unique(np.linspace(0, len(frames) - 1, keep).astype(np.int64))]
    flat = np.ones(len(tris), dtype=bool)
    start = 0
    while start < len(frames):
        cand = np.flatnonzero(flat)  # only triangles flat in every frame so far
        if not cand.size:
            break
        # A triangle-frame's temporaries (corners, differences, cross product) take about 80
        # bytes: chunks of (file size / 16) of them, 4096 at least, keep the peak to ~5x the
        # input, within the checker's memory budget (fuzz/README.md) on any file.
        per_chunk = max(ZERO_AREA_CHUNK_MIN, len(m.data) // 16) // cand.size
        chunk = frames[start : start + max(1, per_chunk)]
        p = xyz[chunk].astype(np.int32)
        t = tris[cand]
        a = p[:, t[:, 0]]
        cross = np.cross(p[:, t[:, 1]] - a, p[:, t[:, 2]] - a)
        flat[cand[(cross != 0).any(axis=(0, 2))]] = False
        start += len(chunk)
    zero = proper[flat[inverse]]
    if zero.size:
        i = int(np.flatnonzero(valid)[zero[0]])
        tested = (
            f" one of the {len(frames)} frames tested (spread over {m.num_frames}: the test is"
            f" bounded to {budget} triangle-frame tests)"
            if sampled
            else " frame"
        )
        r.warning(
            "zero-area-triangle",
            "vertex_indices",
            m.ofs_triangles + TRIANGLE.itemsize * i,
            f"triangles[{i}] has zero area in every{tested}{_more(zero.size)}",
        )


def _check_texcoords(r: Report, m: Md2Reader) -> None:
    if not m.num_texcoords:
        return
    st = m.texcoords_px
    outside = np.flatnonzero(
        (st[:, 0] < 0) | (st[:, 0] > m.skin_width) | (st[:, 1] < 0) | (st[:, 1] > m.skin_height)
    )
    if outside.size:
        i = int(outside[0])
        r.warning(
            "texcoord-outside-skin",
            "tex_coords",
            m.ofs_texcoords + 4 * i,  # a tex_point is 4 bytes
            f"texcoords[{i}]=({int(st[i, 0])}, {int(st[i, 1])}) lies outside the"
            f" {m.skin_width}x{m.skin_height} skin{_more(outside.size)}",
        )


_KEY_BITS = 21  # three indices below 2**21 pack into one int64 key


def _unique_triangles(tris: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Unique sorted index triples (winding ignored), degenerate ones out, as int64 keys.

    Indices are ≥ 0 here. Below 2**21 (every model with frames) a triple packs into one int64,
    so sorting keys replaces the much slower row-wise unique; larger ones fall back to it.
    """
    t = np.sort(tris.reshape(-1, 3), axis=1)
    t = t[(t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2])]
    if not len(t):
        return np.zeros((0, 3), np.int64)
    if int(t[:, 2].max()) < 1 << _KEY_BITS:
        keys = np.unique((t[:, 0] << 2 * _KEY_BITS) | (t[:, 1] << _KEY_BITS) | t[:, 2])
        mask = (1 << _KEY_BITS) - 1
        return np.stack([keys >> 2 * _KEY_BITS, (keys >> _KEY_BITS) & mask, keys & mask], 1)
    return np.unique(t, axis=0)


def _contains(
    sorted_keys: npt.NDArray[np.int64], keys: npt.NDArray[np.int64]
) -> npt.NDArray[np.bool_]:
    """Which ``keys`` occur in ``sorted_keys`` (binary search; np.isin can be far slower)."""
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return np.asarray(sorted_keys[at] == keys)


def _set_difference(
    a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rows only in ``a`` and rows only in ``b`` (both unique and sorted)."""
    both = np.concatenate([a, b])
    if not len(both):
        return a, b
    if int(both.max()) < 1 << _KEY_BITS:
        ka = (a[:, 0] << 2 * _KEY_BITS) | (a[:, 1] << _KEY_BITS) | a[:, 2]
        kb = (b[:, 0] << 2 * _KEY_BITS) | (b[:, 1] << _KEY_BITS) | b[:, 2]
        return a[~_contains(kb, ka)], b[~_contains(ka, kb)]
    _, inverse, counts = np.unique(both, axis=0, return_inverse=True, return_counts=True)
    once = counts[inverse.reshape(-1)] == 1
    return a[once[: len(a)]], b[once[len(a) :]]


def _gl_triangles(
    idx: npt.NDArray[np.int64],
    first: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    fans: npt.NDArray[np.bool_],
) -> npt.NDArray[np.int64]:
    """(N,3) triangles of strips and fans; ``idx`` holds every command's corners in order,
    command k's from ``first[k]`` on."""
    ntri = np.maximum(lengths - 2, 0)
    total = int(ntri.sum())
    if total == 0:
        return np.zeros((0, 3), np.int64)
    ends = np.cumsum(ntri)
    j = np.arange(total, dtype=np.int64) - np.repeat(ends - ntri, ntri)  # triangle within command
    s = np.repeat(first, ntri)
    a = np.where(np.repeat(fans, ntri), s, s + j)
    return np.stack([idx[a], idx[s + j + 1], idx[s + j + 2]], axis=1)


def _check_gl_commands(r: Report, m: Md2Reader, valid: npt.NDArray[np.bool_]) -> None:
    """Walk the GL commands tolerantly and compare their triangles with the triangle list."""
    n = m.num_gl_dwords
    if n <= 0:
        return
    words = m.gl_dwords
    base = m.ofs_gl_commands
    severe = ("quake2", "quake3", "any")
    walk = walk_gl_commands(words)
    if walk.cut is not None:
        pos = walk.cut
        length = abs(words.item(pos))
        r.limit(
            "gl-truncated",
            "gl_cmds",
            base + 4 * pos,
            f"GL command at offset {base + 4 * pos} has {length} vertices but only"
            f" {(n - pos - 1) // 3} fit in num_gl_cmds={n} dwords",
            engines=severe,
            warn_in=("q2pro",),
        )
    elif not walk.terminated:
        r.limit(
            "gl-unterminated",
            "gl_cmds",
            base + 4 * n,
            f"no terminating zero within num_gl_cmds={n} dwords (Quake II draws on past the end)",
            engines=severe,
            warn_in=("q2pro",),
        )
    if not walk.starts:
        return
    start_at = np.asarray(walk.starts, np.int64)
    counts, lens, ends, corner_at = gl_corners(words, walk.starts)
    at = corner_at + 2
    idx = words[at].astype(np.int64)
    bad = np.flatnonzero((idx < 0) | (idx >= m.num_vertices))
    if bad.size:
        k = int(bad[0])
        r.limit(
            "gl-vertex-index",
            "vertex_index",
            base + 4 * int(at[k]),
            f"GL command vertex_index={int(idx[k])} is outside 0..{m.num_vertices - 1}"
            f"{_more(bad.size)}",
            engines=severe,
            warn_in=("q2pro",),
        )
    short = np.flatnonzero(lens < 3)
    if short.size:
        r.warning(
            "gl-short-command",
            "gl_cmds",
            base + 4 * int(start_at[short[0]]),
            f"GL command with fewer than 3 vertices draws nothing{_more(short.size)}",
        )
    if bad.size:
        return  # the comparison would only repeat the index problem
    drawn = _unique_triangles(_gl_triangles(idx, ends - lens, lens, counts < 0))
    listed = _unique_triangles(_triangle_records(m)[valid][:, :3].astype(np.int64))
    missing, extra = _set_difference(listed, drawn)
    if len(missing) or len(extra):
        parts = []
        if len(missing):
            e = tuple(int(x) for x in missing[0])
            parts.append(f"{len(missing)} listed triangles (e.g. {e}) are not drawn")
        if len(extra):
            e = tuple(int(x) for x in extra[0])
            parts.append(f"{len(extra)} drawn triangles (e.g. {e}) are not listed")
        r.warning(
            "gl-mismatch",
            "gl_cmds",
            base,
            "GL commands disagree with the triangle list: "
            + "; ".join(parts)
            + " (Quake II's GL renderer draws the GL commands, Q2PRO the triangles)",
        )


# -- skins ----------------------------------------------------------------------------------------


def _check_skin_files(r: Report, m: Md2Reader) -> None:
    """A warning for each skin with no image beside the model. Each distinct name is looked
    up once and each folder listed once; a file naming thousands of skins (the engines keep
    32) has its first MAX_NAMES distinct names looked up."""
    if not m.name or not m.num_skins:
        return
    folder = os.path.dirname(m.name) or "."
    listings = Listings()
    found: dict[str, bool] = {}
    for i, raw in enumerate(m.skins_raw):
        name = raw.split(b"\0", 1)[0].decode("latin-1")
        if not name:
            continue
        if name not in found:
            if len(found) == MAX_NAMES:
                break
            found[name] = skin_exists(m.name, name, listings)
        if not found[name]:
            r.warning(
                "skin-missing",
                "skins",
                m.ofs_skins + SKIN_NAME_SIZE * i,
                f"skins[{i}]={name!r}: no such image beside the model in {folder}",
            )


# -- entry point ----------------------------------------------------------------------------------


def check_md2(
    source: Md2Reader | Readable, engine: str = "any", *, name: str | None = None
) -> list[Finding]:
    """Findings for one MD2 model (a loaded model, its bytes, a path or a binary file), for
    ``engine``.

    Works on files the reader refuses to open (its ModelFormatError becomes an error finding)
    and never raises on any input; ``name`` (a path) enables the skin-file lookup for bytes.
    An unknown ``engine`` is a caller's mistake and raises ValueError.
    """
    r = Report(engine)
    model = source if isinstance(source, Md2Reader) else None
    try:
        data, source_name = (model.data, model.name) if model else read_source(source)  # type: ignore[arg-type]
    except OSError as e:
        r.error("io", None, None, f"cannot read {source!s}: {e.strerror or e}")
        return r.findings
    return r.run(lambda r: _check(r, data, name or source_name, model))


def _check(r: Report, data: bytes, name: str | None, model: Md2Reader | None) -> None:
    if r.engine == "quake3" and data[:4] == MAGIC:
        r.error("engine-format", "magic", 0, "Quake III loads MD3 models, not MD2")
    if r.engine in ("quake", "quakespasm") and data[:4] == MAGIC:
        r.error("engine-format", "magic", 0, "Quake and QuakeSpasm load MDL models, not MD2")
    size = len(data)
    if size < HEADER_SIZE or data[:4] != MAGIC or data[4:8] != VERSION.to_bytes(4, "little"):
        try:
            Md2Reader(data, name=name)
        except ModelFormatError as e:
            r.from_error(e)
        return
    raw = np.frombuffer(data, HEADER, 1)[0]
    header = {field: int(raw[field]) for field in HEADER_FIELDS[1:]}
    _check_header(r, header, size)
    if model is None or (name and not model.name):
        try:
            model = Md2Reader(data, name=name)
        except ModelFormatError as e:
            r.from_error(e)
            return
    # The layout is valid from here on: every section lies inside the data.
    m = model
    r.guarded(lambda m: _check_names(r, m), m)
    r.guarded(lambda m: _check_texcoords(r, m), m)
    valid_box: list[npt.NDArray[np.bool_]] = []
    r.guarded(lambda m: valid_box.append(_check_triangles(r, m)), m)
    if valid_box:
        valid = valid_box[0]
        r.guarded(lambda m: _check_geometry(r, m, valid), m)
        r.guarded(lambda m: _check_gl_commands(r, m, valid), m)
    r.guarded(lambda m: _check_skin_files(r, m), m)
