"""A small byte-level MD2 builder for synthetic test files.

It writes exactly what it is given (compressed vertices, raw names, any header override), so
tests can make valid files and broken ones alike. It is not the package's writer.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

HEADER = struct.Struct("<4s16i")
Frame = tuple[tuple[float, float, float], tuple[float, float, float], bytes, np.ndarray]


@dataclass
class Md2Spec:
    """Everything that goes into a synthetic MD2; defaults make a valid 2-frame quad."""

    skin_width: int = 64
    skin_height: int = 32
    skins: list[bytes] = field(default_factory=lambda: [b"models/test/skin.pcx"])
    texcoords: list[tuple[int, int]] = field(
        default_factory=lambda: [(0, 0), (63, 0), (63, 31), (0, 31)]
    )
    triangles: list[tuple[int, int, int, int, int, int]] = field(
        default_factory=lambda: [(0, 1, 2, 0, 1, 2), (0, 2, 3, 0, 2, 3)]
    )
    # per frame: (scale xyz, translate xyz, name bytes, verts (V,4) uint8).
    # None means the default two frames; [] means no frames at all.
    frames: list[Frame] = None  # type: ignore[assignment]
    gl_dwords: list[int] | None = None  # raw dwords; floats as their int bits
    framesize_extra: int = 0
    header_overrides: dict[str, int] = field(default_factory=dict)
    magic: bytes = b"IDP2"
    trailing: bytes = b""

    def __post_init__(self) -> None:
        if self.frames is None:
            verts = np.array(
                [[0, 0, 0, 5], [255, 0, 0, 5], [255, 255, 0, 5], [0, 255, 10, 161]], np.uint8
            )
            self.frames = [
                ((0.5, 0.25, 1.0), (-10.0, -5.0, 2.0), b"stand01", verts),
                ((0.5, 0.25, 1.5), (-10.0, -5.0, 3.0), b"stand02", verts[::-1].copy()),
            ]


def float_bits(x: float) -> int:
    """The int32 whose bits are float32 ``x`` (for GL command texcoords)."""
    return int(struct.unpack("<i", struct.pack("<f", x))[0])


def gl_command(kind: str, corners: list[tuple[float, float, int]]) -> list[int]:
    """Dwords of one strip ('strip') or fan ('fan') command."""
    n = len(corners)
    out = [n if kind == "strip" else -n]
    for s, t, v in corners:
        out += [float_bits(s), float_bits(t), v]
    return out


FIELDS = [
    "version",
    "skin_width_px",
    "skin_height_px",
    "bytes_per_frame",
    "num_skins",
    "vertices_per_frame",
    "num_tex_coords",
    "num_triangles",
    "num_gl_cmds",
    "num_frames",
    "ofs_skins",
    "ofs_tex_coords",
    "ofs_triangles",
    "ofs_frames",
    "ofs_gl_cmds",
    "ofs_end",
]


def build(spec: Md2Spec | None = None) -> bytes:
    """The bytes of the MD2 file ``spec`` describes (sections in the canonical order)."""
    spec = spec or Md2Spec()
    num_v = len(spec.frames[0][3]) if spec.frames else 0
    framesize = 40 + 4 * num_v + spec.framesize_extra
    gl = spec.gl_dwords
    if gl is None:
        gl = []
        for tri in spec.triangles:
            corners = [
                (
                    spec.texcoords[tri[3 + k]][0] / spec.skin_width,
                    spec.texcoords[tri[3 + k]][1] / spec.skin_height,
                    tri[k],
                )
                for k in range(3)
            ]
            gl += gl_command("strip", corners)
        gl.append(0)
    skins = b"".join(s.ljust(64, b"\0")[:64] for s in spec.skins)
    st = b"".join(struct.pack("<2h", s, t) for s, t in spec.texcoords)
    tris = b"".join(struct.pack("<6h", *t) for t in spec.triangles)
    frames = b""
    for scale, translate, name, verts in spec.frames:
        frames += struct.pack("<6f", *scale, *translate) + name.ljust(16, b"\0")[:16]
        frames += np.asarray(verts, np.uint8).tobytes() + b"\0" * spec.framesize_extra
    glb = struct.pack(f"<{len(gl)}i", *gl)
    ofs_skins = HEADER.size
    ofs_st = ofs_skins + len(skins)
    ofs_tris = ofs_st + len(st)
    ofs_frames = ofs_tris + len(tris)
    ofs_gl = ofs_frames + len(frames)
    ofs_end = ofs_gl + len(glb)
    values = dict(
        version=8,
        skin_width_px=spec.skin_width,
        skin_height_px=spec.skin_height,
        bytes_per_frame=framesize,
        num_skins=len(spec.skins),
        vertices_per_frame=num_v,
        num_tex_coords=len(spec.texcoords),
        num_triangles=len(spec.triangles),
        num_gl_cmds=len(gl),
        num_frames=len(spec.frames),
        ofs_skins=ofs_skins,
        ofs_tex_coords=ofs_st,
        ofs_triangles=ofs_tris,
        ofs_frames=ofs_frames,
        ofs_gl_cmds=ofs_gl,
        ofs_end=ofs_end,
    )
    values.update(spec.header_overrides)
    header = HEADER.pack(spec.magic, *(values[f] for f in FIELDS))
    return header + skins + st + tris + frames + glb + spec.trailing


def set_header(data: bytes, field_name: str, value: int) -> bytes:
    """``data`` with one header field replaced (as int32)."""
    i = 4 + 4 * FIELDS.index(field_name)
    return data[:i] + struct.pack("<i", value) + data[i + 4 :]
