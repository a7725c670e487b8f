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
import struct
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .errors import (
    BadMagicError,
    BadVersionError,
    ModelFormatError,
    TruncatedError,
)
from .md2 import (
    FRAME_HEADER_SIZE,
    FRAME_NAME_SIZE,
    HEADER_FIELDS,
    HEADER_OFFSETS,
    HEADER_SIZE,
    MAGIC,
    NUM_ANORMS,
    SKIN_NAME_SIZE,
    VERSION,
    Md2,
)
from .skins import candidates

Severity = Literal["error", "warning"]
ENGINES = ("quake2", "q2pro", "quake3", "any")

# Quake II (qfiles.h / ref_gl): the GL renderer checks only the first three at load.
Q2_MAX_VERTS = 2048
Q2_MAX_SKIN_HEIGHT = 480  # MAX_LBM_HEIGHT
Q2_MAX_TRIANGLES = 4096
Q2_MAX_FRAMES = 512
Q2_MAX_SKINS = 32  # MAX_MD2SKINS: model_t.skins is a fixed array
# Q2PRO (inc/format/md2.h, src/refresh/gl.h, src/refresh/images.h).
Q2PRO_MAX_VERTS = 2048
Q2PRO_MAX_TRIANGLES = 6144  # TESS_MAX_INDICES / 3
Q2PRO_MAX_TESS_VERTS = 6144  # TESS_MAX_VERTICES, after merging equal (vertex, st) pairs
Q2PRO_MAX_FRAMES = 512
Q2PRO_MAX_SKINS = 32
Q2PRO_MAX_TEXTURE = 8192
Q2PRO_MAX_FRAMESIZE = FRAME_HEADER_SIZE + 4 * Q2PRO_MAX_VERTS

_HEADER = struct.Struct("<4s16i")
_SKIN_EXTENSIONS = (".pcx", ".tga", ".png", ".jpg", ".jpeg", ".bmp", ".wal")


@dataclass(frozen=True)
class Finding:
    """One problem: ``severity`` 'error' (will not load / undefined behaviour) or 'warning'.

    ``field`` is the spec's name of the field at fault and ``offset`` its absolute byte offset
    (either may be ``None``); ``code`` is a stable identifier such as ``'skin-height'``.
    """

    severity: Severity
    field: str | None
    offset: int | None
    message: str
    code: str

    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict."""
        return asdict(self)

    def __str__(self) -> str:
        where = ""
        if self.field is not None:
            where += f" {self.field}"
        if self.offset is not None:
            where += f" @{self.offset}"
        return f"{self.severity}[{self.code}]{where}: {self.message}"


_ERROR_CODES: tuple[tuple[type[ModelFormatError], str], ...] = (
    (BadMagicError, "bad-magic"),
    (BadVersionError, "bad-version"),
    (TruncatedError, "truncated"),
)


def finding_from_error(error: ModelFormatError) -> Finding:
    """An error finding carrying a ModelFormatError's field, offset and message."""
    code = next((c for cls, c in _ERROR_CODES if isinstance(error, cls)), "bad-value")
    return Finding("error", error.field, error.offset, str(error), code)


class _Report:
    """Collects findings; ``engine`` decides how engine-specific problems are graded."""

    def __init__(self, engine: str) -> None:
        self.engine = engine
        self.findings: list[Finding] = []

    def add(
        self, severity: Severity, code: str, field: str | None, offset: int | None, message: str
    ) -> None:
        self.findings.append(Finding(severity, field, offset, message, code))

    def error(self, code: str, field: str | None, offset: int | None, message: str) -> None:
        self.add("error", code, field, offset, message)

    def warning(self, code: str, field: str | None, offset: int | None, message: str) -> None:
        self.add("warning", code, field, offset, message)

    def limit(
        self,
        code: str,
        field: str | None,
        offset: int | None,
        message: str,
        *,
        engines: Iterable[str],
        warn_in: Iterable[str] = (),
    ) -> None:
        """An engine limit: an error in ``engines``, a warning in ``warn_in`` and in 'any'."""
        engines = tuple(engines)
        if self.engine in engines:
            self.error(code, field, offset, message)
        elif self.engine in tuple(warn_in) or self.engine == "any":
            self.warning(code, field, offset, message)

    def has(self, field: str | None, offset: int | None) -> bool:
        return any(
            f.severity == "error" and f.field == field and f.offset == offset for f in self.findings
        )


def _more(count: int) -> str:
    return f" ({count - 1} more)" if count > 1 else ""


# -- header ---------------------------------------------------------------------------------------


def _check_header(r: _Report, h: dict[str, int], size: int) -> None:
    """Counts, engine limits, framesize, alignment, section bounds and ofs_end: header only."""
    ofs = HEADER_OFFSETS
    for name in HEADER_FIELDS[2:]:
        if h[name] < 0:
            r.error("negative", name, ofs[name], f"{name}={h[name]} is negative")
    v, st = h["vertices_per_frame"], h["num_tex_coords"]
    t, f = h["num_triangles"], h["num_frames"]
    w, ht, fs = h["skin_width_px"], h["skin_height_px"], h["bytes_per_frame"]

    # Quake II: Mod_LoadAliasModel's ERR_DROPs.
    if r.engine == "quake2":
        if ht > Q2_MAX_SKIN_HEIGHT:
            r.error(
                "skin-height",
                "skin_height_px",
                ofs["skin_height_px"],
                f"skin_height_px={ht} is taller than the GL renderer's {Q2_MAX_SKIN_HEIGHT}",
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
    elif r.engine == "any" and ht > Q2_MAX_SKIN_HEIGHT:
        r.warning(
            "skin-height",
            "skin_height_px",
            ofs["skin_height_px"],
            f"skin_height_px={ht} is taller than Quake II's GL renderer allows"
            f" ({Q2_MAX_SKIN_HEIGHT})",
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

    if v > Q2_MAX_VERTS:
        r.limit(
            "too-many-vertices",
            "vertices_per_frame",
            ofs["vertices_per_frame"],
            f"vertices_per_frame={v} exceeds {Q2_MAX_VERTS} (Quake II and Q2PRO)",
            engines=("quake2", *q2pro_names),
        )
    if t > Q2_MAX_TRIANGLES:
        r.limit(
            "too-many-triangles",
            "num_triangles",
            ofs["num_triangles"],
            f"num_triangles={t} exceeds Quake II's MAX_TRIANGLES {Q2_MAX_TRIANGLES}"
            f" (Q2PRO: {Q2PRO_MAX_TRIANGLES})",
            engines=q2pro_names if t > Q2PRO_MAX_TRIANGLES else (),
            warn_in=("quake2",),
        )
    if f > Q2_MAX_FRAMES:
        r.limit(
            "too-many-frames",
            "num_frames",
            ofs["num_frames"],
            f"num_frames={f} exceeds MAX_FRAMES {Q2_MAX_FRAMES} (Quake II, Q2PRO)",
            engines=q2pro_names,
            warn_in=("quake2",),
        )
    if h["num_skins"] > Q2_MAX_SKINS:
        r.limit(
            "too-many-skins",
            "num_skins",
            ofs["num_skins"],
            f"num_skins={h['num_skins']} exceeds {Q2_MAX_SKINS} (Quake II's fixed skin array"
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
    if fs > Q2PRO_MAX_FRAMESIZE:
        r.limit(
            "framesize-large",
            "bytes_per_frame",
            ofs["bytes_per_frame"],
            f"bytes_per_frame={fs} exceeds Q2PRO's 40 + 4 × {Q2PRO_MAX_VERTS} ="
            f" {Q2PRO_MAX_FRAMESIZE}",
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
    sections = (
        ("ofs_skins", "num_skins", "skins", SKIN_NAME_SIZE),
        ("ofs_tex_coords", "num_tex_coords", "texcoords", 4),
        ("ofs_triangles", "num_triangles", "triangles", 12),
        ("ofs_frames", "num_frames", "frames", max(fs, 0)),
        ("ofs_gl_cmds", "num_gl_cmds", "GL command dwords", 4),
    )
    spans: list[tuple[int, int, str]] = []
    for ofs_name, num_name, what, item in sections:
        start, num = h[ofs_name], h[num_name]
        if num <= 0 or start < 0:
            # Q2PRO bounds-checks the offset even for an empty section.
            if q2pro_validates and start > size and ofs_name != "ofs_gl_cmds":
                r.error(
                    "section-past-end",
                    ofs_name,
                    ofs[ofs_name],
                    f"{ofs_name}={start} is past the end of the file ({size} bytes); Q2PRO"
                    " checks it even with no items",
                )
            continue
        end = start + num * item
        if end > size:
            r.error(
                "section-past-end",
                ofs_name,
                start,
                f"{ofs_name}={start} + {num} {what} × {item} bytes = {end} runs past the end"
                f" of the file ({size} bytes)",
            )
        elif start < HEADER_SIZE:
            r.error(
                "section-in-header",
                ofs_name,
                ofs[ofs_name],
                f"{ofs_name}={start} points into the {HEADER_SIZE}-byte header",
            )
        if end > start:
            spans.append((start, end, ofs_name))
    spans.sort()
    reach, reach_name = -1, ""
    for start, stop, ofs_name in spans:
        if start < reach:
            r.warning(
                "section-overlap",
                ofs_name,
                start,
                f"{ofs_name}={start} starts inside the section of {reach_name} (ends at {reach})",
            )
        if stop > reach:
            reach, reach_name = stop, ofs_name

    end = h["ofs_eof"]
    last = max((s[1] for s in spans), default=HEADER_SIZE)
    if end < last and end >= 0:
        # Quake II allocates ofs_end bytes and copies every section to its own offset in them.
        r.limit(
            "ofs-end-short",
            "ofs_eof",
            ofs["ofs_eof"],
            f"ofs_eof={end} is before the end of the last section ({last}): Quake II copies"
            " the sections into a buffer of ofs_eof bytes and overruns it",
            engines=("quake2",),
        )
    if end != size:
        r.warning(
            "ofs-end",
            "ofs_eof",
            ofs["ofs_eof"],
            f"ofs_eof={end} is not the file size {size} (three.js's MD2Loader refuses such files)",
        )
    if r.engine == "quake2" and h["num_gl_cmds"] <= 0 and t > 0:
        r.warning(
            "no-gl-commands",
            "num_gl_cmds",
            ofs["num_gl_cmds"],
            "no GL commands: Quake II's GL renderer draws only GL commands, so nothing is drawn",
        )


# -- sections -------------------------------------------------------------------------------------


def _check_names(r: _Report, m: Md2) -> None:
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
    empty = [i for i, raw in enumerate(m.skins_raw) if raw[:1] == b"\0"]
    if empty:
        i = empty[0]
        r.warning(
            "skin-name-empty",
            "skins",
            m.ofs_skins + SKIN_NAME_SIZE * i,
            f"skins[{i}] is an empty name{_more(len(empty))}",
        )
    if m.num_frames:
        raws = m.frame_names_raw
        bad = [i for i, raw in enumerate(raws) if b"\0" not in raw]
        if bad:
            i = bad[0]
            r.warning(
                "frame-name-unterminated",
                "name",
                m.ofs_frames + m.framesize * i + 24,
                f"frames[{i}].name has no NUL within its {FRAME_NAME_SIZE} bytes{_more(len(bad))}",
            )


def _triangle_records(m: Md2) -> npt.NDArray[np.int32]:
    """(T,6) int32: the facade's raw triangle records, unchecked (the checker reports ranges)."""
    return m._triangle_records.astype(np.int32)


def _check_triangles(r: _Report, m: Md2) -> npt.NDArray[np.bool_]:
    """Index ranges and degenerate triangles; returns which triangles have valid indices."""
    rec = _triangle_records(m)
    valid = np.ones(len(rec), dtype=bool)
    for cols, limit, field, what in (
        (slice(0, 3), m.num_vertices, "vertex_indices", "vertices"),
        (slice(3, 6), m.num_texcoords, "tex_point_indices", "texcoords"),
    ):
        values = rec[:, cols]
        bad = (values < 0) | (values >= limit)
        valid &= ~bad.any(axis=1)
        flat = np.flatnonzero(bad)
        if flat.size:
            tri, corner = divmod(int(flat[0]), 3)
            offset = m.ofs_triangles + 12 * tri + 2 * ((cols.start or 0) + corner)
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
    v = rec[:, :3]
    repeated = np.flatnonzero((v[:, 0] == v[:, 1]) | (v[:, 1] == v[:, 2]) | (v[:, 0] == v[:, 2]))
    if repeated.size:
        i = int(repeated[0])
        r.warning(
            "degenerate-triangle",
            "vertex_indices",
            m.ofs_triangles + 12 * i,
            f"triangles[{i}] uses vertex {sorted(map(int, v[i]))} twice: it has no area"
            f"{_more(repeated.size)}",
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


def _check_geometry(r: _Report, m: Md2, valid: npt.NDArray[np.bool_]) -> None:
    """Normal indices, unused vertices and triangles of zero area in every frame."""
    if not m.num_frames or not m.num_vertices:
        return
    for field, values, at in (("scale", m.scales, 0), ("translate", m.translates, 12)):
        bad_frames = np.flatnonzero(~np.isfinite(values).all(axis=1))
        if bad_frames.size:
            f = int(bad_frames[0])
            axis = int(np.flatnonzero(~np.isfinite(values[f]))[0])
            r.error(
                "non-finite",
                field,
                m.ofs_frames + f * m.framesize + at + 4 * axis,
                f"frames[{f}].{field}[{axis}]={float(values[f, axis])} is not a finite number:"
                f" the frame's vertices are not either{_more(bad_frames.size)}",
            )
    normals = m.normal_indices
    bad = np.flatnonzero(normals >= NUM_ANORMS)
    if bad.size:
        frame, vertex = divmod(int(bad[0]), m.num_vertices)
        offset = m.ofs_frames + frame * m.framesize + FRAME_HEADER_SIZE + 4 * vertex + 3
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
    used = np.zeros(m.num_vertices, dtype=bool)
    used[rec[:, :3].reshape(-1)] = True
    unused = np.flatnonzero(~used)
    if unused.size:
        i = int(unused[0])
        r.warning(
            "unused-vertex",
            "vertices",
            m.ofs_frames + FRAME_HEADER_SIZE + 4 * i,
            f"vertex {i} is used by no triangle{_more(unused.size)}",
        )
    if rec.size:
        # Zero area in every frame, on the compressed integer coordinates (exact; int32 holds
        # every cross product of differences within ±255). Frames are taken in chunks sized to
        # the input, so the temporaries stay within a few times the file size.
        xyz = m._frame_records["verts"]  # (F,V,4) uint8: compressed x, y, z, normal index
        flat = (rec[:, 0] != rec[:, 1]) & (rec[:, 1] != rec[:, 2]) & (rec[:, 0] != rec[:, 2])
        start = 0
        while start < m.num_frames:
            cand = np.flatnonzero(flat)  # only triangles flat in every frame so far
            if not cand.size:
                break
            chunk = max(1, len(m.data) // (cand.size * 80 + 1))
            p = xyz[start : start + chunk, :, :3].astype(np.int32)
            tri = rec[cand]
            a = p[:, tri[:, 0]]
            u = p[:, tri[:, 1]] - a
            w = p[:, tri[:, 2]] - a
            del a
            cross = np.cross(u, w)
            flat[cand[(cross != 0).any(axis=(0, 2))]] = False
            del u, w, cross
            start += chunk
        zero = np.flatnonzero(flat)
        if zero.size:
            i = int(np.flatnonzero(valid)[zero[0]])
            r.warning(
                "zero-area-triangle",
                "vertex_indices",
                m.ofs_triangles + 12 * i,
                f"triangles[{i}] has zero area in every frame{_more(zero.size)}",
            )


def _check_texcoords(r: _Report, m: Md2) -> None:
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
            m.ofs_texcoords + 4 * i,
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


def _check_gl_commands(r: _Report, m: Md2, valid: npt.NDArray[np.bool_]) -> None:
    """Walk the GL commands tolerantly and compare their triangles with the triangle list."""
    n = m.num_gl_dwords
    if n <= 0:
        return
    words = m.gl_dwords
    base = m.ofs_gl_commands
    severe = ("quake2", "quake3", "any")
    # Only the counts are walked in Python (one list entry per command); the corners are
    # gathered with numpy.
    starts: list[int] = []  # dword index of each command's count
    pos = 0
    terminated = False
    while pos < n:
        count = words.item(pos)
        if count == 0:
            terminated = True
            break
        length = abs(count)
        if pos + 1 + 3 * length > n:
            r.limit(
                "gl-truncated",
                "gl_cmds",
                base + 4 * pos,
                f"GL command at offset {base + 4 * pos} has {length} vertices but only"
                f" {(n - pos - 1) // 3} fit in num_gl_cmds={n} dwords",
                engines=severe,
                warn_in=("q2pro",),
            )
            terminated = True  # reported; not also a missing terminator
            break
        starts.append(pos)
        pos += 1 + 3 * length
    if not terminated:
        r.limit(
            "gl-unterminated",
            "gl_cmds",
            base + 4 * n,
            f"no terminating zero within num_gl_cmds={n} dwords (Quake II draws on past the end)",
            engines=severe,
            warn_in=("q2pro",),
        )
    if not starts:
        return
    start_at = np.asarray(starts, np.int64)
    del starts
    counts = words[start_at].astype(np.int64)
    lens = np.abs(counts)
    ends = np.cumsum(lens)
    corner = np.arange(int(ends[-1]), dtype=np.int64) - np.repeat(ends - lens, lens)
    at = np.repeat(start_at + 1, lens) + 3 * corner + 2
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


def _find_skin_here(folder: Path, model_stem: str, skin: str) -> bool:
    """Whether a file for ``skin`` exists inside ``folder`` (never outside it).

    Only the skin name's last path component is used, matched case-insensitively, with the
    engines' alternative image extensions and the ``<model>__<skin>`` naming of collections.
    """
    base = skin.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base in (".", ".."):
        return False
    stem = base.rsplit(".", 1)[0] if "." in base else base
    wanted = {base.lower()}
    wanted.update((stem + ext).lower() for ext in _SKIN_EXTENSIONS)
    wanted.update(f"{model_stem}__{w}".lower() for w in list(wanted))
    try:
        with os.scandir(folder) as it:
            return any(e.name.lower() in wanted and e.is_file() for e in it)
    except OSError:
        return False


def _skin_exists(model_path: Path, skin: str) -> bool:
    """Whether ``skin`` names an image inside the model's folder tree.

    ``quakemodels.skins.candidates`` looks the name up under the folder (case-insensitive,
    alternative extensions, unsafe names refused); the basename and ``<model>__<skin>``
    lookup beside the model follows.
    """
    try:
        if candidates([skin], None, model_path.parent):
            return True
    except (OSError, ValueError):
        pass
    return _find_skin_here(model_path.parent, model_path.stem, skin)


def _check_skin_files(r: _Report, m: Md2) -> None:
    if not m.name or not m.num_skins:
        return
    path = Path(m.name)
    for i, raw in enumerate(m.skins_raw):
        name = raw.split(b"\0", 1)[0].decode("latin-1")
        if name and not _skin_exists(path, name):
            r.warning(
                "skin-missing",
                "skins",
                m.ofs_skins + SKIN_NAME_SIZE * i,
                f"skins[{i}]={name!r}: no such image beside the model in {path.parent}",
            )


# -- MD3 -----------------------------------------------------------------------------------------

# ioquake3's R_LoadMD3 (code/renderergl1/tr_model.c) drops a surface with SHADER_MAX_VERTEXES
# (1000) vertices or more, or 3 × triangles ≥ SHADER_MAX_INDEXES (6000); qfiles.h's other MD3
# limits are not checked at load. Q2PRO (MOD_ValidateMD3 / MOD_ValidateMD3Mesh) refuses frames
# outside 1..1024, surfaces outside 1..32, fewer than 3 vertices or 1 triangle per surface, and
# misaligned or out-of-range sections (the facade refuses those too).
Q3_MAX_SURFACE_VERTS = 999
Q3_MAX_SURFACE_TRIANGLES = 1999
MD3_MAX_TAGS = 16
MD3_MAX_SURFACES = 32
MD3_HEADER = struct.Struct("<4si64s9i")


def _check_md3(r: _Report, data: bytes, name: str | None) -> None:
    from .md3 import HEADER_OFFSETS as MD3_OFS
    from .md3 import SURFACE_OFFSETS, Md3

    if r.engine == "quake2":
        r.error("engine-format", "magic", 0, "Quake II loads MD2 models, not MD3")
    size = len(data)
    if size >= MD3_HEADER.size:
        h = MD3_HEADER.unpack_from(data)
        num_tags, num_surfaces, ofs_eof = h[5], h[6], h[11]
        if num_tags > MD3_MAX_TAGS:
            r.warning(
                "too-many-tags",
                "num_tags",
                MD3_OFS["num_tags"],
                f"num_tags={num_tags} exceeds qfiles.h's MD3_MAX_TAGS {MD3_MAX_TAGS}",
            )
        if num_surfaces == 0:
            r.limit(
                "empty",
                "num_surfaces",
                MD3_OFS["num_surfaces"],
                "num_surfaces=0: Q2PRO refuses a model with no surfaces; nothing is drawn",
                engines=("q2pro",),
                warn_in=("quake3",),
            )
        if ofs_eof > size:
            r.limit(
                "ofs-end-long",
                "ofs_eof",
                MD3_OFS["ofs_eof"],
                f"ofs_eof={ofs_eof} is past the end of the file ({size} bytes): Quake III copies"
                " ofs_eof bytes and reads past the data",
                engines=("quake3",),
            )
        elif ofs_eof != size:
            r.warning(
                "ofs-end",
                "ofs_eof",
                MD3_OFS["ofs_eof"],
                f"ofs_eof={ofs_eof} is not the file size {size}",
            )
    try:
        model = Md3(data, name=name)
    except ModelFormatError as e:
        if not r.has(e.field, e.offset):
            r.findings.append(finding_from_error(e))
        return
    for surf in model.surfaces:
        at = {k: surf.offset + v for k, v in SURFACE_OFFSETS.items()}
        label = f"surfaces[{surf.index}] {surf.name!r}"
        if surf.num_vertices > Q3_MAX_SURFACE_VERTS:
            r.limit(
                "too-many-vertices",
                "num_vertices",
                at["num_vertices"],
                f"{label} has {surf.num_vertices} vertices; Quake III's renderer drops"
                f" surfaces with more than {Q3_MAX_SURFACE_VERTS}",
                engines=("quake3",),
            )
        if surf.num_triangles > Q3_MAX_SURFACE_TRIANGLES:
            r.limit(
                "too-many-triangles",
                "num_triangles",
                at["num_triangles"],
                f"{label} has {surf.num_triangles} triangles; Quake III's renderer drops"
                f" surfaces with more than {Q3_MAX_SURFACE_TRIANGLES}",
                engines=("quake3",),
            )
        _guarded(
            r,
            lambda _m, surf=surf, at=at, label=label: _check_md3_surface(r, surf, at, label),
            model,
            with_report=False,
        )
    _guarded(r, lambda m: _check_md3_tags(r, m), model, with_report=False)


def _check_md3_surface(r: _Report, surf: Any, at: dict[str, int], label: str) -> None:
    tris = surf.triangles.astype(np.int64)
    repeated = np.flatnonzero(
        (tris[:, 0] == tris[:, 1]) | (tris[:, 1] == tris[:, 2]) | (tris[:, 0] == tris[:, 2])
    )
    if repeated.size:
        i = int(repeated[0])
        r.warning(
            "degenerate-triangle",
            "triangles",
            surf.offset + surf.ofs_triangles + 12 * i,
            f"{label} triangles[{i}] uses a vertex twice: it has no area{_more(repeated.size)}",
        )
    used = np.zeros(surf.num_vertices, dtype=bool)
    used[tris.reshape(-1)] = True
    unused = np.flatnonzero(~used)
    if unused.size:
        i = int(unused[0])
        r.warning(
            "unused-vertex",
            "vertices",
            surf.offset + surf.ofs_tex_coords + 8 * i,
            f"{label} vertex {i} is used by no triangle{_more(unused.size)}",
        )
    st = surf.texcoords
    bad = np.flatnonzero(~np.isfinite(st).all(axis=1))
    if bad.size:
        i = int(bad[0])
        r.error(
            "non-finite",
            "tex_coords",
            surf.offset + surf.ofs_tex_coords + 8 * i,
            f"{label} texcoords[{i}] is not a finite number{_more(bad.size)}",
        )


def _check_md3_tags(r: _Report, m: Any) -> None:
    tags = m.tags
    ok = np.isfinite(tags.origins).all(axis=2) & np.isfinite(tags.axes).all(axis=(2, 3))
    bad = np.flatnonzero(~ok)
    if bad.size:
        frame, k = divmod(int(bad[0]), max(m.num_tags, 1))
        r.error(
            "non-finite",
            "tags",
            m.ofs_tags + 112 * int(bad[0]) + 64,
            f"frame {frame} tag {tags.names[k]!r} has a non-finite origin or axis{_more(bad.size)}",
        )


# -- entry point ----------------------------------------------------------------------------------


def _read_source(source: object) -> tuple[bytes, str | None, Md2 | None]:
    if isinstance(source, Md2):
        return source.data, source.name, source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None, None
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            return f.read(), os.fspath(source), None
    raise TypeError(f"check_md2 takes an Md2, bytes or a path, not {type(source).__name__}")


def check_md2(
    model_or_bytes: Md2 | bytes | bytearray | memoryview | str | os.PathLike[str],
    engine: str = "any",
    *,
    name: str | None = None,
) -> list[Finding]:
    """Findings for one MD2 model (an :class:`Md2`, its bytes, or a path), for ``engine``.

    Works on files :class:`Md2` refuses to open (its ModelFormatError becomes an error finding)
    and never raises on any input; ``name`` (a path) enables the skin-file lookup for bytes.
    An unknown ``engine`` is a caller's mistake and raises ValueError.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    r = _Report(engine)
    try:
        data, source_name, model = _read_source(model_or_bytes)
    except OSError as e:
        r.error("io", None, None, f"cannot read {model_or_bytes!s}: {e.strerror or e}")
        return r.findings
    name = name or source_name
    try:
        _check(r, data, name, model)
    except Exception as e:  # the checker must never raise; the fuzzers look for this code
        r.error("internal", None, None, f"checker failed: {type(e).__name__}: {e}")
    return r.findings


def _check(r: _Report, data: bytes, name: str | None, model: Md2 | None) -> None:
    if r.engine == "quake3" and data[:4] == MAGIC:
        r.error("engine-format", "magic", 0, "Quake III loads MD3 models, not MD2")
    size = len(data)
    if size < HEADER_SIZE or data[:4] != MAGIC or data[4:8] != struct.pack("<i", VERSION):
        try:
            Md2(data, name=name)
        except ModelFormatError as e:
            r.findings.append(finding_from_error(e))
        return
    values = _HEADER.unpack_from(data)
    header = dict(zip(HEADER_FIELDS[1:], values[1:], strict=True))
    _check_header(r, header, size)
    if model is None:
        try:
            model = Md2(data, name=name)
        except ModelFormatError as e:
            if not r.has(e.field, e.offset):
                r.findings.append(finding_from_error(e))
            return
    elif name and not model.name:
        model = Md2(data, name=name)
    # The layout is valid from here on: every section lies inside the data.
    for step in (_check_names, _check_texcoords):
        _guarded(r, step, model)
    valid_box: list[npt.NDArray[np.bool_]] = []
    _guarded(r, lambda m: valid_box.append(_check_triangles(r, m)), model, with_report=False)
    if valid_box:
        valid = valid_box[0]
        _guarded(r, lambda m: _check_geometry(r, m, valid), model, with_report=False)
        _guarded(r, lambda m: _check_gl_commands(r, m, valid), model, with_report=False)
    _guarded(r, _check_skin_files, model)


def _guarded(r: _Report, step: Any, model: Any, *, with_report: bool = True) -> None:
    """Run one section's checks; a ModelFormatError from the facade becomes a finding."""
    try:
        if with_report:
            step(r, model)
        else:
            step(model)
    except ModelFormatError as e:
        if not r.has(e.field, e.offset):
            r.findings.append(finding_from_error(e))


def check_model(
    source: Md2 | bytes | bytearray | memoryview | str | os.PathLike[str],
    engine: str = "any",
) -> list[Finding]:
    """Findings for any supported model (chosen by magic); never raises on any input."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if isinstance(source, Md2):
        return check_md2(source, engine)
    name: str | None = None
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        try:
            with open(source, "rb") as f:
                data = f.read()
        except OSError as e:
            return [Finding("error", None, None, f"cannot read {name}: {e.strerror or e}", "io")]
    else:
        data = bytes(source)
    if data[:4] == b"IDP3":
        return check_md3(data, engine, name=name)
    return check_md2(data, engine, name=name)


def check_md3(
    model_or_bytes: Any, engine: str = "any", *, name: str | None = None
) -> list[Finding]:
    """Findings for one MD3 model (an Md3, its bytes, or a path), for ``engine``; never raises.

    ``quake3`` applies ioquake3's load-time limits (999 vertices and 1999 triangles per
    surface), ``q2pro`` Q2PRO's; ``quake2`` is an error (Quake II loads MD2 only).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    r = _Report(engine)
    try:
        if isinstance(model_or_bytes, (str, os.PathLike)):
            with open(model_or_bytes, "rb") as f:
                data = f.read()
            name = name or os.fspath(model_or_bytes)
        elif isinstance(model_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(model_or_bytes)
        else:
            data = bytes(model_or_bytes.data)
            name = name or getattr(model_or_bytes, "name", None)
    except OSError as e:
        return [Finding("error", None, None, f"cannot read {model_or_bytes!s}: {e}", "io")]
    try:
        _check_md3(r, data, name)
    except Exception as e:  # the checker must never raise; the fuzzers look for this code
        r.error("internal", None, None, f"checker failed: {type(e).__name__}: {e}")
    return r.findings
