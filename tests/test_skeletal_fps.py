"""``quakemodels convert --fps N`` bakes a skeletal model (MD5, IQM) into MD2/MD3/MDL frames at
N frames a second: each clip ``round(duration · N) + 1`` frames at ``t0 + k / N``, posed as
:func:`quakemodels.core.skeletal.sample` gives every joint channel at those times (within half
a quantization step of the target); without ``--fps`` each clip keeps its own frames."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, REPO, no_corpus

import quakemodels
from quakemodels.core.skeletal import SkeletalClip, SkeletalScene, pose, sample


def _convert(tmp_path: Path, source: Path, out: str, *options: str) -> Path:
    """``quakemodels convert`` in a subprocess, as a user runs it; the file it wrote."""
    if not source.is_file():
        no_corpus(source)
    target = tmp_path / out
    done = subprocess.run(
        [sys.executable, "-m", "quakemodels", "convert", str(source), str(target), *options],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{target}: ")
    return target


def _sampled(scene: SkeletalScene, fps: float) -> list[np.ndarray]:
    """Every mesh's (F,N,3) positions over all clips, each clip's joint channels sampled at
    ``t0 + k / fps`` (k = 0 .. round(duration · fps)) by the glTF sampler and posed."""
    per_mesh: list[list[np.ndarray]] = [[] for _ in scene.meshes]
    joints = len(scene.names)
    for clip in scene.clips:
        t0, t1 = float(clip.times[0]), float(clip.times[-1])
        at = t0 + np.arange(round((t1 - t0) * fps) + 1) / fps
        frames = len(clip.times)
        translation, scale = (
            sample(clip.times, v.reshape(frames, -1), "LINEAR", at).reshape(len(at), joints, 3)
            for v in (clip.translation, clip.scale)
        )
        rotation = np.stack(
            [sample(clip.times, clip.rotation[:, j], "LINEAR", at, True) for j in range(joints)],
            axis=1,
        )
        one = SkeletalClip(clip.name, at, translation, rotation, scale)
        for i, posed in enumerate(pose(scene, one)[0]):
            per_mesh[i].append(posed)
    return [np.concatenate(p) for p in per_mesh]


def test_md5_to_md3_at_10_fps(tmp_path: Path) -> None:
    source = CORPUS / "md5/hudgun_gl/gl.md5mesh"
    md3 = _convert(tmp_path, source, "gun.md3", "--fps", "10", "--no-limits")
    scene = quakemodels.load(source).skeletal()  # type: ignore[attr-defined]
    # gl_idle: 1 frame; gl_shoot: 21 frames at 24 fps, 20/24 s long → 9 frames at 10 fps
    assert [c.num_frames for c in scene.clips] == [1, 21]
    [expected] = _sampled(scene, 10)
    assert expected.shape[0] == 10
    [surface] = quakemodels.load(md3).surfaces  # type: ignore[attr-defined]
    got = surface.positions
    assert got.shape == expected.shape
    # MD3 stores 1/64 units, rounded: within half a step
    assert np.abs(got - expected).max() <= 1 / 128 + 1e-6
    names = quakemodels.load(md3).frame_names  # type: ignore[attr-defined]
    assert names[:3] == ["gl_idle01", "gl_shoot01", "gl_shoot02"] and len(names) == 10


def test_md5_to_md3_without_fps_keeps_its_own_frames(tmp_path: Path) -> None:
    source = CORPUS / "md5/hudgun_gl/gl.md5mesh"
    md3 = _convert(tmp_path, source, "gun.md3", "--no-limits")
    model = quakemodels.load(source)
    own = model.scene().surfaces[0].positions  # type: ignore[attr-defined]
    [surface] = quakemodels.load(md3).surfaces  # type: ignore[attr-defined]
    assert surface.positions.shape == own.shape == (22, 1779, 3)
    assert np.abs(surface.positions - own).max() <= 1 / 128 + 1e-6


def test_iqm_to_md2_at_10_fps(tmp_path: Path) -> None:
    source = CORPUS / "iqm/mrfixit/mrfixit.iqm"
    md2 = _convert(tmp_path, source, "fixit.md2", "--fps", "10", "--merge-surfaces")
    scene = quakemodels.load(source).skeletal()  # type: ignore[attr-defined]
    # idle: 101 frames at 24 fps, 100/24 s → round(41.67) + 1 = 43 frames at 10 fps
    expected = np.concatenate(_sampled(scene, 10), axis=1)
    assert expected.shape == (43, 1861, 3)
    m = quakemodels.load(md2)
    got = m.positions  # type: ignore[attr-defined]
    assert got.shape == expected.shape
    # MD2 stores bytes on each frame's grid (scale per axis): within half a step of it
    half = m.scales[:, None, :] / 2  # type: ignore[attr-defined]
    assert (np.abs(got - expected) <= half + 1e-5).all()


@pytest.mark.parametrize("fps", ["24", "30"])
def test_md5_to_mdl_at_its_rate_and_above(tmp_path: Path, fps: str) -> None:
    source = CORPUS / "md5/hudgun_gl/gl.md5mesh"
    mdl = _convert(tmp_path, source, "gun.mdl", "--fps", fps, "--no-limits")
    scene = quakemodels.load(source).skeletal()  # type: ignore[attr-defined]
    [expected] = _sampled(scene, float(fps))
    # at its own 24 fps the frames are the stored ones; at 30, 20/24 s → 26 frames
    assert expected.shape[0] == {"24": 22, "30": 1 + 26}[fps]
    m = quakemodels.load(mdl)
    got = m.positions  # type: ignore[attr-defined]
    assert got.shape[0] == expected.shape[0]
    # MDL welds vertices that share a place in every frame and winds its triangles its own
    # way: compare triangle by triangle, its corners in the order that fits them best
    source_corners = expected[:, scene.meshes[0].indices]  # (F,T,3,3)
    corners = got[:, m.triangles]  # type: ignore[attr-defined]
    assert corners.shape == source_corners.shape
    half = m.scale / 2 + 1e-5  # type: ignore[attr-defined]
    worst = [
        (np.abs(corners[:, :, order] - source_corners) / half).max(axis=(0, 2, 3))
        for order in ([0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2])
    ]
    assert np.min(worst, axis=0).max() <= 1.0


def test_help_says_what_fps_does_to_a_skeletal_model() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quakemodels", "convert", "--help"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    text = " ".join(done.stdout.split())
    assert "MD5/IQM → MD2/MD3/MDL: bake each animation at N frames per second" in text
    assert "default: its own frames" in text
