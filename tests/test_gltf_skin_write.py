"""A skeletal scene exported as a real skin (interchange/gltf_skin_write.py) plays as the scene.

Scenes come from the Blender-made fixtures (read by ``gltf_eval.read_skeletal``) and from small
hand-built rigs (a chain with a fixed matrix joint, a tag, a rigid mesh on a child node, a
morph-targeted head, more than four influences, a clip that starts late and one that holds
still). Each written file is held to:

- the Khronos validator: no error (and no warning);
- our own reader (``read_gltf_scene`` at the same fps): every frame equal to
  ``core.skeletal.bake`` of the scene within 1e-4;
- three.js (``tools/threejs_pose.mjs``): the same frames within 1e-4;
- Blender 3.4's importer (``tools/blender_pose.py``): the positions it evaluates at every key
  frame within 1e-3 (skipped without Blender, failed under CI=true).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import IN_CI, REPO, need_blender
from oracles import FIXTURES, accessor, read_glb, set_distance
from oracles_three import threejs_poses

import quakemodels
from quakemodels import registry
from quakemodels.cli import convert as convert_cli
from quakemodels.cli import main
from quakemodels.core.scene import Y_UP, Material
from quakemodels.core.skeletal import (
    SkeletalClip,
    SkeletalScene,
    SkinnedMesh,
    bake,
    baked_model,
)
from quakemodels.core.skins import Skin
from quakemodels.errors import BadValueError
from quakemodels.interchange.gltf_doc import _open
from quakemodels.interchange.gltf_eval import QUAKE_FROM_Y_UP, read_skeletal
from quakemodels.interchange.gltf_read import read_gltf_scene
from quakemodels.interchange.gltf_skin_write import (
    export_skinned_gltf,
    quaternion,
    top_influences,
)
from quakemodels.interchange.imported import DEFAULT_LIMITS

FPS = 10
FIXTURE_NAMES = ("rigged", "hierarchy", "shapekeys")


# -- scenes ---------------------------------------------------------------------------------------


def _fixture(name: str) -> SkeletalScene:
    g, _ = _open(FIXTURES / f"{name}.glb")
    return read_skeletal(g, FPS, DEFAULT_LIMITS)


def _quat(axis: list[float], degrees: float) -> np.ndarray:
    a = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    half = math.radians(degrees) / 2
    return np.array([*(a * math.sin(half)), math.cos(half)])


def _tube(
    y0: float, y1: float, radius: float, rings: int = 5, sides: int = 6
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N,3) positions, (T,3) counter-clockwise triangles and (N,2) uvs of an open tube along
    +Y from ``y0`` to ``y1``."""
    ys = np.linspace(y0, y1, rings)
    angles = np.arange(sides) * 2 * math.pi / sides
    positions = np.array(
        [[radius * math.cos(a), y, -radius * math.sin(a)] for y in ys for a in angles]
    )
    tris = []
    for r in range(rings - 1):
        for s in range(sides):
            a, b = r * sides + s, r * sides + (s + 1) % sides
            c, d = a + sides, b + sides
            tris += [[a, b, d], [a, d, c]]
    uvs = np.array([[s / sides, r / (rings - 1)] for r in range(rings) for s in range(sides)])
    return positions, np.array(tris, np.int64), uvs.astype(np.float32)


def _mesh(
    name: str,
    positions: np.ndarray,
    indices: np.ndarray,
    uvs: np.ndarray | None,
    slots: list[int],
    inverse_bind: np.ndarray,
    joints: np.ndarray,
    weights: np.ndarray,
    targets: np.ndarray | None = None,
    rest_weights: np.ndarray | None = None,
) -> SkinnedMesh:
    n = len(positions)
    return SkinnedMesh(
        name=name,
        positions=positions,
        targets=np.zeros((0, n, 3)) if targets is None else targets,
        slots=np.array(slots, np.intp),
        inverse_bind=inverse_bind,
        joints=joints.astype(np.intp),
        weights=weights,
        uvs=uvs,
        indices=indices,
        rest_weights=np.zeros(0 if targets is None else len(targets))
        if rest_weights is None
        else rest_weights,
    )


def _translate(t: list[float]) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = t
    return m


def chain() -> SkeletalScene:
    """root → spine → arm → tag_weapon, and root → mount (a fixed matrix joint): a skinned body
    over root/spine/arm (two influences at each bend), a gun rigid on the mount through a
    child node (its inverse bind is not the identity), a head on the arm's own node with two
    morph targets; clips ``wave`` (every channel kind, morph weights), ``late`` (starts at
    1 s, the arm only) and ``still`` (nothing moves: three frames kept)."""
    names = ("root", "spine", "arm", "tag_weapon", "mount")
    parents = np.array([-1, 0, 1, 2, 0], np.intp)
    translation = np.array([[0, 0, 0], [0, 10, 0], [0, 10, 0], [2, 8, 0], [0, 0, 0]], np.float64)
    rotation = np.tile([0.0, 0, 0, 1], (5, 1))
    rotation[1] = _quat([0, 0, 1], 10)
    scale = np.ones((5, 3))
    mount = np.eye(4)
    mount[:3, :3] = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]]) * 1.5  # 90° about Z, × 1.5
    mount[:3, 3] = [6, 4, 0]
    scene0 = SkeletalScene(
        names, parents, translation, rotation, scale, [], [], fixed={4: mount}, tags=(3,)
    )
    world = scene0.rest_world()
    # the body, bound in the rest pose (inverse bind = inverse rest world)
    pos, tri, uv = _tube(0, 28, 3, rings=8)
    bind_world = world[[0, 1, 2]]
    pos_bind = pos.copy()
    y = pos[:, 1]
    w_spine = np.clip((y - 6) / 8, 0, 1) * (y < 18) + (y >= 18) * np.clip((22 - y) / 4, 0, 1)
    w_arm = np.clip((y - 18) / 4, 0, 1)
    w_root = np.clip(1 - w_spine - w_arm, 0, 1)
    weights = np.stack([w_root, w_spine, w_arm], axis=1)
    weights /= weights.sum(axis=1, keepdims=True)
    order = np.argsort(-weights, axis=1)
    body = _mesh(
        "body",
        pos_bind,
        tri,
        uv,
        [0, 1, 2],
        np.linalg.inv(bind_world),
        order[:, :2],
        np.take_along_axis(weights, order[:, :2], axis=1)
        / np.take_along_axis(weights, order[:, :2], axis=1).sum(axis=1, keepdims=True),
        # a belly: skinned and morphed at once (shape keys under an armature)
        (np.exp(-(((y - 9) / 4) ** 2))[:, None] * pos * [0.6, 0, 0.6])[None],
    )
    # the gun: its own space, placed on the mount by an inverse bind that is not the identity
    gpos, gtri, guv = _tube(-2, 2, 0.7, rings=2, sides=4)
    n = len(gpos)
    gun = _mesh(
        "gun",
        gpos,
        gtri,
        guv,
        [4],
        _translate([0, 0, 1.0])[None],
        np.zeros((n, 1)),
        np.ones((n, 1)),
    )
    # the head on the arm's own node, in the arm's space, with two morph targets
    hpos, htri, huv = _tube(0, 4, 2, rings=3, sides=5)
    n = len(hpos)
    targets = np.zeros((2, n, 3))
    targets[0, :, 0] = hpos[:, 0] * 0.5  # wider
    targets[1, :, 1] = hpos[:, 1] * 0.25  # taller
    head = _mesh(
        "arm",
        hpos,
        htri,
        huv,
        [2],
        np.eye(4)[None],
        np.zeros((n, 1)),
        np.ones((n, 1)),
        targets,
        np.array([0.25, 0.0]),
    )
    f = 6
    times = np.arange(f) / FPS
    k = np.arange(f) / (f - 1)
    t = np.repeat(translation[None], f, axis=0)
    t[:, 0, 0] = 3 * k  # the root walks along X
    r = np.repeat(rotation[None], f, axis=0)
    r[:, 1] = [_quat([0, 0, 1], 10 + 40 * x) for x in k]
    r[:, 2] = [_quat([1, 0, 0.3], -70 * x) for x in k]
    s = np.repeat(scale[None], f, axis=0)
    s[:, 2] = (1 + 0.3 * np.sin(math.pi * k))[:, None]  # the arm swells (uniform)
    morph = {0: np.sin(math.pi * k)[:, None], 2: np.stack([k, 1 - k], axis=1)}
    wave = SkeletalClip("wave", times, t, r, s, morph)
    f = 4
    r2 = np.repeat(rotation[None], f, axis=0)
    r2[:, 2] = [_quat([0, 0, 1], 30 * x) for x in np.arange(f)]
    late = SkeletalClip(
        "late",
        1.0 + np.arange(f) / FPS,
        np.repeat(translation[None], f, axis=0),
        r2,
        np.repeat(scale[None], f, axis=0),
    )
    f = 3
    still = SkeletalClip(
        "still",
        np.arange(f) / FPS,
        np.repeat(translation[None], f, axis=0),
        np.repeat(rotation[None], f, axis=0),
        np.repeat(scale[None], f, axis=0),
    )
    return SkeletalScene(
        names,
        parents,
        translation,
        rotation,
        scale,
        [body, gun, head],
        [wave, late, still],
        fixed={4: mount},
        tags=(3,),
    )


def many_influences() -> SkeletalScene:
    """Six joints in a row, a strip whose vertices each hear from all six (and from one of
    them twice): what is exported is each vertex's four largest, renormalized."""
    j = 6
    names = tuple(f"j{i}" for i in range(j))
    parents = np.array([-1, 0, 1, 2, 3, 4], np.intp)
    translation = np.tile([0.0, 5.0, 0.0], (j, 1))
    translation[0] = 0
    rotation = np.tile([0.0, 0, 0, 1], (j, 1))
    scale = np.ones((j, 3))
    rest = SkeletalScene(names, parents, translation, rotation, scale, [], [])
    pos, tri, uv = _tube(0, 25, 2, rings=6, sides=4)
    n = len(pos)
    rng = np.random.default_rng(38)
    joints = np.tile(np.array([0, 1, 2, 3, 4, 5, 2]), (n, 1))
    weights = rng.uniform(0.05, 1.0, (n, 7))
    weights /= weights.sum(axis=1, keepdims=True)
    mesh = _mesh(
        "strip",
        pos,
        tri,
        uv,
        list(range(j)),
        np.linalg.inv(rest.rest_world()),
        joints,
        weights,
    )
    f = 5
    r = np.repeat(rotation[None], f, axis=0)
    for i in range(1, j):
        r[:, i] = [_quat([0, 0, 1], 12 * x) for x in range(f)]
    clip = SkeletalClip(
        "curl",
        np.arange(f) / FPS,
        np.repeat(translation[None], f, axis=0),
        r,
        np.repeat(scale[None], f, axis=0),
    )
    return SkeletalScene(names, parents, translation, rotation, scale, [mesh], [clip])


def truncated(scene: SkeletalScene) -> SkeletalScene:
    """``scene`` with each vertex's influences cut to what the file holds."""
    from quakemodels.core.records import replace

    meshes = []
    for m in scene.meshes:
        joints, weights = top_influences(m.joints, m.weights)
        meshes.append(replace(m, joints=joints, weights=weights))
    return replace(scene, meshes=meshes)


# -- the oracles ----------------------------------------------------------------------------------


def _validate(path: Path) -> dict[str, Any]:
    if shutil.which("node") is None or not (REPO / "node_modules" / "gltf-validator").is_dir():
        reason = "node or node_modules/gltf-validator missing; run make setup"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    done = subprocess.run(
        ["node", str(REPO / "tools" / "validate_gltf.mjs"), str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    [report] = json.loads(done.stdout)
    return dict(report)


def _blender_pose(path: Path, out: Path) -> dict[str, Any]:
    blender = need_blender()
    subprocess.run(
        [blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
         str(REPO / "tools" / "blender_pose.py"), "--", str(path), str(FPS), str(out)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def _root(axes: np.ndarray | None, scale: float) -> np.ndarray:
    """(4,4) from the scene's space to the file's glTF space."""
    m = np.eye(4)
    if axes is not None:
        m[:3, :3] = axes
    m[:3, :3] *= scale
    return m


def _export(
    tmp_path: Path,
    scene: SkeletalScene,
    label: str,
    axes: np.ndarray | None = None,
    scale: float = 1.0,
    **kwargs: Any,
) -> Path:
    out = tmp_path / f"{label}.glb"
    export_skinned_gltf(scene, out, name=label, axes=axes, scale=scale, **kwargs)
    return out


def _carrier_names(path: Path) -> dict[str, str]:
    """glTF mesh name → the name of the node showing it (what a reader names the mesh)."""
    doc, _ = read_glb(path)
    return {doc["meshes"][n["mesh"]]["name"]: n["name"] for n in doc["nodes"] if "mesh" in n}


SCENES = {
    "rigged": (lambda: _fixture("rigged"), None, 1.0),
    "hierarchy": (lambda: _fixture("hierarchy"), None, 1.0),
    "shapekeys": (lambda: _fixture("shapekeys"), None, 1.0),
    "chain": (chain, None, 1.0),
    "chain_zup": (chain, Y_UP.astype(np.float64), 0.5),
    "many": (many_influences, None, 1.0),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, SkeletalScene, Any]]:
    """Every scene of SCENES written once: label → (file, the scene as the file holds it
    (influences cut to four), the (4,4) from its space to glTF's)."""
    folder = tmp_path_factory.mktemp("skin")
    out = {}
    for label, (make, axes, scale) in SCENES.items():
        scene = make()
        path = _export(folder, scene, label, axes, scale)
        out[label] = (path, truncated(scene), _root(axes, scale))
    return out


@pytest.mark.parametrize("label", list(SCENES))
def test_the_khronos_validator_finds_nothing(
    label: str, written: dict[str, tuple[Path, SkeletalScene, Any]]
) -> None:
    report = _validate(written[label][0])
    found = [(m["code"], m["pointer"]) for m in report["messages"] if m["severity"] <= 1]
    assert report["errors"] == 0 and report["warnings"] == 0, found


@pytest.mark.parametrize("label", list(SCENES))
def test_our_reader_plays_the_scenes_frames(
    label: str, written: dict[str, tuple[Path, SkeletalScene, Any]]
) -> None:
    path, scene, root = written[label]
    want = baked_model(scene, bake(scene, FPS, QUAKE_FROM_Y_UP @ root), label)
    got = read_gltf_scene(path, fps=FPS)
    assert got.clips == want.clips
    named = _carrier_names(path)
    by_name = {s.name: s for s in got.surfaces}
    assert len(by_name) == len(got.surfaces) == len(want.surfaces)
    worst = 0.0
    for surface in want.surfaces:
        mine = by_name[named[surface.name]]
        assert mine.positions.shape == surface.positions.shape
        worst = max(worst, float(np.abs(mine.positions - surface.positions).max()))
    assert worst < 1e-4, worst
    # tags are kept: the tag joints' world matrices frame by frame
    assert [t.name for t in got.tags] == [t.name for t in want.tags]
    for mine, theirs in zip(got.tags, want.tags, strict=True):
        assert np.abs(mine.origins - theirs.origins).max() < 1e-4
        assert np.abs(mine.axes - theirs.axes).max() < 1e-4


@pytest.mark.parametrize("label", list(SCENES))
def test_three_js_plays_the_scenes_frames(
    label: str, written: dict[str, tuple[Path, SkeletalScene, Any]]
) -> None:
    path, scene, root = written[label]
    three = threejs_poses(path, FPS)
    baked = bake(scene, FPS, root)
    named = _carrier_names(path)
    order = [m["nodeName"] for m in three["meshes"]]
    counts = [m["vertices"] for m in three["meshes"]]
    index = {named[m.name]: i for i, m in enumerate(scene.meshes)}
    worst = 0.0
    for clip, frames in baked.clips.items():
        times, positions = three[clip]
        assert len(times) == len(frames), clip
        start = 0
        for node, count in zip(order, counts, strict=True):
            mine = baked.positions[index[node]][frames]
            assert mine.shape[1] == count
            worst = max(worst, float(np.abs(positions[:, start : start + count] - mine).max()))
            start += count
    assert worst < 1e-4, worst


@pytest.mark.parametrize("label", list(SCENES))
def test_blender_imports_the_same_poses(
    label: str, written: dict[str, tuple[Path, SkeletalScene, Any]], tmp_path: Path
) -> None:
    path, scene, root = written[label]
    blender = _blender_pose(path, tmp_path / "pose.json")
    baked = bake(scene, FPS, root)
    every = np.concatenate(baked.positions, axis=1)
    assert sum(o["vertices"] for o in blender["objects"]) == every.shape[1]
    assert sorted(blender["animations"]) == sorted(baked.clips)
    worst = 0.0
    for clip, frames in baked.clips.items():
        mine = blender["animations"][clip]["frames"]
        assert len(mine) == len(frames), clip
        for k, f in enumerate(frames):
            worst = max(worst, set_distance(np.asarray(mine[k]), every[f]))
    assert worst < 1e-3, worst


# -- what the file holds --------------------------------------------------------------------------


def test_the_layout_of_a_skin(tmp_path: Path) -> None:
    scene = chain()
    path = _export(tmp_path, scene, "chain")
    doc, _ = read_glb(path)
    nodes = doc["nodes"]
    # one node per joint, first, named and placed as the joints
    assert [n["name"] for n in nodes[:5]] == list(scene.names)
    assert nodes[1]["translation"] == [0.0, 10.0, 0.0]
    assert nodes[1]["rotation"] == pytest.approx(list(scene.rotation[1]))
    assert "translation" not in nodes[0] and "rotation" not in nodes[0]
    assert np.abs(np.array(nodes[4]["matrix"]).reshape(4, 4).T - scene.fixed[4]).max() < 1e-12
    assert nodes[0]["children"] == [1, 4] and nodes[2]["children"][0] == 3
    # the body is skinned: a scene root of its own, three joints, JOINTS_0/WEIGHTS_0
    [skin] = doc["skins"]
    assert skin["joints"] == [0, 1, 2]
    [body] = [n for n in nodes if n.get("skin") == 0]
    assert body["name"] == "body" and "translation" not in body
    roots = doc["scenes"][0]["nodes"]
    assert nodes.index(body) in roots and nodes[roots[0]]["children"] == [0]
    prim = doc["meshes"][body["mesh"]]["primitives"][0]
    assert {"POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"} <= set(prim["attributes"])
    # the head rides the arm on a child node (the arm is a skin joint: three.js's bone);
    # the gun a child of the mount carrying its bind
    assert "mesh" not in nodes[2]
    [head] = [n for n in nodes[5:] if n.get("name") == "arm"]
    assert nodes.index(head) in nodes[2]["children"] and "translation" not in head
    assert doc["meshes"][head["mesh"]]["weights"] == [0.25, 0.0]
    [gun] = [n for n in nodes if n.get("name") == "gun"]
    assert nodes.index(gun) in nodes[4]["children"] and gun["translation"] == [0.0, 0.0, 1.0]
    assert "skin" not in gun
    # only the tracks that move in some clip, keyed in every clip; LINEAR at the clip's times
    anims = {a["name"]: a for a in doc["animations"]}
    want = [
        ("root", "translation"),
        ("spine", "rotation"),
        ("arm", "rotation"),
        ("arm", "scale"),
        ("body", "weights"),
        ("arm", "weights"),
    ]
    for anim in anims.values():
        keyed = [
            (nodes[c["target"]["node"]]["name"], c["target"]["path"]) for c in anim["channels"]
        ]
        assert keyed == want, anim["name"]
        weights = [
            c["target"]["node"] for c in anim["channels"] if c["target"]["path"] == "weights"
        ]
        assert weights == [nodes.index(body), nodes.index(head)]
    assert {s["interpolation"] for a in anims.values() for s in a["samplers"]} == {"LINEAR"}
    doc_blob = read_glb(path)
    late = anims["late"]
    key = doc["accessors"][late["samplers"][0]["input"]]
    assert key["min"] == [1.0] and key["count"] == 4
    # a track a clip leaves alone is keyed at rest: late does not walk the root
    walk = accessor(*doc_blob, late["samplers"][late["channels"][0]["sampler"]]["output"])
    assert walk.tolist() == [[0.0, 0.0, 0.0]] * 4
    # still moves nothing and keeps its three frames
    assert doc["accessors"][anims["still"]["samplers"][0]["input"]]["count"] == 3


def test_a_scene_that_never_moves_keeps_its_clip_length(tmp_path: Path) -> None:
    from quakemodels.core.records import replace

    scene = chain()
    path = _export(tmp_path, replace(scene, clips=scene.clips[2:]), "still")
    doc, _ = read_glb(path)
    [still] = doc["animations"]
    [channel] = still["channels"]  # glTF needs one: the first root, at rest
    assert channel["target"] == {"node": 0, "path": "translation"}
    assert doc["accessors"][still["samplers"][0]["input"]]["count"] == 3
    assert read_gltf_scene(path, fps=FPS).clips == {"still": range(3)}


def test_a_skin_image_becomes_the_base_colour(tmp_path: Path) -> None:
    scene = chain()
    pixels = np.zeros((4, 4, 3), np.uint8)
    pixels[..., 0] = 200
    skin = Skin(Path("body_skin.png"), pixels=pixels)
    path = _export(
        tmp_path, scene, "skinned", skins=[skin, None, skin], materials=[Material(sides="both")]
    )
    doc, blob = read_glb(path)
    meshes = {m["name"]: m["primitives"][0] for m in doc["meshes"]}
    body, gun, head = meshes["body"], meshes["gun"], meshes["arm"]
    assert "material" not in gun
    material = doc["materials"][body["material"]]
    assert material["doubleSided"] is True
    texture = doc["textures"][material["pbrMetallicRoughness"]["baseColorTexture"]["index"]]
    image = doc["images"][texture["source"]]
    assert image["mimeType"] == "image/png" and image["name"] == "body_skin.png"
    view = doc["bufferViews"][image["bufferView"]]
    start = view.get("byteOffset", 0)
    assert blob[start : start + 8] == b"\x89PNG\r\n\x1a\n"
    # the head shares the image; drawn one-sided it is another material
    assert head["material"] != body["material"]
    assert len(doc["images"]) == 1
    assert _validate(path)["errors"] == 0


def test_top_influences_fold_sort_and_renormalize() -> None:
    joints = np.array([[3, 1, 3, 0, 2, 5], [0, 0, 0, 0, 0, 0], [4, 2, 1, 1, 1, 1]])
    weights = np.array(
        [[0.1, 0.35, 0.2, 0.05, 0.2, 0.1], [0.0] * 6, [0.2, 0.2, 0.15, 0.15, 0.15, 0.15]]
    )
    j, w = top_influences(joints, weights)
    # row 0: slot 3 counts 0.3 (0.1 + 0.2), largest first; slot 0 (0.05) dropped
    assert j[0].tolist() == [1, 3, 2, 5]
    assert w[0] == pytest.approx(np.array([0.35, 0.3, 0.2, 0.1]) / 0.95)
    # row 1: no weight: the first slot with all of it
    assert j[1].tolist() == [0, 0, 0, 0] and w[1].tolist() == [1.0, 0.0, 0.0, 0.0]
    # row 2: slot 1 four times (0.6), then 2 and 4; the unused place is slot 0, weight 0
    assert j[2].tolist() == [1, 2, 4, 0] and w[2] == pytest.approx([0.6, 0.2, 0.2, 0.0])
    # four or fewer distinct influences come through unchanged
    k, v = top_influences(np.array([[2, 0]]), np.array([[0.75, 0.25]]))
    assert k.tolist() == [[2, 0, 0, 0]] and v.tolist() == [[0.75, 0.25, 0.0, 0.0]]


def test_a_fifth_influence_is_dropped_as_said() -> None:
    """The many-influence strip as written plays as its four largest (the oracles above);
    here: that this differs from all seven, so the cut is real and the test could fail."""
    scene = many_influences()
    full = bake(scene, FPS).positions[0]
    cut = bake(truncated(scene), FPS).positions[0]
    assert np.abs(full - cut).max() > 0.01


def test_axes_turn_a_z_up_scene_upright(tmp_path: Path) -> None:
    """A Quake-space scene written with axes=Y_UP reads back (in Quake space) where it was."""
    scene = chain()
    path = _export(tmp_path, scene, "zup", Y_UP.astype(np.float64))
    got = read_gltf_scene(path, fps=FPS)
    want = bake(scene, FPS)
    named = _carrier_names(path)
    by_name = {s.name: s for s in got.surfaces}
    for mesh, positions in zip(scene.meshes, want.positions, strict=True):
        assert np.abs(by_name[named[mesh.name]].positions - positions).max() < 1e-4


def test_quaternion_of_a_rotation_matrix() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        from quakemodels.core.skeletal import trs_matrices

        m = trs_matrices(np.zeros(3), q, np.ones(3))[:3, :3]
        got = quaternion(m)
        assert abs(abs(got @ q) - 1) < 1e-12


def test_bad_scenes_are_refused(tmp_path: Path) -> None:
    scene = chain()
    from quakemodels.core.records import replace

    bad = replace(scene, translation=scene.translation * np.nan)
    with pytest.raises(BadValueError, match="translation"):
        export_skinned_gltf(bad, tmp_path / "x.glb")
    with pytest.raises(ValueError, match="not a rotation"):
        export_skinned_gltf(scene, tmp_path / "x.glb", axes=np.diag([1.0, 1.0, -1.0]))
    twice = replace(scene.meshes[0], slots=np.array([0, 1, 1], np.intp))
    with pytest.raises(BadValueError, match="binds a joint twice"):
        export_skinned_gltf(replace(scene, meshes=[twice]), tmp_path / "x.glb")
    assert not (tmp_path / "x.glb").exists()


# -- the command line -----------------------------------------------------------------------------

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"


class SkeletalMd2(quakemodels.Md2):
    """Test-only: an MD2 (its file, skin and scene) that also says it animates by joints, as
    MD5 and IQM models do (``core.skeletal.Skeletal``): the strip of six joints, taken as
    Quake space."""

    def skeletal(self) -> SkeletalScene:
        return many_influences()


@pytest.fixture
def skeletal_md2(monkeypatch: pytest.MonkeyPatch) -> SkeletalMd2:
    model = SkeletalMd2.from_bytes(SAMPLE.read_bytes(), name=str(SAMPLE))
    monkeypatch.setattr(registry, "load", lambda *args, **kwargs: model)
    return model


def test_a_skeletal_model_exports_a_real_skin(tmp_path: Path, skeletal_md2: SkeletalMd2) -> None:
    assert registry.skeletal(skeletal_md2) is not None
    out = tmp_path / "strip.glb"
    assert main(["export", str(SAMPLE), "-o", str(out), "--quiet"]) == 0
    doc, _ = read_glb(out)
    [skin] = doc["skins"]
    assert len(skin["joints"]) == 6 and [a["name"] for a in doc["animations"]] == ["curl"]
    # the format's own skin lookup found quakeguy.png beside the model: it is the texture
    [image] = doc["images"]
    assert image["name"] == "quakeguy.png"
    assert _validate(out)["errors"] == 0
    # Quake space in, Y up in the file: read back into Quake space it is where it was
    scene = truncated(many_influences())
    got = read_gltf_scene(out, fps=FPS)
    want = bake(scene, FPS)
    [surface] = got.surfaces
    assert np.abs(surface.positions - want.positions[0]).max() < 1e-4


def test_export_clip_scale_and_stdout(
    tmp_path: Path, skeletal_md2: SkeletalMd2, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    out = tmp_path / "half.gltf"
    assert main(["export", str(SAMPLE), "-o", str(out), "--clip", "curl", "--scale", "0.5"]) == 0
    capfdbinary.readouterr()
    got = read_gltf_scene(out, fps=FPS)
    want = bake(truncated(many_influences()), FPS, np.diag([0.5, 0.5, 0.5, 1.0]))
    assert np.abs(got.surfaces[0].positions - want.positions[0]).max() < 1e-4
    # an unknown clip names the clips there are
    assert main(["export", str(SAMPLE), "-o", str(tmp_path / "x.glb"), "--clip", "no"]) != 0
    assert b"curl" in b"".join(capfdbinary.readouterr())
    # -o -: the same skin on stdout
    assert main(["export", str(SAMPLE), "-o", "-"]) == 0
    data = capfdbinary.readouterr().out
    assert data[:4] == b"glTF"
    (tmp_path / "stdout.glb").write_bytes(data)
    doc, _ = read_glb(tmp_path / "stdout.glb")
    assert len(doc["skins"][0]["joints"]) == 6


def test_a_vertex_animated_model_still_exports_morph_targets(tmp_path: Path) -> None:
    assert registry.skeletal(quakemodels.load(SAMPLE)) is None
    out = tmp_path / "guy.glb"
    assert main(["export", str(SAMPLE), "-o", str(out), "--quiet"]) == 0
    doc, _ = read_glb(out)
    assert "skins" not in doc and len(doc["meshes"][0]["primitives"][0]["targets"]) > 1


@pytest.mark.parametrize("suffix", [".glb", ".gltf"])
def test_convert_a_rigged_gltf_to_gltf_keeps_the_rig(tmp_path: Path, suffix: str) -> None:
    """``convert rigged.glb out.glb``: a real skin again (joints, skin, TRS clips, its image),
    playing the frames the source plays."""
    out = tmp_path / f"again{suffix}"
    assert main(["convert", str(FIXTURES / "rigged.glb"), str(out)]) == 0
    assert _validate(out)["errors"] == 0
    if suffix == ".glb":
        doc, _ = read_glb(out)
        assert sorted(doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]) == [
            "arm",
            "root",
            "spine",
        ]
        assert [a["name"] for a in doc["animations"]] == ["bend", "wave"]
        assert len(doc["images"]) == 1 and "tag_weapon" in [n["name"] for n in doc["nodes"]]
    source = read_gltf_scene(FIXTURES / "rigged.glb", fps=FPS)
    again = read_gltf_scene(out, fps=FPS)
    assert again.clips == source.clips
    assert np.abs(again.surfaces[0].positions - source.surfaces[0].positions).max() < 1e-4
    [tag] = again.tags
    assert np.abs(tag.origins - source.tags[0].origins).max() < 1e-4


def test_convert_gltf_to_gltf_samples_at_fps(tmp_path: Path) -> None:
    out = tmp_path / "fast.glb"
    assert main(["convert", str(FIXTURES / "rigged.glb"), str(out), "--fps", "20"]) == 0
    # bend runs 0.7 s: 15 keys at 20 fps, re-read at 20 fps as 15 frames
    assert read_gltf_scene(out, fps=20).clips["bend"] == range(15)


def test_convert_a_skeletal_model_to_gltf_writes_its_skin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = SkeletalMd2.from_bytes(SAMPLE.read_bytes(), name=str(SAMPLE))
    monkeypatch.setattr(convert_cli, "load", lambda *args, **kwargs: model)
    out = tmp_path / "strip.glb"
    assert main(["convert", str(SAMPLE), str(out)]) == 0
    doc, _ = read_glb(out)
    assert len(doc["skins"][0]["joints"]) == 6 and doc["images"][0]["name"] == "quakeguy.png"
    got = read_gltf_scene(out, fps=FPS)
    want = bake(truncated(many_influences()), FPS)
    assert np.abs(got.surfaces[0].positions - want.positions[0]).max() < 1e-4


def test_convert_gltf_to_gltf_up_z_and_scale(tmp_path: Path) -> None:
    """``--up z`` stands a Z-up export up, ``--scale`` scales it: read back Y up, the frames
    are the source's read with --up z, scaled."""
    out = tmp_path / "upright.glb"
    args = ["convert", str(FIXTURES / "zup.glb"), str(out), "--up", "z", "--scale", "2"]
    assert main(args) == 0
    assert _validate(out)["errors"] == 0
    source = read_gltf_scene(FIXTURES / "zup.glb", fps=FPS, up="z")
    again = read_gltf_scene(out, fps=FPS)
    for mine, theirs in zip(again.surfaces, source.surfaces, strict=True):
        assert np.abs(mine.positions - 2 * theirs.positions).max() < 1e-4


def test_meshes_bound_alike_share_one_skin(tmp_path: Path) -> None:
    from quakemodels.core.records import replace

    scene = many_influences()
    [strip] = scene.meshes
    other = replace(strip, name="other", positions=strip.positions + np.array([4.0, 0.0, 0.0]))
    two = replace(scene, meshes=[strip, other])
    path = _export(tmp_path, two, "two")
    doc, _ = read_glb(path)
    assert len(doc["skins"]) == 1
    assert [n.get("skin") for n in doc["nodes"] if "mesh" in n] == [0, 0]
    got = {s.name: s for s in read_gltf_scene(path, fps=FPS).surfaces}
    want = bake(truncated(two), FPS, QUAKE_FROM_Y_UP)
    for mesh, positions in zip(two.meshes, want.positions, strict=True):
        assert np.abs(got[mesh.name].positions - positions).max() < 1e-4
    assert _validate(path)["errors"] == 0
