"""Writing Quake 1 MDL files: an exact encoder for loaded models and ``build`` from arrays.

Two ways in:

* :func:`to_bytes` / :func:`save` serialize a loaded :class:`~quakemodels.Mdl` exactly as it
  was: the header's floats and flags, every skin and skin group (type words and intervals as
  stored), the texcoord and triangle records, every frame and frame group (group bounding boxes
  and intervals), the poses' raw name bytes and packed vertices, and the bytes after the model
  (Quake ME's ``QMEX`` block). :func:`parts_of` gives that content as an editable
  :class:`MdlParts`; :func:`encode` writes one.
* :func:`build` encodes new geometry the way MDL needs it, from the same arrays as
  ``Md2.build`` (positions, triangles, pixel texcoords and per-corner texcoord indices):

  - one ``scale`` and ``origin`` for the whole model (MDL has no per-frame scale): the bounds
    of every pose, 256 steps per axis, each coordinate the nearest step;
  - texcoords per vertex: a vertex used with two texcoords that are an on-seam pair (same t,
    s apart by ``skin_width // 2``) becomes one vertex flagged ``ALIAS_ONSEAM`` and the
    triangles that use the shifted pair are stored as back-facing (``faces_front = 0``); any
    other vertex used with several texcoords is split into one vertex per texcoord;
  - normals: area-weighted vertex normals (or the ones given), the nearest of the 162 anorms;
  - skins: (H,W) palette indices as given, or (H,W,3) RGB quantized to the nearest colour of
    the palette outside the fullbright rows 224..255 (they glow in the dark in the engines)
    unless ``fullbrights=True``; a skin width that is not a multiple of 4 (the software
    renderer refuses it) is padded on the right, which moves no texcoord;
  - frame and skin groups from ``frame_groups`` / ``skin_groups`` (their intervals stored as
    the engine reads them: cumulative end times);
  - the engines' limits (:data:`VANILLA` is GLQuake's, :data:`QUAKESPASM` QuakeSpasm's) raise
    :class:`~quakemodels.errors.LimitExceededError`; ``limits=`` changes them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ...core.atomic import write_bytes_atomic
from ...core.build import (
    as_array,
    check_corners,
    check_limit,
    check_not_empty,
    encode_name,
    mesh_arrays,
    skin_dimensions,
)
from ...core.palette import quantize as quantize_image
from ...core.trivertx_write import anorm_indices, quantize
from ...errors import BadValueError, LimitExceededError, ModelFormatError
from .layout import (
    FACES_FRONT,
    FIRST_FULLBRIGHT,
    FRAME_NAME_SIZE,
    HEADER,
    HEADER_SIZE,
    INTERVAL,
    MAGIC,
    ONSEAM,
    POSE_HEADER_SIZE,
    TEXCOORD,
    TRIANGLE,
    TYPE_SIZE,
    TYPE_WORD,
    VERSION,
    VERTEX,
    pose_dtype,
)
from .limits import FORMAT_LIMITS as FORMAT_LIMITS
from .limits import QUAKESPASM as QUAKESPASM
from .limits import VANILLA as VANILLA
from .limits import Limits as Limits
from .palette import PaletteLike
from .reader import MdlReader

R = TypeVar("R", bound=MdlReader)

_VECTORS = ("scale", "origin", "eye_position")
# Quake sizes a skin as width × height in a C int (Mod_LoadAllSkins)
MAX_SKIN_PIXELS = 2**31 - 1


@dataclass
class MdlSkin:
    """One of the header's skins: ``group`` the stored type word (0: a single image),
    ``intervals`` (n,) float32 for a group (None for a single image), ``indices`` (n,H,W) uint8
    palette indices."""

    group: int
    intervals: npt.NDArray[np.float32] | None
    indices: npt.NDArray[np.uint8]


@dataclass
class MdlFrame:
    """One of the header's frames: ``kind`` the stored type word (0: a single pose),
    ``num_poses``; for a group its stored bounding box ``bbox`` (8 bytes, daliasgroup_t's
    bboxmin and bboxmax) and ``intervals`` (n,) float32."""

    kind: int
    num_poses: int
    bbox: bytes = bytes(2 * VERTEX.itemsize)
    intervals: npt.NDArray[np.float32] | None = None


@dataclass
class MdlParts:
    """Everything an MDL file holds, as stored (V vertices, T triangles, P poses).

    ``header`` (1,) record of the spec's mdl_header (counts are recomputed on encoding);
    ``stverts`` (V,) records of mdl_texcoord; ``triangles`` (T,) records of mdl_triangle;
    ``poses`` (P,) records of :func:`~.layout.pose_dtype` (bbox, raw name, packed vertices);
    ``trailer`` the bytes after the last frame.
    """

    header: npt.NDArray[np.void]
    skins: list[MdlSkin]
    stverts: npt.NDArray[np.void]
    triangles: npt.NDArray[np.void]
    frames: list[MdlFrame]
    poses: npt.NDArray[np.void]
    trailer: bytes = b""

    @property
    def skin_size(self) -> tuple[int, int]:
        """(width, height) in pixels, from the header."""
        return int(self.header["skin_width"][0]), int(self.header["skin_height"][0])


# -- exact serialization of loaded models -------------------------------------------------------


def _word(data: bytes, offset: int) -> int:
    return int(np.frombuffer(data, TYPE_WORD, 1, offset)[0])


def parts_of(model: MdlReader) -> MdlParts:
    """The stored content of a loaded model, ready for :func:`encode`."""
    data = model.data
    header = np.frombuffer(data, HEADER, 1, 0).copy()
    skins = []
    indices = model.skin_indices
    for g in model.skin_groups:
        intervals = None if g.intervals is None else g.intervals.copy()
        skins.append(
            MdlSkin(
                _word(data, g.offset),
                intervals,
                indices[g.first_image : g.first_image + g.num_images].copy(),
            )
        )
    frames = []
    for f in model.frame_groups:
        if not f.is_group:
            frames.append(MdlFrame(0, 1))
            continue
        at = f.offset + 2 * TYPE_SIZE  # after the type word and numframes
        intervals = None if f.intervals is None else f.intervals.copy()
        bbox = data[at : at + 2 * VERTEX.itemsize]
        frames.append(MdlFrame(_word(data, f.offset), f.num_poses, bbox, intervals))
    size = POSE_HEADER_SIZE + VERTEX.itemsize * model.num_vertices
    raw = b"".join(data[o : o + size] for o in model.pose_offsets)
    return MdlParts(
        header=header,
        skins=skins,
        stverts=np.frombuffer(data, TEXCOORD, model.num_vertices, model.ofs_texcoords).copy(),
        triangles=np.frombuffer(data, TRIANGLE, model.num_triangles, model.ofs_triangles).copy(),
        frames=frames,
        poses=np.frombuffer(raw, pose_dtype(model.num_vertices), model.num_poses).copy(),
        trailer=model.trailer,
    )


def _check_parts(parts: MdlParts) -> None:
    """Counts and shapes the sections must agree on before they become bytes."""
    width, height = parts.skin_size
    num_vertices = len(parts.stverts)
    for i, skin in enumerate(parts.skins):
        n = skin.indices.shape[0] if skin.indices.ndim == 3 else -1
        if skin.indices.shape[1:] != (height, width) or (skin.group == 0 and n != 1):
            raise BadValueError(
                f"skins[{i}] has shape {skin.indices.shape}; a skin of {width} x {height}"
                f" images is (n,{height},{width}), n = 1 for a single image",
                field="skins",
            )
        if skin.group != 0 and (skin.intervals is None or len(skin.intervals) != n):
            raise BadValueError(f"skins[{i}] needs one interval per image", field="skins")
    if parts.poses.dtype != pose_dtype(num_vertices):
        raise BadValueError(f"poses must be records of {num_vertices} vertices", field="frames")
    if sum(f.num_poses for f in parts.frames) != len(parts.poses):
        raise BadValueError(
            f"the frames hold {sum(f.num_poses for f in parts.frames)} poses, not"
            f" {len(parts.poses)}",
            field="frames",
        )
    for i, f in enumerate(parts.frames):
        if f.kind == 0 and f.num_poses != 1:
            raise BadValueError(f"frames[{i}] is a single pose, not {f.num_poses}", field="frames")
        if f.kind != 0 and (f.intervals is None or len(f.intervals) != f.num_poses):
            raise BadValueError(f"frames[{i}] needs one interval per pose", field="frames")
        if len(f.bbox) != 2 * VERTEX.itemsize:
            raise BadValueError(f"frames[{i}].bbox must be 8 bytes", field="frames")


def _words(*values: int) -> bytes:
    return np.array(values, TYPE_WORD).tobytes()


def encode(parts: MdlParts) -> bytes:
    """The bytes of an MDL file holding ``parts``: header, skins, texcoords, triangles,
    frames, then the trailer."""
    _check_parts(parts)
    header = parts.header.copy()
    header["ident"] = MAGIC
    header["version"] = VERSION
    header["num_skins"] = len(parts.skins)
    header["num_verts"] = len(parts.stverts)
    header["num_tris"] = len(parts.triangles)
    header["num_frames"] = len(parts.frames)
    chunks = [header.tobytes()]
    for skin in parts.skins:
        if skin.group == 0:
            chunks.append(_words(0))
        else:
            assert skin.intervals is not None  # _check_parts
            chunks.append(_words(skin.group, len(skin.intervals)))
            chunks.append(skin.intervals.astype(INTERVAL).tobytes())
        chunks.append(np.ascontiguousarray(skin.indices, np.uint8).tobytes())
    chunks.append(parts.stverts.astype(TEXCOORD).tobytes())
    chunks.append(parts.triangles.astype(TRIANGLE).tobytes())
    first = 0
    for f in parts.frames:
        poses = parts.poses[first : first + f.num_poses]
        first += f.num_poses
        if f.kind == 0:
            chunks.append(_words(0))
        else:
            assert f.intervals is not None  # _check_parts
            chunks.append(_words(f.kind, f.num_poses) + f.bbox)
            chunks.append(f.intervals.astype(INTERVAL).tobytes())
        chunks.append(poses.tobytes())
    chunks.append(parts.trailer)
    assert len(chunks[0]) == HEADER_SIZE
    return b"".join(chunks)


def to_bytes(model: MdlReader) -> bytes:
    """The bytes of a loaded model, re-encoded from its parsed content (byte-exact)."""
    return encode(parts_of(model))


def save(model: MdlReader, path: str | os.PathLike[str]) -> None:
    """Write a loaded model to ``path`` atomically (nothing is replaced if encoding fails)."""
    write_bytes_atomic(path, to_bytes(model))


# -- building from arrays -----------------------------------------------------------------------


class BuildResult(NamedTuple, Generic[R]):
    """What :func:`build` returns: :class:`quakemodels.core.build.BuildResult`'s three fields
    and ``vertex_of`` (an MDL splits seam vertices).

    ``model`` the encoded model read back; ``errors`` (P,3) float64 the largest absolute
    position error per pose and axis (computed in double from the stored bytes, at most half a
    step); ``steps`` (P,3) float64 the quantization step (the model's one scale, repeated);
    ``vertex_of`` (V',) int64 the input vertex each MDL vertex comes from (seam splits repeat
    one).
    """

    model: R
    errors: npt.NDArray[np.float64]
    steps: npt.NDArray[np.float64]
    vertex_of: npt.NDArray[np.int64]


@dataclass(frozen=True)
class Seams:
    """Per-vertex texcoords for MDL (V' vertices, T triangles).

    ``vertex_of`` (V',) int64 input vertex of each MDL vertex; ``st`` (V',2) int64 its stored
    s, t; ``on_seam`` (V',) bool; ``triangles`` (T,3) int64 MDL vertex indices;
    ``faces_front`` (T,) bool.
    """

    vertex_of: npt.NDArray[np.int64]
    st: npt.NDArray[np.int64]
    on_seam: npt.NDArray[np.bool_]
    triangles: npt.NDArray[np.int64]
    faces_front: npt.NDArray[np.bool_]
    split: int = field(default=0)
    """How many vertices were added for texcoords that are not an on-seam pair."""


def seam_vertices(
    triangles: npt.ArrayLike,
    corner_st: npt.ArrayLike,
    num_vertices: int,
    skin_width: int,
) -> Seams:
    """MDL vertices from (T,3) ``triangles`` and (T,3,2) integer pixel texcoords per corner.

    A vertex used with exactly two texcoords that are an on-seam pair (same t, s apart by
    ``skin_width // 2``) is one on-seam vertex holding the smaller s; a triangle using the
    larger one is back-facing. A back-facing triangle shifts every on-seam corner, so a vertex
    whose unshifted texcoord is used by a back-facing triangle stops being a seam vertex (it is
    split instead) until no such conflict is left. Every other (vertex, texcoord) pair beyond
    a vertex's first becomes a vertex of its own, appended after the input's V vertices in
    first-use order. A vertex no triangle uses keeps s = t = 0.
    """
    tri = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    st = np.asarray(corner_st, dtype=np.int64).reshape(-1, 3, 2)
    half = skin_width // 2
    uses: list[dict[tuple[int, int], None]] = [{} for _ in range(num_vertices)]
    corners = [
        [(int(tri[t, k]), (int(st[t, k, 0]), int(st[t, k, 1]))) for k in range(3)]
        for t in range(len(tri))
    ]
    for corner_list in corners:
        for v, c in corner_list:
            uses[v].setdefault(c, None)
    seam: dict[int, tuple[int, int]] = {}
    for v, used in enumerate(uses):
        if len(used) == 2 and half > 0:
            a, b = sorted(used)
            if a[1] == b[1] and b[0] - a[0] == half:
                seam[v] = a

    def shifted(v: int, c: tuple[int, int]) -> bool:
        base = seam.get(v)
        return base is not None and c == (base[0] + half, base[1])

    while True:
        back = [any(shifted(v, c) for v, c in cl) for cl in corners]
        conflicts = {
            v
            for cl, b in zip(corners, back, strict=True)
            if b
            for v, c in cl
            if v in seam and c == seam[v]
        }
        if not conflicts:
            break
        for v in conflicts:
            del seam[v]
    index: dict[tuple[int, tuple[int, int]], int] = {}
    vertex_of: list[int] = []
    st_out: list[tuple[int, int]] = []
    for v in range(num_vertices):
        first = seam.get(v) or next(iter(uses[v]), (0, 0))
        index[(v, first)] = v
        vertex_of.append(v)
        st_out.append(first)
    split = 0
    for cl in corners:
        for v, c in cl:
            if v in seam or (v, c) in index:
                continue
            index[(v, c)] = len(vertex_of)
            vertex_of.append(v)
            st_out.append(c)
            split += 1
    out_tris = np.empty((len(tri), 3), np.int64)
    for t, cl in enumerate(corners):
        for k, (v, c) in enumerate(cl):
            out_tris[t, k] = v if v in seam else index[(v, c)]
    on_seam = np.zeros(len(vertex_of), bool)
    on_seam[list(seam)] = True
    return Seams(
        vertex_of=np.array(vertex_of, np.int64),
        st=np.array(st_out, np.int64).reshape(-1, 2),
        on_seam=on_seam,
        triangles=out_tris,
        faces_front=~np.array(back, bool).reshape(-1),
        split=split,
    )


def quantize_skin(
    image: npt.ArrayLike, palette: PaletteLike | None = None, *, fullbrights: bool = False
) -> npt.NDArray[np.uint8]:
    """(H,W) uint8 palette indices of an (H,W,3) or (H,W,4) RGB(A) uint8 image: each pixel the
    nearest palette colour (squared RGB distance, lowest index on ties; alpha ignored) among
    indices 0..223, or 0..254 with ``fullbrights`` (255 is transparent on MF_HOLEY models)."""
    usable = 255 if fullbrights else FIRST_FULLBRIGHT
    return quantize_image(image, palette, usable=usable, field="skins", what="a skin image")


def _skin_indices(
    skins: Sequence[npt.ArrayLike],
    size: tuple[int, int],
    palette: PaletteLike | None,
    fullbrights: bool,
) -> npt.NDArray[np.uint8]:
    """(K,H,W') uint8 indices: each skin as indices or quantized RGB, padded to width W'."""
    width, height = size
    out = []
    for i, skin in enumerate(skins):
        arr = as_array(skin, f"skins[{i}]", None, None)
        if arr.ndim == 2:
            if arr.dtype.kind not in "iu" or (arr.size and (arr.min() < 0 or arr.max() > 255)):
                raise BadValueError(
                    f"skins[{i}]: (H,W) palette indices must be integers in 0..255", field="skins"
                )
            indices = arr.astype(np.uint8)
        else:
            indices = quantize_skin(arr, palette, fullbrights=fullbrights)
        if indices.shape != (height, width):
            raise BadValueError(
                f"skins[{i}] is {indices.shape[1]} x {indices.shape[0]} pixels, not the skin size"
                f" {width} x {height}",
                field="skins",
            )
        out.append(indices)
    return np.stack(out) if out else np.zeros((0, height, width), np.uint8)


def _groups(
    groups: Sequence[Sequence[float] | None] | None, total: int, what: str, field_name: str
) -> list[tuple[int, npt.NDArray[np.float32] | None]]:
    """(count, intervals or None) per header entry; None: every item an entry of its own."""
    if groups is None:
        return [(1, None)] * total
    out: list[tuple[int, npt.NDArray[np.float32] | None]] = []
    for i, g in enumerate(groups):
        if g is None:
            out.append((1, None))
            continue
        ivals = as_array(g, f"{what}[{i}]", np.float64, None).reshape(-1)
        with np.errstate(over="ignore"):  # stored as float32: past its range is infinity
            stored = ivals.astype(np.float32)
        if not len(ivals) or not np.all(np.isfinite(stored)) or np.any(stored <= 0):
            raise BadValueError(
                f"{what}[{i}]: a group needs intervals > 0 (cumulative end times, one per item),"
                f" got {ivals.tolist()}",
                field=field_name,
            )
        if np.any(np.diff(ivals) <= 0):
            raise BadValueError(
                f"{what}[{i}]: intervals are end times and must increase: {ivals.tolist()}",
                field=field_name,
            )
        out.append((len(ivals), ivals.astype(np.float32)))
    if sum(n for n, _ in out) != total:
        raise BadValueError(
            f"the {what} cover {sum(n for n, _ in out)} items, not {total}", field=field_name
        )
    return out


def _bbox(compressed: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """(min, max) packed vertices (x, y, z, normal 0) over (..., V, 3) compressed positions."""
    flat = compressed.reshape(-1, 3)
    lo, hi = np.zeros(4, np.uint8), np.zeros(4, np.uint8)
    if len(flat):
        lo[:3], hi[:3] = flat.min(axis=0), flat.max(axis=0)
    return lo, hi


def _header_words(
    eye_position: tuple[float, float, float], flags: int, synctype: int
) -> npt.NDArray[np.float64]:
    """(3,) float64 ``eye_position``, checked with ``flags`` and ``synctype`` to fit the
    header (float32 and int32 words: numpy would store an overflow as infinity or refuse it
    with an OverflowError); BadValueError naming the field."""
    eye = as_array(eye_position, "eye_position", np.float64, 1)
    if eye.shape != (3,) or not (np.abs(eye) <= np.finfo(np.float32).max).all():
        raise BadValueError(
            f"eye_position {eye_position!r} must be three finite float32 values",
            field="eye_position",
        )
    for value, name in ((flags, "flags"), (synctype, "synctype")):
        if not isinstance(value, int | np.integer) or not -(2**31) <= value < 2**31:
            raise BadValueError(f"{name}={value!r} is not a 32-bit integer", field=name)
    return eye


def build(
    positions: npt.ArrayLike,
    triangles: npt.ArrayLike,
    texcoords_px: npt.ArrayLike,
    triangle_texcoords: npt.ArrayLike,
    frame_names: Sequence[str | bytes],
    *,
    skins: Sequence[npt.ArrayLike] = (),
    skin_size: tuple[int, int] | None = None,
    skin_groups: Sequence[Sequence[float] | None] | None = None,
    frame_groups: Sequence[Sequence[float] | None] | None = None,
    normals: npt.ArrayLike | None = None,
    palette: PaletteLike | None = None,
    fullbrights: bool = False,
    eye_position: tuple[float, float, float] = (0.0, 0.0, 0.0),
    flags: int = 0,
    synctype: int = 0,
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Encode a new MDL from the arrays ``Md2.build`` takes (P poses, V vertices, T triangles,
    S texcoords).

    ``positions`` (P,V,3) Quake model space; ``triangles`` (T,3) wound as Quake's are;
    ``texcoords_px`` (S,2) skin pixels (rounded); ``triangle_texcoords`` (T,3) rows of them;
    ``frame_names`` P names (≤ 15 bytes). ``skins``: (H,W) palette indices or (H,W,3) RGB
    images of ``skin_size`` (width, height; default the first skin's, else 256 x 256); with
    none, one skin of palette index 0. ``frame_groups`` / ``skin_groups``: one entry per
    header frame / skin, ``None`` for a single pose / image or a group's intervals (end times,
    increasing); default every pose and image alone. ``normals`` (P,V,3) vectors or (P,V)
    anorm indices, computed when None. ``model_class`` is what the bytes are read back as.
    """
    pos, tri, tri_st, st_float = mesh_arrays(
        positions, triangles, texcoords_px, triangle_texcoords, "P"
    )
    num_poses, num_vertices = pos.shape[0], pos.shape[1]
    if st_float.shape[1:] != (2,) or not np.isfinite(st_float).all():
        raise BadValueError(
            f"texcoords_px must be finite (S,2), got {st_float.shape}", field="texcoords"
        )
    if len(frame_names) != num_poses:
        raise BadValueError(f"{len(frame_names)} frame names for {num_poses} poses", field="frames")
    check_not_empty(
        (
            (num_poses, "poses", "num_frames"),
            (num_vertices, "vertices", "num_verts"),
            (len(tri), "triangles", "num_tris"),
        )
    )
    check_corners(tri, num_vertices, tri_st, len(st_float))
    first_skin = np.asarray(skins[0]) if len(skins) else None
    if skin_size is None:
        skin_size = (
            (int(first_skin.shape[1]), int(first_skin.shape[0]))
            if first_skin is not None and first_skin.ndim >= 2
            else (256, 256)
        )
    width, height = skin_dimensions(skin_size, "skin_width")
    check_limit(height, limits.max_skin_height, "skin rows", "skin_height")
    # (a blank skin that large would also be allocated here)
    if width * height > MAX_SKIN_PIXELS:
        raise LimitExceededError(
            f"a skin of {width} x {height} pixels exceeds the format's {MAX_SKIN_PIXELS} pixels",
            field="skin_width",
        )
    images = _skin_indices(skins, (width, height), palette, fullbrights)
    if not len(images):
        images = np.zeros((1, height, width), np.uint8)
    multiple = max(limits.skin_width_multiple, 1)
    padded = -(-width // multiple) * multiple
    if padded != width:  # pad on the right: pixel texcoords keep pointing at the same texels
        images = np.pad(images, ((0, 0), (0, 0), (0, padded - width)))
    skin_entries = _groups(skin_groups, len(images), "skin groups", "skins")
    check_limit(len(skin_entries), limits.max_skins, "skins", "num_skins")
    frame_entries = _groups(frame_groups, num_poses, "frame groups", "frames")
    check_limit(num_poses, limits.max_poses, "poses", "num_frames")
    check_limit(len(tri), limits.max_triangles, "triangles", "num_tris")

    st_rounded = np.rint(st_float)
    if np.any(np.abs(st_rounded) > 2**30):  # checked before the cast, which would wrap
        raise BadValueError("texcoords_px do not fit 32-bit integers", field="texcoords")
    st_px = st_rounded.astype(np.int64)
    seams = seam_vertices(tri, st_px[tri_st], num_vertices, padded)
    check_limit(
        len(seams.vertex_of), limits.max_vertices, "vertices (after seam splits)", "num_verts"
    )

    normal_indices = anorm_indices(normals, pos, tri)
    # One grid for every pose: quantize all poses' vertices as one frame.
    compressed, scales, origins, _ = quantize(pos.reshape(1, -1, 3))
    scale, origin = scales[0], origins[0]
    compressed = compressed.reshape(num_poses, num_vertices, 3)
    decoded = compressed * scale.astype(np.float64) + origin.astype(np.float64)
    errors = np.abs(decoded - pos).max(axis=1)
    steps = np.broadcast_to(scale.astype(np.float64), (num_poses, 3)).copy()

    vo = seams.vertex_of
    poses = np.zeros(num_poses, pose_dtype(len(vo)))
    vertices = np.empty((num_poses, len(vo), VERTEX.itemsize), np.uint8)
    vertices[:, :, :3] = compressed[:, vo]
    vertices[:, :, 3] = normal_indices[:, vo]
    poses["vertices"] = vertices
    eye = _header_words(eye_position, flags, synctype)
    names = [encode_name(n, FRAME_NAME_SIZE, "frame name", "frames.name") for n in frame_names]
    poses["name"] = names
    poses["bbox_min"]["values"] = compressed.min(axis=1)  # normal index 0, as modelgen
    poses["bbox_max"]["values"] = compressed.max(axis=1)
    frames: list[MdlFrame] = []
    first = 0
    for n, ivals in frame_entries:
        if ivals is None:
            frames.append(MdlFrame(0, 1))
        else:
            lo, hi = _bbox(compressed[first : first + n])
            frames.append(MdlFrame(1, n, lo.tobytes() + hi.tobytes(), ivals))
        first += n
    skin_list: list[MdlSkin] = []
    first = 0
    for n, ivals in skin_entries:
        group = images[first : first + n]
        skin_list.append(MdlSkin(0 if ivals is None else 1, ivals, group))
        first += n

    stverts = np.zeros(len(vo), TEXCOORD)
    stverts["on_seam"] = np.where(seams.on_seam, ONSEAM, 0)
    stverts["s"] = seams.st[:, 0]
    stverts["t"] = seams.st[:, 1]
    tris = np.zeros(len(tri), TRIANGLE)
    tris["faces_front"] = np.where(seams.faces_front, FACES_FRONT, 0)
    tris["vertices"] = seams.triangles

    header = np.zeros(1, HEADER)
    lo_all = decoded.reshape(-1, 3)
    header["skin_width"] = padded
    header["skin_height"] = height
    header["synctype"] = synctype
    header["flags"] = flags
    # boundingradius as modelgen computes it: the farthest vertex from the model's origin
    header["radius"] = float(np.sqrt((lo_all**2).sum(axis=1).max()))
    # size: the average triangle area over every pose (modelgen's "average area")
    p0, p1, p2 = decoded[:, tri[:, 0]], decoded[:, tri[:, 1]], decoded[:, tri[:, 2]]
    header["size"] = float(np.linalg.norm(np.cross(p1 - p0, p2 - p0), axis=2).mean() / 2)
    for name, value in zip(_VECTORS, (scale, origin, eye), strict=True):
        for k, axis in enumerate("xyz"):
            header[name][axis] = value[k]
    parts = MdlParts(
        header=header, skins=skin_list, stverts=stverts, triangles=tris, frames=frames, poses=poses
    )
    model = model_class.from_bytes(encode(parts), palette=palette)
    try:
        model.load_all()
    except ModelFormatError as e:
        raise BadValueError(f"the encoded model does not read back: {e}", field=e.field) from e
    return BuildResult(model=model, errors=errors, steps=steps, vertex_of=vo)


__all__ = [
    "FORMAT_LIMITS",
    "QUAKESPASM",
    "VANILLA",
    "BuildResult",
    "Limits",
    "MdlFrame",
    "MdlParts",
    "MdlSkin",
    "Seams",
    "build",
    "encode",
    "parts_of",
    "quantize_skin",
    "save",
    "seam_vertices",
    "to_bytes",
]
