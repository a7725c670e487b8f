"""Every model format to every model format: MD3 → MD2 and MD3 → MDL (the rest of the matrix is
tested beside each writer), through ``Md2.from_scene`` / ``Mdl.from_scene`` and ``convert``.

Read-backs go through our readers, the generated Kaitai parsers and vgio (MDL).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, corpus_params, no_corpus
from md3builder import Md3Spec, SurfaceSpec
from md3builder import build as build_md3
from test_writer import assert_same_in_kaitai
from vgio.quake.mdl import Mdl as VgioMdl

from quakemodels import BadValueError, LimitExceededError, Md2, Md3
from quakemodels.cli import main
from quakemodels.core.scene import ExportModel, Surface, Tag
from quakemodels.core.skins import Skin
from quakemodels.formats.md2 import anorms
from quakemodels.formats.md3.write import SurfaceData, TagData
from quakemodels.formats.mdl import Mdl
from quakemodels.formats.mdl.write import QUAKESPASM
from quakemodels.interchange.imported import ImportedMesh
from quakemodels.kaitai.quake_mdl import QuakeMdl
from quakemodels.registry import load, scene

PLAYERS = CORPUS / "q3" / "models" / "players"
PARTS = [
    pytest.param(PLAYERS / player / f"{part}.md3", id=f"{player}-{part}")
    for player in ("human_base", "human_bsuit")
    for part in ("lower", "upper", "head")
]
OAK = CORPUS / "archives" / "cge_jkm_oaktree.pk3" / "models" / "mapobjects" / "oak" / "oak1.md3"


def _md3(path: Path) -> Md3:
    if not path.exists():
        no_corpus(path)
    m = load(path)
    assert isinstance(m, Md3)
    return m


def _corners(m: Md3) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """The MD3's triangle corners over every surface, in surface order: positions (F,3T,3),
    uvs (3T,2), normals (F,3T,3), and the surface of each corner."""
    pos, uv, nor, surface = [], [], [], []
    for k, s in enumerate(m.surfaces):
        flat = np.asarray(s.triangles).reshape(-1)
        pos.append(s.positions[:, flat])
        uv.append(np.asarray(s.texcoords, np.float64)[flat])
        nor.append(s.normals[:, flat])
        surface += [k] * len(flat)
    return np.concatenate(pos, 1), np.concatenate(uv), np.concatenate(nor, 1), surface


def _assert_texcoords(st: np.ndarray, uv: np.ndarray, surface: list[int], size: tuple[int, int]):
    """Each corner's stored pixel is its MD3 uv on the skin grid (within half a pixel), moved by
    whole tiles that are the same for every corner of a surface."""
    diff = st / np.array(size, np.float64) - uv
    tiles = np.rint(diff)
    assert np.all(np.abs(diff - tiles) <= 0.5 / np.array(size) + 1e-6)
    for k in set(surface):
        mine = tiles[np.array(surface) == k]
        assert (mine == mine[0]).all()


def _assert_nearest_anorms(idx: np.ndarray, normals: np.ndarray) -> None:
    """Every stored anorm is the one nearest the MD3's normal (largest dot product)."""
    table = anorms().astype(np.float64)
    dots = normals.astype(np.float64) @ table.T
    chosen = np.take_along_axis(dots, idx[..., None].astype(np.intp), -1)[..., 0]
    assert np.all(chosen >= dots.max(-1) - 1e-6)


@pytest.mark.parametrize("path", [*corpus_params("md3"), *PARTS])
def test_md3_to_md2(path: Path) -> None:
    m = _md3(path)
    result = Md2.from_scene(scene(m))
    data = result.model.to_bytes()
    md2 = Md2.from_bytes(data)
    pos, uv, nor, surface = _corners(m)
    assert md2.num_frames == m.num_frames
    assert md2.num_triangles == sum(len(s.triangles) for s in m.surfaces)
    assert md2.frame_names == [n.encode("ascii", "backslashreplace")[:15].decode() for n in
                               m.frame_names]  # fmt: skip
    # positions: the MD3's (on its 1/64 grid) within half an MD2 step of each frame
    flat = md2.triangles.reshape(-1)
    steps = np.asarray(md2.scales, np.float64)
    assert np.all(np.abs(md2.positions[:, flat] - pos) <= steps[:, None, :] / 2 + 1e-4)
    assert np.all(result.errors <= result.steps / 2 + 1e-9)
    st = md2.texcoords_px[md2.triangle_texcoords.reshape(-1)].astype(np.float64)
    _assert_texcoords(st, uv, surface, (md2.skin_width, md2.skin_height))
    _assert_nearest_anorms(md2.normal_indices[:, flat], nor)
    assert md2.num_vertices <= sum(s.num_vertices for s in m.surfaces)  # welded, never more
    assert_same_in_kaitai(md2)  # the generated parser reads the same, value for value
    assert not [f for f in md2.check("quake2") if f.severity == "error"]


@pytest.mark.parametrize("path", [*corpus_params("md3"), *PARTS])
def test_md3_to_mdl(path: Path) -> None:
    m = _md3(path)
    result = Mdl.from_scene(scene(m), skin_size=(256, 256), limits=QUAKESPASM)
    data = result.model.to_bytes()
    mdl = Mdl.from_bytes(data)
    pos, uv, nor, surface = _corners(m)
    assert (mdl.num_poses, mdl.num_triangles) == (m.num_frames, len(surface) // 3)
    assert mdl.frame_names == [n.encode("ascii", "backslashreplace")[:15].decode() for n in
                               m.frame_names]  # fmt: skip
    flat = mdl.triangles.reshape(-1)
    step = np.array(mdl.header["scale"], np.float64)
    assert np.all(np.abs(mdl.positions[:, flat] - pos) <= step / 2 + 1e-3)
    st = mdl.texcoords_px[mdl.triangle_texcoords.reshape(-1)].astype(np.float64)
    _assert_texcoords(st, uv, surface, (256, 256))
    _assert_nearest_anorms(mdl.normal_indices[:, flat], nor)
    assert not [f for f in mdl.check("quakespasm") if f.severity == "error"]
    # the generated parser
    spec = QuakeMdl.from_bytes(data)
    assert (spec.header.num_verts, spec.header.num_tris, spec.header.num_frames) == (
        mdl.num_vertices,
        mdl.num_triangles,
        mdl.num_poses,
    )
    last = spec.frames[-1].frames[0]
    got = np.array([(v.x, v.y, v.z) for v in last.vertices], np.float64)
    assert np.array_equal(got.astype(np.float32), mdl.positions[-1])
    # vgio
    v = VgioMdl.open(io.BytesIO(data))
    assert (v.number_of_vertexes, v.number_of_triangles, v.number_of_frames) == (
        mdl.num_vertices,
        mdl.num_triangles,
        mdl.num_poses,
    )
    assert [tuple(t.vertexes) for t in v.triangles] == [tuple(t) for t in mdl.triangles.tolist()]
    assert [t.on_seam for t in v.st_vertexes] == [int(o) for o in mdl.on_seam]
    assert [f.name for f in v.frames] == mdl.frame_names


def test_one_tile_outside_0_1_moves_in_and_welding() -> None:
    # two surfaces sharing an edge: texcoords t in 1..2 (Quake III repeats), same normals
    positions = np.array([[[0, 0, 0], [64, 0, 0], [0, 64, 0], [64, 64, 0]]], np.float32)
    uv = np.array([[0.0, 1.0], [1.0, 1.0], [0.0, 2.0], [1.0, 2.0]], np.float32)
    a = SurfaceData("a", positions[:, :3], np.array([[0, 2, 1]]), uv[:3])
    shifted = uv[1:] + np.array([2, 0], np.float32)  # s in 2..3: two tiles over
    b = SurfaceData("b", positions[:, 1:], np.array([[0, 1, 2]]), shifted)
    md3 = Md3.build([a, b], tags=[TagData("tag_x", np.zeros((1, 3)), np.eye(3)[None])]).model
    result = Md2.from_scene(scene(md3), skin_size=(64, 32))
    md2 = result.model
    # the shared edge's vertices are one each: 6 MD3 vertices, 4 MD2 vertices
    assert (md2.num_vertices, md2.num_triangles) == (4, 2)
    st = md2.texcoords_px[md2.triangle_texcoords].tolist()
    assert st == [[[0, 0], [0, 32], [64, 0]], [[64, 0], [0, 32], [64, 32]]]
    assert md2.positions[0, md2.triangles].tolist() == [
        [[0, 0, 0], [0, 64, 0], [64, 0, 0]],
        [[64, 0, 0], [0, 64, 0], [64, 64, 0]],
    ]


def _run(args: list[object], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["convert", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_md3_to_md2_and_mdl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base_path = PLAYERS / "human_base" / "upper.md3"
    base = _md3(base_path)
    out = tmp_path / "upper.md2"
    # four surfaces: a usage error without --merge-surfaces, and nothing written
    for target in (out, tmp_path / "upper.mdl"):
        code, _, err = _run([base_path, target], capsys)
        assert code == 2 and not target.exists()
        assert "has 4 surfaces (u_shoulderpads_base, u_armour_light," in err
        assert "--merge-surfaces" in err
    code, text, _ = _run([base_path, out, "--merge-surfaces"], capsys)
    assert code == 0
    assert "153 frames, 279 vertices, 529 triangles (4 surfaces merged), no skin name" in text
    assert "tags dropped: tag_head, tag_weapon, tag_torso;" in text
    md2 = Md2.from_file(out)
    assert md2.num_triangles == sum(len(s.triangles) for s in base.surfaces) == 529
    # one surface (human_bsuit's upper): no option needed; its 512 x 512 image is halved for
    # the MD2's header, as Quake II refuses one taller than 480 (kept with --no-limits)
    upper_path = PLAYERS / "human_bsuit" / "upper.md3"
    _md3(upper_path)
    code, text, _ = _run([upper_path, out], capsys)
    assert code == 0 and "no skin name (256x256)" in text and "merged" not in text
    md2 = Md2.from_file(out)
    assert (md2.skin_width, md2.skin_height) == (256, 256)
    assert not [f for f in md2.check("quake2") if f.severity == "error"]
    assert _run([upper_path, out, "--no-limits"], capsys)[0] == 0
    assert (Md2.from_file(out).skin_width, Md2.from_file(out).skin_height) == (512, 512)
    # MDL: the 512-pixel skin is taller than Quake's 480 (exit 1, nothing written) ...
    mdl_out = tmp_path / "upper.mdl"
    code, _, err = _run([upper_path, mdl_out], capsys)
    assert code == 1 and not mdl_out.exists()
    assert "512 pixels tall" in err and "--skin-size" in err
    # ... resized with --skin-size, or kept with --no-limits
    code, text, _ = _run([upper_path, mdl_out, "--skin-size", "256x256"], capsys)
    assert code == 0 and "skin from human_bsuit.jpg" in text, text
    mdl = Mdl.from_file(mdl_out)
    assert (mdl.num_poses, mdl.skin_width, mdl.skin_height) == (153, 256, 256)
    assert len(np.unique(mdl.skin_indices)) > 20
    assert not [f for f in mdl.check("quake") if f.severity == "error"]
    big = tmp_path / "big.mdl"
    assert _run([upper_path, big, "--no-limits"], capsys)[0] == 0
    assert Mdl.from_file(big).skin_height == 512
    # --no-clobber: exit 3, the file is kept
    before = mdl_out.read_bytes()
    assert _run([upper_path, mdl_out, "--skin-size", "64x64", "--no-clobber"], capsys)[0] == 3
    assert mdl_out.read_bytes() == before


def test_cli_player_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = PLAYERS / "human_bsuit"
    if not folder.is_dir():
        no_corpus(folder)
    for suffix in (".md2", ".mdl"):
        out = tmp_path / f"player{suffix}"
        code, _, err = _run([folder, out], capsys)
        assert code == 2 and not out.exists()
        assert "is a player" in err and "convert one part" in err
    # a broken MD3 is bad input (exit 1) and writes nothing
    broken = tmp_path / "broken.md3"
    broken.write_bytes((folder / "head.md3").read_bytes()[:200])
    for suffix in (".md2", ".mdl"):
        out = tmp_path / f"broken{suffix}"
        assert _run([broken, out], capsys)[0] == 1
        assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.md3"]


def test_cli_md3_in_a_pk3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not OAK.parent.parent.parent.parent.exists():
        no_corpus(OAK.parent.parent.parent.parent)
    out = tmp_path / "oak.md2"
    code, text, _ = _run([OAK, out, "--merge-surfaces"], capsys)
    assert code == 0, text
    assert "(3 surfaces merged)" in text and "models/mapobjects/oak/oakstamm.tga" in text
    md2 = Md2.from_file(out)
    assert md2.skins == ["models/mapobjects/oak/oakstamm.tga"]
    m = load(OAK)
    assert isinstance(m, Md3)
    assert (md2.num_frames, md2.num_triangles) == (30, 555)
    # the skin found inside the archive gives the MDL its pixels
    mdl_out = tmp_path / "oak.mdl"
    code, text, _ = _run([OAK, mdl_out, "--merge-surfaces", "--skin-size", "128x128"], capsys)
    assert code == 0 and "skin from oakstamm.jpg" in text, text
    assert Mdl.from_file(mdl_out).num_poses == 30


def test_cli_same_format_and_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # MD2 → MD2 is an exact copy
    md3_path = tmp_path / "many.md3"
    frames = 300  # more poses than GLQuake's 256
    t = np.linspace(0, 1, frames, dtype=np.float32)[:, None, None]
    positions = np.array([[0, 0, 0], [32, 0, 0], [0, 32, 0]], np.float32)[None] * (1 + t)
    uv = np.array([[0, 0], [1, 0], [0, 1]], np.float32)
    surface = SurfaceData("s", positions, np.array([[0, 2, 1]]), uv)
    Md3.build([surface], frame_names=[f"f{k}" for k in range(frames)]).model.save(md3_path)
    mdl = tmp_path / "many.mdl"
    code, _, err = _run([md3_path, mdl], capsys)
    assert code == 1 and "300 poses exceed the limit of 256" in err and not mdl.exists()
    code, text, _ = _run([md3_path, mdl, "--no-limits"], capsys)
    assert code == 0 and "300 frames, 3 vertices, 1 triangle, a blank skin" in text
    assert "no tags" in text
    md2 = tmp_path / "many.md2"
    code, text, _ = _run([md3_path, md2], capsys)
    assert code == 0 and Md2.from_file(md2).frame_names[299] == "f299"
    copy = tmp_path / "copy.md2"
    code, text, _ = _run([md2, copy], capsys)
    assert code == 0 and copy.read_bytes() == md2.read_bytes()
    assert "a copy of" in text
    # and the library raises the limit for the API user
    with pytest.raises(LimitExceededError):
        Mdl.from_scene(scene(load(md3_path)))


def test_from_scene_with_a_skin_that_is_no_image_is_bad_input() -> None:
    # a 1-D "skin" used to reach the skin size's shape[1] and escape as a bare IndexError
    md3 = scene(_md3(CORPUS / "md3" / "trem_rifle.md3"))
    with pytest.raises(BadValueError, match=r"a skin image is \(H,W,3\) RGB, got \(5,\)") as e:
        Mdl.from_scene(md3, skins=[np.zeros(5, np.uint8)])
    assert e.value.field == "skins"
    # a given skin size changes nothing: the build still names the bad skin
    with pytest.raises(BadValueError, match=r"got \(5,\)"):
        Mdl.from_scene(md3, skins=[np.zeros(5, np.uint8)], skin_size=(8, 8))


# one tetrahedron, two frames, as a scene surface and as an imported mesh
_POS = np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10]], np.float32)[None] * [[[1]], [[2]]]
_UV = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], np.float32)
_TRIS = np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]])


def _surface(**change: object) -> Surface:
    arrays = dict(positions=_POS, normals=np.ones_like(_POS), uvs=_UV, indices=_TRIS)
    return Surface("s", **{**arrays, **change})  # type: ignore[arg-type]


@pytest.mark.parametrize("convert", [Md2.from_scene, Mdl.from_scene])
@pytest.mark.parametrize(
    ("surfaces", "options", "message"),
    [
        # each of these escaped as numpy's IndexError or ValueError, or wrote a random anorm
        ([_surface(positions=_POS[..., None])], {}, r"surfaces\[0\]\.positions must have 3 dim"),
        ([_surface(indices=_TRIS + (1 << 40))], {}, r"indices\[0\]\[0\]=1099511627776 is outside"),
        ([_surface(indices=_TRIS - 1)], {}, r"surfaces\[0\]\.indices\[0\]\[0\]=-1 is outside"),
        ([_surface(normals=_POS + np.inf)], {}, r"surfaces\[0\]\.normals contain NaN or infinity"),
        ([_surface(normals=_POS[:1])], {}, r"normals must be \(F,N,3\) = \(2, 4, 3\)"),
        ([_surface(uvs=_UV.reshape(-1))], {}, r"surfaces\[0\]\.uvs must have 2 dimensions"),
        (
            [_surface(), _surface(positions=_POS[:1], normals=_POS[:1])],
            {},
            r"the surfaces have \[1, 2\] frames",
        ),
        (
            [_surface(skin=Skin(Path("x.png"), pixels=np.zeros(5, np.uint8)))],
            {},
            r"surfaces\[0\]\.skin is no image: its pixels are \(5,\)",
        ),
        ([_surface()], {"skin_size": (64, 64, 1)}, r"must be \(width, height\), two whole numbers"),
    ],
)
def test_bad_scenes_are_bad_input(
    convert: object, surfaces: list[Surface], options: dict[str, object], message: str
) -> None:
    model = ExportModel("m", surfaces, {"all": range(2)}, frame_names=["a", "b"])
    with pytest.raises(BadValueError, match=message):
        convert(model, **options)  # type: ignore[operator]


@pytest.mark.parametrize("convert", [Md2.from_scene, Mdl.from_scene, Md3.from_scene])
def test_scene_frame_names_that_are_no_text_are_bad_input(convert: object) -> None:
    # name.encode(...) raised a bare AttributeError; bytes are taken as they are
    names: list[object] = [None, "b"]
    model = ExportModel("m", [_surface()], {}, frame_names=names)  # type: ignore[arg-type]
    with pytest.raises(BadValueError, match=r"frame_names\[0\]=None is not text"):
        convert(model)  # type: ignore[operator]
    names[0] = b"bytes"
    assert convert(model).model.frame_names == ["bytes", "b"]  # type: ignore[operator]


def test_a_tag_only_scene_with_bad_origins_is_bad_input() -> None:
    tag = Tag("tag_x", [[0.0], [0.0, 1.0]], np.eye(3)[None])  # type: ignore[arg-type]
    with pytest.raises(BadValueError, match=r"tags\[0\]\.origins: not a numeric array"):
        Md3.from_scene(ExportModel("m", [], {}, tags=[tag]))  # was a bare AttributeError


@pytest.mark.parametrize("convert", [Md2.from_imported, Mdl.from_imported])
@pytest.mark.parametrize(
    ("change", "message"),
    [
        # escaped as IndexError / ValueError; MDL wrote NaN texcoords as a wrapped integer
        ({"indices": _TRIS + 4}, r"mesh\.indices\[0\]\[0\]=4 is outside 0\.\.3"),
        ({"positions": _POS.reshape(-1)}, r"mesh\.positions must have 3 dimensions"),
        ({"uvs": _UV + np.nan}, "texcoords contain NaN or infinity"),
        ({"uvs": _UV[:2]}, r"mesh\.uvs must be \(N,2\) = \(4,2\)"),
        ({"skin_size": (64, float("inf"))}, r"\(width, height\), two whole numbers"),
    ],
)
def test_bad_imported_meshes_are_bad_input(
    convert: object, change: dict[str, object], message: str
) -> None:
    arrays: dict[str, object] = dict(positions=_POS, uvs=_UV, indices=_TRIS)
    mesh = ImportedMesh(**{**arrays, **change}, frame_names=["a", "b"])  # type: ignore[arg-type]
    with pytest.raises(BadValueError, match=message):
        convert(mesh)  # type: ignore[operator]


def test_a_skin_size_may_be_a_numpy_array() -> None:
    # ``skin_size or ...`` asked the array for a truth value: a bare ValueError
    mesh = ImportedMesh(_POS, _UV, _TRIS, ["a", "b"])
    for convert in (Md2.from_imported, Mdl.from_imported):
        model = convert(mesh, skin_size=np.array([64, 32])).model
        assert (model.skin_width, model.skin_height) == (64, 32)


def test_cli_hostile_md3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a shader name that is no MD2 skin name is left out; the conversion goes on
    odd = tmp_path / "odd.md3"
    odd.write_bytes(build_md3(Md3Spec(surfaces=[SurfaceSpec(shaders=["sk\u00efn".encode()])])))
    out = tmp_path / "odd.md2"
    code, text, _ = _run([odd, out], capsys)
    assert code == 0 and "no skin name" in text and "tags dropped: tag_head, tag_weapon" in text
    assert Md2.from_file(out).skins == []
    # NaN texcoords and a model without surfaces are bad input (exit 1), nothing written
    nan = tmp_path / "nan.md3"
    nan.write_bytes(build_md3(Md3Spec(surfaces=[SurfaceSpec(texcoords=[(float("nan"), 0.0)] * 4)])))
    empty = tmp_path / "empty.md3"
    empty.write_bytes(build_md3(Md3Spec(surfaces=[])))
    for bad, message in ((nan, "texcoords contain NaN"), (empty, "has no surfaces")):
        for suffix in (".md2", ".mdl"):
            target = tmp_path / f"bad{suffix}"
            code, _, err = _run([bad, target], capsys)
            assert code == 1 and message in err and not target.exists(), err
