"""The IQM reader: the header through the spec's dtype, every section as numpy arrays, the
animation decoded into per-frame joint TRS in one vectorised pass, and the whole model as the
neutral :class:`~quakemodels.core.skeletal.SkeletalScene`.

Every count is checked against the file's size (Python ints: no overflow) before an array is
made; every index (triangle corners, mesh ranges, joint parents, blend indexes, names in the
text) against what it indexes. Faults are :class:`~quakemodels.errors.ModelFormatError`\\ s
naming the field (``meshes[1].first_vertex``) and its byte offset.

IQM is Z up like Quake (x forward, y left): positions are in model space as the engine draws
them. A joint's transform is ``T · R · S`` (iqm.txt: "output = (input*scale)*rotation +
translation"), relative to its parent; its inverse bind matrix is the inverse of its world
matrix in that base pose. Triangles are stored clockwise seen from outside (as Quake's
formats); the scene turns them counter-clockwise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.facade import decoded, read_source
from ...core.mesh import flip_winding
from ...core.records import replace
from ...core.skeletal import SkeletalClip, SkeletalScene, SkinnedMesh, trs_matrices, world_matrices
from ...errors import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    LimitExceededError,
    ModelFormatError,
    TruncatedError,
)
from .layout import (
    ADJACENCY,
    ANIM,
    BOUNDS,
    CHANNEL,
    CHANNELS,
    COMPONENT,
    CUSTOM,
    EXTENSION,
    FORMAT_NAMES,
    HEADER,
    HEADER_OFFSETS,
    HEADER_SIZE,
    JOINT,
    LOOP,
    MAGIC,
    MESH,
    POSE,
    TRIANGLE,
    TYPE_NAMES,
    VERSION,
    VERTEX_ARRAY,
)
from .limits import MAX_EXTENSIONS, MAX_JOINTS, MAX_POSE_FRAMES

F64 = npt.NDArray[np.float64]
DEFAULT_FPS = 10.0
"""The frame rate of an anim whose ``framerate`` is not a positive number (Quake's 10)."""


@dataclass(frozen=True)
class IqmMesh:
    """One mesh: its ``name`` and ``material`` strings, and the ranges of the shared vertices
    and triangles it owns."""

    index: int
    name: str
    material: str
    first_vertex: int
    num_vertices: int
    first_triangle: int
    num_triangles: int


@dataclass(frozen=True)
class VertexArray:
    """One vertex array: its ``type`` (``kind`` its enum name, or ``custom:<name>``),
    ``flags``, ``format`` and ``size`` as stored, its ``offset``, and ``data`` (V, size) in
    the stored component type (half as float16)."""

    index: int
    type: int
    kind: str
    flags: int
    format: int
    size: int
    offset: int
    data: npt.NDArray[Any]


@dataclass(frozen=True)
class Anim:
    """A named range of frames with its frame rate and IQM_LOOP flag."""

    name: str
    first_frame: int
    num_frames: int
    framerate: float
    flags: int

    @property
    def loop(self) -> bool:
        return bool(self.flags & LOOP)

    @property
    def frames(self) -> range:
        return range(self.first_frame, self.first_frame + self.num_frames)


@dataclass(frozen=True)
class Extension:
    """One extension of the linked list: its name and its data bytes."""

    name: str
    data: bytes
    offset: int


class IqmReader:
    """An Inter-Quake Model (``INTERQUAKEMODEL\\0`` version 2), read lazily section by section.

    ``header`` (dict of the header's fields), ``text`` (bytes), ``mesh_records``, ``vertex_arrays``,
    ``triangles`` (T,3) uint32, ``adjacency`` (T,3) uint32 or None, joints (``joint_names``,
    ``joint_parents`` (J,) intp, ``joint_translate`` (J,3), ``joint_rotate`` (J,4) x y z w,
    ``joint_scale`` (J,3) float64), poses (``pose_parents``, ``pose_masks`` (P,) uint32,
    ``pose_offsets``, ``pose_scales`` (P,10) float32), ``frame_channels`` (F,C) uint16 as
    stored, ``channels`` (F,P,10) float64 decoded, ``anims``, ``frame_bounds`` (F,8) float32 or
    None, ``comment`` bytes, ``extensions``; :meth:`skeletal` the neutral scene.
    """

    ARRAYS = (
        "text",
        "mesh_records",
        "vertex_arrays",
        "positions",
        "texcoords",
        "normals",
        "tangents",
        "colors",
        "blend_indexes",
        "blend_weights",
        "triangles",
        "adjacency",
        "joint_names",
        "joint_parents",
        "joint_translate",
        "joint_rotate",
        "joint_scale",
        "pose_parents",
        "pose_masks",
        "pose_offsets",
        "pose_scales",
        "frame_channels",
        "channels",
        "anims",
        "frame_bounds",
        "comment",
        "extensions",
    )
    """Every lazily decoded section, in the order :meth:`validate` needs none of."""

    def __init__(self, data: bytes, name: str | None = None) -> None:
        self.data = bytes(data)
        self.name = name
        self.header = self._read_header()
        self.size = len(self.data)

    # -- constructors -----------------------------------------------------------------------

    @classmethod
    def from_bytes(cls, data: bytes, *, name: str | None = None) -> Any:
        """The model in ``data`` (``name`` for messages and skin lookup)."""
        return cls(data, name)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Any:
        """The model at ``path``."""
        data, name = read_source(path)
        return cls(data, name)

    # -- the header and the section walk ----------------------------------------------------

    def _read_header(self) -> dict[str, int]:
        data = self.data
        if len(data) < len(MAGIC) or data[: len(MAGIC)] != MAGIC:
            raise BadMagicError(
                f"magic={data[: len(MAGIC)]!r} is not {MAGIC!r} (not an IQM file)",
                field="magic",
                offset=0,
            )
        if len(data) < HEADER_SIZE:
            raise TruncatedError(
                f"the header needs {HEADER_SIZE} bytes, the file has {len(data)}",
                field="version",
                offset=len(data),
            )
        (header,) = _rows(np.frombuffer(data, HEADER, count=1))
        del header["magic"]
        if header["version"] != VERSION:
            raise BadVersionError(
                f"version={header['version']} (only IQM version {VERSION} is read)",
                field="version",
                offset=HEADER_OFFSETS["version"],
            )
        if header["len_file"] > len(data):
            raise TruncatedError(
                f"len_file={header['len_file']} but the file has {len(data)} bytes",
                field="len_file",
                offset=HEADER_OFFSETS["len_file"],
            )
        return header

    def _section(self, ofs_field: str, count: int, item: int, what: str) -> int:
        """The offset of ``count`` items of ``item`` bytes at header field ``ofs_field``,
        checked to lie in the file (after the header) before anything is read."""
        ofs = self.header[ofs_field]
        if count == 0:
            return ofs
        if ofs < HEADER_SIZE or ofs + count * item > self.size:
            raise TruncatedError(
                f"{ofs_field}={ofs}: {count} {what} of {item} bytes ({count * item} bytes) do not"
                f" fit in the file ({self.size} bytes, header {HEADER_SIZE})",
                field=ofs_field,
                offset=HEADER_OFFSETS[ofs_field],
            )
        return ofs

    def _records(self, dtype: np.dtype[Any], ofs_field: str, count: int, what: str) -> Any:
        ofs = self._section(ofs_field, count, dtype.itemsize, what)
        return np.frombuffer(self.data, dtype, count=count, offset=ofs if count else 0)

    def _count_field(self, name: str) -> int:
        return HEADER_OFFSETS[name]

    # -- text -------------------------------------------------------------------------------

    @decoded
    def text(self) -> bytes:
        """The string table (``len_text`` bytes at ``ofs_text``)."""
        n = self.header["len_text"]
        ofs = self._section("ofs_text", n, 1, "text bytes")
        return self.data[ofs : ofs + n]

    def string(self, at: int, field: str, offset: int) -> str:
        """The NUL-terminated string ``at`` bytes into the text (Latin-1: a byte a character);
        a BadValueError naming ``field`` at ``offset`` when it starts past the text."""
        text = self.text
        if at >= len(text) or at < 0:
            if at == 0:
                return ""  # no text at all: every name is the empty first string
            raise BadValueError(
                f"{field}={at} is past the text ({len(text)} bytes)", field=field, offset=offset
            )
        end = text.find(b"\0", at)
        return text[at : end if end >= 0 else len(text)].decode("latin-1")

    # -- meshes and vertices ------------------------------------------------------------------

    @decoded
    def mesh_records(self) -> list[IqmMesh]:
        """Every mesh, its ranges checked against ``num_vertices`` and ``num_triangles``."""
        h = self.header
        recs = self._records(MESH, "ofs_meshes", h["num_meshes"], "meshes")
        out = []
        base = h["ofs_meshes"]
        for i, r in enumerate(_rows(recs)):
            at = base + i * MESH.itemsize

            def where(f: str, at: int = at) -> int:
                return at + MESH.fields[f][1]  # type: ignore[index]

            first, count = int(r["first_vertex"]), int(r["num_vertices"])
            if first + count > h["num_vertices"]:
                raise BadValueError(
                    f"meshes[{i}]: vertices {first}..{first + count} are past num_vertices="
                    f"{h['num_vertices']}",
                    field=f"meshes[{i}].num_vertices",
                    offset=where("num_vertices"),
                )
            tfirst, tcount = int(r["first_triangle"]), int(r["num_triangles"])
            if tfirst + tcount > h["num_triangles"]:
                raise BadValueError(
                    f"meshes[{i}]: triangles {tfirst}..{tfirst + tcount} are past num_triangles="
                    f"{h['num_triangles']}",
                    field=f"meshes[{i}].num_triangles",
                    offset=where("num_triangles"),
                )
            out.append(
                IqmMesh(
                    i,
                    self.string(int(r["ofs_name"]), f"meshes[{i}].ofs_name", where("ofs_name")),
                    self.string(
                        int(r["ofs_material"]), f"meshes[{i}].ofs_material", where("ofs_material")
                    ),
                    first,
                    count,
                    tfirst,
                    tcount,
                )
            )
        return out

    @decoded
    def vertex_arrays(self) -> list[VertexArray]:
        """Every vertex array with its data (V, size), checked to lie in the file."""
        h = self.header
        recs = self._records(VERTEX_ARRAY, "ofs_vertex_arrays", h["num_vertex_arrays"], "arrays")
        n = h["num_vertices"]
        out = []
        for i, r in enumerate(_rows(recs)):
            at = h["ofs_vertex_arrays"] + i * VERTEX_ARRAY.itemsize
            kind_value, fmt, size, ofs = (int(r[k]) for k in ("type", "format", "size", "offset"))
            label = f"vertex_arrays[{i}]"
            if fmt not in COMPONENT:
                raise BadValueError(
                    f"{label}.format={fmt} is no IQM component format (0..8)",
                    field=f"{label}.format",
                    offset=at + VERTEX_ARRAY.fields["format"][1],  # type: ignore[index]
                )
            if not 1 <= size <= 16:
                raise BadValueError(
                    f"{label}.size={size} components per vertex (1..16 read)",
                    field=f"{label}.size",
                    offset=at + VERTEX_ARRAY.fields["size"][1],  # type: ignore[index]
                )
            item = COMPONENT[fmt]
            if n and (ofs < HEADER_SIZE or ofs + n * size * item.itemsize > self.size):
                raise TruncatedError(
                    f"{label}.offset={ofs}: {n} vertices × {size} {FORMAT_NAMES[fmt]} do not fit"
                    f" in the file ({self.size} bytes)",
                    field=f"{label}.offset",
                    offset=at + VERTEX_ARRAY.fields["offset"][1],  # type: ignore[index]
                )
            if kind_value >= CUSTOM:
                kind = "custom:" + self.string(
                    kind_value - CUSTOM,
                    f"{label}.type",
                    at + VERTEX_ARRAY.fields["type"][1],  # type: ignore[index]
                )
            else:
                kind = TYPE_NAMES.get(kind_value, f"reserved{kind_value}")
            data = np.frombuffer(self.data, item, count=n * size, offset=ofs if n else 0)
            out.append(
                VertexArray(
                    i, kind_value, kind, int(r["flags"]), fmt, size, ofs, data.reshape(n, size)
                )
            )
        return out

    def array(self, kind: str) -> VertexArray | None:
        """The first vertex array of type ``kind`` (``position``, ``blend_weights``...)."""
        return next((a for a in self.vertex_arrays if a.kind == kind), None)

    def _float_array(self, kind: str, width: int, required: bool = False) -> F64 | None:
        """(V, width) float64 of a standard array (integer formats as their values), checked
        finite; None when absent (a ModelFormatError when ``required``)."""
        a = self.array(kind)
        if a is None:
            if required and self.header["num_vertices"]:
                raise BadValueError(
                    f"no {kind} vertex array",
                    field="vertex_arrays",
                    offset=HEADER_OFFSETS["ofs_vertex_arrays"],
                )
            return None
        if a.size < width:
            raise BadValueError(
                f"vertex_arrays[{a.index}] ({kind}) has {a.size} components, {width} needed",
                field=f"vertex_arrays[{a.index}].size",
                offset=self.header["ofs_vertex_arrays"] + a.index * VERTEX_ARRAY.itemsize,
            )
        with np.errstate(invalid="ignore"):  # a NaN half: found just below, by field
            values = _f64(a.data[:, :width])
        bad = ~np.isfinite(values)
        if bad.any():
            v = int(np.argwhere(bad)[0][0])
            raise BadValueError(
                f"vertex_arrays[{a.index}] ({kind}) vertex {v} is not a finite number",
                field=f"vertex_arrays[{a.index}].data",
                offset=a.offset + v * a.size * a.data.itemsize,
            )
        return values

    @decoded
    def positions(self) -> F64:
        """(V,3) float64 vertex positions in the bind pose (model space, Z up)."""
        found = self._float_array("position", 3, required=True)
        return np.zeros((0, 3)) if found is None else found

    @decoded
    def texcoords(self) -> F64 | None:
        """(V,2) float64 texture coordinates (t down), or None."""
        return self._float_array("texcoord", 2)

    @decoded
    def normals(self) -> F64 | None:
        """(V,3) float64 vertex normals, or None."""
        return self._float_array("normal", 3)

    @decoded
    def tangents(self) -> F64 | None:
        """(V,4) float64 tangents (xyz, handedness w), or None."""
        return self._float_array("tangent", 4)

    @decoded
    def colors(self) -> npt.NDArray[Any] | None:
        """(V,4) vertex colours as stored (ubyte in standard files), or None."""
        a = self.array("color")
        return None if a is None else a.data

    @decoded
    def blend_indexes(self) -> npt.NDArray[np.intp] | None:
        """(V,K) intp joint index of each influence, checked below ``num_joints``, or None."""
        a = self.array("blend_indexes")
        if a is None:
            return None
        if a.data.dtype.kind not in "iu":
            raise BadValueError(
                f"vertex_arrays[{a.index}] (blend_indexes) is {FORMAT_NAMES[a.format]}, not an"
                " integer format",
                field=f"vertex_arrays[{a.index}].format",
                offset=self.header["ofs_vertex_arrays"] + a.index * VERTEX_ARRAY.itemsize,
            )
        idx = a.data.astype(np.int64)
        joints = max(self.header["num_joints"], 1)
        bad = (idx < 0) | (idx >= joints)
        if bad.any():
            v, k = (int(x) for x in np.argwhere(bad)[0])
            raise BadValueError(
                f"vertex {v} blend index {k} = {int(idx[v, k])} is not below num_joints={joints}",
                field=f"vertex_arrays[{a.index}].data",
                offset=a.offset + (v * a.size + k) * a.data.itemsize,
            )
        return idx.astype(np.intp)

    @decoded
    def blend_weights(self) -> F64 | None:
        """(V,K) float64 weights: ubyte (and other unsigned) formats normalised to 0..1 by
        their maximum, floats as stored; checked finite and not negative; or None."""
        a = self.array("blend_weights")
        if a is None:
            return None
        with np.errstate(invalid="ignore"):  # a NaN half: found just below, by field
            w = _f64(a.data)
        if a.data.dtype.kind == "u" or a.data.dtype.kind == "i":
            w = w / float(np.iinfo(a.data.dtype).max)
        bad = ~np.isfinite(w) | (w < 0)
        if bad.any():
            v = int(np.argwhere(bad)[0][0])
            raise BadValueError(
                f"vertex {v} has a blend weight that is negative or not a finite number",
                field=f"vertex_arrays[{a.index}].data",
                offset=a.offset + v * a.size * a.data.itemsize,
            )
        return w

    @decoded
    def triangles(self) -> npt.NDArray[np.uint32]:
        """(T,3) uint32 vertex indices as stored, each checked below ``num_vertices``."""
        h = self.header
        recs = self._records(TRIANGLE, "ofs_triangles", h["num_triangles"], "triangles")
        tri = np.asarray(recs["vertices"], dtype=np.uint32).reshape(-1, 3)
        bad = tri >= h["num_vertices"]
        if bad.any():
            t, k = (int(x) for x in np.argwhere(bad)[0])
            raise BadValueError(
                f"triangles[{t}].vertices[{k}]={int(tri[t, k])} is not below num_vertices="
                f"{h['num_vertices']}",
                field=f"triangles[{t}].vertices",
                offset=h["ofs_triangles"] + (t * 3 + k) * 4,
            )
        return tri

    @decoded
    def adjacency(self) -> npt.NDArray[np.uint32] | None:
        """(T,3) uint32 neighbouring triangle per edge (0xFFFFFFFF: none), or None."""
        h = self.header
        if not h["ofs_adjacency"]:
            return None
        recs = self._records(ADJACENCY, "ofs_adjacency", h["num_triangles"], "adjacency records")
        return np.asarray(recs["triangles"], dtype=np.uint32).reshape(-1, 3)

    # -- joints, poses, frames ---------------------------------------------------------------

    def _check_count(self, name: str, value: int, limit: int) -> None:
        if value > limit:
            raise LimitExceededError(
                f"{name}={value} is more than quakemodels reads ({limit})",
                field=name,
                offset=HEADER_OFFSETS[name],
            )

    @decoded
    def _joints(self) -> Any:
        h = self.header
        self._check_count("num_joints", h["num_joints"], MAX_JOINTS)
        return self._records(JOINT, "ofs_joints", h["num_joints"], "joints")

    def _parents(
        self, values: npt.NDArray[Any], label: str, base: int, item: int
    ) -> npt.NDArray[np.intp]:
        """(J,) intp parents, -1 for a root: each must name an earlier joint."""
        parents = values.astype(np.int64)
        bad = (parents >= np.arange(len(parents))) & (parents >= 0)
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            raise BadValueError(
                f"{label}[{j}].parent={int(parents[j])} is not an earlier joint (parents come"
                " before their children)",
                field=f"{label}[{j}].parent",
                offset=base + j * item + 4 * (label == "joints"),
            )
        out: npt.NDArray[np.intp] = np.where(parents < 0, -1, parents).astype(np.intp)
        return out

    @decoded
    def joint_names(self) -> tuple[str, ...]:
        """Every joint's name."""
        base = self.header["ofs_joints"]
        return tuple(
            self.string(at, f"joints[{j}].ofs_name", base + j * JOINT.itemsize)
            for j, at in enumerate(self._joints["ofs_name"].tolist())
        )

    @decoded
    def joint_parents(self) -> npt.NDArray[np.intp]:
        """(J,) intp parent of each joint, -1 for a root."""
        return self._parents(
            self._joints["parent"], "joints", self.header["ofs_joints"], JOINT.itemsize
        )

    @decoded
    def joint_translate(self) -> F64:
        """(J,3) float64 translations relative to the parent."""
        return _f64(_flat(self._joints["translate"], 3))

    @decoded
    def joint_rotate(self) -> F64:
        """(J,4) float64 unit quaternions (x, y, z, w) relative to the parent."""
        q = _f64(_flat(self._joints["rotate"], 4))
        return self._unit(q, "joints", self.header["ofs_joints"], JOINT.itemsize, "rotate")

    @decoded
    def joint_scale(self) -> F64:
        """(J,3) float64 scales, applied before the rotation."""
        return _f64(_flat(self._joints["scale"], 3))

    def _unit(self, q: F64, label: str, base: int, item: int, name: str) -> F64:
        norm = np.linalg.norm(q, axis=1, keepdims=True)
        bad = ~(np.isfinite(norm[:, 0]) & (norm[:, 0] > 1e-12))
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            raise BadValueError(
                f"{label}[{j}].{name} is not a rotation (length {float(norm[j, 0])!r})",
                field=f"{label}[{j}].{name}",
                offset=base + j * item,
            )
        return np.asarray(q / norm, dtype=np.float64)

    def _check_joint_floats(self) -> None:
        for name, values in (("translate", self.joint_translate), ("scale", self.joint_scale)):
            bad = ~np.isfinite(values)
            if bad.any():
                j = int(np.argwhere(bad)[0][0])
                raise BadValueError(
                    f"joints[{j}].{name} is not a finite number",
                    field=f"joints[{j}].{name}",
                    offset=self.header["ofs_joints"] + j * JOINT.itemsize,
                )

    @decoded
    def _poses(self) -> Any:
        h = self.header
        if h["num_poses"] not in (0, h["num_joints"]):
            raise BadValueError(
                f"num_poses={h['num_poses']} is neither 0 nor num_joints={h['num_joints']}",
                field="num_poses",
                offset=HEADER_OFFSETS["num_poses"],
            )
        recs = self._records(POSE, "ofs_poses", h["num_poses"], "poses")
        for name in ("channel_offsets", "channel_scales"):
            bad = ~np.isfinite(_f64(np.asarray(recs[name])))
            if bad.any():
                p = int(np.argwhere(bad)[0][0])
                raise BadValueError(
                    f"poses[{p}].{name} holds a value that is not a finite number",
                    field=f"poses[{p}].{name}",
                    offset=h["ofs_poses"] + p * POSE.itemsize + POSE.fields[name][1],  # type: ignore[index]
                )
        return recs

    @decoded
    def pose_parents(self) -> npt.NDArray[np.intp]:
        """(P,) intp parent of each pose (as the joints'), -1 for a root."""
        return self._parents(
            self._poses["parent"], "poses", self.header["ofs_poses"], POSE.itemsize
        )

    @decoded
    def pose_masks(self) -> npt.NDArray[np.uint32]:
        """(P,) uint32 channel masks (bit k: channel k has a value per frame)."""
        return np.asarray(self._poses["channel_mask"], dtype=np.uint32)

    @decoded
    def pose_offsets(self) -> npt.NDArray[np.float32]:
        """(P,10) float32 channel offsets."""
        return np.asarray(self._poses["channel_offsets"], dtype=np.float32).reshape(-1, CHANNELS)

    @decoded
    def pose_scales(self) -> npt.NDArray[np.float32]:
        """(P,10) float32 channel scales."""
        return np.asarray(self._poses["channel_scales"], dtype=np.float32).reshape(-1, CHANNELS)

    @decoded
    def frame_channels(self) -> npt.NDArray[np.uint16]:
        """(F,C) uint16 the frames' channel values as stored."""
        h = self.header
        frames, width = h["num_frames"], h["num_frame_channels"]
        self._check_count("num_frames", frames * max(h["num_poses"], 1), MAX_POSE_FRAMES)
        ofs = self._section("ofs_frames", frames * width, CHANNEL.itemsize, "frame channels")
        raw = np.frombuffer(
            self.data, CHANNEL, count=frames * width, offset=ofs if frames * width else 0
        )
        return raw.reshape(frames, width)

    @decoded
    def channels(self) -> F64:
        """(F,P,10) float64 every pose's 10 channels in every frame: ``offset + value ·
        scale`` for a masked channel, ``offset`` for the others; one vectorised pass."""
        return self._decode_channels(self.frame_channels)

    def frame_channels_at(self, frame: int) -> F64:
        """(1,P,10) float64 the channels of ``frame`` alone (``channels[frame:frame+1]``),
        reading only its row of the stored values: what a first pose needs."""
        h = self.header
        frames, width = h["num_frames"], h["num_frame_channels"]
        if not 0 <= frame < frames:
            raise IndexError(f"frame {frame} is not below num_frames={frames}")
        self._check_count("num_frames", frames * max(h["num_poses"], 1), MAX_POSE_FRAMES)
        ofs = self._section("ofs_frames", frames * width, CHANNEL.itemsize, "frame channels")
        at = ofs + frame * width * CHANNEL.itemsize if width else 0
        row = np.frombuffer(self.data, CHANNEL, count=width, offset=at)
        return self._decode_channels(row.reshape(1, width))

    def _decode_channels(self, raw: npt.NDArray[np.uint16]) -> F64:
        """(N,P,10) float64 the channels of ``raw`` (N,C), rows of ``frame_channels``."""
        masks = self.pose_masks
        bits = ((masks[:, None] >> np.arange(CHANNELS, dtype=np.uint32)) & 1).astype(bool)
        frames, width = raw.shape
        used = int(bits.sum())
        if used > width:
            raise BadValueError(
                f"the poses' channel masks select {used} channels per frame, but"
                f" num_frame_channels={width}",
                field="num_frame_channels",
                offset=HEADER_OFFSETS["num_frame_channels"],
            )
        offsets = _f64(self.pose_offsets).reshape(-1)
        scales = _f64(self.pose_scales).reshape(-1)
        out = np.broadcast_to(offsets, (frames, offsets.size)).copy()
        flat = np.flatnonzero(bits.reshape(-1))  # channels in file order: pose-major
        out[:, flat] += raw[:, :used].astype(np.float64) * scales[flat]
        return out.reshape(frames, len(masks), CHANNELS)

    @decoded
    def anims(self) -> list[Anim]:
        """Every anim, its frame range checked against ``num_frames``."""
        h = self.header
        recs = self._records(ANIM, "ofs_anims", h["num_anims"], "anims")
        out = []
        for i, r in enumerate(_rows(recs)):
            at = h["ofs_anims"] + i * ANIM.itemsize
            first, count = int(r["first_frame"]), int(r["num_frames"])
            if first + count > h["num_frames"]:
                raise BadValueError(
                    f"anims[{i}]: frames {first}..{first + count} are past num_frames="
                    f"{h['num_frames']}",
                    field=f"anims[{i}].num_frames",
                    offset=at + ANIM.fields["num_frames"][1],  # type: ignore[index]
                )
            name = self.string(int(r["ofs_name"]), f"anims[{i}].ofs_name", at)
            out.append(Anim(name, first, count, float(r["framerate"]), int(r["flags"])))
        return out

    @decoded
    def frame_bounds(self) -> npt.NDArray[np.float32] | None:
        """(F,8) float32 per frame: min xyz, max xyz, xy radius, radius; or None."""
        h = self.header
        if not h["ofs_bounds"]:
            return None
        recs = self._records(BOUNDS, "ofs_bounds", h["num_frames"], "bounds")
        out = np.empty((len(recs), 8), np.float32)
        out[:, 0:3] = _flat(recs["bb_min"], 3)
        out[:, 3:6] = _flat(recs["bb_max"], 3)
        out[:, 6] = recs["xy_radius"]
        out[:, 7] = recs["radius"]
        return out

    @decoded
    def comment(self) -> bytes:
        """The comment's bytes (empty when there is none)."""
        n = self.header["len_comment"]
        ofs = self._section("ofs_comment", n, 1, "comment bytes")
        return self.data[ofs : ofs + n]

    @decoded
    def extensions(self) -> list[Extension]:
        """The extension list, followed from ``ofs_extensions`` for ``num_extensions``
        records (a loop or a record past the end is an error)."""
        h = self.header
        count = h["num_extensions"]
        self._check_count("num_extensions", count, MAX_EXTENSIONS)
        out: list[Extension] = []
        at = self._section("ofs_extensions", 1 if count else 0, EXTENSION.itemsize, "extension")
        seen: set[int] = set()
        for i in range(count):
            if at in seen:
                raise BadValueError(
                    f"extensions[{i}] at {at} was already read (a loop)",
                    field=f"extensions[{i - 1}].ofs_next",
                    offset=at,
                )
            seen.add(at)
            if at < HEADER_SIZE or at + EXTENSION.itemsize > self.size:
                raise TruncatedError(
                    f"extensions[{i}] at {at} is past the end of the file",
                    field=f"extensions[{i}]",
                    offset=at,
                )
            (r,) = np.frombuffer(self.data, EXTENSION, count=1, offset=at)
            ofs, n = int(r["ofs_data"]), int(r["len_data"])
            if n and ofs + n > self.size:
                raise TruncatedError(
                    f"extensions[{i}].ofs_data={ofs}: {n} bytes past the end of the file",
                    field=f"extensions[{i}].ofs_data",
                    offset=at + EXTENSION.fields["ofs_data"][1],  # type: ignore[index]
                )
            name = self.string(int(r["ofs_name"]), f"extensions[{i}].ofs_name", at)
            out.append(Extension(name, self.data[ofs : ofs + n], at))
            nxt = int(r["ofs_next"])
            if i + 1 < count and nxt == 0:
                raise BadValueError(
                    f"extensions[{i}].ofs_next=0 but num_extensions={count}",
                    field=f"extensions[{i}].ofs_next",
                    offset=at + EXTENSION.fields["ofs_next"][1],  # type: ignore[index]
                )
            at = nxt
        return out

    # -- the neutral scene ------------------------------------------------------------------

    def validate(self) -> None:
        """Decode and check every section, and build the scene of every frame from them
        (:meth:`load_all`, and the checker's first finding)."""
        for name in self.ARRAYS:
            getattr(self, name)
        self._check_joint_floats()
        self.skeletal()

    def load_all(self) -> IqmReader:
        """Decode and validate every section now (a full load); returns self."""
        self.validate()
        return self

    @decoded
    def bind_world(self) -> F64:
        """(J,4,4) float64 every joint's world matrix in the base pose of ``joints``."""
        self._check_joint_floats()
        local = trs_matrices(self.joint_translate, self.joint_rotate, self.joint_scale)
        world: F64 = world_matrices(local[None], self.joint_parents)[0]
        # the inverse bind matrices invert these: a joint scaled to nothing has none (the
        # engine's Matrix34Invert divides by zero there)
        det = np.abs(np.linalg.det(world[:, :3, :3]))
        flat = ~(det > 1e-30)
        if flat.any():
            j = int(np.flatnonzero(flat)[0])
            raise BadValueError(
                f"joints[{j}] ({self.joint_names[j]}) is scaled to nothing in the base pose"
                " (no inverse bind matrix)",
                field=f"joints[{j}].scale",
                offset=self.header["ofs_joints"] + j * JOINT.itemsize + JOINT.fields["scale"][1],  # type: ignore[index]
            )
        return world

    def skeletal(self) -> SkeletalScene:
        """The model as a :class:`~quakemodels.core.skeletal.SkeletalScene`: its joints at
        their base pose, one :class:`SkinnedMesh` per mesh (its material name in
        ``material_name``; inverse binds from the joints' world matrices), one clip per anim
        at its frame rate (every frame as one clip when there are frames but no anims), and
        the joints named ``tag_*`` as tags. A model without joints gets one root joint that
        carries every mesh. Made once (a pose of every frame reads it; a first pose reads
        :meth:`rest_scene` and :meth:`frame_clip` instead)."""
        return self._skeletal

    @decoded
    def _skeletal(self) -> SkeletalScene:
        rest = self.rest_scene()
        return rest if not self._scene_anims else replace(rest, clips=self.clips())

    def rest_scene(self) -> SkeletalScene:
        """:meth:`skeletal` without its clips: the joints, meshes and tags, which read the
        vertex arrays, triangles, meshes and joints (each checked), never the frames."""
        return self._rest

    @decoded
    def _rest(self) -> SkeletalScene:
        names = self.joint_names
        parents = self.joint_parents
        translate, rotate, scale = self.joint_translate, self.joint_rotate, self.joint_scale
        rigid = not names
        if rigid:
            names = ("root",)
            parents = np.array([-1], np.intp)
            translate, rotate, scale = np.zeros((1, 3)), np.array([[0.0, 0, 0, 1]]), np.ones((1, 3))
            inverse = np.eye(4)[None]
        else:
            inverse = np.asarray(np.linalg.inv(self.bind_world), dtype=np.float64)
        positions = self.positions
        uvs = self.texcoords
        idx = None if rigid else self.blend_indexes
        wts = None if rigid else self.blend_weights
        if not rigid and (idx is None or wts is None) and len(positions):
            raise BadValueError(
                "the model has joints but no blend_indexes and blend_weights arrays",
                field="vertex_arrays",
                offset=HEADER_OFFSETS["ofs_vertex_arrays"],
            )
        tri = self.triangles.astype(np.int64)
        slots = np.arange(len(names), dtype=np.intp)
        meshes = []
        for m in self.mesh_records:
            v0, v1 = m.first_vertex, m.first_vertex + m.num_vertices
            t = tri[m.first_triangle : m.first_triangle + m.num_triangles] - v0
            outside = (t < 0) | (t >= m.num_vertices)
            if outside.any():
                k = int(np.argwhere(outside)[0][0]) + m.first_triangle
                raise BadValueError(
                    f"triangles[{k}] of meshes[{m.index}] uses a vertex outside the mesh's"
                    f" vertices {v0}..{v1}",
                    field=f"triangles[{k}].vertices",
                    offset=self.header["ofs_triangles"] + k * TRIANGLE.itemsize,
                )
            if idx is None or wts is None:
                joints = np.zeros((m.num_vertices, 1), np.intp)
                weights = np.ones((m.num_vertices, 1))
            else:
                joints = idx[v0:v1]
                w = wts[v0:v1, : joints.shape[1]]
                joints = joints[:, : w.shape[1]]
                total = w.sum(axis=1, keepdims=True)
                # a vertex without weight follows its first joint, as the engines' sums leave
                # it at the origin otherwise
                first = np.eye(w.shape[1])[0]
                weights = np.where(total > 0, w / np.where(total > 0, total, 1.0), first)
            meshes.append(
                SkinnedMesh(
                    name=m.name,
                    positions=positions[v0:v1],
                    targets=np.zeros((0, m.num_vertices, 3)),
                    slots=slots,
                    inverse_bind=inverse,
                    joints=joints,
                    weights=weights,
                    uvs=None if uvs is None else uvs[v0:v1].astype(np.float32),
                    indices=flip_winding(t),
                    material=None,
                    material_name=m.material,
                )
            )
        return SkeletalScene(
            names,
            parents,
            translate,
            rotate,
            scale,
            meshes,
            [],
            tags=tuple(j for j, n in enumerate(names) if n.startswith("tag_")),
        )

    @decoded
    def _scene_anims(self) -> list[Anim]:
        """The anims that become clips, in order: the non-empty ones (every frame as one
        anim named ``frames`` when the file has frames but no anims); none when the model
        has no joints or no poses."""
        h = self.header
        if not h["num_joints"] or not h["num_poses"] or not h["num_frames"]:
            return []
        anims = self.anims or [Anim("frames", 0, h["num_frames"], DEFAULT_FPS, 0)]
        return [a for a in anims if a.num_frames]

    @property
    def num_scene_frames(self) -> int:
        """The frames of :meth:`skeletal`'s clips together (1, the rest pose, when there
        are none), counted from the anims without decoding a frame."""
        return sum(a.num_frames for a in self._scene_anims) or 1

    def clips(self) -> list[SkeletalClip]:
        """One clip per anim (every frame as a clip named ``frames`` when the file has
        frames but no anims); none when the model has no poses."""
        ch = self.channels if self._scene_anims else np.zeros((0, 0, CHANNELS))
        out: list[SkeletalClip] = []
        for a in self._scene_anims:
            fps = a.framerate if np.isfinite(a.framerate) and a.framerate > 0 else DEFAULT_FPS
            out.append(
                _clip(
                    a.name or f"anim{len(out)}",
                    np.arange(a.num_frames) / fps,
                    ch[a.first_frame : a.first_frame + a.num_frames],
                )
            )
        return out

    def frame_clip(self, frame: int) -> SkeletalClip | None:
        """One clip named ``frames`` holding scene frame ``frame`` alone (an index over
        every clip's frames in order, as ``num_scene_frames`` counts them) at time 0,
        decoding only that frame's channels; None when the scene has no clips (the rest
        pose is its one frame)."""
        for a in self._scene_anims:
            if frame < a.num_frames:
                ch = self.frame_channels_at(a.first_frame + frame)
                return _clip("frames", np.zeros(1), ch)
            frame -= a.num_frames
        return None

    @property
    def fps(self) -> float | None:
        """The anims' common frame rate, or None when they differ or there are none."""
        rates = {a.framerate for a in self.anims if a.num_frames}
        if len(rates) != 1:
            return None
        (rate,) = rates
        return rate if np.isfinite(rate) and rate > 0 else DEFAULT_FPS


def _clip(name: str, times: F64, ch: F64) -> SkeletalClip:
    """A clip of the (N,P,10) channels ``ch`` at ``times`` (N,), its rotations normalised."""
    q = ch[..., 3:7]
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    # ioquake3's QuatNormalize2 turns a zero quaternion into (0, 0, 0, -1): no rotation
    q = np.where(norm > 1e-12, q / np.where(norm > 1e-12, norm, 1.0), [0.0, 0, 0, 1])
    return SkeletalClip(
        name,
        times,
        np.ascontiguousarray(ch[..., 0:3]),
        np.ascontiguousarray(q),
        np.ascontiguousarray(ch[..., 7:10]),
    )


def _rows(records: npt.NDArray[Any]) -> list[dict[str, Any]]:
    """Each record of a structured array as a dict of Python values by field name: one
    ``tolist`` for the array (a field read off a record scalar costs a microsecond, and a
    header or a table of meshes reads dozens)."""
    names = records.dtype.names or ()
    return [dict(zip(names, row, strict=True)) for row in records.tolist()]


def _f64(values: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """``values`` (float32 from the file) as float64. A signalling NaN's bits raise the FPU's
    invalid flag in the cast (numpy warns); it becomes a quiet NaN, which the checks of the
    values refuse as any NaN."""
    with np.errstate(invalid="ignore"):
        return values.astype(np.float64)


def _flat(values: Any, width: int) -> npt.NDArray[Any]:
    """(N, width) plain floats of a structured field of ``width`` float members (vec3f,
    quat), or of a subarray field."""
    arr = np.asarray(values)
    if arr.dtype.names:
        return np.stack([arr[n] for n in arr.dtype.names], axis=-1).reshape(-1, width)
    return arr.reshape(-1, width)


def check_limits_of(reader: IqmReader) -> ModelFormatError | None:
    """The first fault :meth:`IqmReader.validate` raises, or None (for the checker)."""
    try:
        reader.validate()
    except ModelFormatError as e:
        return e
    return None


__all__ = ["Anim", "Extension", "IqmMesh", "IqmReader", "VertexArray", "check_limits_of"]
