"""Writing Quake III MD3 files: an exact encoder for loaded models and ``build`` from arrays.

Two ways in, as for MD2:

* :func:`to_bytes` / :func:`save` serialize a loaded :class:`~quakemodels.Md3` exactly as it
  was: raw name bytes (junk after the NUL included), raw triangle indices, texcoord floats and
  vertex words, the surface magic and shader indices, every section at its original offset and
  every byte between or after the sections. :func:`parts_of` gives the same content as an
  editable :class:`Md3Parts`; :func:`encode` writes one back (the original layout while every
  section keeps its size, q3data's canonical layout otherwise).
* :func:`build` encodes new geometry the way id's q3data does, with two deliberate differences
  (see :func:`quantize_positions` and :func:`encode_normals`): positions are rounded to the
  nearest 1/64 unit (q3data truncates towards zero), and normals go to the lat/lng code whose
  decoded direction is nearest, using the 2π/256 step the renderer decodes with (q3data encodes
  with 255/360 per degree and truncates). Frame bounds are the min/max of the stored positions
  over every surface, the local origin is (0, 0, 0) and the radius is the distance from the
  origin to the farthest corner of the bounds, as q3data's ``WriteModelFile`` computes it (the
  corpus's 3ds Max exports match this bit for bit). Engine limits are checked (:class:`Limits`).
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ...core.atomic import write_bytes_atomic
from ...core.build import (
    BuildResult,
    as_array,
    check_limit,
    encode_name,
    gaps,
    require_fields,
    scene_frame_names,
    vertex_normals,
)
from ...core.mesh import flip_winding
from ...core.records import replace
from ...core.scene import ExportModel
from ...core.sections import field_type, read_section, unstructured
from ...errors import BadValueError, LimitExceededError, ModelFormatError, QuakeModelsWarning
from .layout import (
    FRAME,
    HEADER,
    HEADER_SIZE,
    INDEX,
    MAGIC,
    NAME_SIZE,
    SHADER,
    SURFACE_HEADER,
    SURFACE_HEADER_SIZE,
    TAG,
    TEX_COORD,
    TEX_COORD_ITEM,
    TRIANGLE,
    VERSION,
    VERTEX,
    VERTEX_WORD,
    VERTEX_WORDS,
)
from .limits import FORMAT_LIMITS as FORMAT_LIMITS
from .limits import QFILES as QFILES
from .limits import VANILLA as VANILLA
from .limits import Limits as Limits
from .reader import (
    MAX_FRAMES,
    MAX_SHADERS,
    MAX_SURFACES,
    MAX_TRIANGLES,
    MAX_VERTICES,
    MIN_TRIANGLES,
    MIN_VERTICES,
    Md3Reader,
    normal_table,
)

R = TypeVar("R", bound=Md3Reader)

FRAME_SIZE = FRAME.itemsize
FRAME_NAME_SIZE = field_type(FRAME, "name").itemsize
TAG_SIZE = TAG.itemsize
SHADER_SIZE = SHADER.itemsize
TRIANGLE_SIZE = TRIANGLE.itemsize
TEXCOORD_SIZE = TEX_COORD.itemsize
VERTEX_SIZE = VERTEX.itemsize
SURFACE_SECTIONS = ("ofs_shaders", "ofs_triangles", "ofs_tex_coords", "ofs_vertices")
"""A surface's sections in q3data's order (the canonical layout)."""

XYZ_STEPS = 64  # stored units per model unit (MD3_XYZ_SCALE = 1/64)
POSITION_MIN = -32768 / XYZ_STEPS
POSITION_MAX = 32767 / XYZ_STEPS
NORMAL_STEP = 2 * math.pi / 256  # the renderer's angle per code step

FloatArray = npt.NDArray[np.float32]


# -- the stored content ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SurfaceLayout:
    """Where a loaded surface had its sections: the header's ``ofs_*`` values (relative to the
    surface start) by spec name, ``ofs_end`` included, and the counts they were sized for."""

    offsets: dict[str, int]
    counts: tuple[int, int, int]  # shaders, triangles, vertices


@dataclass
class Md3SurfaceParts:
    """One surface as stored (F frames, N vertices, T triangles, S shaders).

    ``name_raw`` and each of ``shaders_raw`` 64 bytes; ``shader_indices`` S ints;
    ``triangles`` (T,3) int32 raw indices; ``texcoords`` (N,2) float32 (s, t);
    ``vertices`` (F,N,4) int16: x, y, z in 1/64 units and the normal word ``lng | lat << 8``.
    """

    name_raw: bytes
    shaders_raw: list[bytes]
    shader_indices: list[int]
    triangles: npt.NDArray[np.int32]
    texcoords: FloatArray
    vertices: npt.NDArray[np.int16]
    magic: bytes = MAGIC
    flags: int = 0
    layout: SurfaceLayout | None = None

    def counts(self) -> tuple[int, int, int]:
        """(S, T, N): shaders, triangles and vertices per frame."""
        return len(self.shaders_raw), len(self.triangles), int(self.vertices.shape[1])

    def section_sizes(self) -> dict[str, int]:
        """Byte size of each section by its offset field's name, in q3data's order."""
        s, t, n = self.counts()
        return {
            "ofs_shaders": SHADER_SIZE * s,
            "ofs_triangles": TRIANGLE_SIZE * t,
            "ofs_tex_coords": TEXCOORD_SIZE * n,
            "ofs_vertices": VERTEX_SIZE * n * int(self.vertices.shape[0]),
        }


@dataclass(frozen=True)
class Md3Layout:
    """Where a loaded file had its sections, and the bytes no section covers.

    ``ofs_frames``, ``ofs_tags``, ``ofs_surfaces``, ``ofs_end`` the header's values;
    ``counts`` (F, K, surfaces) the sizes they were laid out for; ``fillers`` ``(offset, bytes)``
    runs outside the header, every section and every surface header (gaps, trailing data).
    """

    ofs_frames: int
    ofs_tags: int
    ofs_surfaces: int
    ofs_end: int
    file_size: int
    counts: tuple[int, int, int]
    fillers: tuple[tuple[int, bytes], ...] = ()


@dataclass
class Md3Parts:
    """Everything an MD3 file holds, as stored (F frames, K tags per frame).

    ``name_raw`` 64 bytes; ``frame_names_raw`` F × 16 bytes; ``frame_mins``, ``frame_maxs``,
    ``frame_origins`` (F,3) float32; ``frame_radii`` (F,) float32; ``tag_names_raw`` F lists of
    K 64-byte names; ``tag_origins`` (F,K,3) and ``tag_axes`` (F,K,3,3) float32; ``surfaces``
    in file order; ``layout`` the original placement, or None for the canonical one.
    """

    name_raw: bytes
    frame_names_raw: list[bytes]
    frame_mins: FloatArray
    frame_maxs: FloatArray
    frame_origins: FloatArray
    frame_radii: FloatArray
    tag_names_raw: list[list[bytes]]
    tag_origins: FloatArray
    tag_axes: FloatArray
    surfaces: list[Md3SurfaceParts] = field(default_factory=list)
    flags: int = 0
    num_skins: int = 0
    layout: Md3Layout | None = None

    @property
    def num_frames(self) -> int:
        """F."""
        return len(self.frame_names_raw)

    @property
    def num_tags(self) -> int:
        """K, tags per frame."""
        return int(self.tag_origins.shape[1]) if self.tag_origins.ndim == 3 else 0


# -- exact serialization of loaded models ---------------------------------------------------------


def _raw(data: bytes, dtype: np.dtype[Any], count: int, offset: int) -> npt.NDArray[Any]:
    """``count`` items of ``dtype`` at ``offset``, copied (the parts must not alias ``data``)."""
    return np.frombuffer(data, dtype=dtype, count=count, offset=offset).copy()


def _surface_parts(data: bytes, surf: Any, num_frames: int) -> Md3SurfaceParts:
    """The stored content of one surface of a loaded model (indices unchecked, as stored)."""
    base = surf.offset
    shaders = read_section(data, SHADER, surf.num_shaders, base + surf.ofs_shaders)
    raws = [bytes(raw) for raw in shaders["name"]]
    indices = [int(i) for i in shaders["shader_index"]]
    n, t = surf.num_vertices, surf.num_triangles
    return Md3SurfaceParts(
        name_raw=surf.name_raw,
        shaders_raw=raws,
        shader_indices=indices,
        triangles=_raw(data, INDEX, 3 * t, base + surf.ofs_triangles).reshape(t, 3),
        texcoords=_raw(data, TEX_COORD_ITEM, 2 * n, base + surf.ofs_tex_coords).reshape(n, 2),
        vertices=_raw(
            data, VERTEX_WORD, VERTEX_WORDS * n * num_frames, base + surf.ofs_vertices
        ).reshape(num_frames, n, VERTEX_WORDS),
        magic=surf.magic,
        flags=surf.flags,
        layout=SurfaceLayout(
            offsets={
                **{name: int(getattr(surf, name)) for name in SURFACE_SECTIONS},
                "ofs_end": surf.ofs_end,
            },
            counts=(surf.num_shaders, t, n),
        ),
    )


def parts_of(model: Md3Reader) -> Md3Parts:
    """The stored content of a loaded model, with its layout, ready for :func:`encode`."""
    data = model.data
    f, k = model.num_frames, model.num_tags
    frames = read_section(data, FRAME, f, model.ofs_frames)
    tags = read_section(data, TAG, f * k, model.ofs_tags).reshape(f, k)
    parts = Md3Parts(
        name_raw=data[8 : 8 + NAME_SIZE],
        frame_names_raw=[bytes(raw) for raw in frames["name"]],
        frame_mins=unstructured(frames["min_bounds"], np.float32),
        frame_maxs=unstructured(frames["max_bounds"], np.float32),
        frame_origins=unstructured(frames["local_origin"], np.float32),
        frame_radii=unstructured(frames["radius"], np.float32),
        tag_names_raw=[[bytes(tags["name"][i, j]) for j in range(k)] for i in range(f)],
        tag_origins=unstructured(tags["origin"], np.float32).reshape(f, k, 3),
        tag_axes=unstructured(tags["axis"], np.float32).reshape(f, k, 3, 3),
        surfaces=[_surface_parts(data, s, f) for s in model.surfaces],
        flags=model.flags,
        num_skins=model.num_skins,
    )
    covered = [
        (0, HEADER_SIZE),
        (model.ofs_frames, model.ofs_frames + FRAME_SIZE * f),
        (model.ofs_tags, model.ofs_tags + TAG_SIZE * f * k),
    ]
    for surf, sp in zip(model.surfaces, parts.surfaces, strict=True):
        covered.append((surf.offset, surf.offset + SURFACE_HEADER_SIZE))
        for name, size in sp.section_sizes().items():
            start = surf.offset + getattr(surf, name)
            covered.append((start, start + size))
    parts.layout = Md3Layout(
        ofs_frames=model.ofs_frames,
        ofs_tags=model.ofs_tags,
        ofs_surfaces=model.ofs_surfaces,
        ofs_end=model.ofs_end,
        file_size=len(data),
        counts=(f, k, model.num_surfaces),
        fillers=tuple((a, data[a:b]) for a, b in gaps(covered, len(data))),
    )
    return parts


def _check_parts(parts: Md3Parts) -> None:
    """Shapes and name sizes the bytes must be able to hold."""
    f, k = parts.num_frames, parts.num_tags
    checks = [
        (parts.frame_mins.shape == (f, 3), "frame_mins", "(F,3)"),
        (parts.frame_maxs.shape == (f, 3), "frame_maxs", "(F,3)"),
        (parts.frame_origins.shape == (f, 3), "frame_origins", "(F,3)"),
        (parts.frame_radii.shape == (f,), "frame_radii", "(F,)"),
        (parts.tag_origins.shape == (f, k, 3), "tag_origins", "(F,K,3)"),
        (parts.tag_axes.shape == (f, k, 3, 3), "tag_axes", "(F,K,3,3)"),
        (len(parts.tag_names_raw) == f, "tag_names_raw", "F lists"),
        (all(len(row) == k for row in parts.tag_names_raw), "tag_names_raw", "F lists of K"),
        (len(parts.name_raw) == NAME_SIZE, "name_raw", f"{NAME_SIZE} bytes"),
    ]
    checks += [(len(raw) == FRAME_NAME_SIZE, "frame_names_raw", "16 bytes each")
               for raw in parts.frame_names_raw]  # fmt: skip
    checks += [(len(raw) == NAME_SIZE, "tag_names_raw", "64 bytes each")
               for row in parts.tag_names_raw for raw in row]  # fmt: skip
    for i, s in enumerate(parts.surfaces):
        what = f"surfaces[{i}]"
        checks += [
            (s.vertices.ndim == 3 and s.vertices.shape[::2] == (f, 4), f"{what}.vertices",
             "(F,N,4)"),
            (s.triangles.ndim == 2 and s.triangles.shape[1] == 3, f"{what}.triangles", "(T,3)"),
            (s.texcoords.shape == (s.vertices.shape[1], 2), f"{what}.texcoords", "(N,2)"),
            (len(s.name_raw) == NAME_SIZE, f"{what}.name_raw", "64 bytes"),
            (len(s.magic) == 4, f"{what}.magic", "4 bytes"),
            (len(s.shader_indices) == len(s.shaders_raw), f"{what}.shader_indices",
             "one per shader"),
            (all(len(r) == NAME_SIZE for r in s.shaders_raw), f"{what}.shaders_raw",
             "64 bytes each"),
        ]  # fmt: skip
    for ok, name, shape in checks:
        if not ok:
            raise BadValueError(f"{name} must be {shape} for {f} frames, {k} tags", field=name)


def _surface_bytes(s: Md3SurfaceParts, num_frames: int) -> tuple[dict[str, int], dict[str, bytes]]:
    """The surface's ``ofs_*`` values (its own layout while its counts hold, q3data's order
    otherwise) and each section's bytes by offset field name."""
    sizes = s.section_sizes()
    if s.layout is not None and s.layout.counts == s.counts():
        offsets = dict(s.layout.offsets)
    else:
        offsets, cursor = {}, SURFACE_HEADER_SIZE
        for name in SURFACE_SECTIONS:
            offsets[name] = cursor
            cursor += sizes[name]
        offsets["ofs_end"] = cursor
    shaders = np.zeros(len(s.shaders_raw), SHADER)
    for i, (raw, index) in enumerate(zip(s.shaders_raw, s.shader_indices, strict=True)):
        shaders[i] = (np.void(raw), index)
    triangles = np.zeros(len(s.triangles), TRIANGLE)
    triangles["vertex_indices"] = s.triangles
    texcoords = np.zeros(len(s.texcoords), TEX_COORD)
    texcoords["s"], texcoords["t"] = s.texcoords[:, 0], s.texcoords[:, 1]
    # the vertex record's fields as stored words: x, y, z and the packed normal (layout.py)
    chunks = {
        "ofs_shaders": shaders.tobytes(),
        "ofs_triangles": triangles.tobytes(),
        "ofs_tex_coords": texcoords.tobytes(),
        "ofs_vertices": s.vertices.astype(VERTEX_WORD).tobytes(),
    }
    nshaders, ntris, nverts = s.counts()
    header = np.zeros(1, SURFACE_HEADER)
    header["magic"], header["name"] = np.void(s.magic), np.void(s.name_raw)
    values = {"flags": s.flags, "num_frames": num_frames, "num_shaders": nshaders,
              "num_vertices": nverts, "num_triangles": ntris, **offsets}  # fmt: skip
    for name, value in values.items():
        header[name] = value
    chunks["header"] = header.tobytes()
    return offsets, chunks


def _set_vectors(records: npt.NDArray[np.void], name: str, values: npt.NDArray[Any]) -> None:
    """Store ``values`` (..., 3) in the record field ``name``, the spec's x, y, z struct."""
    target = records[name]
    for k, axis in enumerate(target.dtype.names or ()):
        target[axis] = values[..., k]


def encode(parts: Md3Parts) -> bytes:
    """The bytes of an MD3 file holding ``parts``.

    With a ``layout`` whose counts still match, frames, tags and surfaces go back to their
    original offsets with the original filler bytes around them (a surface whose counts still
    match keeps its inner layout too); otherwise the file is written in q3data's order: header,
    frames, tags, then each surface as header, shaders, triangles, texcoords, vertices, with
    nothing between them and ``ofs_end`` the file size.
    """
    _check_parts(parts)
    f, k = parts.num_frames, parts.num_tags
    surfaces = [_surface_bytes(s, f) for s in parts.surfaces]
    layout = parts.layout
    keep = (
        layout is not None
        and layout.counts == (f, k, len(parts.surfaces))
        and all(s.layout is not None and s.layout.counts == s.counts() for s in parts.surfaces)
    )
    if keep:
        assert layout is not None  # for mypy: keep implies it
        ofs_frames, ofs_tags, ofs_surfaces = layout.ofs_frames, layout.ofs_tags, layout.ofs_surfaces
        ofs_end, total, fillers = layout.ofs_end, layout.file_size, layout.fillers
    else:
        ofs_frames = HEADER_SIZE
        ofs_tags = ofs_frames + FRAME_SIZE * f
        ofs_surfaces = ofs_tags + TAG_SIZE * f * k
        ofs_end = total = ofs_surfaces + sum(offsets["ofs_end"] for offsets, _ in surfaces)
        fillers = ()
    out = bytearray(total)
    for start, chunk in fillers:
        out[start : start + len(chunk)] = chunk
    header = np.zeros(1, HEADER)
    header["magic"], header["name"] = np.void(MAGIC), np.void(parts.name_raw)
    fields = {"version": VERSION, "flags": parts.flags, "num_frames": f, "num_tags": k,
              "num_surfaces": len(parts.surfaces), "num_skins": parts.num_skins,
              "ofs_frames": ofs_frames, "ofs_tags": ofs_tags, "ofs_surfaces": ofs_surfaces,
              "ofs_end": ofs_end}  # fmt: skip
    for name, value in fields.items():
        header[name] = value
    out[:HEADER_SIZE] = header.tobytes()
    frames = np.zeros(f, FRAME)
    _set_vectors(frames, "min_bounds", parts.frame_mins)
    _set_vectors(frames, "max_bounds", parts.frame_maxs)
    _set_vectors(frames, "local_origin", parts.frame_origins)
    frames["radius"] = parts.frame_radii
    for i, raw in enumerate(parts.frame_names_raw):
        frames["name"][i] = np.void(raw)
    out[ofs_frames : ofs_frames + FRAME_SIZE * f] = frames.tobytes()
    tags = np.zeros((f, k), TAG)
    for i, row in enumerate(parts.tag_names_raw):
        for j, raw in enumerate(row):
            tags["name"][i, j] = np.void(raw)
    _set_vectors(tags, "origin", parts.tag_origins)
    _set_vectors(tags, "axis", parts.tag_axes)
    out[ofs_tags : ofs_tags + TAG_SIZE * f * k] = tags.tobytes()
    start = ofs_surfaces
    for offsets, chunks in surfaces:
        out[start : start + SURFACE_HEADER_SIZE] = chunks["header"]
        for name in SURFACE_SECTIONS:
            at = start + offsets[name]
            out[at : at + len(chunks[name])] = chunks[name]
        start += offsets["ofs_end"]
    return bytes(out)


def to_bytes(model: Md3Reader) -> bytes:
    """The bytes of a loaded model, re-encoded from its parsed content (byte-exact)."""
    return encode(parts_of(model))


def save(model: Md3Reader, path: str | os.PathLike[str]) -> None:
    """Write a loaded model to ``path`` atomically (nothing is replaced if encoding fails)."""
    write_bytes_atomic(path, to_bytes(model))


# -- quantization ---------------------------------------------------------------------------------


def _where(what: str, shape: tuple[int, ...], flat: int) -> str:
    """``what[i, j, k]`` for item ``flat`` of an array of ``shape``, spelt out for positions."""
    where = [int(i) for i in np.unravel_index(flat, shape)]
    text = f"{what}{where}"
    if len(where) == 3:
        text += f" (frame {where[0]}, vertex {where[1]}, {'xyz'[where[2]]})"
    return text


def quantize_positions(
    positions: npt.ArrayLike, what: str = "positions"
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float64]]:
    """(..., 3) float positions → ((..., 3) int16 in 1/64 units, (..., 3) float64 errors).

    Each coordinate is rounded to the nearest multiple of 1/64 (ties to even), so the error is
    at most 1/128 unit. The stored value must fit a signed 16-bit integer: coordinates outside
    −512 .. 511.984375 raise :class:`BadValueError` naming the first one.
    """
    p = np.asarray(positions, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(p))
    if bad.size:
        raise BadValueError(
            f"{_where(what, p.shape, int(bad[0]))}={p.flat[bad[0]]} is not a finite number"
            f" ({bad.size} such values)",
            field="positions",
        )
    with np.errstate(over="ignore"):  # an overflow gives ±inf, refused just below
        q = np.rint(p * XYZ_STEPS)
    bad = np.flatnonzero((q < -32768) | (q > 32767))
    if bad.size:
        raise BadValueError(
            f"{_where(what, p.shape, int(bad[0]))}={p.flat[bad[0]]} is outside the range MD3"
            " can store"
            f" ({POSITION_MIN} .. {POSITION_MAX}: signed 16-bit multiples of 1/64;"
            f" {bad.size} coordinates out of range); scale the model down",
            field="x_compressed",
        )
    return q.astype(np.int16), np.abs(q / XYZ_STEPS - p)


def encode_normals(normals: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """(..., 3) vectors → (..., 2) uint8 angle codes (lng, lat), the inverse of the decoder.

    The renderer decodes ``normal = (cos lat · sin lng, sin lat · sin lng, cos lng)`` with
    angles of ``code · 2π/256`` (:func:`.reader.normal_table`). Here lng is the angle
    from +Z (``atan2(√(x²+y²), z)``, 0..π) and lat the angle around Z (``atan2(y, x)``), each
    rounded to the nearest step, then the nearest of the four codes around them (largest dot
    product with the decoded table) is kept: the decoded direction is the nearest one the
    format has, within 1° of the input. Length does not matter.

    Every code the encoder gives is canonical: lng in 0..128, and lat = 0 at the poles (lng 0
    is +Z, lng 128 is −Z); all 32514 canonical codes round-trip (decode, encode, same code).
    The other 33022 codes are aliases that decode to a direction a canonical code also gives:
    lng 129..255 mirror 256 − lng with lat + 128, and at a pole every lat is the same point.
    A zero vector gets +Z (0, 0); a non-finite one raises :class:`BadValueError`.
    """
    n = np.asarray(normals, dtype=np.float64)
    if n.shape[-1:] != (3,):
        raise BadValueError(f"normals must be (..., 3) vectors, got {n.shape}", field="normals")
    if not np.isfinite(n).all():
        raise BadValueError("normals contain NaN or infinity", field="normals")
    flat = n.reshape(-1, 3)
    # only the direction counts: scale each vector to a largest component of 1 so that huge or
    # tiny inputs neither overflow nor underflow below
    big = np.abs(flat).max(axis=1, keepdims=True)
    flat = np.divide(flat, big, out=np.zeros_like(flat), where=big > 0)
    x, y, z = flat[:, 0], flat[:, 1], flat[:, 2]
    a = np.arctan2(np.hypot(x, y), z) / NORMAL_STEP  # 0..128
    b = np.arctan2(y, x) / NORMAL_STEP  # -128..128
    # The rounded angles are the nearest code 99.96% of the time; trying the four codes around
    # (a, b) against the decoder's own table makes it always so (ties keep the rounded one).
    lng0, lat0 = np.rint(a), np.rint(b)
    lng1 = np.where(a >= lng0, lng0 + 1, lng0 - 1)
    lat1 = np.where(b >= lat0, lat0 + 1, lat0 - 1)
    table = normal_table().astype(np.float64)
    best_lng, best_lat = lng0.astype(np.int64), lat0.astype(np.int64)
    best_dot = np.full(len(flat), -np.inf)
    for lng_c, lat_c in ((lng0, lat0), (lng0, lat1), (lng1, lat0), (lng1, lat1)):
        lng_i = np.clip(lng_c, 0, 128).astype(np.int64)
        lat_i = lat_c.astype(np.int64) % 256
        lat_i[(lng_i == 0) | (lng_i == 128)] = 0
        dot = np.einsum("ij,ij->i", table[lng_i | (lat_i << 8)], flat)
        better = dot > best_dot
        best_lng[better], best_lat[better], best_dot[better] = (
            lng_i[better],
            lat_i[better],
            dot[better],
        )
    lng, lat = best_lng.reshape(n.shape[:-1]), best_lat.reshape(n.shape[:-1])
    out = np.empty((*n.shape[:-1], 2), np.uint8)
    out[..., 0] = lng
    out[..., 1] = lat
    return out


def _normal_words(codes: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
    """(..., 2) (lng, lat) codes → (...,) the stored int16 word ``lng | lat << 8``."""
    word = codes[..., 0].astype(np.uint16) | (codes[..., 1].astype(np.uint16) << 8)
    return word.view(np.int16)


# -- building from arrays -------------------------------------------------------------------------


@dataclass
class SurfaceData:
    """One surface to :func:`build` (F frames, N vertices, T triangles).

    ``positions`` (F,N,3) Quake model space (Z up), or (N,3) for one frame; ``triangles``
    (T,3) vertex indices wound clockwise seen from outside (as Quake's are); ``texcoords``
    (N,2) (s, t), t down; ``normals`` (F,N,3) vectors, (F,N,2) uint8 (lng, lat) codes as
    stored, or None to compute area-weighted vertex normals; ``shaders`` shader or texture
    paths (≤ 63 bytes each; often one, may be none when a .skin file names it).
    """

    name: str | bytes
    positions: npt.ArrayLike
    triangles: npt.ArrayLike
    texcoords: npt.ArrayLike
    normals: npt.ArrayLike | None = None
    shaders: Sequence[str | bytes] = ()


SURFACE_DATA_FIELDS = ("name", "positions", "triangles", "texcoords", "normals", "shaders")


@dataclass
class TagData:
    """One tag to :func:`build`: ``origins`` (F,3) or (3,) and ``axes`` (F,3,3) or (3,3), the
    rows being the forward, left and up vectors, as stored."""

    name: str | bytes
    origins: npt.ArrayLike
    axes: npt.ArrayLike


def _frames_of(value: npt.ArrayLike, name: str, tail: tuple[int, ...]) -> npt.NDArray[np.float64]:
    """``value`` as float64 (F, *tail); a single (*tail) item is one frame."""
    array = as_array(value, name, np.float64, None)
    if array.shape == tail:
        array = array[None]
    if array.ndim != len(tail) + 1 or array.shape[1:] != tail:
        shape = ",".join(("F", *map(str, tail)))
        raise BadValueError(f"{name} must be ({shape}), got {array.shape}", field=name)
    return array


def _surface_part(
    i: int, s: SurfaceData, num_frames: int, limits: Limits
) -> tuple[Md3SurfaceParts, npt.NDArray[np.float64]]:
    """Encode one surface; returns its parts and its (F,3) largest errors."""
    what = f"surfaces[{i}]"
    pos = as_array(s.positions, f"{what}.positions", np.float64, None)
    if pos.ndim == 2:
        pos = pos[None]
    if pos.ndim != 3 or pos.shape[2] != 3:
        raise BadValueError(f"{what}.positions must be (F,N,3), got {pos.shape}", field="positions")
    f, n = pos.shape[0], pos.shape[1]
    if f != num_frames:
        raise BadValueError(
            f"{what}.positions has {f} frames; the model has {num_frames}", field="num_frames"
        )
    tri = as_array(s.triangles, f"{what}.triangles", np.int64, 2)
    st = as_array(s.texcoords, f"{what}.texcoords", np.float64, 2)
    if tri.shape[1:] != (3,):
        raise BadValueError(f"{what}.triangles must be (T,3), got {tri.shape}", field="triangles")
    if st.shape != (n, 2):
        raise BadValueError(
            f"{what}.texcoords must be (N,2) = ({n},2), got {st.shape}", field="tex_coords"
        )
    if n < MIN_VERTICES or len(tri) < MIN_TRIANGLES:
        raise BadValueError(
            f"{what} has {n} vertices and {len(tri)} triangles; a surface needs at least"
            f" {MIN_VERTICES} and {MIN_TRIANGLES}",
            field="num_vertices" if n < MIN_VERTICES else "num_triangles",
        )
    check_limit(n, limits.max_vertices, f"vertices in {what}", "num_vertices", hard=MAX_VERTICES)
    check_limit(
        len(tri), limits.max_triangles, f"triangles in {what}", "num_triangles", hard=MAX_TRIANGLES
    )
    check_limit(
        len(s.shaders), limits.max_shaders, f"shaders in {what}", "num_shaders", hard=MAX_SHADERS
    )
    bad = np.flatnonzero((tri < 0) | (tri >= n))
    if bad.size:
        t, corner = divmod(int(bad[0]), 3)
        raise BadValueError(
            f"{what}.triangles[{t}][{corner}]={int(tri.flat[bad[0]])} is outside 0..{n - 1}"
            f" ({bad.size} bad indices)",
            field="vertex_indices",
        )
    if not np.isfinite(st).all() or np.any(np.abs(st) > np.finfo(np.float32).max):
        raise BadValueError(f"{what}.texcoords must be finite float32 values", field="tex_coords")
    xyz, errors = quantize_positions(pos, f"{what}.positions")
    if s.normals is None:
        codes = encode_normals(vertex_normals(pos, tri))
    else:
        given = as_array(s.normals, f"{what}.normals", None, None)
        if given.ndim == 2 and f == 1:
            given = given[None]
        if given.shape == (f, n, 2) and given.dtype.kind in "iu":
            if np.any((given < 0) | (given > 255)):
                raise BadValueError(f"{what}.normals codes must be bytes", field="normals")
            codes = given.astype(np.uint8)
        elif given.shape == (f, n, 3):
            codes = encode_normals(given)
        else:
            raise BadValueError(
                f"{what}.normals must be (F,N,3) vectors or (F,N,2) codes, got {given.shape}",
                field="normals",
            )
    vertices = np.empty((f, n, 4), np.int16)
    vertices[..., :3] = xyz
    vertices[..., 3] = _normal_words(codes)
    part = Md3SurfaceParts(
        name_raw=encode_name(s.name, NAME_SIZE, "surface name", "name"),
        shaders_raw=[encode_name(x, NAME_SIZE, "shader name", "shaders") for x in s.shaders],
        shader_indices=[0] * len(s.shaders),
        triangles=tri.astype(np.int32),
        texcoords=st.astype(np.float32),
        vertices=vertices,
    )
    return part, errors.max(axis=1)


def _first_use(
    first: npt.NDArray[np.int64], inverse: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """np.unique's ``first`` and ``inverse`` renumbered in order of first use: (the first row of
    each new item (M,), the new item of each row (R,)), so a file we wrote keeps its order."""
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order))
    return first[order], rank[inverse.reshape(-1)]


def weld(
    triangles: npt.ArrayLike, triangle_texcoords: npt.ArrayLike
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """MD3 vertices for a mesh whose corners index positions and texcoords separately (MD2, MDL).

    An MD3 vertex carries one texcoord, so each distinct (vertex, texcoord) pair used by a
    corner becomes one vertex, numbered in order of first use. Returns ``(vertex_ids (N,),
    texcoord_ids (N,), triangles (T,3))``: the source vertex and texcoord of each new vertex
    and the triangles re-indexed into them, all int64.
    """
    tri = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    tst = np.asarray(triangle_texcoords, dtype=np.int64).reshape(-1, 3)
    pairs = np.stack([tri.reshape(-1), tst.reshape(-1)], axis=1)
    _, first, inverse = np.unique(pairs, axis=0, return_index=True, return_inverse=True)
    rows, new = _first_use(first, inverse)
    return pairs[rows, 0], pairs[rows, 1], new.reshape(-1, 3)


def weld_corners(
    positions: npt.ArrayLike, uvs: npt.ArrayLike | None, indices: npt.ArrayLike
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """MD3 vertices from per-corner data (OBJ faces, unindexed glTF): corners equal in every
    frame and in uv become one vertex, in order of first use. ``positions`` (F,N,3), ``uvs``
    (N,2) or None (zeros), ``indices`` (T,3) → (positions (F,V,3), uvs (V,2), triangles (T,3))."""
    p = np.asarray(positions, dtype=np.float32)
    f, n = p.shape[0], p.shape[1]
    uv = np.zeros((n, 2), np.float32) if uvs is None else np.asarray(uvs, dtype=np.float32)
    track = np.concatenate([p.transpose(1, 0, 2).reshape(n, 3 * f), uv], axis=1)
    _, first, inverse = np.unique(track, axis=0, return_index=True, return_inverse=True)
    rows, new = _first_use(first, inverse)
    tri = np.asarray(indices, dtype=np.int64).reshape(-1, 3)
    return np.ascontiguousarray(p[:, rows]), np.ascontiguousarray(uv[rows]), new[tri]


def join_split_corners(
    positions: npt.ArrayLike, normals: npt.ArrayLike, uvs: npt.ArrayLike, triangles: npt.ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """Vertices equal in every frame's position and in uv made one, in order of first use:
    (positions (F,V,3), normals (F,V,3) the group's mean direction per frame, uvs (V,2),
    triangles (T,3)) from (F,N,3), (F,N,3), (N,2), (T,3).

    An exporter splits a vertex whose corners' normals differ (Blender's does wherever its
    smoothing fans part, by as little as float noise or as much as a hard edge); MD3 holds
    one normal a vertex, and the engine counts vertices, so the copies come back as one."""
    p = np.asarray(positions, dtype=np.float32)
    nrm = np.asarray(normals, dtype=np.float32)
    uv = np.asarray(uvs, dtype=np.float32)
    f, n = p.shape[0], p.shape[1]
    track = np.concatenate([p.transpose(1, 0, 2).reshape(n, 3 * f), uv], axis=1)
    _, first, inverse = np.unique(track, axis=0, return_index=True, return_inverse=True)
    rows, new = _first_use(first, inverse)
    summed = np.zeros((f, len(rows), 3), np.float64)
    np.add.at(summed.transpose(1, 0, 2), new, nrm.astype(np.float64).transpose(1, 0, 2))
    length = np.linalg.norm(summed, axis=2, keepdims=True)
    # copies whose normals cancel keep the first one's
    mean = np.where(length > 1e-12, summed / np.where(length > 1e-12, length, 1.0), nrm[:, rows])
    tri = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    return (
        np.ascontiguousarray(p[:, rows]),
        mean.astype(np.float32),
        np.ascontiguousarray(uv[rows]),
        new[tri],
    )


def frame_bounds(
    positions: Sequence[npt.NDArray[np.int16]], num_frames: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """(mins (F,3), maxs (F,3), radii (F,)) float32 of stored (F,N,3) int16 positions.

    Bounds are over every surface's decoded vertices (zeros without surfaces); the radius is
    the length of the bounds' farthest corner from the origin, in double, rounded once to
    float32, as q3data computes it with the local origin at (0, 0, 0).
    """
    if not positions:
        zero = np.zeros((num_frames, 3), np.float32)
        return zero, zero.copy(), np.zeros(num_frames, np.float32)
    stored = np.concatenate([p.reshape(num_frames, -1, 3) for p in positions], axis=1)
    mins = (stored.min(axis=1) / np.float32(XYZ_STEPS)).astype(np.float32)
    maxs = (stored.max(axis=1) / np.float32(XYZ_STEPS)).astype(np.float32)
    corner = np.maximum(np.abs(mins.astype(np.float64)), np.abs(maxs.astype(np.float64)))
    radii = np.sqrt((corner**2).sum(axis=1)).astype(np.float32)
    return mins, maxs, radii


def build(
    surfaces: Sequence[SurfaceData],
    *,
    tags: Sequence[TagData] = (),
    frame_names: Sequence[str | bytes] | None = None,
    name: str | bytes = "",
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Encode a new model from arrays: F frames, each surface with its own vertices.

    ``frame_names`` F names (≤ 15 bytes; default ``frame0``, ``frame1``, ...); ``name`` the
    header's model name (≤ 63 bytes, often the model's game path); ``tags`` attachment points
    (≤ 63-byte names). The number of frames comes from the surfaces, else from the tags, else
    from ``frame_names``. Raises :class:`LimitExceededError` past ``limits`` (or a name past
    its field) and :class:`BadValueError` for inconsistent input; both are ModelFormatErrors.
    The model is a ``model_class`` (:class:`~quakemodels.Md3` when called as ``Md3.build``).
    """
    require_fields(surfaces, "surfaces", "SurfaceData", SURFACE_DATA_FIELDS)
    require_fields(tags, "tags", "TagData", ("name", "origins", "axes"))
    if surfaces:
        first = as_array(surfaces[0].positions, "surfaces[0].positions", None, None).shape
        num_frames = first[0] if len(first) == 3 else 1
    elif tags:
        num_frames = _frames_of(tags[0].origins, "tags[0].origins", (3,)).shape[0]
    elif frame_names is not None:
        num_frames = len(frame_names)
    else:
        raise BadValueError("a model needs surfaces, tags or frame names", field="num_frames")
    if num_frames < 1:
        raise BadValueError("a model needs at least one frame", field="num_frames")
    check_limit(num_frames, limits.max_frames, "frames", "num_frames", hard=MAX_FRAMES)
    check_limit(len(surfaces), limits.max_surfaces, "surfaces", "num_surfaces", hard=MAX_SURFACES)
    check_limit(len(tags), limits.max_tags, "tags", "num_tags")
    if frame_names is None:
        frame_names = [f"frame{i}" for i in range(num_frames)]
    if len(frame_names) != num_frames:
        raise BadValueError(
            f"{len(frame_names)} frame names for {num_frames} frames", field="frame_names"
        )
    encoded = [_surface_part(i, s, num_frames, limits) for i, s in enumerate(surfaces)]
    origins = np.zeros((num_frames, len(tags), 3), np.float32)
    axes = np.zeros((num_frames, len(tags), 3, 3), np.float32)
    for k, tag in enumerate(tags):
        o = _frames_of(tag.origins, f"tags[{k}].origins", (3,))
        a = _frames_of(tag.axes, f"tags[{k}].axes", (3, 3))
        if len(o) != num_frames or len(a) != num_frames:
            raise BadValueError(
                f"tags[{k}] has {len(o)} origins and {len(a)} axes for {num_frames} frames",
                field="tags",
            )
        with np.errstate(over="ignore"):
            o32, a32 = o.astype(np.float32), a.astype(np.float32)
        if not (np.isfinite(o32).all() and np.isfinite(a32).all()):
            raise BadValueError(
                f"tags[{k}] {tag.name!r} has a non-finite (or float32-overflowing) origin or axis",
                field="tags",
            )
        # a singular axis matrix collapses whatever hangs on the tag (two equal or zero rows)
        det = np.linalg.det(a32.astype(np.float64))
        flat = np.flatnonzero(~(np.abs(det) >= 1e-6))
        if flat.size:
            raise BadValueError(
                f"tags[{k}] {tag.name!r} frame {flat[0]}: the axes are singular (determinant"
                f" {det[flat[0]]:.3g}); a tag's rows are its forward, left and up vectors",
                field="tags",
            )
        origins[:, k], axes[:, k] = o32, a32
    tag_names = [encode_name(t.name, NAME_SIZE, "tag name", "tags.name") for t in tags]
    mins, maxs, radii = frame_bounds([p.vertices[..., :3] for p, _ in encoded], num_frames)
    parts = Md3Parts(
        name_raw=encode_name(name, NAME_SIZE, "model name", "name"),
        frame_names_raw=[
            encode_name(x, FRAME_NAME_SIZE, "frame name", "frames.name") for x in frame_names
        ],
        frame_mins=mins,
        frame_maxs=maxs,
        frame_origins=np.zeros((num_frames, 3), np.float32),
        frame_radii=radii,
        tag_names_raw=[list(tag_names) for _ in range(num_frames)],
        tag_origins=origins,
        tag_axes=axes,
        surfaces=[p for p, _ in encoded],
    )
    model = model_class.from_bytes(encode(parts))
    try:
        model.load_all()
    except ModelFormatError as e:  # a safety net: the checks above should make this unreachable
        raise BadValueError(f"the encoded model does not read back: {e}", field=e.field) from e
    errors = (
        np.max([e for _, e in encoded], axis=0) if encoded else np.zeros((num_frames, 3))
    ).astype(np.float64)
    return BuildResult(model=model, errors=errors, steps=np.full((num_frames, 3), 1.0 / XYZ_STEPS))


def _joined_if_over(surface: SurfaceData, what: str, limits: Limits) -> SurfaceData:
    """``surface`` with its split corners joined (:func:`join_split_corners`) when it has more
    vertices than ``limits`` allow and that brings it within them (a warning says so); else
    as it is (build reports the limit). Within the limit nothing changes, so a model's own
    vertices (even two that are alike) round-trip as they are."""
    limit = min(limits.max_vertices, MAX_VERTICES)
    try:
        p = np.asarray(surface.positions, dtype=np.float64)
        n = p.shape[1] if p.ndim == 3 else 0
        if n <= limit or surface.normals is None:
            return surface
        uv = np.asarray(surface.texcoords, dtype=np.float64)
        normals = np.asarray(surface.normals, dtype=np.float64)
        tri = np.asarray(surface.triangles)
    except (TypeError, ValueError):
        return surface  # not arrays: build reports what is wrong
    if uv.shape != (n, 2) or normals.shape != p.shape or tri.shape[1:] != (3,) or not tri.size:
        return surface
    if tri.ndim != 2 or not np.issubdtype(tri.dtype, np.integer) or tri.min() < 0 or tri.max() >= n:
        return surface
    if not (np.isfinite(p).all() and np.isfinite(uv).all() and np.isfinite(normals).all()):
        return surface
    positions, joined, uvs, triangles = join_split_corners(p, normals, uv, tri)
    if len(uvs) > limit:
        return surface
    warnings.warn(
        f"{what} {surface.name!r}: {n} vertices, {len(uvs)} once the copies of a vertex that"
        " differ only in their normals are joined (an exporter such as Blender's splits them);"
        f" the limit is {limit}",
        QuakeModelsWarning,
        stacklevel=4,
    )
    return replace(surface, positions=positions, triangles=triangles, texcoords=uvs,
                   normals=joined)  # fmt: skip


def _stored_order(indices: npt.ArrayLike, what: str) -> npt.ArrayLike:
    """A scene surface's counter-clockwise (T,3) ``indices`` in Quake's clockwise order; other
    shapes as given, for :func:`build` to refuse with its message."""
    tri = as_array(indices, what, np.int64, 2)
    return flip_winding(tri) if tri.shape[1:] == (3,) else tri


def from_scene(
    scene: ExportModel,
    *,
    name: str | bytes = "",
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Build an MD3 from a format-neutral scene (what the exporters read and the importers give).

    Each scene surface becomes an MD3 surface (its positions, normals, uvs, triangles turned
    from the scene's counter-clockwise order to Quake's clockwise one; its skin
    names as shaders), each tag a tag, the scene's frame names the frame names (cut to 15
    bytes when longer; ``frame0``, ``frame1``... when missing). ``name`` is the header's name.
    """
    surfaces = [
        SurfaceData(
            s.name,
            s.positions,
            _stored_order(s.indices, f"surfaces[{i}].indices"),
            s.uvs,
            normals=s.normals,
            shaders=[n for n in s.skin_names if n],
        )
        for i, s in enumerate(scene.surfaces)
    ]
    surfaces = [_joined_if_over(s, f"surfaces[{k}]", limits) for k, s in enumerate(surfaces)]
    tags = [TagData(t.name, t.origins, t.axes) for t in scene.tags]
    # checked before scene.num_frames reads the shape of the one or the other
    if scene.surfaces:
        as_array(scene.surfaces[0].positions, "surfaces[0].positions", None, 3)
    elif scene.tags:
        as_array(scene.tags[0].origins, "tags[0].origins", None, 2)
    names = scene_frame_names(scene.frame_names) or None
    if names is not None and len(names) != scene.num_frames:
        names = None
    return build(
        surfaces, tags=tags, frame_names=names, name=name, limits=limits, model_class=model_class
    )


__all__ = [
    "FORMAT_LIMITS",
    "QFILES",
    "VANILLA",
    "LimitExceededError",
    "Limits",
    "Md3Layout",
    "Md3Parts",
    "Md3SurfaceParts",
    "SurfaceData",
    "SurfaceLayout",
    "TagData",
    "build",
    "encode",
    "encode_normals",
    "frame_bounds",
    "from_scene",
    "join_split_corners",
    "parts_of",
    "quantize_positions",
    "save",
    "to_bytes",
    "weld",
    "weld_corners",
]
