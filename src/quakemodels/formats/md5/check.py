"""Engine-compatibility and sanity checks for MD5 models: a list of findings, never an
exception.

* ``q2pro`` — the Quake II re-release's MD5 replacement loader, Q2PRO ``src/refresh/models.c``
  ``MD5_ParseMesh``/``MD5_ParseAnim`` with ``src/refresh/gl.h``'s limits (:data:`.limits.Q2PRO`):
  at most 256 joints, 32 meshes, 6144 vertices, 6144 triangles and 8192 weights a mesh, 1024
  frames an animation, joint names under 48 bytes; a mesh with a weight range past 65535 is
  refused. Over a limit the model does not load there (an error with ``--engine q2pro``).
* ``any`` — the format itself (what the reader refuses is an error) and the engines' limits as
  warnings naming the engine; modder pitfalls are warnings in every mode: weights of a vertex
  that do not sum to 1 (Doom 3 does not normalise them: the vertex moves off its bind place),
  weights that disagree on where their vertex is (a skinned export then differs from Doom 3),
  degenerate triangles, unused vertices, an ``md5tag`` naming a joint that is not there.

Other engines (Quake, Quake II, Quake III) do not read MD5: with those engines every finding is
graded as for ``any``.
"""

from __future__ import annotations

import numpy as np

from ...core.facade import read_source
from ...core.findings import Finding, Report
from ...errors import ModelFormatError, TextFormatError
from .files import gather
from .limits import Q2PRO, Q2PRO_MAX_WEIGHT_INDEX
from .reader import Md5Files

# A vertex whose weights put it more than this far apart (units) is reported.
SPREAD_TOLERANCE = 1e-3


def check_md5(source: object, engine: str = "any", *, name: str | None = None) -> list[Finding]:
    """Findings for an MD5 model (loaded, bytes, path or file); never raises."""
    report = Report(engine)

    def checks(r: Report) -> None:
        model = source if isinstance(source, Md5Files) else _load(source, name, r)
        if model is not None:
            _limits(r, model)
            _pitfalls(r, model)

    return report.run(checks)


def _load(source: object, name: str | None, r: Report) -> Md5Files | None:
    try:
        data, found = read_source(source)  # type: ignore[arg-type]
        return gather(data, name or found)
    except TextFormatError as e:
        r.from_error(e)
    except ModelFormatError as e:
        r.from_error(e)
    except OSError as e:
        r.error("io", None, None, f"cannot read: {e}")
    return None


def _limits(r: Report, m: Md5Files) -> None:
    f = m.mesh_file
    q2 = ("q2pro",)

    def over(code: str, what: str, count: int, limit: int) -> None:
        if count > limit:
            r.limit(
                code,
                code,
                None,
                f"{what} {count} is over Q2PRO's {limit}: the re-release's renderer drops the"
                " MD5 (and draws the MD2 it replaces)",
                engines=q2,
            )

    over("numJoints", "numJoints", len(f.names), Q2PRO.joints)
    over("numMeshes", "numMeshes", len(f.meshes), Q2PRO.meshes)
    if not f.meshes:
        r.limit("numMeshes", "numMeshes", None, "Q2PRO needs at least one mesh", engines=q2)
    for i, b in enumerate(f.meshes):
        over("numverts", f"mesh {i} numverts", len(b.uvs), Q2PRO.vertices)
        over("numtris", f"mesh {i} numtris", len(b.triangles), Q2PRO.triangles)
        over("numweights", f"mesh {i} numweights", len(b.bias), Q2PRO.weights)
        if len(b.first) and int(max(b.first.max(), b.count.max())) > Q2PRO_MAX_WEIGHT_INDEX:
            over("vert", f"mesh {i} weight index", int(b.first.max()), Q2PRO_MAX_WEIGHT_INDEX)
    for j, n in enumerate(f.names):
        if len(n.encode("latin-1")) > Q2PRO.joint_name:
            r.limit(
                "joint name",
                "joint name",
                None,
                f"joint {j}'s name is {len(n)} bytes, over Q2PRO's {Q2PRO.joint_name}"
                " (MD5_MAX_JOINTNAME 48): cut there, it no longer matches .md5scale entries",
                engines=q2,
            )
    for clip, a in m.anims.items():
        over("numFrames", f"{clip}: numFrames", a.num_frames, Q2PRO.frames)


def _pitfalls(r: Report, m: Md5Files) -> None:
    for i, (b, v) in enumerate(zip(m.mesh_file.meshes, m.bound, strict=True)):
        sums = v.bias.sum(axis=1)
        off = np.flatnonzero(np.abs(sums - 1.0) > 1e-3)
        if off.size:
            r.warning(
                "weight-sum",
                "weight",
                None,
                f"mesh {i}: {off.size} vertices' weights do not sum to 1 (vertex {int(off[0])}:"
                f" {sums[off[0]]:.4f}); Doom 3 uses them as they are, the exports normalise them",
            )
        apart = np.flatnonzero(v.spread > SPREAD_TOLERANCE)
        if apart.size:
            r.warning(
                "weight-spread",
                "weight",
                None,
                f"mesh {i}: the weights of {apart.size} vertices put them at different places"
                f" (vertex {int(apart[0])}: {v.spread[apart[0]]:.4f} units apart); a skinned"
                " export poses them as linear-blend skinning does, not as Doom 3",
            )
        t = b.triangles
        degenerate = np.flatnonzero(
            (t[:, 0] == t[:, 1]) | (t[:, 1] == t[:, 2]) | (t[:, 0] == t[:, 2])
        )
        if degenerate.size:
            r.warning(
                "degenerate-triangle",
                "tri",
                None,
                f"mesh {i}: {degenerate.size} triangles use a vertex twice (tri"
                f" {int(degenerate[0])})",
            )
        unused = np.setdiff1d(np.arange(len(b.uvs)), t.ravel())
        if unused.size:
            r.warning(
                "unused-vertex",
                "vert",
                None,
                f"mesh {i}: {unused.size} vertices are in no triangle (vert {int(unused[0])})",
            )
    names = set(m.mesh_file.names)
    for joint in m.tag_names:
        if joint not in names:  # pragma: no cover - files.py keeps only known joints
            r.warning("md5tag", "md5tag", None, f"md5.cfg tags joint {joint!r}, not in the mesh")


__all__ = ["check_md5"]
