"""A small byte-level MD3 builder for synthetic test files.

It writes exactly what it is given (integer positions, angle bytes, raw names, any header
override), so tests can make valid files and broken ones alike. It is not the package's
writer. Layout: header, frames, tags, then each surface as header, shaders, triangles,
texcoords, vertices (the order id's q3data writes).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

HEADER = struct.Struct("<4si64s9i")
SURFACE = struct.Struct("<4s64s10i")

HEADER_FIELDS = [
    "magic",
    "version",
    "name",
    "flags",
    "num_frames",
    "num_tags",
    "num_surfaces",
    "num_skins",
    "ofs_frames",
    "ofs_tags",
    "ofs_surfaces",
    "ofs_end",
]
HEADER_OFFSETS = dict(zip(HEADER_FIELDS, (0, 4, 8, *range(72, 108, 4)), strict=True))
SURFACE_FIELDS = [
    "magic",
    "name",
    "flags",
    "num_frames",
    "num_shaders",
    "num_vertices",
    "num_triangles",
    "ofs_triangles",
    "ofs_shaders",
    "ofs_tex_coords",
    "ofs_vertices",
    "ofs_end",
]
SURFACE_OFFSETS = dict(zip(SURFACE_FIELDS, (0, 4, *range(68, 108, 4)), strict=True))


def pad(name: bytes, size: int) -> bytes:
    """``name`` NUL-padded to ``size`` bytes; a name of exactly ``size`` bytes has no NUL."""
    if len(name) > size:
        raise ValueError(f"name {name!r} longer than {size} bytes")
    return name.ljust(size, b"\0")


@dataclass
class FrameSpec:
    mins: tuple[float, float, float] = (-1.0, -2.0, -3.0)
    maxs: tuple[float, float, float] = (1.0, 2.0, 3.0)
    origin: tuple[float, float, float] = (0.0, 0.0, 0.0)
    radius: float = 3.75
    name: bytes = b"frame"


@dataclass
class TagSpec:
    name: bytes = b"tag_weapon"
    origin: tuple[float, float, float] = (1.0, 2.0, 3.0)
    axis: tuple[tuple[float, float, float], ...] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


Vertex = tuple[int, int, int, int, int]  # x, y, z (units of 1/64), lng, lat


@dataclass
class SurfaceSpec:
    """One surface; ``vertices`` is one list of (x, y, z, lng, lat) per frame."""

    name: bytes = b"body"
    shaders: list[bytes] = field(default_factory=lambda: [b"models/test/skin"])
    triangles: list[tuple[int, int, int]] = field(default_factory=lambda: [(0, 1, 2), (0, 2, 3)])
    texcoords: list[tuple[float, float]] = field(
        default_factory=lambda: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.25)]
    )
    vertices: list[list[Vertex]] = field(
        default_factory=lambda: [
            [
                (0, 0, 0, 0, 0),
                (64, 0, 0, 64, 0),
                (64, 128, -32, 64, 64),
                (-1, 32767, -32768, 128, 200),
            ],
            [(0, 0, 64, 0, 0), (128, 0, 0, 64, 128), (64, 64, 0, 32, 255), (7, -7, 1, 255, 1)],
        ]
    )
    magic: bytes = b"IDP3"
    flags: int = 0
    overrides: dict[str, int] = field(default_factory=dict)


@dataclass
class Md3Spec:
    """Everything that goes into a synthetic MD3; defaults make a valid 2-frame model."""

    name: bytes = b"models/test/test.md3"
    frames: list[FrameSpec] = field(
        default_factory=lambda: [FrameSpec(name=b"stand1"), FrameSpec(name=b"stand2", radius=4.5)]
    )
    # one list of tags per frame
    tags: list[list[TagSpec]] = field(
        default_factory=lambda: [
            [TagSpec(b"tag_head"), TagSpec(b"tag_weapon", origin=(4.0, 5.0, 6.5))],
            [
                TagSpec(
                    b"tag_head", origin=(0.5, 0.25, 8.0), axis=((0, 1, 0), (-1, 0, 0), (0, 0, 1))
                ),
                TagSpec(b"tag_weapon", origin=(-4.0, 5.0, 6.5)),
            ],
        ]
    )
    surfaces: list[SurfaceSpec] = field(
        default_factory=lambda: [SurfaceSpec(), SurfaceSpec(name=b"head", shaders=[])]
    )
    flags: int = 0
    num_skins: int = 0
    header_overrides: dict[str, int] = field(default_factory=dict)
    magic: bytes = b"IDP3"
    version: int = 15
    trailing: bytes = b""


def build_surface(s: SurfaceSpec, num_frames: int) -> bytes:
    """The bytes of one surface, header included."""
    num_v = len(s.texcoords)
    shaders = b"".join(pad(n, 64) + struct.pack("<i", 0) for n in s.shaders)
    tris = b"".join(struct.pack("<3i", *t) for t in s.triangles)
    st = b"".join(struct.pack("<2f", *t) for t in s.texcoords)
    xyz = b"".join(struct.pack("<3h2B", *v) for frame in s.vertices for v in frame)
    ofs_shaders = SURFACE.size
    ofs_triangles = ofs_shaders + len(shaders)
    ofs_st = ofs_triangles + len(tris)
    ofs_xyz = ofs_st + len(st)
    ofs_end = ofs_xyz + len(xyz)
    values = {
        "flags": s.flags,
        "num_frames": num_frames,
        "num_shaders": len(s.shaders),
        "num_vertices": num_v,
        "num_triangles": len(s.triangles),
        "ofs_triangles": ofs_triangles,
        "ofs_shaders": ofs_shaders,
        "ofs_tex_coords": ofs_st,
        "ofs_vertices": ofs_xyz,
        "ofs_end": ofs_end,
    }
    values.update(s.overrides)
    header = SURFACE.pack(s.magic, pad(s.name, 64), *(values[f] for f in SURFACE_FIELDS[2:]))
    return header + shaders + tris + st + xyz


def build(spec: Md3Spec | None = None) -> bytes:
    """The bytes of the MD3 file ``spec`` describes."""
    spec = spec or Md3Spec()
    num_frames = len(spec.frames)
    num_tags = len(spec.tags[0]) if spec.tags else 0
    frames = b"".join(
        struct.pack("<10f", *f.mins, *f.maxs, *f.origin, f.radius) + pad(f.name, 16)
        for f in spec.frames
    )
    tags = b"".join(
        pad(t.name, 64) + struct.pack("<3f", *t.origin) + struct.pack("<9f", *sum(t.axis, ()))
        for frame in spec.tags
        for t in frame
    )
    surfaces = b"".join(build_surface(s, num_frames) for s in spec.surfaces)
    ofs_frames = HEADER.size
    ofs_tags = ofs_frames + len(frames)
    ofs_surfaces = ofs_tags + len(tags)
    ofs_end = ofs_surfaces + len(surfaces)
    values = {
        "flags": spec.flags,
        "num_frames": num_frames,
        "num_tags": num_tags,
        "num_surfaces": len(spec.surfaces),
        "num_skins": spec.num_skins,
        "ofs_frames": ofs_frames,
        "ofs_tags": ofs_tags,
        "ofs_surfaces": ofs_surfaces,
        "ofs_end": ofs_end + len(spec.trailing),
    }
    values.update(spec.header_overrides)
    header = HEADER.pack(
        spec.magic, spec.version, pad(spec.name, 64), *(values[f] for f in HEADER_FIELDS[3:])
    )
    return header + frames + tags + surfaces + spec.trailing


def set_header(data: bytes, field: str, value: int) -> bytes:
    """``data`` with the header's int32 ``field`` replaced."""
    out = bytearray(data)
    struct.pack_into("<i", out, HEADER_OFFSETS[field], value)
    return bytes(out)


def surface_offset(data: bytes, index: int) -> int:
    """Absolute offset of surface ``index``, following the ofs_end chain."""
    pos = struct.unpack_from("<i", data, HEADER_OFFSETS["ofs_surfaces"])[0]
    for _ in range(index):
        pos += struct.unpack_from("<i", data, pos + SURFACE_OFFSETS["ofs_end"])[0]
    return int(pos)


def set_surface(data: bytes, index: int, field: str, value: int) -> tuple[bytes, int]:
    """``data`` with surface ``index``'s int32 ``field`` replaced, and that field's offset."""
    at = surface_offset(data, index) + SURFACE_OFFSETS[field]
    out = bytearray(data)
    struct.pack_into("<i", out, at, value)
    return bytes(out), at
