"""An independent MD3 reader for the writer's tests, written from ioquake3's ``qfiles.h``.

It shares nothing with quakemodels (no facade, no generated parser, no constants): plain
``struct`` over the C structs, and normals decoded as ioquake3's renderergl1 does
(``tr_surface.c`` LerpMeshVertexes with ``tr.sinTable``, whose 1024 entries are
``sin(i · 360° / 1023)`` in float: the engine's own slight error, kept on purpose).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import numpy as np

# qfiles.h
MD3_IDENT = b"IDP3"
MD3_VERSION = 15
MD3_XYZ_SCALE = 1.0 / 64
MAX_QPATH = 64
HEADER = struct.Struct("<4si64siiiiiiiii")  # md3Header_t
FRAME = struct.Struct("<3f3f3ff16s")  # md3Frame_t: bounds[2], localOrigin, radius, name
TAG = struct.Struct("<64s3f9f")  # md3Tag_t: name, origin, axis[3][3]
SURFACE = struct.Struct("<4s64siiiiiiiiii")  # md3Surface_t
SHADER = struct.Struct("<64si")  # md3Shader_t
TRIANGLE = struct.Struct("<3i")  # md3Triangle_t
ST = struct.Struct("<2f")  # md3St_t
XYZ_NORMAL = struct.Struct("<3hH")  # md3XyzNormal_t: short xyz[3], short normal

# tr_local.h / tr_init.c
FUNCTABLE_SIZE = 1024
SIN_TABLE = np.array(
    [math.sin(math.radians(i * 360.0 / (FUNCTABLE_SIZE - 1))) for i in range(FUNCTABLE_SIZE)],
    dtype=np.float32,
)


def engine_normal(word: int) -> tuple[float, float, float]:
    """The renderer's float normal for the stored 16-bit ``normal`` (lat high byte, lng low)."""
    lat = ((word >> 8) & 0xFF) * (FUNCTABLE_SIZE // 256)
    lng = (word & 0xFF) * (FUNCTABLE_SIZE // 256)
    mask = FUNCTABLE_SIZE - 1
    q = FUNCTABLE_SIZE // 4
    return (
        float(SIN_TABLE[(lat + q) & mask] * SIN_TABLE[lng]),
        float(SIN_TABLE[lat] * SIN_TABLE[lng]),
        float(SIN_TABLE[(lng + q) & mask]),
    )


def _c_string(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("latin-1")


@dataclass
class RefSurface:
    name: str
    shaders: list[tuple[str, int]]
    triangles: list[tuple[int, int, int]]
    st: list[tuple[float, float]]
    xyz: list[list[tuple[int, int, int]]]  # per frame, per vertex, in 1/64 units
    normals: list[list[int]]  # per frame, per vertex: the stored 16-bit word

    def positions(self) -> np.ndarray:
        """(F,N,3) float64 model units, as the renderer scales them."""
        return np.array(self.xyz, dtype=np.float64) * MD3_XYZ_SCALE

    def engine_normals(self) -> np.ndarray:
        """(F,N,3) float64 normals as ioquake3 decodes them."""
        return np.array([[engine_normal(w) for w in frame] for frame in self.normals])


@dataclass
class RefModel:
    name: str
    frames: list[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...], float, str]]
    tags: list[list[tuple[str, tuple[float, ...], tuple[float, ...]]]]  # per frame
    surfaces: list[RefSurface]
    ofs_end: int


def read(data: bytes) -> RefModel:
    """Parse ``data`` the way R_LoadMD3 walks it; raises ValueError on anything it refuses."""
    (ident, version, name, _flags, num_frames, num_tags, num_surfaces, _skins,
     ofs_frames, ofs_tags, ofs_surfaces, ofs_end) = HEADER.unpack_from(data, 0)  # fmt: skip
    if ident != MD3_IDENT or version != MD3_VERSION:
        raise ValueError(f"not an MD3: {ident!r} version {version}")
    if ofs_end > len(data) or num_frames < 1:
        raise ValueError("bad header")
    frames = []
    for i in range(num_frames):
        v = FRAME.unpack_from(data, ofs_frames + FRAME.size * i)
        frames.append((v[0:3], v[3:6], v[6:9], v[9], _c_string(v[10])))
    tags = []
    for f in range(num_frames):
        row = []
        for k in range(num_tags):
            v = TAG.unpack_from(data, ofs_tags + TAG.size * (f * num_tags + k))
            row.append((_c_string(v[0]), v[1:4], v[4:13]))
        tags.append(row)
    surfaces = []
    at = ofs_surfaces
    for _ in range(num_surfaces):
        (_ident, sname, _sflags, snum_frames, num_shaders, num_verts, num_tris, ofs_tris,
         ofs_shaders, ofs_st, ofs_xyz, sofs_end) = SURFACE.unpack_from(data, at)  # fmt: skip
        if snum_frames != num_frames:
            raise ValueError("surface frame count differs from the header's")
        shaders = [
            (_c_string(n), idx)
            for n, idx in (
                SHADER.unpack_from(data, at + ofs_shaders + SHADER.size * j)
                for j in range(num_shaders)
            )
        ]
        tris = [
            TRIANGLE.unpack_from(data, at + ofs_tris + TRIANGLE.size * j) for j in range(num_tris)
        ]
        if any(not 0 <= i < num_verts for t in tris for i in t):
            raise ValueError("triangle index out of range")
        st = [ST.unpack_from(data, at + ofs_st + ST.size * j) for j in range(num_verts)]
        records = list(
            XYZ_NORMAL.iter_unpack(
                data[at + ofs_xyz : at + ofs_xyz + XYZ_NORMAL.size * num_verts * num_frames]
            )
        )
        xyz = [
            [r[:3] for r in records[f * num_verts : (f + 1) * num_verts]] for f in range(num_frames)
        ]
        normals = [
            [r[3] for r in records[f * num_verts : (f + 1) * num_verts]] for f in range(num_frames)
        ]
        surfaces.append(RefSurface(_c_string(sname), shaders, tris, st, xyz, normals))
        at += sofs_end
    return RefModel(_c_string(name), frames, tags, surfaces, ofs_end)
