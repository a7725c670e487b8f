"""Textures and stored names reach every convert target (issue 36, item 3).

A glTF's base colour texture (embedded, or a file beside the glTF) goes into an MD2 (a TGA
beside it, named by a game path), an MD3 (shader name = game path, image written) and an
MDL (quantized to the palette); a target with no texture gets one warning. The game paths a
model stores (MD2 skin names, MD3 shader names) travel in material names and ``skin<k>:``
nodes, which Blender keeps: the last tests take corpus models through the real Blender 3.4
(``tools/blender_roundtrip.py``) and back.
"""

from __future__ import annotations

import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import BLENDER_INSTALL, CORPUS, IN_CI, REPO
from gltfbuilder import glb, split_glb
from PIL import Image

from quakemodels.cli import main
from quakemodels.core.palette import default_palette, palette_from_bytes
from quakemodels.errors import QuakeModelsWarning
from quakemodels.formats.md2 import Md2
from quakemodels.formats.md3 import Md3
from quakemodels.formats.mdl import Mdl

INSTALL = BLENDER_INSTALL
BLENDER = shutil.which("blender")
needs_blender = pytest.mark.skipif(
    BLENDER is None and not IN_CI, reason=f"no `blender`: {INSTALL}"
)  # under CI=true the test runs and fails without it


def _image(width: int = 16, height: int = 8, seed: int = 3) -> np.ndarray[Any, Any]:
    """(H,W,3) uint8 of palette colours (indices 1..223, no fullbrights): what an MDL holds
    exactly."""
    pal = default_palette()
    indices = np.random.default_rng(seed).integers(1, 224, (height, width))
    return np.ascontiguousarray(pal[indices])


def _png(pixels: np.ndarray[Any, Any]) -> bytes:
    import io

    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    return buf.getvalue()


def _quad_gltf(
    path: Path,
    image: np.ndarray[Any, Any] | None,
    *,
    material: str | None = "Material",
    uri: str | None = None,
) -> Path:
    """A one-quad glb with UVs covering the image: the image embedded, or named by ``uri``
    (written there when ``uri`` is a plain file name), or no material at all (None)."""
    positions = np.array([[0, 0, 0], [16, 0, 0], [16, 16, 0], [0, 16, 0]], np.float32)
    uvs = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float32)
    indices = np.array([0, 1, 2, 0, 2, 3], np.uint16)
    blob = positions.tobytes() + uvs.tobytes() + indices.tobytes()
    views: list[dict[str, Any]] = [
        {"buffer": 0, "byteOffset": 0, "byteLength": 48},
        {"buffer": 0, "byteOffset": 48, "byteLength": 32},
        {"buffer": 0, "byteOffset": 80, "byteLength": 12},
    ]
    doc: dict[str, Any] = {
        "asset": {"version": "2.0"},
        "nodes": [{"mesh": 0, "name": "quad"}],
        "scenes": [{"nodes": [0]}],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2}]}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
            {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"},
        ],
        "bufferViews": views,
    }
    if image is not None:
        data = _png(image)
        picture: dict[str, Any] = {"name": "picture", "mimeType": "image/png"}
        if uri is None:
            pad = b"\0" * (-len(blob) % 4)
            views.append({"buffer": 0, "byteOffset": len(blob) + len(pad), "byteLength": len(data)})
            picture["bufferView"] = 3
            blob += pad + data
        else:
            picture["uri"] = uri
            if "/" not in uri:
                (path.parent / uri).write_bytes(data)
        doc["images"] = [picture]
        doc["textures"] = [{"source": 0}]
        doc["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
        if material is not None:
            doc["materials"][0]["name"] = material
        doc["meshes"][0]["primitives"][0]["material"] = 0
    doc["buffers"] = [{"byteLength": len(blob)}]
    path.write_bytes(glb(doc, blob))
    return path


def _convert(args: list[Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, list[str]]:
    """Exit code, stdout + stderr, and the QuakeModelsWarnings of one CLI run."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    said = [str(w.message) for w in caught if issubclass(w.category, QuakeModelsWarning)]
    return code, out + err, said


def _tga(path: Path) -> np.ndarray[Any, Any]:
    with Image.open(path) as image:
        assert image.format == "TGA"
        return np.asarray(image.convert("RGB"))


# -- a glTF's texture → MDL, MD2, MD3 --------------------------------------------------------------


def test_textured_gltf_reaches_mdl_md2_and_md3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pixels = _image()
    src = _quad_gltf(tmp_path / "quad.glb", pixels)
    # MDL: the image quantized to the palette (palette colours: exactly)
    mdl = tmp_path / "quad.mdl"
    code, text, said = _convert(["convert", src, mdl], capsys)
    assert code == 0 and said == [], (text, said)
    assert "skin from quad.glb's texture (picture)" in text
    m = Mdl.from_file(mdl)
    assert (m.skin_width, m.skin_height) == (16, 8)
    assert np.array_equal(m.skin_rgb()[0], pixels)
    code, text, _ = _convert(["check", "--engine", "quake", mdl], capsys)
    assert code == 0 and "skin-blank" not in text, text
    # MD2: a TGA beside it, named by its game path below the folder models/
    md2 = tmp_path / "baseq2" / "models" / "quad" / "tris.md2"
    code, text, said = _convert(["convert", src, md2], capsys)
    assert code == 0 and said == [], (text, said)
    assert Md2.from_file(md2).skins == ["models/quad/tris.tga"]
    assert np.array_equal(_tga(md2.with_name("tris.tga")), pixels)
    # MD3: shader name = the image's game path, the image written
    md3 = tmp_path / "baseq3" / "models" / "quad" / "quad.md3"
    code, text, said = _convert(["convert", src, md3], capsys)
    assert code == 0 and said == [], (text, said)
    shaders = [sh.name for s in Md3.from_file(md3).surfaces for sh in s.shaders]
    assert shaders == ["models/quad/quad.tga"]
    assert np.array_equal(_tga(md3.with_name("quad.tga")), pixels)
    code, text, _ = _convert(["check", "--engine", "quake3", md3], capsys)
    assert code == 0 and "shader-empty" not in text, text


def test_a_material_named_by_a_game_path_names_the_skin_and_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pixels = _image(8, 8, seed=9)
    # Blender adds .001 to a repeated material name: the suffix is not part of the path
    src = _quad_gltf(tmp_path / "q.glb", pixels, material="models/crate/wood.tga.001")
    md3 = tmp_path / "out" / "crate.md3"
    assert _convert(["convert", src, md3], capsys)[0] == 0
    assert [sh.name for sh in Md3.from_file(md3).surfaces[0].shaders] == ["models/crate/wood.tga"]
    assert np.array_equal(_tga(md3.with_name("wood.tga")), pixels)
    md2 = tmp_path / "out" / "crate.md2"
    assert _convert(["convert", src, md2], capsys)[0] == 0
    assert Md2.from_file(md2).skins == ["models/crate/wood.tga"]
    # a .png shader name: the PNG the glTF holds is written as it is (ioquake3 reads PNG)
    src = _quad_gltf(tmp_path / "p.glb", pixels, material="models/crate/paint.png")
    md3 = tmp_path / "out" / "paint.md3"
    assert _convert(["convert", src, md3], capsys)[0] == 0
    assert md3.with_name("paint.png").read_bytes() == _png(pixels)
    # Blender's own material names are no game paths: the image's path is stored instead
    src = _quad_gltf(tmp_path / "b.glb", pixels, material="Material.001")
    assert _convert(["convert", src, md2], capsys)[0] == 0
    assert Md2.from_file(md2).skins == ["crate.tga"]
    # ... or --shader's name, the image under its last part
    md3 = tmp_path / "out" / "given.md3"
    assert _convert(["convert", src, md3, "--shader", "models/crate/lid"], capsys)[0] == 0
    assert [sh.name for sh in Md3.from_file(md3).surfaces[0].shaders] == ["models/crate/lid"]
    assert np.array_equal(_tga(md3.with_name("lid.tga")), pixels)


def test_an_image_file_beside_the_gltf_and_skin_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pixels = _image(seed=4)
    src = _quad_gltf(tmp_path / "quad.glb", pixels, uri="tex.png")
    mdl = tmp_path / "quad.mdl"
    code, text, said = _convert(["convert", src, mdl], capsys)
    assert code == 0 and said == [], (text, said)
    assert np.array_equal(Mdl.from_file(mdl).skin_rgb()[0], pixels)
    md2 = tmp_path / "quad.md2"
    assert _convert(["convert", src, md2], capsys)[0] == 0
    assert np.array_equal(_tga(tmp_path / "quad.tga"), pixels)
    # --skin N is the glTF's image N (its help); out of range, the message says what is there
    mdl.unlink()
    code, text, said = _convert(["convert", src, mdl, "--skin", "0"], capsys)
    assert code == 0 and "skin from image 0 of quad.glb (picture)" in text, text
    assert np.array_equal(Mdl.from_file(mdl).skin_rgb()[0], pixels)
    code, text, _ = _convert(["convert", src, tmp_path / "x.mdl", "--skin", "3"], capsys)
    assert (
        code == 2 and "--skin 3: no such image file, and" in text and "has 1 image (0..0)" in text
    )
    assert not (tmp_path / "x.mdl").exists()
    # a uri that leaves the glTF's folder is refused: one warning, a blank skin
    outside = tmp_path / "sub"
    outside.mkdir()
    src = _quad_gltf(outside / "quad.glb", pixels, uri="../tex.png")
    code, text, said = _convert(["convert", src, outside / "quad.mdl"], capsys)
    assert code == 0 and len(said) == 1 and "points outside" in said[0], said
    assert "gets a blank skin" in said[0]


@pytest.mark.parametrize("suffix", [".mdl", ".md2", ".md3"])
def test_no_texture_is_one_warning_and_check_says_so(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _quad_gltf(tmp_path / "bare.glb", None)
    out = tmp_path / "models" / "bare" / f"bare{suffix}"
    code, text, said = _convert(["convert", src, out], capsys)
    assert code == 0, text
    assert len(said) == 1 and "has no base-colour texture" in said[0], said
    assert said[0].startswith(f"{src}: ")
    engine = {".mdl": "quake", ".md2": "quake2", ".md3": "quake3"}[suffix]
    code, text, _ = _convert(["check", "--engine", engine, out], capsys)
    expected = {".mdl": "skin-blank", ".md2": "no-skins", ".md3": "shader-empty"}[suffix]
    assert code == 0 and f"warning[{expected}]" in text, text


# -- names through glTF: material names and skin<k>: nodes ----------------------------------------


def _thirteen_skin_md2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, list[str]]:
    """An MD2 under baseq2/players/guy/ naming 13 skins, the first (guy.tga beside it) a
    texture of palette colours."""
    pixels = _image(32, 16, seed=13)
    src = _quad_gltf(tmp_path / "quad.glb", pixels)
    names = ["players/guy/guy.pcx"] + [f"players/guy/ctf_{k:02d}.pcx" for k in range(1, 13)]
    md2 = tmp_path / "baseq2" / "players" / "guy" / "tris.md2"
    skins = [a for n in names for a in ("--skin", n)]
    assert _convert(["convert", src, md2, *skins], capsys)[0] == 0
    assert md2.with_name("guy.tga").is_file() and Md2.from_file(md2).skins == names
    return md2, names


def test_md2_skin_names_travel_in_the_material_and_skin_nodes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md2, names = _thirteen_skin_md2(tmp_path, capsys)
    glb_path = tmp_path / "guy.glb"
    assert _convert(["export", md2, "-o", glb_path], capsys)[0] == 0
    doc, _ = split_glb(glb_path.read_bytes())
    assert [m["name"] for m in doc["materials"]] == [names[0]]
    assert [n["name"] for n in doc["nodes"] if n["name"].startswith("skin")] == [
        f"skin{k}:{n}" for k, n in enumerate(names[1:], 1)
    ]
    back = tmp_path / "back" / "players" / "guy" / "tris.md2"
    code, text, said = _convert(["convert", glb_path, back], capsys)
    assert code == 0 and said == [], (text, said)
    assert Md2.from_file(back).skins == names
    assert np.array_equal(_tga(back.with_name("guy.tga")), _tga(md2.with_name("guy.tga")))


def test_an_md3_shader_not_found_at_export_keeps_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = CORPUS / "md3" / "trem_rifle.md3"
    if not path.is_file():
        pytest.fail(f"CI=true but {path} is missing") if IN_CI else pytest.skip("no corpus")
    glb_path = tmp_path / "rifle.glb"
    assert _convert(["export", path, "-o", glb_path], capsys)[0] == 0
    doc, _ = split_glb(glb_path.read_bytes())
    assert [m["name"] for m in doc["materials"]] == ["models/tremulous/weapons/rifle/rifle"]
    assert "images" not in doc
    out = tmp_path / "rifle.md3"
    code, text, said = _convert(["convert", glb_path, out], capsys)
    assert code == 0 and said == [], (text, said)
    assert [sh.name for sh in Md3.from_file(out).surfaces[0].shaders] == [
        "models/tremulous/weapons/rifle/rifle"
    ]


# -- the real Blender: export, Blender's default import and export, convert back -------------------


def _through_blender(source: Path, target: Path) -> None:
    if BLENDER is None:
        pytest.fail(f"CI=true but no `blender`: {INSTALL}")
    script = REPO / "tools" / "blender_roundtrip.py"
    done = subprocess.run(
        [BLENDER, "-b", "--factory-startup", "--python", str(script), "--", str(source),
         str(target)],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert target.is_file(), done.stdout[-2000:] + done.stderr[-2000:]


def _corpus(*parts: str) -> Path:
    path = CORPUS.joinpath(*parts)
    if not path.is_file():
        if IN_CI:
            pytest.fail(f"CI=true but {path} is missing")
        pytest.skip(f"corpus not found at {path}")
    return path


@needs_blender
def test_blender_round_trip_keeps_md2_skin_names_and_pixels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md2, names = _thirteen_skin_md2(tmp_path, capsys)
    exported, edited = tmp_path / "guy.glb", tmp_path / "guy_blender.glb"
    assert _convert(["export", md2, "-o", exported], capsys)[0] == 0
    _through_blender(exported, edited)
    back = tmp_path / "back" / "players" / "guy" / "tris.md2"
    code, text, said = _convert(["convert", edited, back], capsys)
    assert code == 0 and said == [], (text, said)
    assert Md2.from_file(back).skins == names
    assert np.array_equal(_tga(back.with_name("guy.tga")), _tga(md2.with_name("guy.tga")))


@needs_blender
@pytest.mark.parametrize(
    ("name", "skin"),
    [
        ("ppm_ratamahatta_weapon.md2", "ppm_ratamahatta_weapon__weapon.pcx"),
        ("ppm_hueteotl_weapon.md2", "ppm_hueteotl_weapon__WEAPON.pcx"),
        ("sauer_pknight_vwep.md2", None),  # two names, no image beside it
    ],
)
def test_blender_round_trip_keeps_corpus_md2_skins(
    name: str, skin: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _corpus("md2", name)
    names = Md2.from_file(path).skins
    exported, edited = tmp_path / "m.glb", tmp_path / "m_blender.glb"
    assert _convert(["export", path, "-o", exported], capsys)[0] == 0
    _through_blender(exported, edited)
    out = tmp_path / "back" / "tris.md2"
    code, text, said = _convert(["convert", edited, out], capsys)
    assert code == 0, text
    assert Md2.from_file(out).skins == names
    if skin is None:
        # the names kept; no image to write, said once
        assert len(said) == 1 and "gets no skin image (its skin names are stored)" in said[0]
        assert sorted(p.name for p in out.parent.iterdir()) == ["tris.md2"]
        return
    assert said == [], said
    written = out.with_name(names[0].rsplit("/", 1)[-1].rsplit(".", 1)[0] + ".tga")
    with Image.open(path.parent / skin) as image:
        assert np.array_equal(_tga(written), np.asarray(image.convert("RGB")))


@needs_blender
@pytest.mark.parametrize(
    ("name", "shaders", "skin"),
    [
        ("assimp_watercan.md3", ["models/mapobjects/kt_utilities/water_can.tga"], "water_can.tga"),
        ("sauer_rocket.md3", ["models/players/model/skin.tga"], None),
        ("trem_rifle.md3", ["models/tremulous/weapons/rifle/rifle"], None),
        ("trem_level0_nonseg.md3", None, "trem_level0_nonseg__level0.jpg"),
    ],
)
def test_blender_round_trip_keeps_md3_shader_names_and_pixels(
    name: str,
    shaders: list[str] | None,
    skin: str | None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _corpus("md3", name)
    exported, edited = tmp_path / "m.glb", tmp_path / "m_blender.glb"
    assert _convert(["export", path, "-o", exported], capsys)[0] == 0
    _through_blender(exported, edited)
    out = tmp_path / "baseq3" / "models" / "thing" / "thing.md3"
    code, text, said = _convert(["convert", edited, out], capsys)
    assert code == 0 and said == [], (text, said)
    stored = [sh.name for s in Md3.from_file(out).surfaces for sh in s.shaders]
    # no shader in the source: the image's game path (below models/)
    assert stored == (shaders or ["models/thing/thing.tga"])
    files = sorted(p.name for p in out.parent.iterdir())
    if skin is None:
        assert files == ["thing.md3"]  # the name kept, no image to write
        return
    written = out.parent / (stored[0].rsplit("/", 1)[-1] if shaders else "thing.tga")
    assert files == sorted(["thing.md3", written.name])
    with Image.open(path.parent / (skin if "__" in skin else f"{path.stem}__{skin}")) as image:
        source = np.asarray(image.convert("RGB")).astype(int)
    got = _tga(written).astype(int)
    assert got.shape == source.shape
    # a PNG Blender re-encodes is lossless; a JPEG it may re-encode: within a few levels
    assert np.abs(got - source).mean() < (3 if skin.endswith(".jpg") else 0.5)


@needs_blender
@pytest.mark.parametrize("name", ["lq_armor.mdl", "lq_player.mdl", "assimp_steg.mdl"])
def test_blender_round_trip_keeps_the_mdl_skin(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _corpus("mdl", name)
    palette = palette_from_bytes(_corpus("mdl", "lq_palette.lmp").read_bytes())
    source = Mdl.from_file(path)
    exported, edited = tmp_path / "m.glb", tmp_path / "m_blender.glb"
    assert _convert(["export", path, "-o", exported], capsys)[0] == 0
    _through_blender(exported, edited)
    out = tmp_path / "back.mdl"
    code, text, said = _convert(["convert", edited, out], capsys)
    assert code == 0 and said == [], (text, said)
    m = Mdl.from_file(out)
    assert (m.skin_width, m.skin_height) == (source.skin_width, source.skin_height)
    # not the blank skin (index 0, black) a conversion wrote before
    lit = source.skin_rgb(palette)[0].sum(axis=-1) > 0
    assert np.count_nonzero(m.skin_rgb(palette)[0].sum(axis=-1)[lit]) == np.count_nonzero(lit) > 0
    want = source.skin_rgb(palette)[0].astype(int)
    got = m.skin_rgb(palette)[0].astype(int)
    # the source is palette colours already: quantized back, the same colours, except the
    # fullbright rows, which a conversion avoids by default (nearest other colour)
    fullbright = source.skin_indices[0] >= 224
    assert np.array_equal(got[~fullbright], want[~fullbright])
    assert np.abs(got - want).mean() < 8
    code, text, _ = _convert(["check", "--engine", "quake", out], capsys)
    assert code == 0 and "skin-blank" not in text, text


@needs_blender
def test_a_mesh_a_modder_adds_in_blender_gets_a_shader_and_its_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _corpus("md3", "trem_rifle.md3")
    exported, edited = tmp_path / "rifle.glb", tmp_path / "rifle_blender.glb"
    assert _convert(["export", path, "-o", exported], capsys)[0] == 0
    pixels = _image(16, 16, seed=21)
    Image.fromarray(pixels).save(tmp_path / "pic.png")
    if BLENDER is None:
        pytest.fail(f"CI=true but no `blender`: {INSTALL}")
    script = REPO / "tools" / "blender_add_mesh.py"
    done = subprocess.run(
        [BLENDER, "-b", "--factory-startup", "--python", str(script), "--", str(exported),
         str(edited), str(tmp_path / "pic.png")],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert edited.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    out = tmp_path / "baseq3" / "models" / "rifle" / "rifle.md3"
    code, text, said = _convert(["convert", edited, out], capsys)
    assert code == 0, text
    shaders = {s.name: [sh.name for sh in s.shaders] for s in Md3.from_file(out).surfaces}
    assert shaders == {
        "rifle": ["models/tremulous/weapons/rifle/rifle"],  # kept through Blender
        "lid": ["models/rifle/rifle_lid.tga"],  # the new mesh's texture, by its game path
        "plain": [],  # no texture, no name: one warning, and check says so
    }
    assert np.array_equal(_tga(out.with_name("rifle_lid.tga")), pixels)
    assert len(said) == 1 and "surface plain has no base-colour texture" in said[0], said
    code, text, _ = _convert(["check", "--engine", "quake3", out], capsys)
    assert code == 0 and "warning[shader-empty]" in text and "'plain'" in text, text
