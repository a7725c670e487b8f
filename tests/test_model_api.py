"""One model API over every mesh format: ``mesh(frame)`` beside ``meshes(frame)``, skin
pictures as ``skin_images``, zero-frame files refused at load, and the magic error naming the
file's own magic (issue 37, item 2)."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import io
import os
import pydoc
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import iqmbuilder
import md2builder
import md3builder
import md5builder
import mdlbuilder
import numpy as np
import numpy.typing as npt
import pytest
from archivebuilder import pak_bytes
from PIL import Image

import quakemodels
from quakemodels import AnimatedModel, BadMagicError, Md2, Md3, Mesh
from quakemodels.cli import main
from quakemodels.core.mesh import SurfaceRange
from quakemodels.core.skins import skin_rgba
from quakemodels.formats.contract import Format, Kind
from quakemodels.formats.md2.scene import scene as md2_scene
from quakemodels.formats.md3.scene import scene as md3_scene
from quakemodels.registry import FORMATS


def test_the_magic_error_names_the_files_magic_and_the_expected_one(tmp_path: Path) -> None:
    path = tmp_path / "x.md2"
    path.write_bytes(md2builder.build())
    with pytest.raises(BadMagicError) as caught:
        quakemodels.load(path, Md3)
    assert str(caught.value) == (
        f"{path} is an MD2 file (magic=b'IDP2' at offset 0), not MD3 (expected magic b'IDP3')"
    )
    assert (caught.value.field, caught.value.offset) == ("magic", 0)
    # an MDL asked for as MD2: the file's IDPO, then the IDP2 asked for
    with pytest.raises(BadMagicError) as caught:
        quakemodels.load(mdlbuilder.build(), Md2)
    assert str(caught.value) == (
        "the data is an MDL file (magic=b'IDPO' at offset 0), not MD2 (expected magic b'IDP2')"
    )
    # no format's magic: the bytes found, and the magic asked for
    with pytest.raises(BadMagicError) as caught:
        quakemodels.load(b"RIFF" + bytes(200), Md2)
    assert str(caught.value) == (
        "the data is no known format (magic=b'RIFF' at offset 0), not MD2 (expected magic b'IDP2')"
    )


# -- mesh(frame) on every model ----------------------------------------------------------------


def sample(fmt: Format, folder: Path) -> Any:
    """A small real model of the mesh format ``fmt``, from the tests' builders (an MD5 with
    its animation beside it, so that it has frames past the rest pose)."""
    if fmt.name == "md5":
        mesh, anim = md5builder.two_bone()
        (folder / "arm.md5mesh").write_bytes(mesh)
        (folder / "bend.md5anim").write_bytes(anim)
        return quakemodels.load(folder / "arm.md5mesh")
    made = {
        "md2": md2builder.build,
        "md3": md3builder.build,
        "mdl": mdlbuilder.build,
        "iqm": iqmbuilder.two_bone_iqm,
    }
    assert fmt.name in made, f"a new mesh format {fmt.name!r}: give it a sample here"
    path = folder / f"sample{fmt.suffixes[0]}"
    path.write_bytes(made[fmt.name]())
    return quakemodels.load(path)


MESH_FORMATS = [f for f in FORMATS if f.kind is Kind.MESH]


def protocol_members() -> set[str]:
    """The names :class:`AnimatedModel` declares (methods, properties, attributes)."""
    return {n for n in vars(AnimatedModel) if not n.startswith("_")} | set(
        AnimatedModel.__annotations__
    )


def test_the_protocol_lists_mesh_beside_meshes() -> None:
    assert {"mesh", "meshes", "num_frames", "check", "export"} <= protocol_members()


@pytest.mark.parametrize("fmt", MESH_FORMATS, ids=lambda f: f.name)
def test_every_mesh_model_is_an_animated_model(fmt: Format, tmp_path: Path) -> None:
    m = sample(fmt, tmp_path)
    assert isinstance(m, fmt.model) and isinstance(m, AnimatedModel)
    for name in protocol_members():
        assert hasattr(m, name), f"{fmt.name}: no {name}"
    assert m.num_frames >= 1 and len(m.frame_names) == m.num_frames


@pytest.mark.parametrize("fmt", MESH_FORMATS, ids=lambda f: f.name)
def test_mesh_is_every_surface_merged(fmt: Format, tmp_path: Path) -> None:
    m = sample(fmt, tmp_path)
    last = m.num_frames - 1
    parts = m.meshes(last)
    one = m.mesh(last)
    assert isinstance(one, Mesh)
    # the surfaces' vertices one after another, their triangles offset by the vertices before
    starts = np.cumsum([0, *(len(p.positions) for p in parts)])
    assert np.array_equal(one.positions, np.concatenate([p.positions for p in parts]))
    assert np.array_equal(one.uvs, np.concatenate([p.uvs for p in parts]))
    assert np.array_equal(
        one.indices, np.concatenate([p.indices + s for p, s in zip(parts, starts, strict=False)])
    )
    if fmt.name in ("md2", "mdl"):  # one surface by format: no ranges to give
        assert one.surfaces == ()
    else:  # a merged mesh lists every surface's rows, even one
        assert [(r.vertices, r.triangles) for r in one.surfaces] == [
            (
                range(starts[k], starts[k + 1]),
                range(
                    sum(len(p.indices) for p in parts[:k]),
                    sum(len(p.indices) for p in parts[: k + 1]),
                ),
            )
            for k in range(len(parts))
        ]
    # negative frames count from the end; one past the last is a programming error
    assert np.array_equal(m.mesh(-1).positions, one.positions)
    with pytest.raises(IndexError, match=f"frame {m.num_frames} "):
        m.mesh(m.num_frames)


def test_md3_mesh_is_its_two_surfaces_merged() -> None:
    m = quakemodels.load(md3builder.build(), Md3)
    one = m.mesh(1)
    # frame 1 of the builder's surfaces (both alike): x, y, z in units of 1/64
    frame1 = np.array([(0, 0, 64), (128, 0, 0), (64, 64, 0), (7, -7, 1)], np.float32) / 64
    assert np.array_equal(one.positions, np.concatenate([frame1, frame1]))
    uvs = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.25]]
    assert one.uvs.tolist() == uvs + uvs
    # the stored (0,1,2), (0,2,3) turned counter-clockwise, the head's after the body's four
    assert one.indices.tolist() == [[0, 2, 1], [0, 3, 2], [4, 6, 5], [4, 7, 6]]
    assert one.vertex_ids.tolist() == list(range(8))
    assert one.surfaces == (
        SurfaceRange("body", range(0, 4), range(0, 2)),
        SurfaceRange("head", range(4, 8), range(2, 4)),
    )
    assert repr(one) == "<Mesh: 8 vertices, 4 triangles, 2 surfaces>"
    assert np.array_equal(one.normals, np.concatenate([s.normals[1] for s in m.surfaces]))


def test_an_md3_of_tags_only_gives_an_empty_mesh() -> None:
    m = quakemodels.load(md3builder.build(md3builder.Md3Spec(surfaces=[])), Md3)
    one = m.mesh(0)
    assert one.positions.shape == (0, 3) and one.indices.shape == (0, 3)
    assert one.uvs.shape == (0, 2) and one.surfaces == ()


# -- zero frames ---------------------------------------------------------------------------------


def zero_frame_files() -> list[Any]:
    """(name, bytes, offset of num_frames): an MD2, an MD3 and an MDL whose header says 0
    frames."""
    return [
        pytest.param(
            "x.md2", md2builder.set_header(md2builder.build(), "num_frames", 0), 40, id="md2"
        ),
        pytest.param(
            "x.md3", md3builder.set_header(md3builder.build(), "num_frames", 0), 76, id="md3"
        ),
        pytest.param(
            "x.mdl", mdlbuilder.set_header(mdlbuilder.build(), "num_frames", 0), 68, id="mdl"
        ),
    ]


@pytest.mark.parametrize(("name", "data", "offset"), zero_frame_files())
def test_zero_frames_are_refused_at_load(
    name: str, data: bytes, offset: int, tmp_path: Path
) -> None:
    # Quake II's Mod_LoadAliasModel: "model %s has no frames" (ERR_DROP); Quake's: "Invalid #
    # of frames"; Quake III's R_LoadMD3 and Q2PRO's: frames 1..1024.
    with pytest.raises(quakemodels.ModelFormatError) as caught:
        quakemodels.load(data)
    assert (caught.value.field, caught.value.offset) == ("num_frames", offset)
    assert f"num_frames=0 at offset {offset}" in str(caught.value)
    # check reports it as the load error, and info no longer calls the file valid
    findings = quakemodels.check_model(data)
    assert [(f.severity, f.field, f.offset) for f in findings] == [("error", "num_frames", offset)]
    path = tmp_path / name
    path.write_bytes(data)
    run = subprocess.run(
        [sys.executable, "-m", "quakemodels", "info", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(quakemodels.__file__).parent.parent)},
    )
    assert run.returncode == 1 and run.stdout == ""
    assert f"num_frames=0 at offset {offset}" in run.stderr


# -- skin_images ---------------------------------------------------------------------------------


def paletted_pcx(path: Path, indices: npt.NDArray[np.uint8], palette: list[int]) -> None:
    """An 8-bit PCX with a 256-colour palette, written by Pillow (an independent encoder)."""
    image = Image.fromarray(indices, mode="P")
    image.putpalette(palette)
    image.save(path, format="PCX")


PALETTE = [0, 0, 0, 255, 0, 0, 0, 128, 255, 250, 250, 10] + [7] * (3 * 252)
INDICES = np.array([[0, 1, 2], [3, 2, 1]], np.uint8)
# the PCX's pixels as RGBA: each index's palette colour, opaque
PCX_RGBA = np.array(
    [
        [[0, 0, 0, 255], [255, 0, 0, 255], [0, 128, 255, 255]],
        [[250, 250, 10, 255], [0, 128, 255, 255], [255, 0, 0, 255]],
    ],
    np.uint8,
)
GLOW = np.array([[[10, 20, 30, 0], [40, 50, 60, 128]], [[1, 2, 3, 255], [9, 9, 9, 64]]], np.uint8)


def test_md2_skin_images_one_per_name_none_where_missing(tmp_path: Path) -> None:
    folder = tmp_path / "models" / "x"
    folder.mkdir(parents=True)
    names = [b"models/x/skin.pcx", b"models/x/nothere.pcx", b"models/x/GLOW.png"]
    (folder / "tris.md2").write_bytes(md2builder.build(md2builder.Md2Spec(skins=names)))
    paletted_pcx(folder / "skin.pcx", INDICES, PALETTE)
    Image.fromarray(GLOW, mode="RGBA").save(folder / "glow.png")  # matched case-insensitively
    m = quakemodels.load(folder / "tris.md2", Md2)
    assert "skin_images" not in vars(m)  # lazy: nothing looked up at load
    images = m.skin_images
    assert len(images) == len(m.skins) == 3
    assert images[0] is not None and images[2] is not None and images[1] is None
    assert images[0].dtype == np.uint8 and np.array_equal(images[0], PCX_RGBA)
    assert np.array_equal(images[2], GLOW)
    assert not images[0].flags.writeable
    # cached: a picture added later is not seen, and the same list comes back
    paletted_pcx(folder / "nothere.pcx", INDICES, PALETTE)
    assert m.skin_images is images and m.skin_images[1] is None
    # the export's texture is the first name's picture, the same pixels
    exported = md2_scene(m).surfaces[0].skin
    assert exported is not None and np.array_equal(skin_rgba(exported), images[0])


def test_skin_images_refuse_unsafe_names_and_find_nothing_for_bytes(tmp_path: Path) -> None:
    data = md2builder.build(md2builder.Md2Spec(skins=[b"../../etc/passwd"]))
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "tris.md2").write_bytes(data)
    m = quakemodels.load(tmp_path / "a" / "tris.md2", Md2)
    with pytest.warns(quakemodels.QuakeModelsWarning) as caught:
        assert m.skin_images == [None]
    assert [str(w.message) for w in caught] == [
        "skin name '../../etc/passwd' has a '..' component that leaves the skin folder; refused",
        "every skin name was refused; no texture",
    ]
    assert quakemodels.load(md2builder.build(), Md2).skin_images == [None]  # no folder


def test_md3_skin_images_one_per_surface(tmp_path: Path) -> None:
    folder = tmp_path / "models" / "test"
    folder.mkdir(parents=True)
    (folder / "test.md3").write_bytes(md3builder.build())
    # body's shader "models/test/skin" has no extension: found as skin.tga; head has none
    Image.fromarray(PCX_RGBA[..., :3], mode="RGB").save(folder / "skin.tga")
    Image.fromarray(GLOW, mode="RGBA").save(folder / "unrelated.png")
    m = quakemodels.load(folder / "test.md3", Md3)
    images = m.skin_images
    assert [s.name for s in m.surfaces] == [r.name for r in m.mesh(0).surfaces] == ["body", "head"]
    assert len(images) == 2 and images[0] is not None and images[1] is None
    assert np.array_equal(images[0], PCX_RGBA)
    # as the export textures each surface
    exported = [s.skin for s in md3_scene(m).surfaces]
    assert exported[1] is None and exported[0] is not None
    assert np.array_equal(skin_rgba(exported[0]), images[0])


def test_md5_and_iqm_skin_images_come_from_material_names(tmp_path: Path) -> None:
    mesh, _ = md5builder.two_bone()
    (tmp_path / "arm.md5mesh").write_bytes(mesh)
    (tmp_path / "bar.iqm").write_bytes(iqmbuilder.two_bone_iqm())
    assert quakemodels.load(tmp_path / "arm.md5mesh").skin_images == [None]
    # shader "models/arm/skin.tga" and material "models/bar/bar.tga", found by their tails
    Image.fromarray(GLOW, mode="RGBA").save(tmp_path / "skin.tga")
    Image.fromarray(PCX_RGBA[..., :3], mode="RGB").save(tmp_path / "bar.tga")
    md5 = quakemodels.load(tmp_path / "arm.md5mesh")
    iqm = quakemodels.load(tmp_path / "bar.iqm")
    assert len(md5.skin_images) == 1 and np.array_equal(md5.skin_images[0], GLOW)
    assert len(iqm.skin_images) == 1 and np.array_equal(iqm.skin_images[0], PCX_RGBA)


def expected_skin_count(m: Any) -> int:
    """How many pictures each format gives: per stored name, per surface or per image."""
    if isinstance(m, Md2):
        return len(m.skins)
    if isinstance(m, quakemodels.Mdl):
        return m.num_skin_images
    return max(len(m.mesh(0).surfaces), 1)


@pytest.mark.parametrize("fmt", MESH_FORMATS, ids=lambda f: f.name)
def test_every_mesh_model_gives_rgba_skin_images(fmt: Format, tmp_path: Path) -> None:
    m = sample(fmt, tmp_path)
    assert "skin_images" not in vars(m)  # lazy: looked up on first access only
    images = m.skin_images
    assert isinstance(images, list) and len(images) == expected_skin_count(m) >= 1
    for image in images:
        assert image is None or (image.dtype == np.uint8 and image.shape[2:] == (4,))
    assert m.skin_images is images


# -- help() and docstrings -----------------------------------------------------------------------

MODEL_CLASSES = [f.model for f in FORMATS]
ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc):`~?([^`]+)`")
DOTTED = re.compile(r"\bquakemodels(?:\.[A-Za-z_]\w*)+")


def public_members(cls: type) -> list[tuple[str, Any]]:
    """(name, the raw class attribute) of every public method, property and descriptor."""
    out = []
    for name in dir(cls):
        raw = inspect.getattr_static(cls, name)
        if name.startswith("_") or isinstance(raw, (int, float, str, bytes, tuple, dict, list)):
            continue
        if raw is None or isinstance(raw, type):
            continue
        out.append((name, raw))
    return out


def doc_of(raw: Any) -> str:
    if isinstance(raw, property):
        return raw.__doc__ or ""
    return getattr(getattr(raw, "__func__", raw), "__doc__", None) or ""


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda c: c.__name__)
def test_help_documents_every_public_member(cls: type) -> None:
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    assert cls.__doc__ and cls.__doc__.split("\n")[0] in text
    undocumented = [name for name, raw in public_members(cls) if not doc_of(raw).strip()]
    assert undocumented == [], f"{cls.__name__}: no docstring on {undocumented}"
    if cls in {f.model for f in MESH_FORMATS}:  # help() shows the one model API, documented
        for name in ("mesh", "meshes", "skin_images", "export", "check"):
            assert f"\n |  {name}" in text, f"{cls.__name__}: help() does not show {name}"


def resolves(target: str, module: str, cls: type) -> bool:
    """Whether a docstring's reference ``target`` names something that exists: a dotted
    ``quakemodels.`` path, a path relative to ``module``'s package (``.write.build``), or a
    name in ``module``, on ``cls`` (set in a method as ``self.<name>`` too) or in the package's
    public names, with attributes after it."""
    target = target.removesuffix("()")
    if target.startswith("."):
        target = module.rsplit(".", 1)[0] + target
    if target.startswith("quakemodels"):
        parts = target.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: Any = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            return all_attributes(found, parts[cut:])
        return False
    head, *rest = target.split(".")
    spaces = [vars(sys.modules[module]), {n: getattr(cls, n) for n in dir(cls)}, vars(quakemodels)]
    for space in spaces:
        if head in space:
            return all_attributes(space[head], rest)
    sources = (inspect.getsource(c) for c in cls.__mro__ if c.__module__.startswith("quakemodels"))
    return not rest and any(re.search(rf"self\.{head}\b[^=\n]*=", s) for s in sources)


def all_attributes(found: Any, names: list[str]) -> bool:
    for name in names:
        if not hasattr(found, name):
            return False
        found = getattr(found, name)
    return True


@pytest.mark.parametrize("cls", MODEL_CLASSES, ids=lambda c: c.__name__)
def test_docstrings_point_to_what_exists(cls: type) -> None:
    items = [("", cls, cls.__doc__ or "")]
    for name, raw in public_members(cls):
        func = raw.fget if isinstance(raw, property) else getattr(raw, "__func__", raw)
        items.append((name, getattr(func, "func", func), doc_of(raw)))
    broken = []
    for name, owner, doc in items:
        module = getattr(owner, "__module__", None) or cls.__module__
        targets = ROLE.findall(doc) + DOTTED.findall(doc)
        broken += [(name, t) for t in targets if not resolves(t.rstrip("."), module, cls)]
    assert broken == []


def test_the_old_dangling_reference_is_gone() -> None:
    # Md2.skins said "see quakemodels.skins", a module that does not exist
    assert importlib.util.find_spec("quakemodels.skins") is None
    assert "quakemodels.skins" not in (Md2.skins.__doc__ or "")
    assert resolves("quakemodels.core.skins.find_skin", "quakemodels", Md2)
    assert not resolves("quakemodels.skins", "quakemodels", Md2)


def test_an_md3_of_one_surface_still_names_it() -> None:
    spec = md3builder.Md3Spec(surfaces=[md3builder.SurfaceSpec()])
    m = quakemodels.load(md3builder.build(spec), Md3)
    part, one = m.meshes(0)[0], m.mesh(0)
    assert one.surfaces == (SurfaceRange("body", range(0, 4), range(0, 2)),)
    assert np.array_equal(one.positions, part.positions)
    assert one.indices.tolist() == part.indices.tolist() == [[0, 2, 1], [0, 3, 2]]
    assert not (one.positions.flags.writeable or one.indices.flags.writeable)


# -- a player is a model like the others (issue 37 item 2) ------------------------------------


def test_a_player_is_a_model_with_the_same_api(tmp_path: Path) -> None:
    """load(folder) gives a Player that is an AnimatedModel: animations of the same type as
    an MD2's (name -> range of the assembled scene's frames), mesh/meshes of that scene, its
    skin pictures, bounds, check and export; the cfg's rows stay on ``config``."""
    from test_q3player import _load

    player = _load("human_bsuit")
    assert isinstance(player, AnimatedModel) and isinstance(player, quakemodels.Player)
    clips = player.animations
    assert all(isinstance(r, range) for r in clips.values())
    assert list(clips) == ["stand", *(c.name for c in player.config)]
    assert player.num_frames == len(player.frame_names) == max(r.stop for r in clips.values())
    run = clips["LEGS_RUN"]
    assert len(run) == player.config["LEGS_RUN"].num_frames
    # mesh(frame): the scene's frame, every surface of the three parts, merged in order
    scene = player.scene(frames=[run.start + 2])
    mesh = player.mesh(run.start + 2)
    want = np.concatenate([s.positions[0] for s in scene.surfaces])
    assert np.array_equal(mesh.positions, want)
    assert [r.name for r in mesh.surfaces] == [s.name for s in scene.surfaces]
    assert len(player.meshes(run.start + 2)) == len(scene.surfaces)
    assert np.array_equal(
        player.meshes(-1)[0].positions, player.meshes(player.num_frames - 1)[0].positions
    )
    with pytest.raises(IndexError):
        player.mesh(player.num_frames)
    lo, hi = player.bounds
    assert np.all(lo <= mesh.positions.min(axis=0)) and np.all(hi >= mesh.positions.max(axis=0))
    assert not (lo.flags.writeable or hi.flags.writeable) and player.bounds is player.bounds
    images = player.skin_images
    assert len(images) == len(mesh.surfaces) and player.skin_images is images
    found = [i for i in images if i is not None]
    assert found and all(i.ndim == 3 and i.shape[2] == 4 and i.dtype == np.uint8 for i in found)
    assert isinstance(player.check("quake3"), list)
    # export: a glTF keeps the parts on their tags (the same bytes as the CLI's), OBJ a frame
    glb = tmp_path / "p.glb"
    assert player.export(glb) == [glb]
    cli = tmp_path / "cli.glb"
    assert main(["export", str(player.folder), "-o", str(cli), "-q"]) == 0
    assert glb.read_bytes() == cli.read_bytes()
    obj = player.export(tmp_path / "p.obj", frame=run.start)
    assert obj[0].suffix == ".obj" and obj[0].read_text().count("\nv ") == len(
        player.mesh(run.start).positions
    )
    clip_glb = player.export(tmp_path / "run.glb", clip="LEGS_RUN")[0]
    assert clip_glb.stat().st_size > 0


def test_a_model_in_a_pak_finds_its_skin_in_the_pak(tmp_path: Path) -> None:
    pcx = io.BytesIO()
    image = Image.fromarray(INDICES, mode="P")
    image.putpalette(PALETTE)
    image.save(pcx, format="PCX")
    files = [
        ("models/a/tris.md2", md2builder.build(md2builder.Md2Spec(skins=[b"models/a/skin.pcx"]))),
        ("models/a/skin.pcx", pcx.getvalue()),
    ]
    (tmp_path / "pak0.pak").write_bytes(pak_bytes(files))
    m = quakemodels.load(tmp_path / "pak0.pak" / "models" / "a" / "tris.md2", Md2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # found through the pak, as the engine finds it
        images = m.skin_images
    assert len(images) == 1 and images[0] is not None
    assert np.array_equal(images[0], PCX_RGBA)


def test_every_dotted_name_the_package_and_its_docs_give_exists() -> None:
    # "see quakemodels.skins" in Md2.skins was one; the sources (generated parsers aside),
    # README.md and docs/ name quakemodels.<...> paths a reader can follow
    root = Path(quakemodels.__file__).parent
    texts = [p for p in root.rglob("*.py") if "kaitai" not in p.relative_to(root).parts]
    repo = root.parent.parent
    texts += [repo / "README.md", *sorted((repo / "docs").rglob("*.md"))]
    dangling = sorted(
        {
            (path.name, ref.rstrip("."))
            for path in texts
            for ref in DOTTED.findall(path.read_text(encoding="utf-8"))
            if not resolves(ref.rstrip("."), "quakemodels", Md2)
        }
    )
    assert dangling == []
