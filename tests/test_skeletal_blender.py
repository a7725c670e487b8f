"""Blender 3.4 plays the real skins we export of the corpus skeletal models (the MD5 models and
the IQM format's ``mrfixit.iqm``) as we bake them (issue #38's Blender oracle).

``quakemodels export X -o x.glb`` writes the model as a glTF skin; Blender's own glTF importer
reads it and ``tools/blender_pose.py`` evaluates every clip frame by frame (every mesh object's
evaluated vertices, in glTF space). Every clip is sampled at 8 frames a second: every third of
the models' 24 frames, so each sample is a stored key (between keys Blender interpolates
quaternions component by component, not by slerp; there the two differ by design). The
frames must agree with :func:`quakemodels.core.skeletal.bake` at the same times within float
tolerance, and with the MD3 and MD2 conversions at ``--fps 8`` within half their quantization
step (1/64 unit for MD3; each frame's grid for MD2) plus that float tolerance (each stored
value is within half a step of ours, and Blender's frames within it of ours). A model without
animation is compared in its bind pose. Blender is run once per model (about 10 s each)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, REPO, need_blender, no_corpus

import quakemodels
from quakemodels.cli import main
from quakemodels.core.skeletal import bake
from quakemodels.interchange.imported import from_y_up

FPS = 8
"""Samples a second: every third frame of a 24 fps clip, each on a key."""
FLOAT_TOLERANCE = 1e-4
"""Blender's float32 evaluation against our float64 bake (seen: under 4e-6)."""
MODELS = {
    "hudgun_gl": "md5/hudgun_gl/gl.md5mesh",
    "inky": "md5/inky/inky.md5mesh",
    "snoutx10k": "md5/snoutx10k/snoutx10k.md5mesh",
    "mrfixit": "iqm/mrfixit/mrfixit.iqm",
}


def _blender_frames(glb: Path, out: Path) -> dict[str, Any]:
    blender = need_blender()
    done = subprocess.run(
        [blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
         str(REPO / "tools" / "blender_pose.py"), "--", str(glb), str(FPS), str(out)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def _converted(tmp_path: Path, source: Path, out: str, *options: str) -> Any:
    target = tmp_path / out
    assert main(["convert", str(source), str(target), "--fps", str(FPS), *options]) == 0
    return quakemodels.load(target)


@pytest.mark.parametrize("name", list(MODELS))
def test_blender_plays_the_exported_skin_as_we_bake_it(name: str, tmp_path: Path) -> None:
    need_blender()
    source = CORPUS / MODELS[name]
    if not source.is_file():
        no_corpus(source)
    glb = tmp_path / "model.glb"
    assert main(["export", str(source), "-o", str(glb)]) == 0
    blender = _blender_frames(glb, tmp_path / "pose.json")
    scene = quakemodels.load(source).skeletal()  # type: ignore[attr-defined]
    baked = bake(scene, FPS)
    ours = np.concatenate(baked.positions, axis=1)  # (F, N, 3) Quake space, clips in order
    # Blender's mesh objects (sorted by name; ".001" added where a name was taken) are our
    # meshes, vertex for vertex
    index = {m.name: i for i, m in enumerate(scene.meshes)}
    assert len(index) == len(scene.meshes)
    starts = np.cumsum([0] + [len(m.positions) for m in scene.meshes])
    order_parts = []
    for o in blender["objects"]:
        i = index[re.sub(r"\.\d{3}$", "", o["name"])]
        assert o["vertices"] == len(scene.meshes[i].positions)
        order_parts.append(np.arange(starts[i], starts[i + 1]))
    order = np.concatenate(order_parts)
    assert sorted(order) == list(range(starts[-1]))
    # Blender's frames in Quake space, our order, clip after clip (at rest without clips)
    theirs = []
    if scene.clips:
        assert sorted(blender["animations"]) == sorted(baked.clips)
        for clip, frames in baked.clips.items():
            played = blender["animations"][clip]
            # Blender may hold one more sample past the last key (its frame range rounds up)
            assert len(played["frames"]) in (len(frames), len(frames) + 1), clip
            np.testing.assert_allclose(
                played["times"][: len(frames)], np.arange(len(frames)) / FPS, atol=1e-9
            )
            theirs.append(from_y_up(played["frames"][: len(frames)]))
    else:
        assert blender["animations"] == {}
        theirs.append(from_y_up(blender["rest"])[None])
    seen = np.empty_like(ours)
    seen[:, order] = np.concatenate(theirs)
    assert np.abs(seen - ours).max() < FLOAT_TOLERANCE
    assert np.ptp(ours[:, :, 2], axis=0).max() > 0 or not scene.clips  # the frames do move

    # the conversions Quake's engines load, at the same times: within half a step
    md3 = _converted(tmp_path, source, "model.md3", "--no-limits")
    start = 0
    for surface in md3.surfaces:
        count = surface.positions.shape[1]
        error = np.abs(surface.positions - seen[:, start : start + count]).max()
        assert error <= 1 / 128 + FLOAT_TOLERANCE
        start += count
    assert start == ours.shape[1]
    md2 = _converted(tmp_path, source, "model.md2", "--no-limits", "--merge-surfaces")
    assert md2.positions.shape[0] == ours.shape[0]
    # MD2 welds vertices that share a place in every frame and winds its triangles its own
    # way: compared triangle by triangle, the corners in the order that fits them best
    triangles = np.concatenate([m.indices + starts[i] for i, m in enumerate(scene.meshes)])
    want, got = seen[:, triangles], md2.positions[:, md2.triangles]
    assert got.shape == want.shape
    half = md2.scales[:, None, None, :] / 2 + FLOAT_TOLERANCE
    worst = [
        (np.abs(got[:, :, corners] - want) / half).max(axis=(0, 2, 3))
        for corners in ([0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2])
    ]
    assert np.min(worst, axis=0).max() <= 1.0
