"""Skeletal models (MD5, IQM) exported as real skins play in three.js as we pose them.

``quakemodels export`` writes the corpus MD5 and IQM models as glTF skins (joints, inverse
bind matrices, each clip an animation of joint TRS). The Khronos validator accepts them, and
three.js's GLTFLoader + AnimationMixer + SkinnedMesh evaluation of each clip, frame for frame,
lies within 1e-4 of :func:`quakemodels.core.skeletal.bake` of the model's own scene.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, no_corpus
from oracles import set_distance
from oracles_three import threejs_poses
from test_gltf_skin_write import _validate

import quakemodels
from quakemodels.cli import main
from quakemodels.core.records import replace
from quakemodels.core.skeletal import bake
from quakemodels.interchange.imported import from_y_up

MODELS = ["iqm/mrfixit/mrfixit.iqm", "md5/inky/inky.md5mesh", "md5/hudgun_gl/gl.md5mesh"]


@pytest.mark.parametrize("name", MODELS)
def test_a_skeletal_model_exports_a_skin_three_js_plays(tmp_path: Path, name: str) -> None:
    source = CORPUS / name
    if not source.is_file():
        no_corpus(source)
    glb = tmp_path / "model.glb"
    assert main(["export", str(source), "-o", str(glb)]) == 0
    report = _validate(glb)
    assert report["errors"] == 0 and report["warnings"] == 0
    scene = quakemodels.load(source).skeletal()  # type: ignore[attr-defined]
    assert scene.clips
    played: dict[float, dict[str, object]] = {}  # one three.js run per frame rate
    for clip in scene.clips:
        fps = 1.0 / float(clip.times[1] - clip.times[0]) if clip.num_frames > 1 else 10.0
        fps = round(fps, 6)
        if fps not in played:
            played[fps] = threejs_poses(glb, fps)
        times, positions = played[fps][clip.name]  # type: ignore[misc]
        ours = np.concatenate(bake(replace(scene, clips=[clip])).positions, axis=1)
        assert len(times) == clip.num_frames
        for k in range(clip.num_frames):
            assert set_distance(ours[k], from_y_up(positions[k])) < 1e-4, (clip.name, k)
