"""A small byte-level Quake 1 MDL builder for synthetic test files.

It writes exactly what it is given (packed vertices, raw names, group counts, any header
override), so tests can make valid files and broken ones alike. It is not a package writer.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

HEADER = struct.Struct("<4si10f8if")
HEADER_FIELDS = (
    "version",
    "scale_x",
    "scale_y",
    "scale_z",
    "origin_x",
    "origin_y",
    "origin_z",
    "radius",
    "eye_x",
    "eye_y",
    "eye_z",
    "num_skins",
    "skin_width",
    "skin_height",
    "num_verts",
    "num_tris",
    "num_frames",
    "synctype",
    "flags",
    "size",
)


@dataclass
class Pose:
    """One daliasframe_t: name bytes and (V,4) uint8 packed vertices (x, y, z, normal)."""

    name: bytes
    verts: np.ndarray
    bbox_min: tuple[int, int, int, int] = (0, 0, 0, 0)
    bbox_max: tuple[int, int, int, int] = (255, 255, 255, 0)

    def to_bytes(self) -> bytes:
        return (
            bytes(self.bbox_min)
            + bytes(self.bbox_max)
            + self.name.ljust(16, b"\0")[:16]
            + np.asarray(self.verts, np.uint8).tobytes()
        )


@dataclass
class Group:
    """A frame group: intervals and poses (``count`` overrides the stored pose count)."""

    intervals: list[float]
    poses: list[Pose]
    count: int | None = None
    type_word: int = 1

    def to_bytes(self) -> bytes:
        n = len(self.poses) if self.count is None else self.count
        out = struct.pack("<ii", self.type_word, n) + bytes(4) + bytes([255, 255, 255, 0])
        out += struct.pack(f"<{len(self.intervals)}f", *self.intervals)
        return out + b"".join(p.to_bytes() for p in self.poses)


@dataclass
class SkinGroup:
    """A skin group: intervals and images (``count`` overrides the stored image count)."""

    intervals: list[float]
    images: list[bytes]
    count: int | None = None

    def to_bytes(self) -> bytes:
        n = len(self.images) if self.count is None else self.count
        out = struct.pack("<ii", 1, n) + struct.pack(f"<{len(self.intervals)}f", *self.intervals)
        return out + b"".join(self.images)


def _default_verts() -> np.ndarray:
    return np.array([[0, 0, 0, 5], [255, 0, 0, 5], [255, 255, 0, 5], [0, 255, 10, 161]], np.uint8)


@dataclass
class MdlSpec:
    """Everything that goes into a synthetic MDL; defaults make a valid 4-vertex quad with one
    seam vertex, a back-facing triangle, a 12 x 6 skin and two single frames."""

    skin_width: int = 12
    skin_height: int = 6
    scale: tuple[float, float, float] = (0.5, 0.25, 1.0)
    origin: tuple[float, float, float] = (-10.0, -5.0, 2.0)
    # skins: raw pixel bytes (a single skin) or a SkinGroup
    skins: list[bytes | SkinGroup] = None  # type: ignore[assignment]
    stverts: list[tuple[int, int, int]] = field(
        default_factory=lambda: [(0, 0, 0), (0x20, 5, 0), (0, 5, 5), (0, 0, 5)]
    )
    triangles: list[tuple[int, int, int, int]] = field(
        default_factory=lambda: [(0x10, 0, 1, 2), (0, 0, 2, 1), (0x10, 0, 2, 3)]
    )
    frames: list[Pose | Group] = None  # type: ignore[assignment]
    header_overrides: dict[str, float | int] = field(default_factory=dict)
    magic: bytes = b"IDPO"
    trailer: bytes = b""

    def __post_init__(self) -> None:
        if self.skins is None:
            pixels = bytes((i * 7) % 256 for i in range(self.skin_width * self.skin_height))
            self.skins = [pixels]
        if self.frames is None:
            verts = _default_verts()
            self.frames = [Pose(b"stand1", verts), Pose(b"stand2", verts[::-1].copy())]


def random_seam_spec(rng: np.random.Generator, nv: int, nt: int, poses: int = 1) -> MdlSpec:
    """``nv`` vertices, half of them on the seam at random, and ``nt`` triangles facing back or
    front at random over them (so corners are shared): ``poses`` random single poses."""
    return MdlSpec(
        stverts=[
            (int(rng.choice([0, 0x20])), int(rng.integers(0, 12)), int(rng.integers(0, 6)))
            for _ in range(nv)
        ],
        triangles=[
            (int(rng.choice([0, 0x10])), *(int(x) for x in rng.integers(0, nv, 3)))
            for _ in range(nt)
        ],
        frames=[
            Pose(b"a%d" % k if poses > 1 else b"a", rng.integers(0, 162, (nv, 4)).astype(np.uint8))
            for k in range(poses)
        ],
    )


def build(spec: MdlSpec | None = None) -> bytes:
    """The bytes of the MDL file ``spec`` describes."""
    spec = spec or MdlSpec()
    first = spec.frames[0] if spec.frames else None
    if isinstance(first, Group):
        first = first.poses[0] if first.poses else None
    num_v = len(first.verts) if first is not None else len(spec.stverts)
    values: dict[str, float | int] = dict(
        version=6,
        scale_x=spec.scale[0],
        scale_y=spec.scale[1],
        scale_z=spec.scale[2],
        origin_x=spec.origin[0],
        origin_y=spec.origin[1],
        origin_z=spec.origin[2],
        radius=20.0,
        eye_x=0.0,
        eye_y=0.0,
        eye_z=24.0,
        num_skins=len(spec.skins),
        skin_width=spec.skin_width,
        skin_height=spec.skin_height,
        num_verts=num_v,
        num_tris=len(spec.triangles),
        num_frames=len(spec.frames),
        synctype=0,
        flags=0,
        size=3.5,
    )
    values.update(spec.header_overrides)
    out = HEADER.pack(spec.magic, *(values[f] for f in HEADER_FIELDS))
    for skin in spec.skins:
        out += skin.to_bytes() if isinstance(skin, SkinGroup) else struct.pack("<i", 0) + skin
    out += b"".join(struct.pack("<3i", *st) for st in spec.stverts)
    out += b"".join(struct.pack("<4i", *t) for t in spec.triangles)
    for frame in spec.frames:
        out += frame.to_bytes() if isinstance(frame, Group) else b"\0\0\0\0" + frame.to_bytes()
    return out + spec.trailer


OFFSETS = {name: 4 + 4 * i for i, name in enumerate(HEADER_FIELDS)}


def set_header(data: bytes, name: str, value: int) -> bytes:
    """``data`` with one int32 header field (builder name, e.g. 'num_verts') replaced."""
    i = OFFSETS[name]
    return data[:i] + struct.pack("<i", value) + data[i + 4 :]
