"""The three.js pose oracle (tools/threejs_pose.mjs via tests/oracles_three.py), proven on GLBs
built byte by byte (tests/skinbuilder.py) against poses computed here by hand, and against
Blender's own import of the same skinned file.

The hand-made expectations use only the glTF definitions: node matrices T·R·S down the
hierarchy, skinned vertex = Σ weight · jointWorld · inverseBind · vertex, morphed vertex =
base + Σ weight · target; LINEAR rotation about one fixed axis turns the angle linearly (slerp),
STEP holds a key until the next one, CUBICSPLINE is the Hermite spline of the spec's Appendix C.
"""

from __future__ import annotations

import json
import math
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
import skinbuilder as sb
from conftest import REPO, need_blender
from oracles_three import threejs_poses

TOLERANCE = 1e-5


def _write(tmp_path: Path, name: str, scene: sb.Scene) -> Path:
    path = tmp_path / f"{name}.glb"
    path.write_bytes(scene.data)
    return path


def _frame_times(t0: float, t1: float, fps: float) -> np.ndarray:
    """The common brief's frames: t0 + k/fps for k < round((t1 - t0)·fps) + 1 (Python's
    round: 0.25 s at 10 fps is 2.5 frames → 2)."""
    return t0 + np.arange(round((t1 - t0) * fps) + 1) / fps


def _step(times: np.ndarray, values: np.ndarray, t: float) -> np.ndarray:
    """A STEP sampler's value at ``t``: the last key at or before t (the first before it)."""
    index = max(int(np.searchsorted(times, t + 1e-9, side="right")) - 1, 0)
    return np.asarray(values[index], np.float64)


def _angle(times: np.ndarray, degrees: np.ndarray, t: float) -> float:
    """A LINEAR rotation about one fixed axis at ``t``: slerp turns the angle linearly."""
    return float(np.interp(t, times, degrees))


# --- (a) TRS hierarchy, matrix nodes, primitives as meshes ----------------------------------------


@pytest.mark.parametrize("fps", [10, 8])
def test_hierarchy_and_primitives_match_hand_made_matrices(tmp_path: Path, fps: int) -> None:
    scene = sb.hierarchy_scene()
    poses = threejs_poses(_write(tmp_path, "hierarchy", scene), fps)
    # one three.js Mesh per primitive, in (node, primitive) order; named as GLTFLoader names them
    order = [(m["name"], m["node"], m["primitive"], m["vertices"]) for m in poses["meshes"]]
    assert order == [("body", 1, 0, 3), ("two", 3, 0, 3), ("two_1", 3, 1, 3)]
    assert [m["nodeName"] for m in poses["meshes"]] == ["body", "pair", "pair"]
    (root_t, root_s), body_t = scene.facts["root"], scene.facts["body_t"]
    pair = np.concatenate([sb.apply(scene.facts["pair"], sb.BOX),
                           sb.apply(scene.facts["pair"], sb.BOX + 10)])  # fmt: skip

    def expected(root_q: np.ndarray) -> np.ndarray:
        body = sb.apply(sb.trs(root_t, root_q, root_s) @ sb.trs(body_t), sb.BOX)
        return np.concatenate([body, pair])

    rest = expected(sb.quat("z", 90))
    # by hand: (1,0,0) → body (1,1,0) → scale 2 → (2,2,0) → 90° about Z → (-2,2,0) → + (1,2,3)
    np.testing.assert_allclose(rest[0], [-1, 4, 3], atol=1e-12)
    np.testing.assert_allclose(poses["rest"], rest, atol=TOLERANCE)

    # key times start at 1 s: three keeps them (the clip is not shifted to 0)
    times, positions = poses["spin"]
    assert poses["t0"]["spin"] == 1.0
    np.testing.assert_allclose(times, _frame_times(1.0, 2.0, fps), atol=1e-12)
    assert positions.shape == (fps + 1, 9, 3)
    # tags keep their glTF node name (three's own name drops the '.')
    assert list(poses["tags"]["spin"]) == ["tag_top.001"]
    np.testing.assert_allclose(
        poses["tags"]["rest"]["tag_top.001"],
        sb.trs(root_t, sb.quat("z", 90), root_s) @ sb.trs((0, 0, 1)),
        atol=TOLERANCE,
    )
    for t, got, tag in zip(times, positions, poses["tags"]["spin"]["tag_top.001"], strict=True):
        turn = sb.quat("y", _angle(scene.facts["spin_times"], np.array([0.0, 90.0]), t))
        np.testing.assert_allclose(got, expected(turn), atol=TOLERANCE, err_msg=f"t={t}")
        world = sb.trs(root_t, turn, root_s) @ sb.trs((0, 0, 1))
        np.testing.assert_allclose(tag, world, atol=TOLERANCE, err_msg=f"t={t}")
    # the last frame is the last key (90° about Y: (2,2,0) → (0,2,-2) → (1,4,1)), not the first
    np.testing.assert_allclose(positions[-1, 0], [1, 4, 1], atol=TOLERANCE)
    np.testing.assert_allclose(positions[0, 0], [3, 4, 3], atol=TOLERANCE)


# --- (b) + (d) skinned chain, LINEAR rotation, STEP translation, a tag on a joint -----------------


def _chain_joints(
    j0_t: np.ndarray, j0_q: np.ndarray, j1_q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """World matrices (4, 4) of j0 and j1 for their animated TRS."""
    world0 = sb.trs(sb.ARMATURE_T) @ sb.trs(j0_t, j0_q)
    return world0, world0 @ sb.trs(sb.J1_T, j1_q)


def _skinned(
    points: np.ndarray, weights: np.ndarray, worlds: tuple[np.ndarray, np.ndarray]
) -> np.ndarray:
    """Σ weight · jointWorld · inverseBind · point: (n, 3) float64."""
    bind0 = sb.trs(sb.ARMATURE_T)
    binds = (bind0, bind0 @ sb.trs(sb.J1_T))
    total: np.ndarray = sum(
        weights[:, [j]] * sb.apply(world @ np.linalg.inv(bind), points)
        for j, (world, bind) in enumerate(zip(worlds, binds, strict=True))
    )
    return total


def _bend(t: float) -> tuple[np.ndarray, np.ndarray]:
    return _chain_joints(
        _step(sb.STEP_TIMES, sb.STEP_VALUES, t),
        sb.quat("z", 0),
        sb.quat("z", _angle(sb.BEND_TIMES, sb.BEND_DEGREES, t)),
    )


def _twist(t: float) -> tuple[np.ndarray, np.ndarray]:
    turn = sb.quat("y", _angle(sb.TWIST_TIMES, sb.TWIST_DEGREES, t))
    return _chain_joints(np.zeros(3), turn, sb.quat("z", 0))


@pytest.mark.parametrize("fps", [8, 10])
def test_skinned_chain_matches_hand_made_skinning(tmp_path: Path, fps: int) -> None:
    poses = threejs_poses(_write(tmp_path, "skin", sb.skin_scene()), fps)
    assert [(m["name"], m["skinned"]) for m in poses["meshes"]] == [("chain", True)]
    np.testing.assert_allclose(poses["rest"], sb.CHAIN, atol=TOLERANCE)  # bind pose

    for clip, joints, t0, t1 in (("bend", _bend, 0.5, 1.0), ("twist", _twist, 0.0, 0.25)):
        times, positions = poses[clip]
        np.testing.assert_allclose(times, _frame_times(t0, t1, fps), atol=1e-12)
        tags = poses["tags"][clip]["tag_x"]
        assert tags.shape == (len(times), 4, 4)
        for t, got, tag in zip(times, positions, tags, strict=True):
            worlds = joints(t)
            want = _skinned(sb.CHAIN, sb.CHAIN_WEIGHTS, worlds)
            np.testing.assert_allclose(got, want, atol=TOLERANCE, err_msg=f"{clip} t={t}")
            # the tag follows j1: its world matrix, row-major (transposed from three's storage)
            np.testing.assert_allclose(tag, worlds[1] @ sb.trs(sb.TAG_T), atol=TOLERANCE)

    # by hand at the end of bend: j1 turned 90° about Z, j0 moved (0,0,2) by its STEP key
    bend = poses["bend"][1]
    np.testing.assert_allclose(bend[-1, 2], [-1, 2, 2], atol=TOLERANCE)  # j1 only
    np.testing.assert_allclose(bend[-1, 1], [0.5, 1.5, 2], atol=TOLERANCE)  # half and half
    np.testing.assert_allclose(poses["tags"]["bend"]["tag_x"][-1][:3, 3], [-1, 1, 3], atol=1e-6)
    # STEP: still (0,0,0) a frame before its key at 0.875 s, (0,0,2) from it on
    before = math.floor((0.875 - 0.5) * fps - 1e-9)
    assert abs(bend[before, 0, 2]) < TOLERANCE and abs(bend[before + 1, 0, 2] - 2) < TOLERANCE
    # twist does not animate j1: bend's 90° must not leak into it (the scene is reset to rest)
    np.testing.assert_allclose(poses["twist"][1][0], sb.CHAIN, atol=TOLERANCE)
    if fps == 8:  # the last frame is at 0.25 s: j0 turned 90° about Y takes (1,0,0) to (-1,0,0)
        np.testing.assert_allclose(poses["twist"][1][-1, 0], [-1, 0, 0], atol=TOLERANCE)


# --- (c) morph weights: CUBICSPLINE and STEP on a scaled, moved mesh ------------------------------


def _hermite(t: float) -> np.ndarray:
    """The pulse weights (2,) at t in [0, 1]: glTF Appendix C with td = 1."""
    (_, v0, out0), (in1, v1, _) = sb.PULSE
    s = t - sb.PULSE_TIMES[0]
    weights: np.ndarray = (
        (2 * s**3 - 3 * s**2 + 1) * v0
        + (s**3 - 2 * s**2 + s) * out0
        + (-2 * s**3 + 3 * s**2) * v1
        + (s**3 - s**2) * in1
    )
    return weights


def _morphed(weights: np.ndarray) -> np.ndarray:
    local = sb.MORPH_BASE + np.tensordot(weights, sb.MORPH_TARGETS, axes=1)
    return sb.apply(sb.trs(sb.MORPH_T, s=sb.MORPH_S), local)


@pytest.mark.parametrize("fps", [8, 10])
def test_morph_weights_cubicspline_and_step(tmp_path: Path, fps: int) -> None:
    poses = threejs_poses(_write(tmp_path, "morph", sb.morph_scene()), fps)
    assert poses["meshes"][0]["morphTargets"] == 2
    np.testing.assert_allclose(poses["rest"], _morphed(np.zeros(2)), atol=TOLERANCE)

    times, positions = poses["pulse"]
    np.testing.assert_allclose(times, _frame_times(0.0, 1.0, fps), atol=1e-12)
    for t, got in zip(times, positions, strict=True):
        np.testing.assert_allclose(got, _morphed(_hermite(t)), atol=TOLERANCE, err_msg=f"t={t}")
    # by hand at t = 0.5: lift = 0.5·1 + 0.125·2 = 0.75 (LINEAR would give 0.5), poke =
    # 0.5·1 - 0.125·4 = 0: vertex 1 (1,0,0) → (1,0,0.75) → scaled (2,0,3) → moved (2,16,3)
    half = list(times).index(0.5)
    np.testing.assert_allclose(positions[half, 1], [2, 16, 3], atol=TOLERANCE)
    np.testing.assert_allclose(positions[half, 0], [0, 16, 3], atol=TOLERANCE)

    # STEP keys at 0.1 and 0.2 s are float32 just above the decimals: frame k/10 still shows
    # key k (the oracle evaluates at the stored key time, and reports it)
    times, positions = poses["blink"]
    key_times = sb.BLINK_TIMES.astype(np.float32).astype(np.float64)
    assert len(times) == round(float(key_times[-1]) * fps) + 1
    for t, got in zip(times, positions, strict=True):
        want = _morphed(_step(key_times, sb.BLINK, t + 1e-7))
        np.testing.assert_allclose(got, want, atol=TOLERANCE, err_msg=f"t={t}")
    if fps == 10:
        np.testing.assert_array_equal(times, key_times)
        np.testing.assert_allclose(positions[1, 0], [0, 16, 4], atol=TOLERANCE)  # lift
        np.testing.assert_allclose(positions[2, 0], [2, 16, 0], atol=TOLERANCE)  # poke


# --- speed ---------------------------------------------------------------------------------------


def test_a_few_thousand_skinned_vertices_for_fifty_frames_take_under_five_seconds(
    tmp_path: Path,
) -> None:
    scene = sb.big_skin_scene(3000)
    path = _write(tmp_path, "big", scene)
    start = time.perf_counter()
    poses = threejs_poses(path, 10)
    elapsed = time.perf_counter() - start
    times, positions = poses["wave"]
    assert positions.shape == (50, 3000, 3)
    assert elapsed < 5, f"{elapsed:.1f} s"
    points, weights = scene.facts["points"], scene.facts["weights"]
    for k in (0, 12, 20, 37, 49):
        turn = sb.quat("z", _angle(sb.WAVE_TIMES, sb.WAVE_DEGREES, times[k]))
        want = _skinned(points, weights, _chain_joints(np.zeros(3), sb.quat("z", 0), turn))
        np.testing.assert_allclose(positions[k], want, atol=TOLERANCE, err_msg=f"frame {k}")


# --- Blender agrees ------------------------------------------------------------------------------


def _run_blender(script: Path, *args: str) -> None:
    """Run ``script`` in headless Blender with ``args``; skip (fail under CI) without it."""
    need_blender()
    proc = subprocess.run(
        ["blender", "-b", "--factory-startup", "--python-exit-code", "1",
         "--python", str(script), "--", *args],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


def _blender_poses(glb: Path, fps: float, out: Path) -> dict[str, object]:
    _run_blender(REPO / "tools" / "blender_pose.py", str(glb), repr(fps), str(out))
    result: dict[str, object] = json.loads(out.read_text())
    return result


def test_blender_evaluates_the_skinned_chain_as_three_does(tmp_path: Path) -> None:
    # 8 fps lands every frame on a key or halfway between two: there Blender's per-component
    # quaternion curves and glTF's slerp coincide (elsewhere they differ by design)
    fps = 8
    glb = _write(tmp_path, "skin", sb.skin_scene())
    blender = _blender_poses(glb, fps, tmp_path / "skin.blender.json")
    three = threejs_poses(glb, fps)
    rest = np.asarray(blender["rest"], np.float64)
    assert rest.shape == three["rest"].shape
    # Blender may reorder vertices: pair them by their rest position (all distinct here)
    distance = np.linalg.norm(rest[:, None] - three["rest"][None], axis=2)
    order = distance.argmin(axis=1)
    assert sorted(order) == list(range(len(rest))) and distance.min(axis=1).max() < 1e-4
    animations = blender["animations"]
    assert isinstance(animations, dict) and sorted(animations) == ["bend", "twist"]
    for clip, data in animations.items():
        times, positions = three[clip]
        np.testing.assert_allclose(data["times"], times, atol=1e-6)
        frames = np.asarray(data["frames"], np.float64)
        np.testing.assert_allclose(frames, positions[:, order], atol=1e-4, err_msg=clip)
        tags = np.asarray(data["tags"]["tag_x"], np.float64).reshape(-1, 4, 4)
        np.testing.assert_allclose(tags, three["tags"][clip]["tag_x"], atol=1e-4, err_msg=clip)


def test_three_shows_a_blender_made_rig_as_blender_does(tmp_path: Path) -> None:
    # authored in Blender (bones, weights, a Bézier action over frames 1..9 at 10 fps, a
    # moved/turned/scaled armature, a shape key at 0.5), exported at the exporter's defaults
    glb, evaluated = tmp_path / "rig.glb", tmp_path / "rig.json"
    _run_blender(REPO / "tests" / "blender_rig_export.py", str(glb), str(evaluated))
    blender = json.loads(evaluated.read_text())
    three = threejs_poses(glb, blender["fps"])
    assert [(m["name"], m["skinned"], m["morphTargets"]) for m in three["meshes"]] == [
        ("column", True, 1)
    ]
    # Blender writes frame / fps seconds, not shifted to 0: frame 1 is t0 = 0.1 s (float32)
    times, positions = three["wave"]
    assert three["t0"]["wave"] == float(np.float32(0.1))
    np.testing.assert_allclose(times, np.array(blender["frames"]) / blender["fps"], atol=1e-7)
    want = np.asarray(blender["positions"], np.float64)
    # pair each exported vertex with Blender's by the first frame's positions (all distinct)
    distance = np.linalg.norm(positions[0][:, None] - want[0][None], axis=2)
    order = distance.argmin(axis=1)
    assert sorted(order) == list(range(want.shape[1]))
    np.testing.assert_allclose(positions, want[:, order], atol=1e-5)
    assert np.ptp(want[:, :, 0], axis=0).max() > 0.5  # the frames do move
