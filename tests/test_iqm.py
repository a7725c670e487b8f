"""Inter-Quake Model (IQM version 2): the numpy reader against the generated parser value for
value, the corpus (mrfixit, the reference tool's conversions) read, posed against the bounds
the reference tool stored, exported (Khronos validator), rendered and baked; the writer's
round trip within its quantization; glTF and IQM through ``convert``; hostile files."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, IN_CI, REPO, corpus_params, no_corpus
from iqmbuilder import set_f4, set_header, set_u4, two_bone_iqm, two_bone_scene
from PIL import Image

import quakemodels
from quakemodels.cli import main
from quakemodels.cli.view import model_parts
from quakemodels.core.build import vertex_normals
from quakemodels.core.mesh import flip_winding
from quakemodels.core.skeletal import bake, baked_model, pose, trs_matrices
from quakemodels.errors import ModelFormatError
from quakemodels.formats.iqm.layout import JOINT, POSE
from quakemodels.formats.iqm.model import Iqm, posed_meshes
from quakemodels.formats.iqm.reader import IqmReader
from quakemodels.formats.iqm.scene import picked
from quakemodels.formats.iqm.write import decompose, quantize, quaternion, write
from quakemodels.formats.md3.limits import FORMAT_LIMITS as MD3_FORMAT_LIMITS
from quakemodels.formats.md3.model import Md3
from quakemodels.interchange.gltf_doc import _open
from quakemodels.interchange.gltf_eval import QUAKE_FROM_Y_UP, evaluate, read_skeletal
from quakemodels.interchange.gltf_write import export_gltf
from quakemodels.interchange.imported import DEFAULT_LIMITS
from quakemodels.kaitai.inter_quake_model import InterQuakeModel
from quakemodels.registry import scene as scene_of

IQM = corpus_params("iqm")
MRFIXIT = CORPUS / "iqm" / "mrfixit" / "mrfixit.iqm"
AUTHORING = REPO / "tests" / "fixtures" / "authoring"


def _mrfixit() -> Path:
    if not MRFIXIT.is_file():
        no_corpus(MRFIXIT)
    return MRFIXIT


# -- the generated parser, value for value -------------------------------------------------------


def _vec(v: Any) -> list[float]:
    return [v.x, v.y, v.z]


@pytest.mark.parametrize("path", [*IQM, pytest.param("synthetic", id="synthetic")])
def test_reader_equals_the_generated_parser(path: Path | str) -> None:
    data = two_bone_iqm(comment=b"made here") if path == "synthetic" else Path(path).read_bytes()
    ks = InterQuakeModel.from_bytes(data)
    m = IqmReader(data, None)
    m.validate()
    for name, value in m.header.items():
        assert getattr(ks, name) == value, name
    assert [(x.name, x.material, x.first_vertex, x.num_vertices) for x in ks.meshes] == [
        (x.name, x.material, x.first_vertex, x.num_vertices) for x in m.mesh_records
    ]
    assert [x.first_triangle for x in ks.meshes] == [x.first_triangle for x in m.mesh_records]
    for k, a in zip(ks.vertex_arrays, m.vertex_arrays, strict=True):
        assert (int(k.type), int(k.format), k.size, k.offset) == (
            a.type,
            a.format,
            a.size,
            a.offset,
        )
        assert np.array_equal(np.asarray(k.data.values, dtype=np.float64), a.data.reshape(-1))
    assert np.array_equal(np.array([t.vertices for t in ks.triangles]).reshape(-1, 3), m.triangles)
    if m.adjacency is None:
        assert ks.adjacency == []
    else:
        assert np.array_equal(np.array([a.triangles for a in ks.adjacency]), m.adjacency)
    assert tuple(j.name for j in ks.joints) == m.joint_names
    assert [j.parent for j in ks.joints] == m.joint_parents.tolist()
    assert np.array_equal([_vec(j.translate) for j in ks.joints], m.joint_translate)
    raw_q = np.array([[j.rotate.x, j.rotate.y, j.rotate.z, j.rotate.w] for j in ks.joints])
    assert np.allclose(raw_q / np.linalg.norm(raw_q, axis=1, keepdims=True), m.joint_rotate)
    assert np.array_equal([_vec(j.scale) for j in ks.joints], m.joint_scale)
    assert [p.channel_mask for p in ks.poses] == m.pose_masks.tolist()
    assert np.array_equal(
        np.array([p.channel_offsets for p in ks.poses]).reshape(-1, 10), m.pose_offsets
    )
    assert np.array_equal(
        np.array([p.channel_scales for p in ks.poses]).reshape(-1, 10), m.pose_scales
    )
    assert [(a.name, a.first_frame, a.num_frames, a.framerate, a.flags) for a in ks.anims] == [
        (a.name, a.first_frame, a.num_frames, np.float32(a.framerate), a.flags) for a in m.anims
    ]
    frames = ks.frames if ks.num_frame_channels else []  # no channels: no frame records
    assert np.array_equal(
        np.array([f.channels for f in frames]).reshape(m.frame_channels.shape), m.frame_channels
    )
    if m.frame_bounds is not None:
        kb = [[*_vec(b.bb_min), *_vec(b.bb_max), b.xy_radius, b.radius] for b in ks.bounds]
        assert np.array_equal(np.array(kb, np.float32), m.frame_bounds)
    assert (ks.comment if ks.len_comment else b"") == m.comment


# -- the corpus ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", IQM)
def test_posed_frames_fill_the_bounds_the_reference_tool_stored(path: Path) -> None:
    """Each frame's box as the file stores it, from the writer's own posing: the reference
    tool's (reference/) agrees with ours within 1e-3 units; mrfixit's, written by the
    format's Blender exporter from Blender's pose before quantization, within 1e-2 (0.1 % of
    its 8-unit height), and its first frame within 1e-3."""
    m = quakemodels.load(path)
    if m.frame_bounds is None:
        pytest.skip(f"{path.name} stores no bounds (no animation)")
    skel = m.skeletal()
    boxes = []
    for clip in skel.clips:
        posed, _ = pose(skel, clip)
        points = np.concatenate(posed, axis=1)
        boxes.append(np.concatenate([points.min(axis=1), points.max(axis=1)], axis=1))
    error = np.abs(np.concatenate(boxes) - m.frame_bounds[:, :6]).max(axis=1)
    assert error.max() < (1e-2 if path.name == "mrfixit.iqm" else 1e-3)
    assert error[0] < 1e-3


def test_mrfixit_reads_as_the_format_describes_it() -> None:
    m = quakemodels.load(_mrfixit())
    assert isinstance(m, Iqm)
    assert [(x.name, x.material, x.num_vertices) for x in m.mesh_records] == [
        ("Body", "Body.tga", 1476),
        ("Head", "Head.tga", 385),
    ]
    assert len(m.joint_names) == 75 and m.joint_names[:3] == ("Root", "SpineTwist", "Torso")
    assert [(a.name, a.num_frames, a.framerate) for a in m.anims] == [("idle", 101, 24.0)]
    skel = m.skeletal()
    assert [x.material_name for x in skel.meshes] == ["Body.tga", "Head.tga"]
    assert [(c.name, c.num_frames) for c in skel.clips] == [("idle", 101)]
    assert np.allclose(np.diff(skel.clips[0].times), 1 / 24)
    # the base pose's inverse binds undo the joints: the bind pose gives the stored vertices
    rest, _ = pose(skel, skel.rest_clip())
    assert np.abs(rest[0][0] - m.positions[:1476]).max() < 1e-9
    # the stored triangles wind clockwise: the scene's (turned) faces point along the normals
    body = skel.meshes[0]
    p, t = body.positions, body.indices
    face = np.cross(p[t[:, 1]] - p[t[:, 0]], p[t[:, 2]] - p[t[:, 0]])
    assert np.mean(np.einsum("ij,ij->i", face, m.normals[t[:, 0]]) > 0) > 0.99
    assert m.num_frames == 101 and m.frame_names[0] == "idle001"


def test_mrfixit_exports_valid_gltf_renders_and_bakes(tmp_path: Path) -> None:
    path = _mrfixit()
    out = tmp_path / "mrfixit.glb"
    assert main(["export", str(path), "-o", str(out)]) == 0
    report = _validate([out])[0]
    assert report["errors"] == 0, report["messages"][:5]
    png = tmp_path / "mrfixit.png"
    assert main(["render", str(path), "-o", str(png), "--size", "128x128"]) == 0
    img = np.asarray(Image.open(png).convert("RGB")).astype(int)
    background = img[0, 0]
    drawn = np.abs(img - background).sum(axis=2) > 30
    rows = np.flatnonzero(drawn.any(axis=1))
    assert drawn.mean() > 0.1 and rows[-1] - rows[0] > 90  # standing, most of the frame tall
    # the head's skin is green: the top of the figure is green-dominated
    head = img[rows[0] : rows[0] + 12][drawn[rows[0] : rows[0] + 12]]
    assert np.mean(head[:, 1] > head[:, 2]) > 0.6
    # baked into MD3 frames: the same positions as posing the scene, within MD3's 1/64 grid
    em = scene_of(quakemodels.load(path))
    md3 = Md3.from_scene(em, limits=MD3_FORMAT_LIMITS).model
    assert md3.num_frames == 101
    posed, _ = pose(quakemodels.load(path).skeletal(), quakemodels.load(path).skeletal().clips[0])
    assert np.abs(md3.surfaces[1].positions[50] - posed[1][50]).max() <= 1 / 128 + 1e-6


@pytest.mark.parametrize("path", IQM)
def test_every_corpus_iqm_reads_bakes_and_checks(path: Path) -> None:
    m = quakemodels.load(path)
    skel = m.skeletal()
    baked = bake(skel)
    em = baked_model(skel, baked, path.stem)
    expected = sum(c.num_frames for c in skel.clips) or 1  # the base pose alone
    assert em.num_frames == m.num_frames == expected
    assert all(np.isfinite(s.positions).all() for s in em.surfaces)
    assert [f for f in m.check("any") if f.severity == "error"] == []


# -- the writer ----------------------------------------------------------------------------------


def test_quantize_follows_the_reference_tools_rule() -> None:
    values = np.zeros((3, 1, 10))
    values[:, 0, 0] = [1.0, 2.0, 3.0]  # masked: offset 1, scale 2/65535
    values[:, 0, 6] = 1.0  # constant: not masked
    values[:, 0, 7] = [5.0, 5.0 + 1e-12, 5.0]  # a span below 1e-10: not masked
    masks, offsets, scales, frames = quantize(values)
    assert masks.tolist() == [1]
    assert offsets[0, 0] == 1.0 and offsets[0, 6] == 1.0 and offsets[0, 7] == np.float32(5.0)
    assert scales[0, 0] == np.float32(np.float32(2.0) / np.float32(65535))
    assert frames[:, 0].tolist() == [0, 32768, 65535]  # ushort(0.5 + (v - min) / scale)


def test_decompose_inverts_trs() -> None:
    rng = np.random.default_rng(4)
    q = rng.normal(size=(50, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    q[q[:, 3] < 0] *= -1
    t, s = rng.normal(size=(50, 3)), rng.uniform(0.5, 2, size=(50, 3))
    t2, q2, s2 = decompose(trs_matrices(t, q, s))
    assert np.allclose(t2, t) and np.allclose(q2, q) and np.allclose(s2, s)
    assert np.allclose(quaternion(np.eye(3)[None]), [[0, 0, 0, 1]])


@pytest.mark.parametrize("path", IQM)
def test_written_iqm_poses_as_the_original_within_the_quantization(path: Path) -> None:
    original = quakemodels.load(path)
    skel = original.skeletal()
    again = Iqm(write(skel), "again.iqm")
    skel2 = again.skeletal()
    assert skel2.names == skel.names and np.array_equal(skel2.parents, skel.parents)
    # each channel within half a quantization step of the source's value
    if again.header["num_frames"]:
        values = np.concatenate(
            [np.concatenate(decompose(skel.local(c)), axis=-1) for c in skel.clips]
        )
        step = np.where(again.pose_scales > 0, again.pose_scales, 0)[None]
        err = np.abs(again.channels - values)
        assert (err <= step / 2 + 1e-6 * (1 + np.abs(values))).all()
    for c1, c2 in zip(
        skel.clips or [skel.rest_clip()], skel2.clips or [skel2.rest_clip()], strict=True
    ):
        assert c2.name == c1.name and np.allclose(c2.times, c1.times)
        p1, _ = pose(skel, c1)
        p2, _ = pose(skel2, c2)
        assert max(np.abs(a - b).max() for a, b in zip(p1, p2, strict=True)) < 1e-4
    assert [m.material_name for m in skel2.meshes] == [m.material_name for m in skel.meshes]


def test_mrfixit_rewritten_reads_back_through_convert(tmp_path: Path) -> None:
    out = tmp_path / "again.iqm"
    assert main(["convert", str(_mrfixit()), str(out)]) == 0
    a, b = quakemodels.load(_mrfixit()), quakemodels.load(out)
    assert [x.name for x in b.mesh_records] == ["Body", "Head"]
    assert b.check("quake3") == a.check("quake3")  # the same ioquake3 limits, no new fault
    assert np.abs(np.array(b.bounds) - np.array(a.bounds)).max() < 1e-2
    ks = InterQuakeModel.from_bytes(out.read_bytes())  # the generated parser reads it too
    assert ks.num_joints == 75 and ks.anims[0].name == "idle" and ks.anims[0].framerate == 24.0


def test_small_scene_round_trips_with_its_tag() -> None:
    scene = two_bone_scene(frames=5)
    m = Iqm(write(scene), "bar.iqm")
    skel = m.skeletal()
    assert skel.tags == (2,) and skel.names[2] == "tag_tip"
    p1, w1 = pose(scene, scene.clips[0])
    p2, w2 = pose(skel, skel.clips[0])
    assert np.abs(p1[0] - p2[0]).max() < 1e-4
    assert np.abs(w1[:, 2] - w2[:, 2]).max() < 1e-4
    em = scene_of(m)
    assert [t.name for t in em.tags] == ["tag_tip"] and em.fps == 10.0


def test_gltf_converts_to_iqm_posed_as_gltf_eval_poses_it(tmp_path: Path) -> None:
    glb = AUTHORING / "rigged.glb"
    out = tmp_path / "rigged.iqm"
    assert main(["convert", str(glb), str(out)]) == 0
    g, size = _open(glb)
    _, baked = evaluate(g, 10.0, DEFAULT_LIMITS.for_input(size))
    m = quakemodels.load(out)
    ours = bake(m.skeletal())
    assert list(ours.clips) == list(baked.clips)
    # the frames' channels are the glTF's local TRS (turned Z up) within half a step ...
    scene = read_skeletal(g, 10.0, DEFAULT_LIMITS.for_input(size))
    values = []
    for clip in scene.clips:
        local = scene.local(clip)
        roots = scene.parents < 0
        local[:, roots] = QUAKE_FROM_Y_UP @ local[:, roots]
        values.append(np.concatenate(decompose(local), axis=-1))
    step = m.pose_scales[None].astype(np.float64)
    assert (np.abs(m.channels - np.concatenate(values)) <= step / 2 + 1e-6).all()
    # ... so the posed vertices agree to what that quantization allows: the translation
    # channels span 3 units (a step of 4.6e-5) and the rotations 0.7 (1.0e-5) on a model
    # 48 units tall, six joints deep
    for a, b in zip(ours.positions, baked.positions, strict=True):
        assert a.shape == b.shape
        assert np.abs(a - b).max() < 1e-2
    # the same through the API, and every authoring fixture converts
    assert Iqm(write(scene, root=QUAKE_FROM_Y_UP, fps=10.0), "x").num_frames == m.num_frames
    for fixture in sorted(AUTHORING.glob("*.glb")):
        assert main(["convert", str(fixture), str(tmp_path / f"{fixture.stem}.iqm")]) == 0


def test_convert_iqm_to_md2_md3_mdl_and_back(tmp_path: Path) -> None:
    data = two_bone_iqm(frames=4)
    src = tmp_path / "bar.iqm"
    src.write_bytes(data)
    for suffix in ("md2", "md3", "mdl"):
        out = tmp_path / f"bar.{suffix}"
        assert main(["convert", str(src), str(out)]) == 0, suffix
        assert quakemodels.load(out).num_frames == 4
    # a vertex-animated model comes back with a joint per vertex that follows it
    md3 = quakemodels.load(tmp_path / "bar.md3")
    back = tmp_path / "back.iqm"
    assert main(["convert", str(tmp_path / "bar.md3"), str(back)]) == 0
    m = quakemodels.load(back)
    assert len(m.joint_names) == 1 + md3.surfaces[0].num_vertices + 1  # root, vertices, tag
    assert m.skeletal().names[m.skeletal().tags[0]] == "tag_tip"
    posed = bake(m.skeletal()).positions[0]
    assert np.abs(posed - md3.surfaces[0].positions).max() < 1e-4


def test_per_vertex_joints_follow_every_md2_frame(tmp_path: Path) -> None:
    sample = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
    out = tmp_path / "quakeguy.iqm"
    assert main(["convert", str(sample), str(out)]) == 0
    md2, m = quakemodels.load(sample), quakemodels.load(out)
    em = scene_of(md2)
    assert list(m.animations) == list(em.clips) and m.num_frames == em.num_frames
    baked = bake(m.skeletal())
    # the IQM's corners are the scene's; quantized to 16 bits over each vertex's travel
    travel = np.ptp(em.surfaces[0].positions, axis=0).max()
    assert np.abs(baked.positions[0] - em.surfaces[0].positions).max() <= travel / 65535
    assert m.check("quake3") == []  # 127 joints, IQM_MAX_JOINTS is 128: ioquake3 loads it


def test_info_check_dump_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "bar.iqm"
    src.write_bytes(two_bone_iqm())
    assert main(["info", str(src)]) == 0
    text = capsys.readouterr().out
    assert "Inter-Quake Model" in text and "tags: tag_tip" in text and "bend: frames 0..2" in text
    assert main(["check", "--engine", "quake3", str(src)]) == 0
    capsys.readouterr()
    assert main(["dump", str(src)]) == 0
    dumped = json.loads(capsys.readouterr().out.split("\n1 file")[0])
    assert dumped["numJoints"] == 3 and dumped["anims"][0]["name"] == "bend"


# -- hostile files -------------------------------------------------------------------------------


def _hostile() -> dict[str, bytes]:
    good = two_bone_iqm()
    h = IqmReader(good).header
    j, p, va = h["ofs_joints"], h["ofs_poses"], h["ofs_vertex_arrays"]
    blend = IqmReader(good).array("blend_indexes")
    assert blend is not None
    return {
        "truncated header": good[:60],
        "truncated body": good[: len(good) // 2],
        "len_file past the end": set_header(good, "len_file", len(good) + 4),
        "ofs_joints past the end": set_header(good, "ofs_joints", len(good) - 8),
        "ofs_text inside the header": set_header(good, "ofs_text", 8),
        "num_vertices overflowing": set_header(good, "num_vertices", 0xFFFFFFFF),
        "num_triangles overflowing": set_header(good, "num_triangles", 0x7FFFFFFF),
        "num_frames overflowing": set_header(good, "num_frames", 0xFFFFFFFF),
        "num_joints huge": set_header(good, "num_joints", 0x10000000),
        "num_poses not num_joints": set_header(good, "num_poses", 2),
        "frame channels too few": set_header(good, "num_frame_channels", 1),
        "joint parent forward": set_u4(good, j + 4, 2),
        "joint parent itself": set_u4(good, j + JOINT.itemsize + 4, 1),
        "joint parent past the joints": set_u4(good, j + 4, 99),
        "pose parent forward": set_u4(good, p, 5),
        "NaN translation": set_f4(good, j + 8, float("nan")),
        "inf scale": set_f4(good, j + 36, float("inf")),
        "zero rotation": good[: j + 20] + bytes(16) + good[j + 36 :],
        "NaN channel offset": set_f4(good, p + 8, float("nan")),
        "blend index past the joints": good[: blend.offset] + b"\x09" + good[blend.offset + 1 :],
        "vertex array format 9": set_u4(good, va + 8, 9),
        "vertex array size 0": set_u4(good, va + 12, 0),
        "vertex array offset past the end": set_u4(good, va + 16, len(good) - 4),
        "mesh name past the text": set_u4(good, h["ofs_meshes"], 5000),
        "mesh vertices past num_vertices": set_u4(good, h["ofs_meshes"] + 12, 99),
        "anim frames past num_frames": set_u4(good, h["ofs_anims"] + 8, 50),
        "triangle corner past the vertices": set_u4(good, h["ofs_triangles"], 8),
        "extension loop": _extension_loop(good),
        "wrong magic": b"INTERQUAKEMODEX\0" + good[16:],
        "version 1": set_header(good, "version", 1),
    }


def _extension_loop(good: bytes) -> bytes:
    """Two extensions at one offset pointing at themselves."""
    at = len(good)
    ext = (0).to_bytes(4, "little") * 3 + at.to_bytes(4, "little")
    data = set_header(good + ext, "num_extensions", 2)
    data = set_header(data, "ofs_extensions", at)
    return set_header(data, "len_file", len(data))


@pytest.mark.parametrize("case", list(_hostile()))
def test_hostile_files_raise_model_format_errors(case: str) -> None:
    data = _hostile()[case]
    with pytest.raises(ModelFormatError) as got:
        Iqm(data, "x.iqm").load_all()
    assert got.value.field is not None and got.value.offset is not None, str(got.value)
    findings = quakemodels.check_model(data, "any")
    assert findings and all(f.code != "internal" for f in findings)
    try:
        lazy = Iqm(data, "x.iqm")
    except ModelFormatError:
        return  # a fault of the header refuses the file at load
    # a lazily loaded model's own check reads every section too
    assert [f.code for f in lazy.check()] == [f.code for f in findings]


# what a first pose does not read: the poses' parent fields (the joints' are posed) and the
# extension list
OUTSIDE_FRAME_0 = {"pose parent forward", "extension loop"}


@pytest.mark.parametrize("case", list(_hostile()))
def test_hostile_first_pose_raises_what_load_all_raises(case: str) -> None:
    """The first pose checks what it reads: the same fault, field and offset as the full
    load, unless the fault lies in a section frame 0 does not read."""
    data = _hostile()[case]
    with pytest.raises(ModelFormatError) as full:
        Iqm(data, "x.iqm").load_all()
    if case in OUTSIDE_FRAME_0:
        # the pose of the good file it was made from, and the full load still refuses it
        lazy = Iqm(data, "x.iqm")
        good = Iqm(two_bone_iqm(), "x.iqm").load_all()
        _same_meshes(lazy.meshes(0), [m for _, m in posed_meshes(picked(good.skeletal(), [0]))])
        with pytest.raises(ModelFormatError):
            lazy.load_all()
        return
    with pytest.raises(ModelFormatError) as first:
        Iqm(data, "x.iqm").meshes(0)
    assert (first.value.field, first.value.offset) == (full.value.field, full.value.offset)


def _same_meshes(got: list[Any], want: list[Any]) -> None:
    """The same posed meshes: dtypes and shapes alike, uvs, triangles and ids exactly, and
    the positions and normals as ``formats/iqm/fast.py`` promises of the compiled first pose
    (:func:`same_pose`: exactly when both are the numpy path's)."""
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        for name in ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids"):
            x, y = getattr(a, name), getattr(b, name)
            assert x.dtype == y.dtype and x.shape == y.shape, name
            if name not in ("positions", "normals"):
                np.testing.assert_array_equal(x, y, err_msg=name)
        same_pose(a, b)


def same_pose(got: Any, want: Any) -> None:
    """``got``'s positions within one float32 step of the model's size of ``want``'s (the
    compiled kernel's 4×4 products do not round as numpy's BLAS does), its normals exactly
    those ``vertex_normals`` makes of its own positions, and within 1e-5 of ``want``'s."""
    size = float(np.abs(want.positions).max(initial=0.0))
    step = float(np.spacing(np.float32(size)))
    np.testing.assert_allclose(got.positions, want.positions, rtol=0, atol=step)
    own = vertex_normals(got.positions[None], flip_winding(got.indices))[0].astype(np.float32)
    np.testing.assert_array_equal(got.normals, own)
    np.testing.assert_allclose(got.normals, want.normals, rtol=0, atol=1e-5)


@pytest.mark.parametrize("path", [*IQM, pytest.param("synthetic", id="synthetic")])
def test_first_pose_reads_one_frame_and_equals_the_full_scene(path: Path | str) -> None:
    data = two_bone_iqm() if path == "synthetic" else Path(path).read_bytes()
    full = Iqm(data, "x.iqm").load_all()
    frames = full.num_frames
    assert frames == len(full.frame_names)  # counted from the anims as the full table
    for f in sorted({0, frames // 2, frames - 1}):
        lazy = Iqm(data, "x.iqm")
        got = lazy.meshes(f)
        # only that frame's channels were decoded, and no section a pose does not need
        for section in ("channels", "frame_channels", "extensions", "comment", "frame_bounds"):
            assert section not in lazy.__dict__, section
        want = [m for _, m in posed_meshes(picked(full.skeletal(), [f]))]
        _same_meshes(got, want)
    with pytest.raises(IndexError):
        Iqm(data, "x.iqm").meshes(frames)


def test_every_cut_of_a_small_file_fails_cleanly() -> None:
    data = two_bone_iqm()
    for cut in range(len(data)):
        with pytest.raises(ModelFormatError):
            Iqm(data[:cut], "cut.iqm").load_all()


def test_fields_and_offsets_name_the_fault() -> None:
    data = _hostile()["joint parent forward"]
    with pytest.raises(ModelFormatError) as got:
        Iqm(data, "x").load_all()
    assert got.value.field == "joints[0].parent"
    assert got.value.offset == IqmReader(two_bone_iqm()).header["ofs_joints"] + 4
    data = _hostile()["vertex array format 9"]
    with pytest.raises(ModelFormatError) as got:
        Iqm(data, "x").load_all()
    assert got.value.field == "vertex_arrays[0].format"
    header = IqmReader(two_bone_iqm()).header
    assert got.value.offset == header["ofs_vertex_arrays"] + 8  # the record's format field
    data = _hostile()["NaN channel offset"]
    with pytest.raises(ModelFormatError) as got:
        Iqm(data, "x").load_all()
    assert got.value.field == "poses[0].channel_offsets"
    assert got.value.offset == header["ofs_poses"] + 8


# -- helpers ---------------------------------------------------------------------------------------


def _validate(files: list[Path]) -> list[dict[str, Any]]:
    if shutil.which("node") is None or not (REPO / "node_modules" / "gltf-validator").is_dir():
        reason = "node or node_modules/gltf-validator missing; run make node"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    proc = subprocess.run(
        ["node", str(REPO / "tools" / "validate_gltf.mjs"), *map(str, files)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    result: list[dict[str, Any]] = json.loads(proc.stdout)
    return result


def test_export_of_the_synthetic_model_validates(tmp_path: Path) -> None:
    m = Iqm(two_bone_iqm(frames=4), str(tmp_path / "bar.iqm"))
    out = tmp_path / "bar.glb"
    export_gltf(scene_of(m), out)
    assert _validate([out])[0]["errors"] == 0


def test_view_page_entry_of_mrfixit() -> None:
    entry, variants = model_parts(str(_mrfixit()), {"skin_dir": None, "game_dir": None})
    assert entry["info"].startswith("mrfixit.iqm: Inter-Quake Model")
    assert [c["name"] for c in entry["clips"]] == ["idle"]
    assert variants[0][0] == "Body.tga" and variants[0][1]()[:4] == b"glTF"


def test_a_signalling_nan_from_the_file_raises_no_numpy_warning() -> None:
    """Found by test_fuzz: a float32 whose bits are a signalling NaN raises the FPU's invalid
    flag when widened (numpy's 'invalid value encountered in cast'); the reader widens
    quietly and the checks refuse the NaN as any other. (The poses' channel offsets: found
    by atheris, 2026-11-28.)"""
    import warnings

    data = two_bone_iqm()
    header = IqmReader(data).header
    at = int(header["ofs_joints"]) + JOINT.fields["translate"][1]
    bad = set_u4(data, at, 0x7F800001)  # translate.x of joint 0: a signalling NaN
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = quakemodels.load(bad)
        assert np.isnan(model.joint_translate[0, 0])
        with pytest.raises(ModelFormatError):
            model.load_all()
    at = int(header["ofs_poses"]) + POSE.fields["channel_offsets"][1]
    bad = set_u4(data, at, 0x7F800001)  # the first channel offset of pose 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ModelFormatError) as e:
            _ = quakemodels.load(bad).pose_parents
        assert e.value.field == "poses[0].channel_offsets"


@pytest.mark.parametrize("path", IQM)
def test_bind_pose_agrees_with_assimp(path: Path, tmp_path: Path) -> None:
    """assimp's IQM importer (Debian's assimp-utils) on every corpus IQM: its bind-pose
    vertex set (welded, Z up turned to Y up: (x, y, z) → (x, z, -y)) within 1e-4 of the
    positions we read, both ways (seen: under 1e-8)."""
    exe = shutil.which("assimp")
    if exe is None:
        if IN_CI:
            pytest.fail("CI=true but assimp is not installed (apt-get install assimp-utils)")
        pytest.skip("assimp is not installed (apt-get install assimp-utils)")
    out = tmp_path / "bind.obj"
    done = subprocess.run(
        [exe, "export", str(path), str(out)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split()[1:4] for line in out.read_text().splitlines() if line.startswith("v ")]
    theirs = np.array(rows, dtype=np.float64)
    ours = np.asarray(quakemodels.load(path, Iqm).positions, np.float64)[:, [0, 2, 1]] * [1, 1, -1]
    d = np.sqrt(((ours[:, None, :] - theirs[None]) ** 2).sum(axis=2))
    assert len(theirs) <= len(ours)  # assimp welds what the file repeats
    assert d.min(axis=1).max() < 1e-4
    assert d.min(axis=0).max() < 1e-4
