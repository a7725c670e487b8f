"""The MD5 rows of ``make bench`` (issue #38 item 5): posing every frame of the corpus MD5
clips against a numpy floor, and the first pose against assimp's import of the same file.

* pose: every clip of every corpus MD5 with animations, all frames, as an export poses them
  (:func:`quakemodels.formats.md5.scene.baked`: local TRS → world matrices by depth → each
  joint's weights moved in one matrix product → the sum per vertex), against the floor: the
  weighted sum alone (each vertex's K skinning matrices, already computed, applied to its
  bind position and weighted), run interleaved round by round (:func:`benchutil.raced`)
  [<= 2x]; and the core's general :func:`quakemodels.core.skeletal.pose` for information
* parse: the .md5mesh parsed by the plain tokenizer (``tokens.py``), by its fast path
  (``fast.py``'s FastTokens, the same tokens as bytes) and through the compiled scanner
  (``_scan.c``, fast.py's CompiledTokens; "not built" without it), raced round by round: what
  each fast path earns
* first pose: ``load(bytes).mesh(0)`` (parse the .md5mesh, the bind vertices from the
  weights, frame 0 posed with normals) against assimp importing the same bytes
  (``impasse.load``, ``aiImportFileFromMemory``: parse and build the bind-pose mesh), raced
  round by round so that load on the shared machine hits both alike [<= 1x]
* IQM first pose: ``load(bytes).meshes(0)`` of every corpus IQM (through the compiled
  kernel ``formats/iqm/_pose.c`` where it is built: the records, joints and frame 0's channels
  read from the bytes, every vertex skinned, normals from the posed triangles) against
  assimp's import of the same bytes, raced [<= 1x]; and, raced on their own, the numpy path
  of the same pose (``formats/iqm/fast.py``'s plain one: rest scene, frame clip, bake) against
  the compiled one: what the kernel earns ("not built" without it)

Run ``python tools/bench_md5.py``; assimp needs ``pip install impasse`` over Debian's
``libassimp5``, and is skipped (with that line) when missing.
"""

from __future__ import annotations

import io
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
from benchutil import CORPUS, raced, timed

import quakemodels
from quakemodels.core.skeletal import SkeletalScene, pose, world_matrices
from quakemodels.formats.iqm.fast import POSE as IQM_POSE
from quakemodels.formats.md5 import Md5
from quakemodels.formats.md5.fast import SCAN
from quakemodels.formats.md5.reader import _parse_mesh, _parsed_mesh
from quakemodels.formats.md5.scene import baked

INSTALL = "pip install impasse && apt-get install libassimp5"


def corpus_meshes() -> list[Path]:
    """Every corpus .md5mesh (one per folder of ../shared/corpus/md5)."""
    return sorted((CORPUS / "md5").glob("*/*.md5mesh"))


def pose_all(scene: SkeletalScene) -> None:
    """Every frame of every clip posed, as an export or a GIF of the model poses them."""
    baked(scene, {})


def core_pose_all(scene: SkeletalScene) -> None:
    """The same through the core's general posing (the per-vertex gather of K matrices)."""
    for clip in scene.clips:
        pose(scene, clip)


def floor_inputs(scene: SkeletalScene) -> list[tuple[Any, ...]]:
    """Per clip and mesh: the skinning matrices (F,S,3,4) of every frame, computed once, and
    the mesh's bind positions (homogeneous), joints and weights: what the floor starts from."""
    out = []
    for clip in scene.clips:
        world = world_matrices(scene.local(clip), scene.parents)
        for m in scene.meshes:
            skin = (world[:, m.slots] @ m.inverse_bind)[:, :, :3, :]
            p1 = np.concatenate([m.positions, np.ones((len(m.positions), 1))], axis=1)
            out.append((skin, p1, m.joints, m.weights))
    return out


def floor(inputs: list[tuple[Any, ...]]) -> None:
    """The weighted sum alone: for each influence k, the (F,N,3,4) matrices of the vertices'
    k-th joints applied to their bind positions, weighted and summed."""
    for skin, p1, joints, weights in inputs:
        total = np.zeros((skin.shape[0], len(p1), 3))
        for k in range(joints.shape[1]):
            moved = np.einsum("fnij,nj->fni", skin[:, joints[:, k]], p1)
            total += weights[None, :, k, None] * moved
        del total


def _impasse() -> Any | None:
    try:
        import impasse
    except (ImportError, OSError):  # the binding or libassimp is missing
        return None
    return impasse


def rows() -> list[str]:
    """The MD5 table's lines (markdown)."""
    meshes = corpus_meshes()
    if not meshes:
        return [f"no MD5 corpus at {CORPUS / 'md5'}: MD5 rows skipped"]
    lines = [
        "| MD5 | frames | vertices | K | pose every frame | floor | pose/floor (<= 2x) |"
        " core pose | parse plain | parse fast | parse compiled | plain/compiled | first pose |"
        " assimp import | first/assimp (<= 1x) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    impasse = _impasse()
    pose_ratios, first_ratios = [], []
    for path in meshes:
        model = Md5.open(path)
        scene = model.skeletal()
        frames = sum(c.num_frames for c in scene.clips)
        vertices = sum(len(m.positions) for m in scene.meshes)
        k = max(m.joints.shape[1] for m in scene.meshes)
        pose_cell = floor_cell = ratio_cell = core_cell = "–"
        if scene.clips:
            inputs = floor_inputs(scene)
            t = raced({"pose": lambda s=scene: pose_all(s), "floor": lambda i=inputs: floor(i)})
            pose_ratios.append(t["pose"] / t["floor"])
            pose_cell, floor_cell = f"{t['pose'] * 1e3:.2f} ms", f"{t['floor'] * 1e3:.2f} ms"
            ratio_cell = f"{pose_ratios[-1]:.2f}x"
            core_cell = f"{timed(lambda s=scene: core_pose_all(s)) * 1e3:.2f} ms"
        data = path.read_bytes()
        ways: dict[str, Any] = {
            "plain": lambda d=data: _parse_mesh(d, "md5mesh", plain=True),
            "fast": lambda d=data: _parse_mesh(d, "md5mesh", compiled=False),
        }
        if SCAN is not None:
            ways["compiled"] = lambda d=data: _parse_mesh(d, "md5mesh")
        parses = raced(ways)
        parse_cells = f"{parses['plain'] * 1e3:.2f} ms | {parses['fast'] * 1e3:.2f} ms |"
        if "compiled" in parses:
            parse_cells += (
                f" {parses['compiled'] * 1e3:.2f} ms | {parses['plain'] / parses['compiled']:.2f}x"
            )
        else:
            parse_cells += " not built | – "

        def first_pose(d: bytes = data) -> None:
            _parsed_mesh.cache_clear()  # each run parses: no parse kept from the run before
            quakemodels.load(d).mesh(0)

        peer_cell = first_ratio = f"skipped: `{INSTALL}`"
        if impasse is None:
            first = timed(first_pose, budget=0.6)
        else:

            def assimp(d: bytes = data) -> None:
                scene = impasse.load(io.BytesIO(d), file_type="md5mesh")
                assert len(scene.meshes) > 0

            t = raced({"first": first_pose, "assimp": assimp}, budget=1.2)
            first, peer = t["first"], t["assimp"]
            first_ratios.append(first / peer)
            peer_cell, first_ratio = f"{peer * 1e3:.2f} ms", f"{first / peer:.2f}x"
        lines.append(
            f"| {path.parent.name}/{path.name} | {frames} | {vertices} | {k} | {pose_cell} |"
            f" {floor_cell} | {ratio_cell} | {core_cell} | {parse_cells} | {first * 1e3:.2f} ms |"
            f" {peer_cell} |"
            f" {first_ratio} |"
        )
    if pose_ratios:
        med = statistics.median(pose_ratios)
        lines.append(f"median pose/floor over {len(pose_ratios)} animated MD5s: {med:.2f}x")
    if first_ratios:
        med = statistics.median(first_ratios)
        lines.append(f"median first pose/assimp over {len(first_ratios)} MD5s: {med:.2f}x")
    return [*lines, "", *iqm_rows(impasse)]


def iqm_rows(impasse: Any | None) -> list[str]:
    """The IQM table's lines: the first pose of every corpus IQM against assimp's import."""
    files = sorted((CORPUS / "iqm").glob("*/*.iqm"))
    if not files:
        return [f"no IQM corpus at {CORPUS / 'iqm'}: IQM rows skipped"]
    lines = [
        "| IQM | vertices | first pose | assimp import | first/assimp (<= 1x) | numpy path |"
        " numpy/compiled |",
        "|---|---|---|---|---|---|---|",
    ]
    ratios = []
    for path in files:
        data = path.read_bytes()
        vertices = len(quakemodels.load(data).positions)
        peer_cell = ratio_cell = f"skipped: `{INSTALL}`"

        def first_pose(d: bytes = data) -> None:
            quakemodels.load(d).meshes(0)

        def numpy_pose(d: bytes = data) -> None:
            quakemodels.load(d)._posed_meshes(0)

        numpy_cell = "not built | –"
        if IQM_POSE is not None:
            ways = raced({"compiled": first_pose, "numpy": numpy_pose})
            numpy_cell = f"{ways['numpy'] * 1e3:.2f} ms | {ways['numpy'] / ways['compiled']:.1f}x"

        if impasse is None:
            first = timed(first_pose, budget=0.6)
        else:

            def assimp(d: bytes = data) -> None:
                scene = impasse.load(io.BytesIO(d), file_type="iqm")
                assert len(scene.meshes) > 0

            t = raced({"first": first_pose, "assimp": assimp}, budget=1.2)
            first, peer = t["first"], t["assimp"]
            ratios.append(first / peer)
            peer_cell, ratio_cell = f"{peer * 1e3:.2f} ms", f"{first / peer:.2f}x"
        lines.append(
            f"| {path.parent.name}/{path.name} | {vertices} | {first * 1e3:.2f} ms |"
            f" {peer_cell} | {ratio_cell} | {numpy_cell} |"
        )
    if ratios:
        med = statistics.median(ratios)
        lines.append(f"median IQM first pose/assimp over {len(ratios)} files: {med:.2f}x")
    return lines


def main() -> int:
    for line in rows():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
