"""An IQM's first pose through the compiled kernel (``_pose.c``), beside the numpy path.

``Iqm.meshes(frame)`` poses one frame. The numpy path (:meth:`.reader.IqmReader.rest_scene`,
:meth:`~.reader.IqmReader.frame_clip`, :func:`quakemodels.core.skeletal.bake`,
:func:`.model.posed_meshes`) builds the rest scene, the frame's clip and its baked surfaces in
a few hundred numpy calls and a Python object per record, each cheap but together some ten
times assimp's whole import of the file. ``_pose.c`` reads the same records from the bytes
(vertex arrays, meshes, anims, joints, poses, the frame's channels), checks what the reader
checks of them, and writes every mesh's positions, normals, uvs and triangles in one call.
Wherever it is not sure (a fault, a vertex format other than the common ones, a bind pose
close to singular, meshes sharing vertices, a frame out of range) it hands the file back, and
the numpy path poses it or raises the error that names the fault (or the IndexError).

``tests/test_iqm_fast.py`` proves the two equal on the corpus, synthetic models, hostile
files and random damage: uvs and triangles exactly; positions to within one float32 step of
the model's size (on the corpus they come out bit for bit equal but for a few values within
1e-15 of zero, which differ by less than 1e-20): numpy multiplies the 4×4 matrices through
BLAS, whose rounding depends on the machine's kernel and which no fixed order of operations
reproduces; the normals exactly as ``vertex_normals`` makes them of the kernel's own
positions (the kernel follows numpy's order of operations there).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...core.compiled import compiled
from ...core.mesh import Mesh
from .limits import MAX_JOINTS, MAX_POSE_FRAMES

Pose = Callable[[bytes, int, int, int], tuple[bytes, bytes, bytes, bytes, tuple[int, ...]] | int]
"""``_pose.pose``'s signature (see ``_pose.pyi``)."""


def _compiled_pose() -> Pose | None:
    module = compiled("quakemodels.formats.iqm._pose")  # without it the numpy path serves
    pose: Pose | None = None if module is None else module.pose
    return pose


POSE: Pose | None = _compiled_pose()
"""The compiled first pose (``_pose.c``), or None when the install had no C compiler or
``QUAKEMODELS_PURE_PYTHON`` is set (to any non-empty value)."""


def compiled_meshes(data: bytes, frame: int, pose: Pose | None = None) -> list[Mesh] | None:
    """Every mesh of the IQM in ``data`` (its header checked by the reader) posed at scene
    frame ``frame`` by ``_pose.c`` (``pose``, default :data:`POSE`), as
    ``posed_meshes(frame_scene(m, frame))`` gives them; None when it is not built or hands
    the file back (a negative ``frame`` is left to the numpy path too)."""
    pose = POSE if pose is None else pose
    if pose is None or frame < 0:
        return None
    got = pose(data, frame, MAX_JOINTS, MAX_POSE_FRAMES)
    if isinstance(got, int):
        return None
    # the kernel's fresh bytes, read-only views: as Mesh keeps its arrays
    pos, nrm, uv, idx, counts = got
    positions = np.frombuffer(pos, np.float32).reshape(-1, 3)
    normals = np.frombuffer(nrm, np.float32).reshape(-1, 3)
    uvs = np.frombuffer(uv, np.float32).reshape(-1, 2)
    indices = np.frombuffer(idx, np.uint32).reshape(-1, 3)
    out = []
    v = t = 0
    for k in range(0, len(counts), 2):
        v1, t1 = v + counts[k], t + counts[k + 1]
        ids = np.arange(counts[k], dtype=np.int32)
        out.append(
            Mesh.of_new_arrays(
                positions[v:v1], normals[v:v1], uvs[v:v1], indices[t:t1], ids, ids.copy()
            )
        )
        v, t = v1, t1
    return out


__all__ = ["POSE", "Pose", "compiled_meshes"]
