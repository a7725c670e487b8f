"""Exports: glTF against the Khronos validator and three.js, OBJ content, the renderer's
z-buffer, skin lookup security and fallbacks, atomic output and the batch CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pygltflib
import pytest
from conftest import (
    CORPUS,
    IN_CI,
    REPO,
    corpus_files,
    corpus_models,
    corpus_params,
)
from md2builder import Md2Spec, build
from PIL import Image

import quakemodels
from quakemodels import Md2, QuakeModelsWarning
from quakemodels.cli import main
from quakemodels.cli.batch import expand_tree
from quakemodels.cli.export import output_names
from quakemodels.core.scene import Y_UP, to_y_up
from quakemodels.core.skins import find_skin
from quakemodels.interchange import render as rnd
from quakemodels.interchange.gltf_write import export_gltf
from quakemodels.interchange.obj_write import export_obj, export_obj_clip
from quakemodels.registry import scene as from_model

NODE_TOOLS = ("gltf-validator", "three")


def _node_ready() -> None:
    missing = [m for m in NODE_TOOLS if not (REPO / "node_modules" / m).is_dir()]
    if shutil.which("node") is None or missing:
        reason = f"node or node_modules ({', '.join(missing) or 'node'}) missing; run make node"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)


def _node_json(script: str, files: list[Path]) -> list[dict[str, Any]]:
    """Run a tools/*.mjs script once over ``files``; its JSON report."""
    _node_ready()
    proc = subprocess.run(
        ["node", str(REPO / "tools" / script), *map(str, files)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    result: list[dict[str, Any]] = json.loads(proc.stdout)
    return result


def _pcx(path: Path, color: tuple[int, int, int] = (200, 40, 40), size: int = 8) -> Path:
    Image.new("RGB", (size, size), color).save(path, format="PCX")
    return path


# -- corpus: Khronos validator and three.js ------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every corpus MD2 (and MD3) exported to .glb, plus one .gltf; name → path."""
    out = tmp_path_factory.mktemp("glb")
    files = corpus_files("md2") + corpus_files("md3")
    if not files:
        pytest.skip(f"corpus not found at {CORPUS} (set CI=true to require it)")
    exported: dict[str, Path] = {}
    for path in files:
        target = out / f"{path.stem}.{path.suffix[1:]}.glb"
        export_gltf(from_model(quakemodels.load(path)), target)
        exported[path.name] = target
    first = corpus_files("md2")[0]
    target = out / f"{first.stem}.gltf"
    export_gltf(from_model(quakemodels.load(first)), target)
    exported[first.name + ".gltf"] = target
    return exported


@pytest.fixture(scope="module")
def validator_reports(corpus_exports: dict[str, Path]) -> dict[str, dict[str, Any]]:
    reports = _node_json("validate_gltf.mjs", list(corpus_exports.values()))
    by_file = {r["file"]: r for r in reports}
    return {name: by_file[str(p)] for name, p in corpus_exports.items()}


@pytest.fixture(scope="module")
def threejs_reports(corpus_exports: dict[str, Path]) -> dict[str, dict[str, Any]]:
    files = [p for p in corpus_exports.values() if p.suffix == ".glb"]
    reports = _node_json("threejs_gltf.mjs", files)
    by_file = {r["file"]: r for r in reports}
    return {name: by_file[str(p)] for name, p in corpus_exports.items() if p.suffix == ".glb"}


def _errors(report: dict[str, Any]) -> list[str]:
    return [
        f"{m['code']} {m['pointer']}: {m['message']}"
        for m in report["messages"]
        if m["severity"] == 0
    ]


@pytest.mark.parametrize("path", corpus_params("md2") + corpus_params("md3"))
def test_khronos_validator_zero_errors(
    path: Path, validator_reports: dict[str, dict[str, Any]]
) -> None:
    report = validator_reports[path.name]
    assert report["errors"] == 0, _errors(report)
    assert report["warnings"] == 0, report["messages"]


def test_gltf_text_form_validates(validator_reports: dict[str, dict[str, Any]]) -> None:
    [name] = [n for n in validator_reports if n.endswith(".gltf")]
    assert validator_reports[name]["errors"] == 0, _errors(validator_reports[name])


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_threejs_loads_morph_targets_and_clips(
    path: Path, threejs_reports: dict[str, dict[str, Any]]
) -> None:
    m = Md2.from_file(path)
    report = threejs_reports[path.name]
    assert "error" not in report, report.get("error")
    [mesh] = report["meshes"]
    assert mesh["morphTargets"] == m.num_frames
    assert mesh["morphNormals"] == m.num_frames
    assert mesh["influences"] == m.num_frames
    assert mesh["vertices"] == len(m.mesh(0).vertex_ids)
    names = [a["name"] for a in report["animations"]]
    assert names == list(m.animations)
    for anim, frames in zip(report["animations"], m.animations.values(), strict=True):
        assert anim["duration"] == pytest.approx((len(frames) - 1) / 10, abs=1e-6)
    # three.js's mixer at half a frame into the first clip: LINEAR weights blend its first two
    # frames half and half, as Quake II lerps them
    first = next(iter(m.animations.values()))
    sampled = dict(report["sampled"]["influences"])
    if len(first) > 1:
        assert sampled.keys() == {first[0], first[1]}
        assert sampled[first[0]] == pytest.approx(0.5, abs=1e-6)
        assert sampled[first[1]] == pytest.approx(0.5, abs=1e-6)
    else:
        assert sampled == {first[0]: pytest.approx(1.0)}
    # the corpus keeps each model's skin beside it as <model>__<skin>
    has_skin = any(
        p.name.lower().startswith(path.stem.lower() + "__") for p in path.parent.iterdir()
    )
    assert report["textures"] == (1 if has_skin else 0)


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_threejs_loads_md3_surfaces_and_tags(
    path: Path, threejs_reports: dict[str, dict[str, Any]]
) -> None:
    m = quakemodels.load(path)
    report = threejs_reports[path.name]
    assert "error" not in report, report.get("error")
    assert [x["name"] for x in report["meshes"]] == [s.name for s in m.surfaces]
    assert all(x["morphTargets"] == m.num_frames for x in report["meshes"])
    [anim] = report["animations"]
    assert anim["duration"] == pytest.approx((m.num_frames - 1) / 10, abs=1e-5)
    # one weights track per surface, translation + rotation per tag
    assert anim["tracks"] == len(m.surfaces) + 2 * len(m.tags.names)


@pytest.mark.parametrize("path", corpus_params("md2")[:3])
def test_glb_geometry_is_the_models(path: Path, corpus_exports: dict[str, Path]) -> None:
    """Base POSITION is frame 0 rotated to Y-up; base + target f is frame f."""
    m = Md2.from_file(path)
    doc = pygltflib.GLTF2().load_binary(str(corpus_exports[path.name]))
    blob = doc.binary_blob()

    def read(index: int, width: int = 3) -> np.ndarray:
        acc = doc.accessors[index]
        view = doc.bufferViews[acc.bufferView]
        start = (view.byteOffset or 0) + (acc.byteOffset or 0)
        data = np.frombuffer(blob, "<f4", count=acc.count * width, offset=start)
        return data.reshape(-1, width)

    prim = doc.meshes[0].primitives[0]
    vids = m.mesh(0).vertex_ids
    base = read(prim.attributes.POSITION)
    quake = m.positions[:, vids]
    np.testing.assert_array_equal(base[:, 0], quake[0][:, 1])  # glTF x = Quake y (left)
    np.testing.assert_array_equal(base[:, 1], quake[0][:, 2])  # glTF y = Quake z (up)
    np.testing.assert_array_equal(base[:, 2], quake[0][:, 0])  # glTF z = Quake x (front)
    # glTF's UV origin is the image's top-left, as MD2's (s / w, t / h): no flip
    uv = read(prim.attributes.TEXCOORD_0, 2)
    np.testing.assert_array_equal(
        uv,
        (
            m.texcoords_px[m.mesh(0).texcoord_ids].astype(np.float64)
            / np.array([m.skin_width, m.skin_height], np.float64)
        ).astype(np.float32),
    )
    last = m.num_frames - 1
    moved = base + read(prim.targets[last]["POSITION"])
    np.testing.assert_allclose(moved, to_y_up(quake[last]), atol=1e-4)
    assert doc.meshes[0].extras["targetNames"][last] == m.frame_names[last]


def test_y_up_is_a_rotation_not_a_mirror() -> None:
    assert np.linalg.det(Y_UP.astype(np.float64)) == pytest.approx(1.0)
    np.testing.assert_array_equal(Y_UP @ Y_UP.T, np.eye(3))
    v = np.array([[1.0, 2.0, 3.0]], np.float32)
    np.testing.assert_array_equal(to_y_up(v), v @ Y_UP.T)


def test_cli_export_obj_and_render_every_corpus_file(tmp_path: Path, corpus_dir: Path) -> None:
    # every model file, and each Quake III player folder as one input (its parts are not)
    inputs, _, places = expand_tree([str(corpus_dir)])
    assert len(inputs) == len(corpus_models(corpus_dir)) - 2 * 3 + 2
    files = [Path(p) for p in inputs]
    names = output_names(inputs, places)
    # each output keeps its place in the corpus tree; a player folder is one
    assert names[str(corpus_dir / "md2" / "ppm_drfreak.md2")] == "md2/ppm_drfreak"
    players = corpus_dir / "q3" / "models" / "players"
    assert names[str(players / "human_base")] == "q3/models/players/human_base"
    assert main(["export", str(corpus_dir), "-o", str(tmp_path / "obj"), "--format", "obj"]) == 0
    objs = sorted((tmp_path / "obj").rglob("*.obj"))
    # sprites give no mesh: they export their pictures (PNG and GIF) instead
    meshes = [p for p in inputs if not p.endswith((".spr", ".sp2"))]
    assert sorted(p.relative_to(tmp_path / "obj").with_suffix("").as_posix() for p in objs) == (
        sorted(names[p] for p in meshes)
    )
    for p in set(inputs) - set(meshes):
        assert (tmp_path / "obj" / f"{names[p]}.gif").is_file(), p
    for obj in objs:
        rows = _parse_obj(obj.read_text())
        assert len(rows["v"]) == len(rows["vt"]) == len(rows["vn"]) > 0
        assert len(rows["f"]) > 0
    out = tmp_path / "png"
    assert main(["render", str(corpus_dir), "-o", str(out), "--size", "48x48"]) == 0
    for path in files:
        with Image.open(out / f"{names[str(path)]}.png") as img:
            assert img.size == (48, 48) and _non_background(img) > 20, path.name


def test_model_without_frames_is_refused_at_load(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no frames"):
        Md2.from_file(_model_file(tmp_path, frames=[], triangles=[]))


# -- OBJ -----------------------------------------------------------------------------------------


def _model_file(folder: Path, name: str = "guy.md2", **kw: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(build(Md2Spec(**kw)))
    return path


def _parse_obj(text: str) -> dict[str, list[list[str]]]:
    rows: dict[str, list[list[str]]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, *rest = line.split()
            rows.setdefault(key, []).append(rest)
    return rows


def test_obj_frame_content(tmp_path: Path) -> None:
    src = _model_file(tmp_path / "models" / "test")
    _pcx(src.parent / "skin.pcx")
    m = Md2.from_file(src)
    out = tmp_path / "out"
    out.mkdir()
    export_obj(from_model(m), out / "guy.obj", frame=1)
    rows = _parse_obj((out / "guy.obj").read_text())
    mesh = m.mesh(1)
    v = np.array(rows["v"], dtype=np.float32)
    vt = np.array(rows["vt"], dtype=np.float64)
    vn = np.array(rows["vn"], dtype=np.float32)
    assert v.shape == vn.shape == (len(mesh.positions), 3)
    q = mesh.positions
    np.testing.assert_array_equal(v, np.column_stack([q[:, 1], q[:, 2], q[:, 0]]))
    np.testing.assert_allclose(vn, to_y_up(mesh.normals), atol=0)
    np.testing.assert_allclose(vt[:, 0], mesh.uvs[:, 0], atol=1e-7)
    np.testing.assert_allclose(vt[:, 1], 1.0 - mesh.uvs[:, 1].astype(np.float64), atol=1e-7)
    faces = np.array([[c.split("/") for c in f] for f in rows["f"]], dtype=np.int64)
    assert faces.shape == (m.num_triangles, 3, 3)
    np.testing.assert_array_equal(faces[:, :, 0] - 1, mesh.indices)
    assert (faces[:, :, 0] == faces[:, :, 1]).all() and (faces[:, :, 0] == faces[:, :, 2]).all()
    assert rows["mtllib"] == [["guy.mtl"]]
    mtl = _parse_obj((out / "guy.mtl").read_text())
    assert rows["usemtl"][0] == mtl["newmtl"][0]
    [[texture]] = mtl["map_Kd"]
    with Image.open(out / texture) as img:
        assert img.format == "PNG" and img.getpixel((0, 0)) == (200, 40, 40)


def test_obj_clip_one_file_per_frame(tmp_path: Path) -> None:
    m = Md2.from_file(_model_file(tmp_path))
    assert m.animations == {"stand": range(0, 2)}
    written = export_obj_clip(from_model(m), tmp_path, "stand")
    assert [p.name for p in written] == ["guy_stand_000.obj", "guy_stand_001.obj"]
    for k, p in enumerate(written):
        v = np.array(_parse_obj(p.read_text())["v"], dtype=np.float32)
        np.testing.assert_array_equal(v, to_y_up(m.mesh(k).positions))
    with pytest.raises(KeyError, match="no clip 'run'"):
        export_obj_clip(from_model(m), tmp_path, "run")


# -- rendering -----------------------------------------------------------------------------------


def _quad(x0: float, x1: float, y0: float, y1: float, z: tuple[float, float]) -> np.ndarray:
    """Screen-space quad corners; depth z[0] on the left edge, z[1] on the right."""
    return np.array([[x0, y0, z[0]], [x1, y0, z[1]], [x1, y1, z[1]], [x0, y1, z[0]]], float)


@pytest.mark.parametrize("near_first", [True, False])
def test_zbuffer_keeps_the_nearer_quad(near_first: bool) -> None:
    near = _quad(4, 24, 4, 24, (1.0, 1.0))
    far = _quad(12, 36, 8, 30, (5.0, 5.0))
    quads = [near, far] if near_first else [far, near]
    screen = np.concatenate(quads)
    tris = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
    tri_id, bary = rnd.rasterize(screen, tris, 40, 32)
    owner = np.where(tri_id < 0, -1, tri_id // 2)  # which quad covers each pixel
    near_id = 0 if near_first else 1
    # overlap (x 12..23, y 8..23) belongs to the near quad, whatever the drawing order
    assert (owner[8:24, 12:24] == near_id).all()
    assert (owner[4:24, 4:12] == near_id).all()
    assert (owner[8:30, 24:36] == 1 - near_id).all()
    assert (owner[:, 36:] == -1).all() and (owner[30:, :] == -1).all()
    covered = tri_id >= 0
    np.testing.assert_allclose(bary[covered].sum(axis=1), 1.0, atol=1e-5)


def test_zbuffer_interpolates_depth_per_pixel() -> None:
    # a slanted quad (depth 0 → 10 left to right) through a flat one at depth 5: the slanted
    # one is nearer on the left half only
    slanted = _quad(0, 40, 0, 10, (0.0, 10.0))
    flat = _quad(0, 40, 0, 10, (5.0, 5.0))
    tris = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]])
    tri_id, _ = rnd.rasterize(np.concatenate([flat, slanted]), tris, 40, 10)
    owner = tri_id // 2
    assert (owner[:, :19] == 1).all()
    assert (owner[:, 21:] == 0).all()


def _non_background(img: Image.Image) -> int:
    a = np.asarray(img.convert("RGB")).reshape(-1, 3)
    return int((a != np.array(rnd.BACKGROUND)).any(axis=1).sum())


# The builder's quad winds counter-clockwise seen from above in the file: Quake's front
# (clockwise) faces down, and the renderer culls it from the camera above. This one faces up.
FACING_UP = [(0, 2, 1, 0, 2, 1), (0, 3, 2, 0, 3, 2)]


def test_render_synthetic_model_is_visible(tmp_path: Path) -> None:
    em = from_model(Md2.from_file(_model_file(tmp_path, triangles=FACING_UP)))
    # seen from behind (the builder's own winding) it is culled, as the engines cull it
    down = from_model(Md2.from_file(_model_file(tmp_path / "down")))
    assert _non_background(rnd.render_frame(down, 0, (64, 48))) == 0
    img = rnd.render_frame(em, 0, (64, 48))
    assert img.size == (64, 48)
    assert _non_background(img) > 200  # the quad fills most of the frame
    frames = rnd.render_clip(em, "stand", (32, 32))
    assert len(frames) == 2
    rnd.save_gif(frames, tmp_path / "a.gif")
    with Image.open(tmp_path / "a.gif") as gif:
        assert gif.n_frames == 2 and gif.info["duration"] == 100


@pytest.mark.parametrize("path", corpus_params("md2")[:1])
def test_render_corpus_model_textured(path: Path) -> None:
    em = from_model(Md2.from_file(path))
    img = rnd.render_frame(em, 0, (128, 128))
    assert _non_background(img) > 500
    # textured: many distinct colours, not one grey ramp
    assert len(np.unique(np.asarray(img).reshape(-1, 3), axis=0)) > 100
    sheet = rnd.contact_sheet(em, (64, 64))
    assert sheet.width >= 64 * 4  # 20 clips → a 5-column grid


# -- skins ---------------------------------------------------------------------------------------


def _refused(names: list[str], model: Path, **kw: Any) -> None:
    with pytest.warns(QuakeModelsWarning, match="refused"):
        assert find_skin(names, model, **kw) is None


def test_skin_absolute_path_refused(tmp_path: Path) -> None:
    model = _model_file(tmp_path / "m")
    _pcx(model.parent / "guy.pcx")  # even a valid fallback is not used
    _refused(["/" + str(_pcx(tmp_path / "abs.pcx"))], model)  # one leading slash is dropped
    _refused(["C:\\quake2\\skin.pcx"], model)


def test_skin_dotdot_refused(tmp_path: Path) -> None:
    model = _model_file(tmp_path / "m")
    _pcx(tmp_path / "secret.pcx")
    _refused(["../secret.pcx"], model)
    _refused(["sub\\..\\..\\secret.pcx"], model)


def test_skin_symlink_leaving_root_refused(tmp_path: Path) -> None:
    model = _model_file(tmp_path / "m")
    outside = _pcx(tmp_path / "outside.pcx")
    (model.parent / "skin.pcx").symlink_to(outside)
    _refused(["models/test/skin.pcx"], model)
    # a symlinked folder leading out is caught the same way
    (tmp_path / "elsewhere").mkdir()
    _pcx(tmp_path / "elsewhere" / "w.pcx")
    (model.parent / "players").symlink_to(tmp_path / "elsewhere")
    _refused(["players/w.pcx"], model)
    # and the exporter goes on without a texture
    with pytest.warns(QuakeModelsWarning):
        em = from_model(Md2.from_file(model))
    assert em.surfaces[0].skin is None


def test_skin_symlink_inside_root_allowed(tmp_path: Path) -> None:
    model = _model_file(tmp_path / "m")
    real = _pcx(model.parent / "real.pcx")
    (model.parent / "skin.pcx").symlink_to(real)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        skin = find_skin(["skin.pcx"], model)
    assert skin is not None and skin.path.name == "skin.pcx"


def test_skin_case_insensitive_path_and_skin_dir(tmp_path: Path) -> None:
    base = tmp_path / "baseq2"
    model = _model_file(base / "players" / "hueteotl", "weapon.md2")
    target = _pcx(model.parent / "Weapon.PCX", (1, 2, 3))
    _pcx(model.parent / "other.pcx")
    skin = find_skin(["PLAYERS/Hueteotl/weapon.pcx"], model)  # the tail, in the model's folder
    assert skin is not None and skin.path.resolve() == target.resolve()
    skin = find_skin(["PLAYERS/Hueteotl/weapon.pcx"], model, skin_dir=base)  # the full path
    assert skin is not None and skin.path == base / "players" / "hueteotl" / "Weapon.PCX"
    # another image format with the same name
    target.unlink()
    tga = model.parent / "weapon.tga"
    Image.new("RGB", (4, 4), (9, 9, 9)).save(tga)
    skin = find_skin(["PLAYERS/Hueteotl/weapon.pcx"], model)
    assert skin is not None and skin.path == tga


def test_skin_fallbacks_beside_the_model(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    model = _model_file(folder, "ppm_hueteotl_weapon.md2")
    # corpus naming: <model stem>__<basename of the skin name>, any case
    corpus_style = _pcx(folder / "ppm_hueteotl_weapon__WEAPON.pcx")
    _pcx(folder / "unrelated.pcx")
    skin = find_skin(["PLAYERS/Hueteotl/weapon.pcx"], model)
    assert skin is not None and skin.path == corpus_style
    # <stem>__* single image, whatever the skin name says
    skin = find_skin(["nothing/like/it.pcx"], model)
    assert skin is not None and skin.path == corpus_style
    # <stem>.<image extension> comes before <stem>__*
    stem_png = folder / "ppm_hueteotl_weapon.png"
    Image.new("RGB", (4, 4)).save(stem_png)
    skin = find_skin([], model)
    assert skin is not None and skin.path == stem_png


def test_skin_single_image_fallback_and_ambiguity(tmp_path: Path) -> None:
    model = _model_file(tmp_path / "m")
    only = _pcx(model.parent / "anything.pcx")
    skin = find_skin(["missing.pcx"], model)
    assert skin is not None and skin.path == only
    _pcx(model.parent / "second.pcx")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert find_skin(["missing.pcx"], model) is None  # two candidates: none is guessed


def test_skin_image_decoded_as_rgb(tmp_path: Path) -> None:
    model = _model_file(tmp_path / "m")
    _pcx(model.parent / "skin.pcx", (10, 20, 30))
    skin = find_skin(["models/test/skin.pcx"], model)
    assert skin is not None
    assert isinstance(skin.image, Image.Image)
    assert skin.image.mode == "RGB" and skin.image.getpixel((3, 3)) == (10, 20, 30)


# -- atomic output -------------------------------------------------------------------------------


def _bad_normals_model(folder: Path) -> Path:
    verts = np.array([[0, 0, 0, 5], [255, 0, 0, 200], [255, 255, 0, 5], [0, 255, 0, 5]], np.uint8)
    return _model_file(folder, "bad.md2", frames=[((1, 1, 1), (0, 0, 0), b"a1", verts)])


def test_failed_export_leaves_existing_file_untouched(tmp_path: Path) -> None:
    bad = _bad_normals_model(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    (out / "bad.glb").write_bytes(b"the user's file")
    assert main(["export", str(bad), "-o", str(out / "bad.glb")]) == 1
    assert (out / "bad.glb").read_bytes() == b"the user's file"
    assert sorted(os.listdir(out)) == ["bad.glb"]


def test_interrupted_write_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _model_file(tmp_path / "in")
    out = tmp_path / "out"
    out.mkdir()
    (out / "guy.glb").write_bytes(b"old")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(quakemodels.core.atomic.os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        export_gltf(from_model(Md2.from_file(src)), out / "guy.glb")
    assert (out / "guy.glb").read_bytes() == b"old"
    assert sorted(os.listdir(out)) == ["guy.glb"]


# -- CLI -----------------------------------------------------------------------------------------


def test_batch_export_bad_file_among_good(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = tmp_path / "models"
    _model_file(models, "a.md2")
    _model_file(models / "sub", "b.md2")
    (models / "c.md2").write_bytes(b"IDP2" + b"\0" * 20)  # truncated header
    (models / "notes.txt").write_text("not a model")
    out = tmp_path / "out"
    code = main(["export", str(models), "-o", str(out), "-j", "2"])
    err = capsys.readouterr().err
    assert code == 1
    assert sorted(os.listdir(out)) == ["a.glb", "sub"]  # the tree under models/ is kept
    assert os.listdir(out / "sub") == ["b.glb"]
    assert re.search(r"c\.md2: error: .*header needs 68 bytes", err)
    assert err.rstrip().splitlines()[-1] == "3 files: 2 ok, 1 failed"
    for name in ("a.glb", "sub/b.glb"):
        assert (out / name).read_bytes()[:4] == b"glTF"


def test_batch_glob_missing_and_all_good(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _model_file(tmp_path, "a.md2")
    _model_file(tmp_path, "b.md2")
    out = tmp_path / "o"
    assert main(["export", str(tmp_path / "*.md2"), "-o", str(out), "--format", "obj"]) == 0
    assert sorted(p.name for p in out.glob("*.obj")) == ["a.obj", "b.obj"]
    assert capsys.readouterr().err.rstrip().endswith("2 files: 2 ok, 0 failed")
    assert main(["export", str(tmp_path / "nope.md2"), "-o", str(out)]) == 1
    assert "nope.md2: error: no such file" in capsys.readouterr().err


def test_export_cli_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _model_file(tmp_path)
    one = tmp_path / "one.glb"
    assert main(["export", str(src), "-o", str(one), "--frame", "1"]) == 0
    doc = pygltflib.GLTF2().load_binary(str(one))
    assert len(doc.meshes[0].primitives[0].targets) == 1 and not doc.animations
    clip = tmp_path / "clip.gltf"
    assert main(["export", str(src), "-o", str(clip), "--clip", "stand"]) == 0
    doc = pygltflib.GLTF2().load(str(clip))
    assert [a.name for a in doc.animations] == ["stand"]
    assert main(["export", str(src), "-o", str(tmp_path / "x.glb"), "--clip", "walk"]) == 1
    assert "no clip 'walk'" in capsys.readouterr().err
    # a file name for two models, and a suffix contradicting --format, are usage errors
    _model_file(tmp_path, "second.md2")
    assert main(["export", str(tmp_path / "*.md2"), "-o", str(one)]) == 2
    assert main(["export", str(src), "-o", str(one), "--format", "obj"]) == 2


def test_render_cli(tmp_path: Path) -> None:
    src = _model_file(tmp_path, triangles=FACING_UP)
    assert main(["render", str(src), "-o", str(tmp_path / "f.png"), "--size", "40x30"]) == 0
    with Image.open(tmp_path / "f.png") as img:
        assert img.size == (40, 30) and _non_background(img) > 0
    assert main(["render", str(src), "-o", str(tmp_path / "c.gif"), "--clip", "stand"]) == 0
    with Image.open(tmp_path / "c.gif") as gif:
        assert gif.n_frames == 2
    assert main(["render", str(src), "-o", str(tmp_path / "s"), "--sheet"]) == 0
    assert (tmp_path / "s" / "guy_sheet.png").is_file()
    assert main(["render", str(src), "-o", str(tmp_path / "x.png"), "--size", "big"]) == 2


def test_top_level_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out
    assert "quakemodels export " in out and "quakemodels render " in out
