"""Quake's engine limits on MDL models (and the format's own): plain values, the one home of
them. :func:`.write.build` enforces a :class:`Limits`; ``check`` reports against every engine
of :data:`ENGINES`. Here so that loading or exporting a model needs no writer.

Sources: WinQuake/gl_model.c and model.c (MAXALIASVERTS, MAXALIASTRIS, MAXALIASFRAMES,
MAX_SKINS, MAX_LBM_HEIGHT) and QuakeSpasm's Quake/gl_model.h."""

from __future__ import annotations

from ...core.files import MAX_LOADFILE
from ...core.records import Frozen


class Limits(Frozen):
    """Engine limits ``build`` enforces. :data:`VANILLA` is id's GLQuake (gl_model.c)."""

    max_vertices: int = 1024  # MAXALIASVERTS
    max_triangles: int = 2048  # MAXALIASTRIS
    max_poses: int = 256  # MAXALIASFRAMES
    max_skins: int = 32  # MAX_SKINS
    max_skin_height: int = 480  # MAX_LBM_HEIGHT
    skin_width_multiple: int = 4  # the software renderer refuses other widths


VANILLA = Limits()
"""GLQuake: 1024 vertices, 2048 triangles, 256 poses, 32 skins, skins ≤ 480 pixels tall,
widths a multiple of 4 (the software renderer's rule)."""

QUAKESPASM = Limits(
    max_vertices=2000,
    max_triangles=4096,
    max_poses=256,
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

ENGINES = {"quake": VANILLA, "quakespasm": QUAKESPASM}
"""The engines ``check`` reports limits for, by their ``--engine`` name."""
