"""Quake II's engine limits on MD2 models (and the format's own, and Q2PRO's): plain values,
the one home of them. :func:`.write.build` enforces a :class:`Limits`; ``check`` reports
against :data:`VANILLA` and :data:`Q2PRO`. Here so that loading a model needs no writer."""

from __future__ import annotations

from ...core.files import MAX_LOADFILE
from ...core.records import Frozen

# Hard limits of the format itself: indices are signed 16-bit, compressed coordinates 8-bit.
FORMAT_MAX_INDEX = 32767


class Limits(Frozen):
    """Engine limits ``build`` enforces. :data:`VANILLA` is Quake II's own (qfiles.h)."""

    max_vertices: int = 2048
    max_triangles: int = 4096
    max_frames: int = 512
    max_skins: int = 32
    max_texcoords: int = FORMAT_MAX_INDEX + 1
    max_skin_height: int = 480
    """Not refused by ``build`` (``check`` reports it): the height :func:`.write.from_scene` keeps
    a skin grid taken from an image within (Quake II's GL renderer, MAX_LBM_HEIGHT)."""


VANILLA = Limits()
"""Quake II 3.20: MAX_VERTS 2048, MAX_TRIANGLES 4096, MAX_FRAMES 512, MAX_MD2SKINS 32."""

FORMAT_LIMITS = Limits(
    max_vertices=FORMAT_MAX_INDEX + 1,
    max_triangles=2**31 - 1,
    max_frames=2**31 - 1,
    max_skins=2**31 - 1,
    max_skin_height=2**31 - 1,
)
"""Only what the file format can express (16-bit indices); for engines without limits."""

Q2PRO = Limits(
    max_vertices=2048,  # MD2_MAX_VERTS (inc/format/md2.h)
    max_triangles=6144,  # TESS_MAX_INDICES / 3 (src/refresh/gl.h)
    max_frames=512,  # MD2_MAX_FRAMES
    max_skins=32,  # MD2_MAX_SKINS
    max_skin_height=8192,  # MAX_TEXTURE_SIZE (src/refresh/images.h)
)
"""Q2PRO's MOD_LoadMD2 / MOD_ValidateMD2: what it refuses (it checks these at load)."""

Q2PRO_MAX_TESS_VERTS = 6144
"""Q2PRO's TESS_MAX_VERTICES: distinct (vertex, texcoord) pairs after merging equal ones."""

Q2PRO_MAX_TEXTURE = Q2PRO.max_skin_height
"""Q2PRO's MAX_TEXTURE_SIZE: a skin side must lie in 1..this."""

MAX_FILE_SIZE = MAX_LOADFILE
"""The largest MD2 file read (bytes, :data:`quakemodels.core.files.MAX_LOADFILE`): a larger
file, or archive entry, is refused by its size before it is read."""
