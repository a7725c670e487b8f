"""The hostile inputs of issue #17 at any scale: tests build small ones, tools/bench_hostile.py
the issue's full-size ones, and the fuzzers vary their parameters.

Every function returns bytes (or, for glTF, a GLB's bytes); nothing is written to disk here.
"""

from __future__ import annotations

import struct

import numpy as np
from gltfbuilder import doc, glb
from md2builder import Md2Spec, build
from md3builder import HEADER, SURFACE, pad


def corner_explosion_md2(vertices: int = 256, texcoords: int = 256, frames: int = 200) -> bytes:
    """Finding 3: triangles whose corners run through every (vertex, texcoord) pair, so an
    export has vertices × texcoords distinct corners in every frame (256 × 256 × 200 frames:
    a 476 KB file)."""
    pairs = np.arange(vertices * texcoords)
    pairs = np.concatenate([pairs, pairs[: (-len(pairs)) % 3]])  # whole triangles
    v, t = (pairs // texcoords).reshape(-1, 3), (pairs % texcoords).reshape(-1, 3)
    triangles = [tuple(int(x) for x in (*a, *b)) for a, b in zip(v, t, strict=True)]
    rng = np.random.default_rng(0)
    frame_list = []
    for f in range(frames):
        verts = rng.integers(0, 256, (vertices, 4), dtype=np.uint8)
        verts[:, 3] %= 162
        frame_list.append(((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f%d" % f, verts))
    st = [(k % 64, k // 64 % 32) for k in range(texcoords)]
    spec = Md2Spec(
        frames=frame_list,
        triangles=triangles,  # type: ignore[arg-type]
        texcoords=st,
        skins=[],
        gl_dwords=[0],
    )
    return build(spec)


def flat_md2(frames: int = 10_000, triangles: int = 10_000) -> bytes:
    """Finding 5: 3 collinear vertices and ``triangles`` copies of one flat triangle, in
    ``frames`` frames (10,000 × 10,000: 640 KB)."""
    verts = np.array([[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 2, 0]], np.uint8)
    spec = Md2Spec(
        frames=[((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f", verts)] * frames,
        triangles=[(0, 1, 2, 0, 1, 2)] * triangles,
        texcoords=[(0, 0), (1, 1), (2, 2)],
        skins=[],
        gl_dwords=[0],
    )
    return build(spec)


def many_skins_md2(skins: int = 2000, depth: int = 30) -> bytes:
    """Finding 6: ``skins`` distinct names ``a/a/…/x<k>.p`` ``depth`` folders deep (2,000:
    128 KB)."""
    names = [(b"a/" * depth + b"x%d.p" % k)[-63:] for k in range(skins)]
    return build(Md2Spec(skins=names))


def shared_sections_md3(surfaces: int = 32, vertices: int = 4096, frames: int = 256) -> bytes:
    """Finding 4: ``surfaces`` surface headers whose sections all point at one shared block of
    triangles, texcoords and vertices (32 × 4096 vertices × 256 frames: 8.4 MB)."""
    ofs_frames = HEADER.size
    frame_bytes = b"".join(
        struct.pack("<10f", -1, -1, -1, 1, 1, 1, 0, 0, 0, 2) + pad(b"f%d" % f, 16)
        for f in range(frames)
    )
    ofs_surfaces = ofs_frames + len(frame_bytes)
    block = ofs_surfaces + surfaces * SURFACE.size
    tris = np.arange(3, dtype="<i4").tobytes()  # one triangle
    st = np.zeros((vertices, 2), "<f4").tobytes()
    xyz = np.zeros((frames, vertices, 4), "<i2")
    xyz[:, :, 0] = np.arange(vertices)
    data_tri, data_st = block, block + len(tris)
    data_xyz = data_st + len(st)
    end = data_xyz + xyz.nbytes
    heads = b""
    for k in range(surfaces):
        at = ofs_surfaces + k * SURFACE.size
        heads += SURFACE.pack(
            b"IDP3", pad(b"s%d" % k, 64), 0, frames, 0, vertices, 1,
            data_tri - at, SURFACE.size, data_st - at, data_xyz - at, SURFACE.size,
        )  # fmt: skip
    header = HEADER.pack(
        b"IDP3", 15, pad(b"shared", 64), 0, frames, 0, surfaces, 0,
        ofs_frames, ofs_surfaces, ofs_surfaces, end,
    )  # fmt: skip
    return header + frame_bytes + heads + tris + st + xyz.tobytes()


def shared_targets_glb(vertices: int = 30_000, targets: int = 2000) -> bytes:
    """Finding 2: ``targets`` morph targets all naming one accessor (30,000 × 2,000:
    a 720 KB GLB)."""
    document, blob = doc(targets=targets, vertices=vertices)
    return glb(document, blob)
