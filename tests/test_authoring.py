"""What a modder makes in Blender comes into Quake whole: the glTF way in evaluated as a viewer
evaluates it (node transforms, skins, morph-weight actions, sampled clips, tags, up axis).

The fixtures are made by Blender from tools/blender_fixtures.py (tests/fixtures/authoring/):
each converted frame is compared with the positions Blender itself evaluates for that frame
(the committed ``.blender.npz``; tests/test_authoring_fixtures.py regenerates them with the
real Blender), within the target format's quantization.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, need_blender
from oracles import FIXTURES, blender_oracle, set_distance
from oracles_three import threejs_poses

import quakemodels
from quakemodels.cli import main
from quakemodels.core.skeletal import frame_name, sample, trs_matrices
from quakemodels.errors import ModelFormatError, QuakeModelsWarning
from quakemodels.interchange.gltf_eval import lying
from quakemodels.interchange.gltf_read import read_gltf, read_gltf_scene
from quakemodels.interchange.imported import from_y_up

ANIMATED = ("rigged", "shapekeys", "hierarchy")
SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
MD3_STEP = math.sqrt(3) / 128  # half of MD3's 1/64 grid, on each axis


def _convert(tmp_path: Path, name: str, suffix: str, *extra: str) -> Path:
    out = tmp_path / f"{name}{suffix}"
    assert main(["convert", str(FIXTURES / f"{name}.glb"), str(out), *extra]) == 0
    return out


def _tolerance(model: object, frame: int) -> float:
    """Half a quantization step of ``frame`` (its diagonal) plus float32 rounding."""
    if isinstance(model, quakemodels.Md3):
        return MD3_STEP + 1e-4
    scales = np.asarray(model.scales if isinstance(model, quakemodels.Md2) else model.scale)  # type: ignore[attr-defined]
    step = scales[frame] if scales.ndim == 2 else scales
    return float(np.linalg.norm(step)) / 2 + 1e-4


def _frames(model: object) -> np.ndarray:
    if isinstance(model, quakemodels.Md3):
        return np.concatenate(
            [np.asarray(s.positions) for s in model.surfaces],
            axis=1,  # type: ignore[attr-defined]
        )
    return np.asarray(model.positions)  # type: ignore[attr-defined]


@pytest.mark.parametrize("suffix", [".md2", ".md3", ".mdl"])
@pytest.mark.parametrize("name", ANIMATED)
def test_every_converted_frame_is_blenders_pose(tmp_path: Path, name: str, suffix: str) -> None:
    oracle = blender_oracle(name)
    model = quakemodels.load(_convert(tmp_path, name, suffix))
    frames = _frames(model)
    start = 0
    worst = 0.0
    for clip, (times, positions) in oracle["clips"].items():
        for f in range(len(times)):
            d = set_distance(frames[start + f], from_y_up(positions[f]))
            assert d <= _tolerance(model, start + f), (clip, f, d)
            worst = max(worst, d / _tolerance(model, start + f))
        start += len(times)
    assert start == len(frames)  # nothing but the clips' frames


@pytest.mark.parametrize("name", ANIMATED)
def test_each_animation_is_a_clip_with_its_name(tmp_path: Path, name: str) -> None:
    oracle = blender_oracle(name)
    md2 = quakemodels.load(_convert(tmp_path, name, ".md2"), quakemodels.Md2)
    want = {clip: len(times) for clip, (times, _) in oracle["clips"].items()}
    got = {clip: len(frames) for clip, frames in md2.animations.items()}
    assert got == want
    assert md2.frame_names[0] == f"{next(iter(want))}01"


def test_the_rig_is_posed_not_frozen() -> None:
    """The bug this replaces: a skinned file read one frame, its bind pose."""
    mesh = read_gltf(FIXTURES / "rigged.glb")
    assert mesh.frame_names[:2] == ["bend01", "bend02"] and len(mesh.frame_names) == 20
    moved = np.abs(mesh.positions - mesh.positions[0]).max(axis=(1, 2))
    assert (moved > 1.0).sum() >= 15  # bend ends where it starts; the rest move


def test_shape_key_action_is_sampled_not_one_frame_per_key() -> None:
    mesh = read_gltf(FIXTURES / "shapekeys.glb")
    assert mesh.frame_names == [f"pulse{k:02d}" for k in range(1, 11)]


def test_the_objects_scale_and_move_are_kept() -> None:
    """shapekeys.glb's node is scaled 1.1 and moved 16 up (glTF Y, Quake Z)."""
    oracle = blender_oracle("shapekeys")
    rest = from_y_up(oracle["rest"])
    mesh = read_gltf(FIXTURES / "shapekeys.glb")
    # frame 0 of pulse is Blender's rest here (the keys start at 0)
    assert set_distance(mesh.positions[0], rest) < 1e-4
    centre = (mesh.positions[0].max(axis=0) + mesh.positions[0].min(axis=0)) / 2
    assert centre[2] == pytest.approx(16.0, abs=0.5)


def test_a_hierarchy_merges_in_world_positions() -> None:
    oracle = blender_oracle("hierarchy")
    scene = read_gltf_scene(FIXTURES / "hierarchy.glb")
    assert sorted(s.name for s in scene.surfaces) == ["arm", "base", "hand"]
    assert scene.clips == {"spin": range(10)}
    merged = np.concatenate([s.positions for s in scene.surfaces], axis=1)
    _, positions = oracle["clips"]["spin"]
    for f in range(10):
        assert set_distance(merged[f], from_y_up(positions[f])) < 1e-4


def test_a_tag_on_a_bone_follows_it_frame_by_frame(tmp_path: Path) -> None:
    oracle = blender_oracle("rigged")
    md3 = quakemodels.load(_convert(tmp_path, "rigged", ".md3"), quakemodels.Md3)
    k = md3.tags.index("tag_weapon")
    tag_origins, tag_axes = md3.tags.origins[:, k], md3.tags.axes[:, k]
    start = 0
    for clip, matrices in oracle["tags"].items():
        want = matrices["tag_weapon"]
        n = len(want)
        origins = from_y_up(want[:, :3, 3])
        assert np.abs(tag_origins[start : start + n] - origins).max() <= 1 / 128 + 1e-4
        # MD3 axes are rows forward, left, up: Quake's x, y, z of the rotated frame
        r = want[:, :3, :3] / np.linalg.norm(want[:, :3, :3], axis=1, keepdims=True)
        p = np.eye(3)[[1, 2, 0]]  # Quake → glTF
        axes = p.T @ np.swapaxes(r, 1, 2) @ p
        assert np.abs(tag_axes[start : start + n] - axes).max() < 2e-3, clip
        start += n
    # it moves: the arm waves
    assert np.ptp(tag_origins, axis=0).max() > 5


def test_a_z_up_export_warns_once_with_the_fix(tmp_path: Path) -> None:
    out = tmp_path / "zup.md2"
    p = subprocess.run(
        [sys.executable, "-m", "quakemodels", "convert", str(FIXTURES / "zup.glb"), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert p.stderr.count("lies on its side") == 1 and "--up z" in p.stderr
    md2 = quakemodels.load(out, quakemodels.Md2)
    lo, hi = md2.positions[0].min(axis=0), md2.positions[0].max(axis=0)
    assert hi[0] - lo[0] > hi[2] - lo[2]  # lying: longer along Quake's forward than up


def test_up_z_stands_it_up(tmp_path: Path) -> None:
    out = tmp_path / "zup.md2"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", QuakeModelsWarning)
        assert main(["convert", str(FIXTURES / "zup.glb"), str(out), "--up", "z"]) == 0
    assert not [w for w in caught if "lies on its side" in str(w.message)]
    md2 = quakemodels.load(out, quakemodels.Md2)
    lo, hi = md2.positions[0].min(axis=0), md2.positions[0].max(axis=0)
    assert hi[2] - lo[2] == pytest.approx(56, abs=0.5)  # the figure's height, up
    assert lo[2] == pytest.approx(0, abs=0.5)  # feet on the ground
    # Blender's Z-up coordinates (x, y, z) are Quake's (-y, x, z): its front (-Y) is +X
    rest = blender_oracle("zup")["rest"]
    quake = np.stack([-rest[:, 1], rest[:, 0], rest[:, 2]], axis=1)
    assert set_distance(md2.positions[0], quake) <= _tolerance(md2, 0)


def test_a_standing_model_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", QuakeModelsWarning)
        for name in ANIMATED:
            read_gltf(FIXTURES / f"{name}.glb")
    # a long Y-up model centred on its Z (a dog) is not lying
    dog = np.array([[0, 0, -30], [10, 20, 30], [-10, 0, 0]], np.float64)
    assert lying(dog) is None
    assert lying(dog[:, [0, 1, 2]] * [1, 1, 1] + [0, 0, 30]) == (60.0, 20.0)


def test_fps_samples_the_clip_at_that_rate() -> None:
    # bend is 8 frames at 10 fps (0.7 s): at 20 fps it is 15 frames, at 5 fps 4 (rounded)
    for fps, frames in ((20, 15), (5, 5), (10, 8)):
        scene = read_gltf_scene(FIXTURES / "rigged.glb", fps=fps)
        assert len(scene.clips["bend"]) == frames, fps
        assert scene.fps == fps


# -- the sampler, against the glTF spec's formulas --------------------------------------------


def test_linear_step_and_cubic_sampling() -> None:
    times = np.array([1.0, 2.0, 4.0])
    values = np.array([[0.0], [10.0], [30.0]])
    at = np.array([0.0, 1.0, 1.5, 2.0, 3.0, 4.0, 9.0])
    assert sample(times, values, "LINEAR", at).ravel().tolist() == [0, 0, 5, 10, 20, 30, 30]
    assert sample(times, values, "STEP", at).ravel().tolist() == [0, 0, 0, 10, 10, 30, 30]
    # CUBICSPLINE: (in-tangent, value, out-tangent) per key; Hermite with tangents × interval
    cubic = np.array([[[0.0], [0.0], [4.0]], [[2.0], [10.0], [0.0]], [[0.0], [30.0], [0.0]]])
    s = 0.5
    h = (2 * s**3 - 3 * s**2 + 1) * 0 + (s**3 - 2 * s**2 + s) * 1 * 4
    h += (-2 * s**3 + 3 * s**2) * 10 + (s**3 - s**2) * 1 * 2
    got = sample(times, cubic, "CUBICSPLINE", np.array([1.5, 2.0]))
    assert got.ravel() == pytest.approx([h, 10.0])


def test_rotation_slerps_the_short_way() -> None:
    half = math.sqrt(0.5)
    q0 = [0.0, 0.0, 0.0, 1.0]
    q1 = [0.0, -half, 0.0, -half]  # 90° about Y, written as its negative
    got = sample(np.array([0.0, 1.0]), np.array([q0, q1]), "LINEAR", np.array([0.5]), True)[0]
    angle = 2 * math.degrees(math.acos(abs(got[3])))
    assert angle == pytest.approx(45.0, abs=1e-6)
    m = trs_matrices(np.zeros(3), got, np.ones(3))
    assert (m[:3, :3] @ [1.0, 0.0, 0.0])[2] == pytest.approx(-math.sin(math.radians(45)))


def test_frame_names_are_quake_names() -> None:
    assert frame_name("wave", 0, 12) == "wave01"
    assert frame_name("attack2", 4, 8) == "attack2_05"
    assert frame_name("Armature|Run Cycle", 99, 120) == "Armature_Run100"
    assert len(frame_name("x" * 40, 0, 5)) == 15


# -- hostile files: every problem a ModelFormatError naming the field --------------------------


def _glb_json(tmp_path: Path, edit: object) -> Path:
    """rigged.glb with its JSON changed by ``edit(doc)``, written as a .gltf beside its BIN."""
    import json
    import struct

    data = (FIXTURES / "rigged.glb").read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + length])
    bin_length = struct.unpack_from("<I", data, 20 + length)[0]
    blob = data[28 + length : 28 + length + bin_length]
    (tmp_path / "x.bin").write_bytes(blob)
    doc["buffers"][0]["uri"] = "x.bin"
    edit(doc)  # type: ignore[operator]
    out = tmp_path / "x.gltf"
    out.write_text(json.dumps(doc))
    return out


def test_hostile_skins_and_animations(tmp_path: Path) -> None:
    def cycle(doc: dict) -> None:  # type: ignore[type-arg]
        doc["nodes"][0].setdefault("children", []).append(0)

    def joint(doc: dict) -> None:  # type: ignore[type-arg]
        doc["skins"][0]["joints"] = doc["skins"][0]["joints"][:1]
        doc["skins"][0].pop("inverseBindMatrices")

    def long(doc: dict) -> None:  # type: ignore[type-arg]
        acc = doc["animations"][0]["samplers"][0]["input"]
        doc["accessors"][acc]["max"] = [1e9]
        # a key at 1e9 s: rewrite the last time in the BIN
        view = doc["bufferViews"][doc["accessors"][acc]["bufferView"]]
        blob = bytearray((tmp_path / "x.bin").read_bytes())
        at = view.get("byteOffset", 0) + doc["accessors"][acc].get("byteOffset", 0)
        at += 4 * (doc["accessors"][acc]["count"] - 1)
        blob[at : at + 4] = np.float32(1e9).tobytes()
        (tmp_path / "x.bin").write_bytes(bytes(blob))

    cases = [
        (cycle, "nodes[0].children"),
        (joint, "names joint 2 of a skin of 1"),
        (long, "animations[0]"),
    ]
    for edit, field in cases:
        path = _glb_json(tmp_path, edit)
        with pytest.raises(ModelFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
            read_gltf(path)


# -- a real Blender edit of our own export -----------------------------------------------------


def test_an_object_scaled_and_moved_in_blender_keeps_it(tmp_path: Path) -> None:
    """MD2 → glTF → Blender (object scaled 1.1, moved 16 up, not applied) → MD2: the frames
    come back scaled and moved; they came back as they were before the node was read."""
    glb, edited, back = tmp_path / "guy.glb", tmp_path / "edited.glb", tmp_path / "back.md2"
    assert main(["export", str(SAMPLE), "-o", str(glb)]) == 0
    subprocess.run(
        [need_blender(), "-b", "--factory-startup", "--python-exit-code", "1", "--python",
         str(REPO / "tools" / "blender_transform.py"), "--", str(glb), str(edited),
         "1.1", "0", "0", "16"],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    assert main(["convert", str(edited), str(back)]) == 0
    source = quakemodels.load(SAMPLE, quakemodels.Md2)
    md2 = quakemodels.load(back, quakemodels.Md2)
    assert md2.num_frames == source.num_frames and list(md2.animations) == list(source.animations)
    for f in range(0, source.num_frames, 3):
        want = source.positions[f] * 1.1 + [0, 0, 16]
        assert set_distance(md2.positions[f], want) <= _tolerance(md2, f), f


def test_a_clip_resampled_equals_one_sampled_at_that_rate() -> None:
    """Blender keys every frame LINEAR at 10 fps: resampling the 10 fps clip at 20 fps (what
    a skeletal format's clip goes through) gives the glTF sampled at 20 fps directly."""
    from quakemodels.interchange.gltf_doc import _open
    from quakemodels.interchange.gltf_eval import read_skeletal
    from quakemodels.interchange.imported import DEFAULT_LIMITS

    g, _ = _open(FIXTURES / "rigged.glb")
    at10 = read_skeletal(g, 10, DEFAULT_LIMITS).clips
    at20 = read_skeletal(g, 20, DEFAULT_LIMITS).clips
    for slow, fast in zip(at10, at20, strict=True):
        again = slow.resampled(20)
        assert again.times == pytest.approx(fast.times)
        for a, b in ((again.translation, fast.translation), (again.scale, fast.scale)):
            assert np.abs(a - b).max() < 1e-6  # key times are float32
        dots = np.abs(np.sum(again.rotation * fast.rotation, axis=-1))
        assert dots.min() > 1 - 1e-9


def test_step_holds_a_float32_key_at_its_frame() -> None:
    """0.1 s stored as float32 is 0.10000000149: frame 1 at 10 fps (0.1 in double) must show
    the key at 0.1, not the one before it (three.js's oracle snaps the same way)."""
    times = np.array([0.0, 0.1, 0.2], np.float32).astype(np.float64)
    values = np.array([[0.0], [1.0], [2.0]])
    at = np.arange(3) / 10.0
    assert sample(times, values, "STEP", at).ravel().tolist() == [0.0, 1.0, 2.0]


# -- three.js, the second oracle -----------------------------------------------------------------


@pytest.mark.parametrize("name", ANIMATED)
def test_three_js_plays_the_same_frames(tmp_path: Path, name: str) -> None:
    """three.js's GLTFLoader + AnimationMixer + SkinnedMesh evaluation of the fixture, frame
    for frame: the evaluated frames (before quantization) within 1e-4, and every converted
    MD2, MD3 and MDL frame within its format's half step."""
    three = threejs_poses(FIXTURES / f"{name}.glb", 10)
    mesh = read_gltf(FIXTURES / f"{name}.glb")
    start = 0
    for clip, frames in read_gltf_scene(FIXTURES / f"{name}.glb").clips.items():
        times, positions = three[clip]
        assert len(times) == len(frames) and frames.start == start
        for k in range(len(times)):
            assert set_distance(mesh.positions[start + k], from_y_up(positions[k])) < 1e-4
        start += len(times)
    for suffix in (".md2", ".md3", ".mdl"):
        model = quakemodels.load(_convert(tmp_path, name, suffix))
        converted = _frames(model)
        start = 0
        for clip in read_gltf_scene(FIXTURES / f"{name}.glb").clips:
            times, positions = three[clip]
            for k in range(len(times)):
                d = set_distance(converted[start + k], from_y_up(positions[k]))
                assert d <= _tolerance(model, start + k), (suffix, clip, k, d)
            start += len(times)


def test_three_js_places_the_tag_where_md3_does(tmp_path: Path) -> None:
    three = threejs_poses(FIXTURES / "rigged.glb", 10)
    md3 = quakemodels.load(_convert(tmp_path, "rigged", ".md3"), quakemodels.Md3)
    k = md3.tags.index("tag_weapon")
    start = 0
    for clip in ("bend", "wave"):
        matrices = three["tags"][clip]["tag_weapon"]
        n = len(matrices)
        got = md3.tags.origins[start : start + n, k]
        assert np.abs(got - from_y_up(matrices[:, :3, 3])).max() <= 1 / 128 + 1e-4
        start += n


def test_node_frames_are_held_over_every_clip() -> None:
    """Each clip keeps (F,J) tracks: their sum is bounded, not each clip alone. rigged.glb
    has 6 nodes; at 1000 fps bend is 701 frames (4206 node frames), wave 1101 (6606)."""
    from quakemodels.interchange.imported import ImportLimits

    limits = ImportLimits(max_positions=20_000)  # 10,000 node frames
    with pytest.raises(ModelFormatError, match=r"animations\[1\].*10000 node frames in all"):
        read_gltf(FIXTURES / "rigged.glb", fps=1000, limits=limits)
