"""Quake's engine limits on MDL models (and the format's own), as :func:`.write.build` enforces
them: plain values, here so that loading or exporting a model needs no writer."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.files import MAX_LOADFILE
from .layout import LIMITS, MAX_SKIN_HEIGHT, MAX_SKINS, SKIN_WIDTH_MULTIPLE


@dataclass(frozen=True)
class Limits:
    """Engine limits ``build`` enforces. :data:`VANILLA` is id's GLQuake (gl_model.c)."""

    max_vertices: int = LIMITS["quake"][0]
    max_triangles: int = LIMITS["quake"][1]
    max_poses: int = LIMITS["quake"][2]
    max_skins: int = MAX_SKINS
    max_skin_height: int = MAX_SKIN_HEIGHT
    skin_width_multiple: int = SKIN_WIDTH_MULTIPLE


VANILLA = Limits()
"""GLQuake: 1024 vertices, 2048 triangles, 256 poses, 32 skins, skins ≤ 480 pixels tall,
widths a multiple of 4 (the software renderer's rule)."""

QUAKESPASM = Limits(
    max_vertices=LIMITS["quakespasm"][0],
    max_triangles=LIMITS["quakespasm"][1],
    max_poses=LIMITS["quakespasm"][2],
    max_skin_height=2**31 - 1,  # a taller skin is only a developer warning there
)
"""QuakeSpasm: 2000 vertices, 4096 triangles, 256 poses, 32 skins, any skin height."""

FORMAT_LIMITS = Limits(
    max_vertices=2**31 - 1,
    max_triangles=2**31 - 1,
    max_poses=2**31 - 1,
    max_skins=2**31 - 1,
    max_skin_height=2**31 - 1,
    skin_width_multiple=1,
)
"""Only what the file format can express; for engines without limits."""

MAX_FILE_SIZE = MAX_LOADFILE
"""The largest MDL file read (bytes, :data:`quakemodels.core.files.MAX_LOADFILE`): a larger
file, or archive entry, is refused by its size before it is read."""
