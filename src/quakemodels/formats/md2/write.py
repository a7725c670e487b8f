"""Writing Quake II MD2 files: an exact encoder for loaded models and ``build`` from arrays.

Two ways in:

* :func:`to_bytes` / :func:`save` serialize a loaded :class:`~quakemodels.Md2` exactly as it
  was: raw skin and frame name bytes (junk after the NUL included), the compressed vertices, the
  original GL command dwords, the original section offsets and every byte between or after the
  sections. :func:`parts_of` gives the same content as an editable :class:`Md2Parts`;
  :func:`encode` writes one back (keeping the original layout while every section keeps its size,
  the canonical layout otherwise).
* :func:`build` encodes new geometry the way Quake II's modelgen does: per-frame scale and
  translate from the frame's bounds (``scale = (max - min) / 255``, ``translate = min``),
  coordinates rounded to the nearest step; area-weighted vertex normals mapped to the nearest of
  the 162 anorms; greedy strips and fans for the GL commands; engine limits checked.
  :func:`from_quantized` stores byte-compressed frames (an MDL's) as they are instead.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ...core.atomic import write_bytes_atomic
from ...core.build import (
    BuildResult,
    as_array,
    check_corners,
    check_limit,
    check_not_empty,
    encode_name,
    first_size,
    gaps,
    mesh_arrays,
    require_fields,
    skin_dimensions,
)
from ...core.quantized import QuantizedMesh
from ...core.scene import ExportModel
from ...core.trivertx_write import SingleSurface as SingleSurface
from ...core.trivertx_write import anorm_indices as anorm_indices
from ...core.trivertx_write import nearest_anorms as nearest_anorms
from ...core.trivertx_write import quantize as quantize
from ...core.trivertx_write import scene_arrays as scene_arrays
from ...core.trivertx_write import scene_skin_size as scene_skin_size
from ...core.trivertx_write import weld as weld
from ...errors import BadValueError, ModelFormatError
from ...interchange.imported import ImportedMesh
from .layout import (
    FRAME_HEADER_SIZE,
    FRAME_NAME_SIZE,
    GL_DWORD,
    GL_TEXCOORD,
    GL_TEXCOORD_DWORDS,
    GL_VERTEX_DWORDS,
    GL_VERTEX_INDEX_DWORD,
    HEADER,
    HEADER_SIZE,
    MAGIC,
    NORMAL_INDEX,
    POSITION,
    SKIN_NAME_SIZE,
    TEX_POINT,
    TRIANGLE,
    VERSION,
    VERTEX_SIZE,
    frame_dtype,
)
from .limits import FORMAT_LIMITS as FORMAT_LIMITS
from .limits import FORMAT_MAX_INDEX as FORMAT_MAX_INDEX
from .limits import VANILLA as VANILLA
from .limits import Limits as Limits
from .reader import GlCommand, Md2Reader

R = TypeVar("R", bound=Md2Reader)

SECTIONS = ("skins", "texcoords", "triangles", "frames", "gl_commands")
"""Section names in the canonical order (the order modelgen writes them)."""


@dataclass(frozen=True)
class Layout:
    """Where a loaded file had its sections, and the bytes no section covers.

    ``offsets`` maps each of :data:`SECTIONS` to its offset, ``sizes`` to its byte size;
    ``fillers`` are ``(offset, bytes)`` runs outside the header and every non-empty section
    (gaps, padding, trailing data); ``ofs_end`` is the header's value, ``file_size`` the length.
    """

    offsets: dict[str, int]
    sizes: dict[str, int]
    ofs_end: int
    file_size: int
    fillers: tuple[tuple[int, bytes], ...] = ()
    framesize: int | None = None  # the header's value, kept when there are no frames to size


@dataclass
class Md2Parts:
    """Everything an MD2 file holds, as stored (F frames, V vertices, T triangles, S texcoords).

    ``skins_raw`` 64-byte names; ``texcoords_px`` (S,2) int16; ``triangles`` (T,6) int16 raw
    records (3 vertex then 3 texcoord indices); ``scales``, ``translates`` (F,3) float32;
    ``frame_names_raw`` 16-byte names; ``vertices`` (F,V,4) uint8 (x, y, z, normal index);
    ``frame_padding`` (F,P) uint8 bytes after each frame's vertices (P = framesize − 40 − 4V);
    ``gl_dwords`` (N,) int32; ``layout`` the original placement, or None for the canonical one.
    """

    skin_width: int
    skin_height: int
    skins_raw: list[bytes]
    texcoords_px: npt.NDArray[np.int16]
    triangles: npt.NDArray[np.int16]
    scales: npt.NDArray[np.float32]
    translates: npt.NDArray[np.float32]
    frame_names_raw: list[bytes]
    vertices: npt.NDArray[np.uint8]
    gl_dwords: npt.NDArray[np.int32]
    frame_padding: npt.NDArray[np.uint8] = field(default_factory=lambda: np.zeros((0, 0), np.uint8))
    layout: Layout | None = None

    def section_sizes(self) -> dict[str, int]:
        """Byte size of each section, in :data:`SECTIONS` order."""
        return {
            "skins": SKIN_NAME_SIZE * len(self.skins_raw),
            "texcoords": TEX_POINT.itemsize * len(self.texcoords_px),
            "triangles": TRIANGLE.itemsize * len(self.triangles),
            "frames": self.framesize * len(self.frame_names_raw),
            "gl_commands": 4 * len(self.gl_dwords),
        }

    @property
    def framesize(self) -> int:
        """Bytes per frame: 40 + 4V + padding."""
        padding = self.frame_padding.shape[1] if self.frame_padding.size else 0
        return FRAME_HEADER_SIZE + VERTEX_SIZE * int(self.vertices.shape[1]) + int(padding)


# -- exact serialization of loaded models -------------------------------------------------------


def parts_of(model: Md2Reader) -> Md2Parts:
    """The stored content of a loaded model, with its layout, ready for :func:`encode`."""
    data = model.data
    num_frames, num_vertices = model.num_frames, model.num_vertices
    records = model.frame_records  # the frame section as stored (compressed bytes, raw names)
    vertices = np.ascontiguousarray(records["vertices"]).reshape(
        num_frames, num_vertices, VERTEX_SIZE
    )
    padding_size = (
        model.framesize - FRAME_HEADER_SIZE - VERTEX_SIZE * num_vertices if num_frames else 0
    )
    padding = np.zeros((num_frames, max(padding_size, 0)), np.uint8)
    for i in range(num_frames if padding_size > 0 else 0):
        start = (
            model.ofs_frames + i * model.framesize + FRAME_HEADER_SIZE + VERTEX_SIZE * num_vertices
        )
        padding[i] = np.frombuffer(data, np.uint8, padding_size, start)
    parts = Md2Parts(
        skin_width=model.skin_width,
        skin_height=model.skin_height,
        skins_raw=list(model.skins_raw),
        texcoords_px=model.texcoords_px.copy(),
        triangles=triangle_array(model.triangle_records),  # raw: unchecked indices kept
        scales=model.scales.copy(),
        translates=model.translates.copy(),
        frame_names_raw=list(model.frame_names_raw),
        vertices=vertices.copy(),
        gl_dwords=model.gl_dwords.copy(),
        frame_padding=padding,
    )
    offsets = {
        "skins": model.ofs_skins,
        "texcoords": model.ofs_texcoords,
        "triangles": model.ofs_triangles,
        "frames": model.ofs_frames,
        "gl_commands": model.ofs_gl_commands,
    }
    sizes = parts.section_sizes()
    covered = [(0, HEADER_SIZE)] + [
        (offsets[name], offsets[name] + sizes[name]) for name in SECTIONS if sizes[name]
    ]
    parts.layout = Layout(
        offsets=offsets,
        sizes=sizes,
        ofs_end=model.ofs_end,
        file_size=len(data),
        fillers=tuple((start, data[start:stop]) for start, stop in gaps(covered, len(data))),
        framesize=model.framesize,
    )
    return parts


def _check_parts(parts: Md2Parts) -> None:
    """Shapes, name sizes and value ranges that the bytes must be able to hold."""
    num_frames = len(parts.frame_names_raw)
    checks = [
        (
            parts.texcoords_px.ndim == 2 and parts.texcoords_px.shape[1] == 2,
            "texcoords_px",
            "(S,2)",
        ),
        (parts.triangles.ndim == 2 and parts.triangles.shape[1] == 6, "triangles", "(T,6)"),
        (parts.vertices.ndim == 3 and parts.vertices.shape[0] == num_frames, "vertices", "(F,V,4)"),
        (parts.vertices.ndim == 3 and parts.vertices.shape[2] == 4, "vertices", "(F,V,4)"),
        (parts.scales.shape == (num_frames, 3), "scales", "(F,3)"),
        (parts.translates.shape == (num_frames, 3), "translates", "(F,3)"),
        (parts.gl_dwords.ndim == 1, "gl_dwords", "(N,)"),
    ]
    if parts.frame_padding.size:
        checks.append((parts.frame_padding.shape[0] == num_frames, "frame_padding", "(F,P)"))
    for ok, name, shape in checks:
        if not ok:
            raise BadValueError(
                f"{name} must have shape {shape} for {num_frames} frames", field=name
            )
    for i, raw in enumerate(parts.skins_raw):
        if len(raw) != SKIN_NAME_SIZE:
            raise BadValueError(
                f"skins_raw[{i}] has {len(raw)} bytes, not {SKIN_NAME_SIZE}", field="skins"
            )
    for i, raw in enumerate(parts.frame_names_raw):
        if len(raw) != FRAME_NAME_SIZE:
            raise BadValueError(
                f"frame_names_raw[{i}] has {len(raw)} bytes, not {FRAME_NAME_SIZE}", field="name"
            )


def encode(parts: Md2Parts) -> bytes:
    """The bytes of an MD2 file holding ``parts``.

    With a ``layout`` whose section sizes still match, sections go back to their original
    offsets with the original filler bytes around them; otherwise sections are written in the
    canonical order (skins, texcoords, triangles, frames, GL commands) with nothing between
    them and ``ofs_end`` the file size.
    """
    _check_parts(parts)
    sizes = parts.section_sizes()
    layout = parts.layout
    if layout is not None and layout.sizes == sizes:
        offsets, ofs_end, total = dict(layout.offsets), layout.ofs_end, layout.file_size
        fillers = layout.fillers
    else:
        offsets, cursor = {}, HEADER_SIZE
        for name in SECTIONS:
            offsets[name] = cursor
            cursor += sizes[name]
        ofs_end = total = cursor
        fillers = ()
    num_frames = len(parts.frame_names_raw)
    num_vertices = parts.vertices.shape[1]
    framesize = parts.framesize
    if num_frames == 0 and layout is not None and layout.framesize is not None:
        framesize = layout.framesize  # no frame to measure: keep what the header said
    header = np.zeros(1, HEADER)
    values = {
        "magic": MAGIC,
        "version": VERSION,
        "skin_width_px": parts.skin_width,
        "skin_height_px": parts.skin_height,
        "bytes_per_frame": framesize,
        "num_skins": len(parts.skins_raw),
        "vertices_per_frame": num_vertices,
        "num_tex_coords": len(parts.texcoords_px),
        "num_triangles": len(parts.triangles),
        "num_gl_cmds": len(parts.gl_dwords),
        "num_frames": num_frames,
        "ofs_skins": offsets["skins"],
        "ofs_tex_coords": offsets["texcoords"],
        "ofs_triangles": offsets["triangles"],
        "ofs_frames": offsets["frames"],
        "ofs_gl_cmds": offsets["gl_commands"],
        "ofs_end": ofs_end,
    }
    for name, value in values.items():
        header[name] = value
    out = bytearray(total)
    out[:HEADER_SIZE] = header.tobytes()
    for start, chunk in fillers:
        out[start : start + len(chunk)] = chunk
    layout_of_frame = frame_dtype(num_vertices, parts.framesize)
    frames = np.zeros(num_frames, layout_of_frame)
    set_vectors(frames, "scale", parts.scales)
    set_vectors(frames, "translate", parts.translates)
    # The slot is pre-zeroed, so a bytes field that drops trailing NULs on store still leaves
    # the raw 16 bytes; padding after the vertices is copied in separately.
    frames["name"] = parts.frame_names_raw
    frames["vertices"] = parts.vertices
    frame_bytes = bytearray(frames.tobytes())
    if parts.frame_padding.size:
        start = FRAME_HEADER_SIZE + VERTEX_SIZE * num_vertices
        view = np.frombuffer(frame_bytes, np.uint8).reshape(num_frames, parts.framesize)
        view[:, start:] = parts.frame_padding
    sections = {
        "skins": b"".join(parts.skins_raw),
        "texcoords": texcoord_records(parts.texcoords_px).tobytes(),
        "triangles": triangle_records(parts.triangles).tobytes(),
        "frames": bytes(frame_bytes),
        "gl_commands": parts.gl_dwords.astype(GL_DWORD).tobytes(),
    }
    for name in SECTIONS:
        chunk = sections[name]
        out[offsets[name] : offsets[name] + len(chunk)] = chunk
    return bytes(out)


def triangle_array(records: npt.NDArray[np.void]) -> npt.NDArray[np.int16]:
    """(T,6) int16 from the spec's triangle records: 3 vertex then 3 texcoord indices."""
    return np.concatenate(
        [records["vertex_indices"].reshape(-1, 3), records["tex_point_indices"].reshape(-1, 3)],
        axis=1,
    ).astype(np.int16)


def triangle_records(triangles: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.void]:
    """The spec's triangle records from (T,6) indices (3 vertex then 3 texcoord)."""
    out = np.zeros(len(triangles), TRIANGLE)
    out["vertex_indices"] = triangles[:, :3]
    out["tex_point_indices"] = triangles[:, 3:]
    return out


def texcoord_records(texcoords_px: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.void]:
    """The spec's tex_point records from (S,2) pixel texcoords."""
    out = np.zeros(len(texcoords_px), TEX_POINT)
    out["s_px"] = texcoords_px[:, 0]
    out["t_px"] = texcoords_px[:, 1]
    return out


def set_vectors(records: npt.NDArray[np.void], name: str, values: npt.NDArray[Any]) -> None:
    """Store (N,3) ``values`` in the record field ``name``, a (3,) array or an x, y, z struct."""
    target = records[name]
    if target.dtype.names:
        for k, axis in enumerate(target.dtype.names):
            records[name][axis] = values[:, k]
    else:
        records[name] = values


def to_bytes(model: Md2Reader) -> bytes:
    """The bytes of a loaded model, re-encoded from its parsed content (byte-exact)."""
    return encode(parts_of(model))


def save(model: Md2Reader, path: str | os.PathLike[str]) -> None:
    """Write a loaded model to ``path`` atomically (nothing is replaced if encoding fails)."""
    write_bytes_atomic(path, to_bytes(model))


# -- building from arrays -----------------------------------------------------------------------


def gl_commands_for(
    triangles: npt.ArrayLike, triangle_texcoords: npt.ArrayLike
) -> list[tuple[str, list[tuple[int, int]]]]:
    """Strips and fans covering every triangle once, greedily, in the spirit of modelgen.

    For each triangle not yet used, in order, every strip and fan that starts with it (three
    rotations each) is grown as far as it goes and the longest is kept (strips win ties).
    A strip or fan continues into the lowest-numbered unused triangle that shares the needed
    edge with the same winding and the same texcoords at both ends, since a GL command carries
    one texcoord per corner. Returns ``(kind, corners)`` with kind ``"strip"`` or ``"fan"`` and
    corners ``(vertex, texcoord)`` pairs; strip triangle i is corners (i, i+1, i+2) for even i
    and (i+1, i, i+2) for odd i, fan triangle i is (0, i+1, i+2), as OpenGL draws them.
    """
    tv = np.asarray(triangles, dtype=np.int64)
    tt = np.asarray(triangle_texcoords, dtype=np.int64)
    corners = [[(int(tv[i, k]), int(tt[i, k])) for k in range(3)] for i in range(len(tv))]
    # directed edge (a, b) → triangles whose winding has a followed by b, and the third corner
    edges: dict[tuple[tuple[int, int], tuple[int, int]], list[tuple[int, int]]] = {}
    for i, c in enumerate(corners):
        for k in range(3):
            edges.setdefault((c[k], c[(k + 1) % 3]), []).append((i, (k + 2) % 3))
    used = np.zeros(len(corners), bool)

    def neighbour(
        a: tuple[int, int], b: tuple[int, int], taken: set[int]
    ) -> tuple[int, int] | None:
        for tri, third in edges.get((a, b), ()):
            if not used[tri] and tri not in taken:
                return tri, third
        return None

    def grow(start: int, rotation: int, kind: str) -> tuple[list[tuple[int, int]], list[int]]:
        c = corners[start]
        verts = [c[rotation], c[(rotation + 1) % 3], c[(rotation + 2) % 3]]
        tris = [start]
        taken = {start}
        while True:
            if kind == "strip":
                n = len(tris)  # index of the next strip triangle
                a, b = (verts[n + 1], verts[n]) if n % 2 else (verts[n], verts[n + 1])
            else:
                a, b = verts[0], verts[-1]
            found = neighbour(a, b, taken)
            if found is None:
                break
            tri, third = found
            verts.append(corners[tri][third])
            tris.append(tri)
            taken.add(tri)
        return verts, tris

    commands: list[tuple[str, list[tuple[int, int]]]] = []
    for i in range(len(corners)):
        if used[i]:
            continue
        best: tuple[str, list[tuple[int, int]], list[int]] | None = None
        for kind in ("strip", "fan"):
            for rotation in range(3):
                verts, tris = grow(i, rotation, kind)
                if best is None or len(tris) > len(best[2]):
                    best = (kind, verts, tris)
        assert best is not None  # three rotations were tried
        used[best[2]] = True
        commands.append((best[0], best[1]))
    return commands


def gl_dwords_for(
    commands: Sequence[tuple[str, Sequence[tuple[int, int]]]],
    texcoords_px: npt.NDArray[np.int16],
    skin_width: int,
    skin_height: int,
) -> npt.NDArray[np.int32]:
    """(N,) int32 GL command section: count (+strip, −fan), then s, t (float32, pixel centres
    ``(px + 0.5) / size`` as modelgen writes them) and the vertex index per corner; 0 ends it."""
    words: list[npt.NDArray[np.int32]] = []
    size = np.array([skin_width, skin_height], np.float64)
    for kind, corners in commands:
        n = len(corners)
        block = np.zeros((n, GL_VERTEX_DWORDS), np.int32)
        st = ((texcoords_px[[t for _, t in corners]].astype(np.float64) + 0.5) / size).astype(
            GL_TEXCOORD
        )
        block[:, GL_TEXCOORD_DWORDS] = st.view(GL_DWORD)
        block[:, GL_VERTEX_INDEX_DWORD] = [v for v, _ in corners]
        words.append(np.array([n if kind == "strip" else -n], np.int32))
        words.append(block.reshape(-1))
    words.append(np.zeros(1, np.int32))
    return np.concatenate(words).astype(np.int32)


GL_COMMAND_FIELDS = ("primitive", "vertex_indices", "texcoords")


def _gl_dwords_from_given(
    gl_commands: Sequence[GlCommand] | npt.ArrayLike,
) -> npt.NDArray[np.int32]:
    """Raw dwords from either raw int32 dwords or GlCommand-like objects."""
    if isinstance(gl_commands, np.ndarray) and gl_commands.dtype.kind in "iu":
        words = as_array(gl_commands, "gl_commands", np.int32, None).reshape(-1)
    else:
        parts: list[npt.NDArray[np.int32]] = []
        commands: Sequence[Any] = gl_commands  # type: ignore[assignment]
        require_fields(commands, "gl_commands", "GlCommand", GL_COMMAND_FIELDS)
        for i, cmd in enumerate(commands):
            indices = as_array(cmd.vertex_indices, f"gl_commands[{i}].vertex_indices", np.int32, 1)
            st = as_array(cmd.texcoords, f"gl_commands[{i}].texcoords", np.float64, None)
            if st.size != 2 * len(indices) or len(indices) < 3:
                raise BadValueError(
                    f"gl_commands[{i}] needs ≥ 3 corners with one texcoord each", field="gl_cmds"
                )
            if cmd.primitive not in ("strip", "fan"):
                raise BadValueError(
                    f"gl_commands[{i}].primitive={cmd.primitive!r} is not 'strip' or 'fan'",
                    field="gl_cmds",
                )
            if not (np.isfinite(st) & (np.abs(st) <= np.finfo(np.float32).max)).all():
                raise BadValueError(
                    f"gl_commands[{i}].texcoords must be finite float32 values", field="gl_cmds"
                )
            block = np.zeros((len(indices), GL_VERTEX_DWORDS), np.int32)
            block[:, GL_TEXCOORD_DWORDS] = st.reshape(-1, 2).astype(GL_TEXCOORD).view(GL_DWORD)
            block[:, GL_VERTEX_INDEX_DWORD] = indices
            count = len(indices) if cmd.primitive == "strip" else -len(indices)
            parts.extend([np.array([count], np.int32), block.reshape(-1)])
        parts.append(np.zeros(1, np.int32))
        words = np.concatenate(parts).astype(np.int32)
    return words


def build(
    positions: npt.ArrayLike,
    triangles: npt.ArrayLike,
    texcoords_px: npt.ArrayLike,
    triangle_texcoords: npt.ArrayLike,
    frame_names: Sequence[str | bytes],
    *,
    skins: Sequence[str | bytes] = (),
    skin_size: tuple[int, int] = (256, 256),
    normals: npt.ArrayLike | None = None,
    gl_commands: Sequence[GlCommand] | npt.ArrayLike | None = None,
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Encode a new model from arrays (F frames, V vertices, T triangles, S texcoords).

    ``positions`` (F,V,3) Quake model space (Z up); ``triangles`` (T,3) vertex indices, wound
    clockwise seen from outside as Quake II's are; ``texcoords_px`` (S,2) skin pixels (rounded
    to int16); ``triangle_texcoords`` (T,3) texcoord indices; ``frame_names`` F names
    (≤ 15 bytes); ``skins`` skin paths (≤ 63 bytes); ``skin_size`` (width, height) pixels.
    ``normals`` (F,V,3) vectors (mapped to the nearest anorm) or (F,V) anorm indices; computed
    from the geometry when None. ``gl_commands``: GlCommand objects or raw int32 dwords;
    generated as strips and fans when None. Raises :class:`LimitExceededError` past ``limits``
    and :class:`BadValueError` for inconsistent input. The model read back is a
    ``model_class`` (:class:`~quakemodels.Md2` when called as ``Md2.build``).
    """
    mesh = _checked_mesh(
        positions,
        triangles,
        texcoords_px,
        triangle_texcoords,
        frame_names,
        skins,
        skin_size,
        limits,
    )
    compressed, scales, translates, errors = quantize(mesh.positions)
    normal_indices = anorm_indices(normals, mesh.positions, mesh.triangles)
    model = _encoded(
        mesh,
        compressed,
        scales,
        translates,
        normal_indices,
        frame_names,
        skins,
        gl_commands,
        model_class,
    )
    return BuildResult(model=model, errors=errors, steps=scales.astype(np.float64))


def from_quantized(
    mesh: QuantizedMesh,
    *,
    skins: Sequence[str | bytes] = (),
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Encode byte-compressed frames (an MDL's: :mod:`quakemodels.core.quantized`) exactly:
    each frame's vertex bytes, scale and translate and the normal indices stored as they are
    (positions bit-identical, ``errors`` zero), triangles and texcoords as given, GL commands
    generated; ``skins`` the skin names to store. The limits and checks of :func:`build`."""
    checked = _checked_mesh(
        mesh.positions,
        mesh.triangles,
        mesh.texcoords_px,
        mesh.triangle_texcoords,
        mesh.frame_names,
        skins,
        mesh.skin_size,
        limits,
    )
    vertices = as_array(mesh.vertices, "vertices", np.uint8, 3)
    scales = as_array(mesh.scales, "scales", np.float32, 2)
    translates = as_array(mesh.translates, "translates", np.float32, 2)
    grid = (len(checked.positions), 3)
    if vertices.shape != checked.positions.shape or not scales.shape == translates.shape == grid:
        raise BadValueError(
            f"vertices {vertices.shape}, scales {scales.shape} and translates"
            f" {translates.shape} do not fit positions {checked.positions.shape}",
            field="vertices",
        )
    normal_indices = anorm_indices(mesh.normal_indices, checked.positions, checked.triangles)
    model = _encoded(
        checked,
        vertices,
        scales,
        translates,
        normal_indices,
        mesh.frame_names,
        skins,
        None,
        model_class,
    )
    steps = scales.astype(np.float64)
    return BuildResult(model=model, errors=np.zeros_like(steps), steps=steps)


class _CheckedMesh(NamedTuple):
    """The arrays of :func:`build` checked: (F,V,3) float64 positions, (T,3) int64 triangles
    and triangle_texcoords, (S,2) int16 pixel texcoords, the skin's width and height."""

    positions: npt.NDArray[np.float64]
    triangles: npt.NDArray[np.int64]
    triangle_texcoords: npt.NDArray[np.int64]
    texcoords_px: npt.NDArray[np.int16]
    width: int
    height: int


def _checked_mesh(
    positions: npt.ArrayLike,
    triangles: npt.ArrayLike,
    texcoords_px: npt.ArrayLike,
    triangle_texcoords: npt.ArrayLike,
    frame_names: Sequence[str | bytes],
    skins: Sequence[str | bytes],
    skin_size: tuple[int, int],
    limits: Limits,
) -> _CheckedMesh:
    """:func:`build`'s input checked for shape, counts against ``limits``, corner indices and
    16-bit texcoords (BadValueError or LimitExceededError naming the field)."""
    pos, tri, tri_st, st_float = mesh_arrays(
        positions, triangles, texcoords_px, triangle_texcoords, "F"
    )
    num_frames, num_vertices = pos.shape[0], pos.shape[1]
    if st_float.shape[1:] != (2,):
        raise BadValueError(f"texcoords_px must be (S,2), got {st_float.shape}", field="texcoords")
    if not np.isfinite(st_float).all():  # NaN would pass the 16-bit check and be written as 0
        raise BadValueError("texcoords_px contain NaN or infinity", field="texcoords")
    if len(frame_names) != num_frames:
        raise BadValueError(
            f"{len(frame_names)} frame names for {num_frames} frames", field="frame_names"
        )
    check_not_empty(
        (
            (num_frames, "frames", "num_frames"),
            (num_vertices, "vertices", "vertices_per_frame"),
            (len(tri), "triangles", "num_triangles"),
        )
    )
    check_limit(
        num_vertices,
        limits.max_vertices,
        "vertices",
        "vertices_per_frame",
        hard=FORMAT_MAX_INDEX + 1,
    )
    check_limit(len(tri), limits.max_triangles, "triangles", "num_triangles")
    check_limit(num_frames, limits.max_frames, "frames", "num_frames")
    check_limit(len(skins), limits.max_skins, "skins", "num_skins")
    check_limit(
        len(st_float),
        limits.max_texcoords,
        "texcoords",
        "num_tex_coords",
        hard=FORMAT_MAX_INDEX + 1,
    )
    check_corners(tri, num_vertices, tri_st, len(st_float))
    st_px = np.rint(st_float)
    if np.any(np.abs(st_px) > 32767):
        raise BadValueError("texcoords_px do not fit 16-bit integers", field="texcoords")
    width, height = skin_dimensions(skin_size, "skin_width_px")
    return _CheckedMesh(pos, tri, tri_st, st_px.astype(np.int16), width, height)


def _encoded(
    mesh: _CheckedMesh,
    compressed: npt.NDArray[np.uint8],
    scales: npt.NDArray[np.float32],
    translates: npt.NDArray[np.float32],
    normal_indices: npt.NDArray[np.uint8],
    frame_names: Sequence[str | bytes],
    skins: Sequence[str | bytes],
    gl_commands: Sequence[GlCommand] | npt.ArrayLike | None,
    model_class: type[R],
) -> R:
    """The model of checked arrays and (F,V,3) ``compressed`` vertices on (F,3) grids, read
    back as a ``model_class`` (BadValueError when it does not read back)."""
    tri, tri_st, st_px16 = mesh.triangles, mesh.triangle_texcoords, mesh.texcoords_px
    width, height = mesh.width, mesh.height
    num_frames, num_vertices = mesh.positions.shape[0], mesh.positions.shape[1]
    if gl_commands is None:
        gl = gl_dwords_for(gl_commands_for(tri, tri_st), st_px16, width, height)
    else:
        gl = _gl_dwords_from_given(gl_commands)

    vertices = np.empty((num_frames, num_vertices, VERTEX_SIZE), np.uint8)
    vertices[:, :, POSITION] = compressed
    vertices[:, :, NORMAL_INDEX] = normal_indices
    parts = Md2Parts(
        skin_width=width,
        skin_height=height,
        skins_raw=[encode_name(s, SKIN_NAME_SIZE, "skin name", "skins") for s in skins],
        texcoords_px=st_px16,
        triangles=np.concatenate([tri, tri_st], axis=1).astype(np.int16),
        scales=scales,
        translates=translates,
        frame_names_raw=[
            encode_name(n, FRAME_NAME_SIZE, "frame name", "frames.name") for n in frame_names
        ],
        vertices=vertices,
        gl_dwords=gl,
    )
    model = model_class.from_bytes(encode(parts))
    try:
        model.load_all()
    except ModelFormatError as e:  # given GL commands that do not parse, for instance
        raise BadValueError(f"the encoded model does not read back: {e}", field=e.field) from e
    return model


# -- from glTF / OBJ -----------------------------------------------------------------------------


def from_imported(
    mesh: ImportedMesh,
    *,
    skins: Sequence[str] = (),
    skin_size: tuple[int, int] | None = None,
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Weld ``mesh`` and encode it as MD2; skin size from the argument, the file's embedded
    image, or 256 × 256."""
    size = skin_dimensions(first_size(skin_size, mesh.skin_size), "skin_width_px")
    positions, triangles, texcoords_px, triangle_texcoords = weld(mesh, size)
    return build(
        positions,
        triangles,
        texcoords_px,
        triangle_texcoords,
        mesh.frame_names,
        skins=skins,
        skin_size=size,
        limits=limits,
        model_class=model_class,
    )


# -- from any model's scene (MD3 → MD2, MD3 → MDL) -----------------------------------------------


def from_scene(
    scene: ExportModel,
    *,
    skins: Sequence[str | bytes] = (),
    skin_size: tuple[int, int] | None = None,
    limits: Limits = VANILLA,
    model_class: type[R],
) -> BuildResult[R]:
    """Encode a format-neutral scene (an MD3's, with every surface merged: see
    :func:`scene_arrays`) as MD2; its normals are kept (nearest anorm) and tags dropped. Skin
    size from the argument, else the first surface's skin image (halved while it is taller
    than ``limits.max_skin_height``: the header's size is only the texcoords' grid, and Quake
    II refuses a taller one), else 256 × 256."""
    size = skin_dimensions(first_size(skin_size, scene_skin_size(scene)), "skin_width_px")
    while skin_size is None and size[1] > limits.max_skin_height:
        size = (max(size[0] // 2, 1), size[1] // 2)
    a = scene_arrays(scene, size)
    return build(
        a.positions,
        a.triangles,
        a.texcoords_px,
        a.triangle_texcoords,
        a.frame_names,
        skins=skins,
        skin_size=size,
        normals=a.normals,
        limits=limits,
        model_class=model_class,
    )
