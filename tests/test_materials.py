"""Materials as the engines draw them: Quake III shader scripts (``cull``, ``alphaFunc``), Quake
II's alpha test, in glTF and OBJ/MTL exports and in the software renderer (back-face culling,
double-sided surfaces, alpha test)."""

from __future__ import annotations

import shutil
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from md2builder import Md2Spec
from md2builder import build as build_md2
from md3builder import Md3Spec, SurfaceSpec
from md3builder import build as build_md3
from PIL import Image

import quakemodels
from quakemodels import QuakeModelsWarning
from quakemodels.core.records import replace
from quakemodels.core.scene import AlphaTest, Material
from quakemodels.core.shaders import ALPHA_FUNCS, ShaderScripts, tokens
from quakemodels.interchange.gltf_write import build_gltf
from quakemodels.interchange.obj_write import export_obj
from quakemodels.registry import scene

# -- shader scripts ------------------------------------------------------------------------------


def _scripts(*texts: str) -> ShaderScripts:
    return ShaderScripts([(f"scripts/{i}.shader", t.encode()) for i, t in enumerate(texts)])


@pytest.mark.parametrize(
    ("value", "sides"),
    [
        ("none", "both"),
        ("NONE", "both"),
        ("Disable", "both"),
        ("twoSided", "both"),
        ("back", "back"),
        ("BackSided", "back"),
        ("backside", "back"),
        ("front", "front"),
    ],
)
def test_cull_values_ignore_case(value: str, sides: str) -> None:
    found = _scripts(f"models/x/leaf\n{{\n\tCULL {value}\n\t{{\n\t\tmap a.tga\n\t}}\n}}\n")
    shader = found.find("models/x/leaf")
    assert shader is not None and shader.material.sides == sides
    assert shader.material.double_sided is (sides != "front")


def test_an_unknown_cull_value_warns_and_keeps_one_side() -> None:
    found = _scripts("a\n{\n cull sideways\n { map a.tga }\n}\n")
    with pytest.warns(QuakeModelsWarning, match="invalid cull parm 'sideways'"):
        shader = found.find("a")
    assert shader is not None and shader.material.sides == "front"


@pytest.mark.parametrize(
    ("value", "test"),
    [("GE128", ("ge", 0.5)), ("ge128", ("ge", 0.5)), ("Gt0", ("gt", 0.0)), ("LT128", ("lt", 0.5))],
)
def test_alpha_func_names_ignore_case(value: str, test: tuple[str, float]) -> None:
    found = _scripts(f"a\n{{\n{{\nmap a.tga\nalphaFunc {value}\n}}\n}}\n").find("a")
    assert found is not None and found.material.alpha_test is not None
    assert (found.material.alpha_test.op, found.material.alpha_test.ref) == test


def test_an_unknown_alpha_func_warns_and_means_no_test() -> None:
    found = _scripts("a\n{\n{\nmap a.tga\nalphaFunc GE64\n}\n}\n")
    with pytest.warns(QuakeModelsWarning, match="invalid alphaFunc 'GE64'"):
        shader = found.find("a")
    assert shader is not None and shader.material.alpha_test is None


def test_the_texture_stage_is_the_first_with_an_image() -> None:
    text = """
    textures/x/grate   // a comment { cull none }
    {
        /* cull none */
        { map $lightmap
          alphaFunc GT0 }
        { map "textures/x/grate.tga" blendFunc filter
          alphaFunc GE128 }
        { map textures/x/other.tga
          alphaFunc LT128 }
    }
    """
    shader = _scripts(text).find("textures/x/grate")
    assert shader is not None
    assert shader.texture == "textures/x/grate.tga"
    assert shader.material.alpha_test == ALPHA_FUNCS["ge128"]
    assert shader.material.sides == "front"  # both cull lines are comments


def test_a_model_name_finds_its_shader_without_extension_ignoring_case() -> None:
    found = _scripts("Models/Oak/Leaf\n{\ncull none\n{\nmap models/oak/leaf.tga\n}\n}\n")
    shader = found.find("models/oak/LEAF.tga")
    assert shader is not None and shader.name == "Models/Oak/Leaf"
    assert found.find("models/oak/leaf2.tga") is None


def test_a_file_with_a_missing_brace_is_ignored_whole() -> None:
    broken = "good\n{\ncull none\n{\nmap a.tga\n}\n}\nbad\ncull none\n"
    with pytest.warns(QuakeModelsWarning, match="'bad' on line 8 misses its opening brace"):
        found = _scripts(broken, "other\n{\n{\nmap b.tga\n}\n}\n")
    assert found.find("good") is None and found.find("other") is not None
    with pytest.warns(QuakeModelsWarning, match="'open' on line 1 misses its closing brace"):
        assert len(_scripts("open\n{\n{\nmap a.tga\n}\n")) == 0


def test_among_files_the_last_listed_wins_and_in_a_file_the_first() -> None:
    first = "a\n{\ncull none\n{\nmap a.tga\n}\n}\n"
    second = "a\n{\ncull back\n{\nmap a.tga\n}\n}\na\n{\n{\nmap a.tga\n}\n}\n"
    shader = _scripts(first, second).find("a")
    assert shader is not None and shader.material.sides == "back"
    assert shader.where == "scripts/1.shader:1"
    assert _scripts(second, first).find("a").material.sides == "both"  # type: ignore[union-attr]


def test_tokens_keep_lines_and_quotes() -> None:
    got = tokens('a // x\n/* two\nlines */ "b c"\n{')
    assert got == [("a", 1), ("b c", 3), ("{", 4)]


# -- alpha tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("test", "kept", "cutoff"),
    [
        (ALPHA_FUNCS["ge128"], range(128, 256), 0.5),
        (ALPHA_FUNCS["gt0"], range(1, 256), 0.5 / 255),
        (ALPHA_FUNCS["lt128"], range(0, 128), None),
        (AlphaTest("gt", 0.666), range(170, 256), 169.5 / 255),
    ],
)
def test_alpha_tests_keep_what_gl_keeps(test: AlphaTest, kept: range, cutoff: float | None) -> None:
    alphas = np.arange(256, dtype=np.uint8)
    assert np.flatnonzero(test.passes(alphas)).tolist() == list(kept)
    assert test.cutoff == cutoff
    if cutoff is not None:  # glTF MASK (alpha >= cutoff) keeps exactly the same texels
        assert np.flatnonzero(alphas / 255.0 >= cutoff).tolist() == list(kept)


# -- exports -------------------------------------------------------------------------------------


def _rgba(path: Path, alpha: int = 0) -> Path:
    """A 4x2 RGBA image: left half opaque red, right half blue with ``alpha``."""
    pixels = np.zeros((2, 4, 4), np.uint8)
    pixels[:, :2] = (255, 0, 0, 255)
    pixels[:, 2:] = (0, 0, 255, alpha)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels, "RGBA").save(path)
    return path


SHADER = """// leaves
models/obj/leaf
{{
\tcull {cull}
\t{{
\t\tmap models/obj/leaf.tga
\t\talphaFunc {func}
\t}}
}}
"""


def _game_tree(root: Path, cull: str = "none", func: str = "GE128") -> Path:
    """``root/models/obj/leaf.md3`` (surfaces 'body' naming the shader, 'head' naming a plain
    image), its images, and ``root/scripts/obj.shader`` defining the shader."""
    spec = Md3Spec(
        surfaces=[
            SurfaceSpec(name=b"body", shaders=[b"models/obj/leaf.tga"]),
            SurfaceSpec(name=b"head", shaders=[b"models/obj/plain.tga"]),
        ]
    )
    model = root / "models" / "obj" / "leaf.md3"
    model.parent.mkdir(parents=True)
    model.write_bytes(build_md3(spec))
    _rgba(root / "models" / "obj" / "leaf.tga")
    _rgba(root / "models" / "obj" / "plain.tga")
    (root / "scripts").mkdir()
    (root / "scripts" / "obj.shader").write_text(SHADER.format(cull=cull, func=func))
    return model


def _materials(model: object) -> dict[str, dict[str, object]]:
    doc, _ = build_gltf(scene(model))
    meshes = doc["meshes"]
    mats = doc.get("materials", [])
    return {
        m["name"]: mats[m["primitives"][0]["material"]]
        for m in meshes
        if "material" in m["primitives"][0]
    }


def test_md3_shader_script_on_disk_gives_double_sided_mask(tmp_path: Path) -> None:
    model = quakemodels.load(_game_tree(tmp_path / "game"))
    mats = _materials(model)
    assert mats["body"]["doubleSided"] is True
    assert mats["body"]["alphaMode"] == "MASK" and mats["body"]["alphaCutoff"] == 0.5
    # no script for the other: ioquake3's implicit shader draws the image opaque, one side
    assert mats["head"]["doubleSided"] is False and "alphaMode" not in mats["head"]


def test_md3_shader_script_in_a_pk3(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    _game_tree(tree, cull="twosided", func="GT0")
    game = tmp_path / "baseq3"
    game.mkdir()
    with zipfile.ZipFile(game / "pak0.pk3", "w") as z:
        for f in sorted(tree.rglob("*")):
            if f.is_file():
                z.write(f, f.relative_to(tree).as_posix())
    model = quakemodels.load(game / "pak0.pk3" / "models" / "obj" / "leaf.md3")
    mats = _materials(model)
    assert mats["body"]["doubleSided"] is True
    assert mats["body"]["alphaMode"] == "MASK" and mats["body"]["alphaCutoff"] == 0.5 / 255


def test_lt128_cannot_be_said_in_gltf_warns_once_and_stays_opaque(tmp_path: Path) -> None:
    model = quakemodels.load(_game_tree(tmp_path / "game", cull="back", func="LT128"))
    em = scene(model)
    em = replace(em, surfaces=[em.surfaces[0], replace(em.surfaces[0], name="again")])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc, _ = build_gltf(em)
    messages = [str(w.message) for w in caught]
    assert len([m for m in messages if "LT128" in m]) == 1, messages
    assert len([m for m in messages if "cull back" in m]) == 1, messages
    (material,) = doc["materials"]  # both surfaces share one material
    assert "alphaMode" not in material and material["doubleSided"] is True


def test_obj_mtl_says_what_it_can(tmp_path: Path) -> None:
    model = quakemodels.load(_game_tree(tmp_path / "game"))
    (tmp_path / "out").mkdir()
    export_obj(scene(model), tmp_path / "out" / "leaf.obj")
    mtl = (tmp_path / "out" / "leaf.mtl").read_text()
    body, head = mtl.split("newmtl body\n")[1].split("newmtl head\n")
    assert "map_Kd leaf_body.png\nmap_d leaf_body.png\n" in body
    assert "# alpha test GE128 of shader models/obj/leaf (scripts/obj.shader:2)" in body
    assert "drawn where alpha >= 0.5" in body and "# both sides drawn" in body
    assert "map_d" not in head and "#" not in head


def test_md2_rgba_skin_gets_quake2s_alpha_test(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "tris.md2").write_bytes(build_md2(Md2Spec()))
    _rgba(folder / "skin.png")
    (material,) = build_gltf(scene(quakemodels.load(folder / "tris.md2")))[0]["materials"]
    # Quake II's refresh draws alias models with glAlphaFunc(GL_GREATER, 0.666)
    assert material["alphaMode"] == "MASK" and material["alphaCutoff"] == 169.5 / 255
    assert material["doubleSided"] is False


def test_md2_pcx_skin_and_mdl_stay_opaque_single_sided(corpus_dir: Path) -> None:
    for path in (corpus_dir / "md2" / "ppm_drfreak.md2", corpus_dir / "mdl" / "lq_armor.mdl"):
        (material,) = build_gltf(scene(quakemodels.load(path)))[0]["materials"]
        assert "alphaMode" not in material and material["doubleSided"] is False, path


OAK = "archives/cge_jkm_oaktree.pk3/models/mapobjects/oak/oak1.md3"


def test_corpus_oak_leaves_are_double_sided_and_alpha_tested(corpus_dir: Path) -> None:
    mats = _materials(quakemodels.load(corpus_dir / OAK))
    for leaves in ("bruch", "blaetter"):
        assert mats[leaves]["doubleSided"] is True
        assert mats[leaves]["alphaMode"] == "MASK" and mats[leaves]["alphaCutoff"] == 0.5
    assert mats["stamm"]["doubleSided"] is False and "alphaMode" not in mats["stamm"]


def test_player_surface_named_by_a_scripted_shader(tmp_path: Path, corpus_dir: Path) -> None:
    game = tmp_path / "q3"
    folder = game / "models" / "players" / "human_bsuit"
    shutil.copytree(corpus_dir / "q3" / "models" / "players" / "human_bsuit", folder)
    (game / "scripts").mkdir()
    (game / "scripts" / "players.shader").write_text(
        "models/players/human_bsuit/human_bsuit\n{\n cull disable\n"
        " { map models/players/human_bsuit/human_bsuit.jpg }\n}\n"
    )
    from quakemodels.formats.q3player.gltf import build_player_gltf

    player = quakemodels.load(folder)
    doc, _ = build_player_gltf(player)
    assert {m["doubleSided"] for m in doc["materials"]} == {True}
    em = scene(player)
    assert {s.material.sides for s in em.surfaces if s.skin is not None} == {"both"}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}/*"\n \tabcmpulnoe0128GTLE$', max_size=200))
def test_any_script_text_parses_without_raising(text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", QuakeModelsWarning)
        found = ShaderScripts([("scripts/x.shader", text.encode())])
        for name in text.split()[:5]:
            found.find(name)
    if not any(c in text for c in '/"'):  # no comments or quotes: whitespace-separated words
        assert [t.text for t in tokens(text)] == text.split()


def test_disk_scripts_ignore_case_and_stay_inside_the_game(tmp_path: Path) -> None:
    model = _game_tree(tmp_path / "game", cull="none")
    scripts = tmp_path / "game" / "scripts"
    scripts.rename(tmp_path / "game" / "SCRIPTS")
    (tmp_path / "game" / "SCRIPTS" / "obj.shader").rename(
        tmp_path / "game" / "SCRIPTS" / "Obj.SHADER"
    )
    assert _materials(quakemodels.load(model))["body"]["doubleSided"] is True
    # a script that is a symlink out of the game folder is not read
    outside = tmp_path / "elsewhere.shader"
    (tmp_path / "game" / "SCRIPTS" / "Obj.SHADER").rename(outside)
    (tmp_path / "game" / "SCRIPTS" / "obj.shader").symlink_to(outside)
    assert _materials(quakemodels.load(model))["body"]["doubleSided"] is False


def test_obj_warns_once_per_material_it_cannot_state(tmp_path: Path) -> None:
    model = quakemodels.load(_game_tree(tmp_path / "game", func="LT128"))
    em = scene(model)
    em = replace(em, surfaces=[em.surfaces[0], replace(em.surfaces[0], name="again")])
    (tmp_path / "out").mkdir()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        export_obj(em, tmp_path / "out" / "leaf.obj")
    assert len([w for w in caught if "LT128" in str(w.message)]) == 1
    mtl = (tmp_path / "out" / "leaf.mtl").read_text()
    assert mtl.count("# alpha test LT128 of shader models/obj/leaf") == 2
    assert "map_d" not in mtl


def test_no_skin_one_side_means_glTFs_default_material(tmp_path: Path) -> None:
    # MD2's alpha test has no alpha to test without a skin: no material (three.js then uses
    # its default, as before); a double-sided surface without a skin still gets one
    path = tmp_path / "bare.md2"
    path.write_bytes(build_md2(Md2Spec(skins=[])))
    doc, _ = build_gltf(scene(quakemodels.load(path)))
    assert "materials" not in doc and "material" not in doc["meshes"][0]["primitives"][0]
    em = scene(quakemodels.load(path))
    both = replace(em, surfaces=[replace(em.surfaces[0], material=Material(sides="both"))])
    (material,) = build_gltf(both)[0]["materials"]
    assert (
        material["doubleSided"] is True
        and "baseColorTexture" not in material["pbrMetallicRoughness"]
    )


def test_player_texture_is_the_scripted_shaders_stage_image(
    tmp_path: Path, corpus_dir: Path
) -> None:
    game = tmp_path / "q3"
    folder = game / "models" / "players" / "human_bsuit"
    shutil.copytree(corpus_dir / "q3" / "models" / "players" / "human_bsuit", folder)
    Image.new("RGB", (4, 4), (255, 0, 255)).save(folder / "painted.png")
    (game / "scripts").mkdir()
    (game / "scripts" / "players.shader").write_text(
        "models/players/human_bsuit/human_bsuit\n{\n"
        " { map models/players/human_bsuit/painted.png }\n}\n"
    )
    player = quakemodels.load(folder)
    # the skin names human_bsuit.jpg, which a script defines: the engine draws its stage
    textures = {p.name for part in player.skin_textures().values() for p in part.values()}
    assert textures == {"painted.png"}
    em = scene(player)
    assert {s.skin.path.name for s in em.surfaces if s.skin is not None} == {"painted.png"}
