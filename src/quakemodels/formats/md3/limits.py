"""MD3's limits: what the reader refuses and the engine limits :func:`.write.build` enforces
(:class:`Limits`), plain values here so that loading or exporting a model needs no writer."""

from __future__ import annotations

from ...core.files import MAX_LOADFILE
from ...core.records import Frozen

# What the reader refuses (Q2PRO's MD3 loader and qfiles.h, see the reader's docstring).
MAX_FRAMES = 1024
MAX_SURFACES = 32
MAX_SHADERS = 256
MIN_VERTICES = 3
MAX_VERTICES = 4096
MIN_TRIANGLES = 1
MAX_TRIANGLES = 6144
# Engine limits the reader accepts, reported by check.py and enforced by write.py's build:
# ioquake3's R_LoadMD3 drops a surface with ≥ SHADER_MAX_VERTEXES (1000) vertices or with
# 3 × triangles ≥ SHADER_MAX_INDEXES (6000); qfiles.h's MD3_MAX_TAGS binds id's tools only.
Q3_MAX_SURFACE_VERTS = 999
Q3_MAX_SURFACE_TRIANGLES = 1999
MD3_MAX_TAGS = 16


class Limits(Frozen):
    """Engine limits :func:`.write.build` enforces; vertices, triangles and shaders are per
    surface.

    :data:`VANILLA` is what ioquake3 loads. Whatever is asked, a built file never exceeds what
    :class:`~quakemodels.Md3` itself reads (:data:`FORMAT_LIMITS`).
    """

    max_vertices: int = Q3_MAX_SURFACE_VERTS
    max_triangles: int = Q3_MAX_SURFACE_TRIANGLES
    max_surfaces: int = MAX_SURFACES
    max_frames: int = MAX_FRAMES
    max_tags: int = MD3_MAX_TAGS
    max_shaders: int = MAX_SHADERS


VANILLA = Limits()
"""ioquake3: R_LoadMD3 drops a surface with ≥ SHADER_MAX_VERTEXES (1000) vertices or with
3·triangles ≥ SHADER_MAX_INDEXES (6000); qfiles.h: MD3_MAX_SURFACES 32, MD3_MAX_FRAMES 1024,
MD3_MAX_TAGS 16, MD3_MAX_SHADERS 256."""

QFILES = Limits(max_vertices=4096, max_triangles=8192)
"""qfiles.h's MD3_MAX_VERTS 4096 and MD3_MAX_TRIANGLES 8192 (id's tools; ioquake3's renderer
refuses most of that range, and the reader caps triangles at 6144, Q2PRO's limit)."""

FORMAT_LIMITS = Limits(
    max_vertices=MAX_VERTICES,
    max_triangles=MAX_TRIANGLES,
    max_tags=2**31 - 1,
)
"""What :class:`~quakemodels.Md3` loads (Q2PRO's limits); more tags than 16 only warn."""

MAX_FILE_SIZE = MAX_LOADFILE
"""The largest MD3 file read (bytes, :data:`quakemodels.core.files.MAX_LOADFILE`): a larger
file, or archive entry, is refused by its size before it is read."""
