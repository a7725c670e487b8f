"""Engine limits on MD5 (Doom 3 version 10) models and animations: plain values, the one home
of them. The reader refuses a count over :data:`READ`'s before it allocates anything for it;
``check`` reports a model against each engine's.

Sources (read for their values, nothing copied):

* Doom 3 (id Tech 4, GPL release as in dhewm3 ``neo/renderer/Model_md5.cpp``
  ``idRenderModelMD5::LoadModel`` / ``idMD5Mesh::ParseMesh``, ``neo/game/anim/Anim.cpp``
  ``idMD5Anim::LoadAnim``): version must be 10; counts only refused when negative
  ("Invalid size"); a joint's parent must be an earlier joint; a vertex needs at least one
  weight; a weight's joint must exist. No fixed maxima: idList grows to what the file says.
* Q2PRO (the Quake II re-release's MD5 replacement models; ``src/refresh/gl.h`` and
  ``src/refresh/models.c`` ``MD5_ParseMesh`` / ``MD5_ParseAnim`` / ``MD5_LoadScales``):
  ``MD5_MAX_JOINTS`` 256, ``MD5_MAX_JOINTNAME`` 48, ``MD5_MAX_MESHES`` 32,
  ``MD5_MAX_WEIGHTS`` 8192 (per mesh), ``MD5_MAX_FRAMES`` 1024, numverts ≤
  ``TESS_MAX_VERTICES`` 6144, numtris ≤ ``TESS_MAX_INDICES`` / 3, a vertex's first weight and
  weight count each ≤ 65535, numAnimatedComponents ≤ 6 · 256, at least 1 joint, 1 mesh and
  1 frame. vkQuake's re-release MD5 loader (``Quake/gl_model.c`` MD5 support) bounds the same
  kinds of counts; the Vulkan Q2 renderers copy Q2PRO's values (``VK_MD5_MAX_*``: 256 joints,
  32 meshes, 8192 weights, 1024 frames, 65535 vertices).
"""

from __future__ import annotations

from ...core.files import MAX_LOADFILE
from ...core.records import Frozen


class Limits(Frozen):
    """Upper bounds on an MD5's counts (per file; ``weights``, ``vertices`` and
    ``triangles`` per mesh)."""

    joints: int
    meshes: int
    vertices: int
    triangles: int
    weights: int
    frames: int
    animated_components: int
    joint_name: int


READ = Limits(
    joints=4096,
    meshes=1024,
    vertices=1 << 20,
    triangles=1 << 21,
    weights=1 << 22,
    frames=1 << 16,
    animated_components=6 * 4096,
    joint_name=1024,
)
"""What quakemodels reads: far above any engine's (Doom 3 has none), low enough that a count is
refused before the arrays it sizes are allocated (a one-line file declaring 2^31 vertices)."""

Q2PRO = Limits(
    joints=256,  # MD5_MAX_JOINTS (src/refresh/gl.h)
    meshes=32,  # MD5_MAX_MESHES
    vertices=6144,  # TESS_MAX_VERTICES (src/refresh/gl.h)
    triangles=6144,  # TESS_MAX_INDICES / 3
    weights=8192,  # MD5_MAX_WEIGHTS
    frames=1024,  # MD5_MAX_FRAMES
    animated_components=6 * 256,  # anim_frame_data[MD5_MAX_JOINTS * 6] (models.c)
    joint_name=47,  # MD5_MAX_JOINTNAME 48, with its NUL
)
"""Q2PRO (the Quake II re-release's MD5 replacement loader): what MD5_ParseMesh/MD5_ParseAnim
refuse."""

Q2PRO_MAX_WEIGHT_INDEX = 65535
"""A vertex's first weight and weight count are parsed as ≤ UINT16_MAX (md5_vertex_t)."""

MAX_FILE_SIZE = MAX_LOADFILE
"""The largest .md5mesh/.md5anim read: the engines' cap on any file (64 MiB)."""
