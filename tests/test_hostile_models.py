"""Amplification and escapes in export, check and skins (issue #17, findings 3-7, 10), on small
variants of the issue's inputs (tests/hostile.py builds them at any size; the full-size ones
are measured by tools/bench_hostile.py)."""

from __future__ import annotations

import importlib
import json
import os
import struct
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from gltfbuilder import png_header
from hostile import corner_explosion_md2, flat_md2, many_skins_md2, shared_sections_md3
from md2builder import Md2Spec, build
from PIL import Image

import quakemodels
from quakemodels import ModelFormatError, check_model, registry
from quakemodels.cli import main
from quakemodels.core import gamepaths, skins
from quakemodels.errors import LimitExceededError, QuakeModelsWarning
from quakemodels.interchange.gltf_write import export_gltf

# the modules (the package's __init__ names functions check and scene too)
md2check = importlib.import_module("quakemodels.formats.md2.check")
md2scene = importlib.import_module("quakemodels.formats.md2.scene")

# -- finding 3: corners × frames ---------------------------------------------------------------


def test_corner_explosion_is_refused_before_allocating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = corner_explosion_md2(vertices=64, texcoords=64, frames=50)  # 4,096 corners
    monkeypatch.setattr(md2scene, "EXPORT_FLOOR", 1 << 20)
    model = quakemodels.load(data)
    tracemalloc.start()
    try:
        with pytest.raises(LimitExceededError) as e:
            registry.scene(model)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    budget = max(1 << 20, 32 * len(data))
    assert str(e.value).startswith(
        f"exporting 50 frames × 4096 distinct (vertex, texcoord) corners needs 5 MiB of"
        f" positions and normals, over the budget of {budget / 2**20:.0f} MiB"
    )
    assert e.value.field == "num_triangles" and e.value.offset == 32
    assert peak < 24 * 4096 * 50 // 10  # refused on the triangle list alone
    source = tmp_path / "x.md2"
    source.write_bytes(data)
    assert main(["convert", str(source), str(tmp_path / "x.glb")]) == 1
    assert f"error: {source}" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["x.md2"]
    # within the budget the same file exports
    monkeypatch.setattr(md2scene, "EXPORT_FLOOR", 8 << 20)
    assert len(registry.scene(model).surfaces[0].uvs) == 4096


# -- finding 4: MD3 sections that share bytes --------------------------------------------------


def test_md3_surfaces_sharing_a_block_are_refused() -> None:
    data = shared_sections_md3(surfaces=4, vertices=8, frames=2)
    with pytest.raises(ModelFormatError) as e:
        quakemodels.load(data)
    # surface 1's header is where the shared block's first section would be claimed again
    first_tri = 108 + 2 * 56 + 4 * 108
    assert "overlap surfaces[0].ofs_triangles's bytes" in str(e.value)
    assert f"{first_tri}..{first_tri + 11}" in str(e.value)
    assert e.value.field == "ofs_triangles"
    findings = check_model(data, "any")
    assert [f.code for f in findings if f.severity == "error"] != []
    assert all(f.code != "internal" for f in findings)
    assert quakemodels.load(shared_sections_md3(surfaces=1, vertices=8, frames=2)).num_surfaces == 1


# -- finding 5: check's zero-area test -----------------------------------------------------------


def test_zero_area_dedupes_triangles_and_frames() -> None:
    data = flat_md2(frames=3000, triangles=3000)
    findings = [f for f in check_model(data, "any") if f.code == "zero-area-triangle"]
    assert [(f.offset, f.message) for f in findings] == [
        (
            struct.unpack_from("<i", data, 52)[0],
            "triangles[0] has zero area in every frame (2999 more)",
        )
    ]


def test_zero_area_over_budget_tests_spread_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """6 collinear vertices (20 distinct flat triangles) moving along a line in 100 distinct
    frames: with a budget of 100 tests, 5 frames spread over the 100 are tested, and said so."""
    line = np.arange(6, dtype=np.uint8)
    frames = []
    for f in range(100):
        verts = np.zeros((6, 4), np.uint8)
        verts[:, 0] = verts[:, 1] = line * 2 + f % 50
        verts[:, 2] = f
        frames.append(((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f%d" % f, verts))
    tris = [(a, b, c, 0, 0, 0) for a in range(6) for b in range(a + 1, 6) for c in range(b + 1, 6)]
    data = build(
        Md2Spec(frames=frames, triangles=tris, texcoords=[(0, 0)], skins=[], gl_dwords=[0])
    )
    full = [f.message for f in check_model(data, "any") if f.code == "zero-area-triangle"]
    assert full == ["triangles[0] has zero area in every frame (19 more)"]
    monkeypatch.setattr(md2check, "ZERO_AREA_MIN_TESTS", 100)
    monkeypatch.setattr(md2check, "ZERO_AREA_TESTS_PER_BYTE", 0)
    sampled = [f.message for f in check_model(data, "any") if f.code == "zero-area-triangle"]
    assert sampled == [
        "triangles[0] has zero area in every one of the 5 frames tested (spread over 100: the"
        " test is bounded to 100 triangle-frame tests) (19 more)"
    ]


# -- finding 6: skin lookup ----------------------------------------------------------------------


def _counting_listdir(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = os.listdir

    def listdir(path: str | os.PathLike[str] = ".") -> list[str]:
        calls.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(gamepaths.os, "listdir", listdir)
    return calls


def test_many_skins_one_listing_per_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.md2"
    model.write_bytes(many_skins_md2(skins=500, depth=30))
    for k in range(50):
        (tmp_path / f"other{k}.txt").write_bytes(b"")
    (tmp_path / "a").mkdir()
    calls = _counting_listdir(monkeypatch)
    findings = check_model(model, "any")
    missing = [f for f in findings if f.code == "skin-missing"]
    assert len(missing) == skins.MAX_NAMES  # the first 64 distinct names are looked up
    # check infers the game folder as the export does (skins are looked up through it): one
    # listing of the model's folder and of each ancestor, looking for pak*.pak / *.pk3
    for probed in [tmp_path, *tmp_path.parents]:
        if os.fspath(probed) in calls:
            calls.remove(os.fspath(probed))
    assert sorted(set(calls)) == sorted(calls)  # no folder listed twice
    assert len(calls) <= 3  # the model folder, a/, and a/a/ (which does not exist)
    calls.clear()
    with pytest.warns(QuakeModelsWarning, match="500 skin names: only the first 64 distinct"):
        em = registry.scene(quakemodels.load(model))
    # The export also infers the game folder (quakemodels.archive): one listing of each
    # ancestor of the model, looking for pak*.pak / *.pk3, whatever the number of names.
    ancestors = {os.fspath(p) for p in tmp_path.parents}
    skin_calls = [c for c in calls if c not in ancestors]
    assert em.surfaces[0].skin is None
    assert len(skin_calls) <= 4 and all(skin_calls.count(c) <= 2 for c in skin_calls)


def test_skin_names_are_deduplicated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.md2"
    model.write_bytes(build(Md2Spec(skins=[b"Skin.PCX", b"skin.pcx"] * 16)))
    calls = _counting_listdir(monkeypatch)
    found: list[tuple[Path, Path]] = skins.candidates(["Skin.PCX", "skin.pcx"] * 16, None, tmp_path)
    assert found == [] and calls == [os.fspath(tmp_path)]


# -- finding 7 and 10: skins that used to escape or mislead ------------------------------------


def _model(folder: Path, names: list[bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "guy.md2"
    path.write_bytes(build(Md2Spec(skins=names)))
    return path


def test_decompression_bomb_skin_exports_without_texture(tmp_path: Path) -> None:
    model = _model(tmp_path, [b"bomb.png"])
    (tmp_path / "bomb.png").write_bytes(png_header(30000, 30000))
    out = tmp_path / "guy.glb"
    with pytest.warns(QuakeModelsWarning, match=r"bomb.png: too large to decode safely"):
        export_gltf(registry.scene(quakemodels.load(model)), out)
    data = out.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    gltf = json.loads(data[20 : 20 + length])
    assert "images" not in gltf and "textures" not in gltf
    assert main(["export", str(model), "-o", str(tmp_path / "cli.glb")]) == 0


def test_fifo_skin_is_not_a_symlink_and_is_skipped(tmp_path: Path) -> None:
    model = _model(tmp_path, [b"pipe.pcx", b"real.png"])
    os.mkfifo(tmp_path / "pipe.pcx")
    Image.new("RGB", (4, 4), (1, 2, 3)).save(tmp_path / "real.png")
    with pytest.warns(QuakeModelsWarning, match=r"pipe.pcx is a FIFO, not a regular file; refused"):
        skin = skins.find_skin(["pipe.pcx", "real.png"], model)
    assert skin is not None and skin.path.name == "real.png"


def test_one_bad_name_does_not_drop_the_others(tmp_path: Path) -> None:
    # one leading slash is dropped (a game path, as ioquake3 reads it); two stay absolute
    model = _model(tmp_path, [b"//etc/passwd", b"skin.png"])
    Image.new("RGB", (4, 4)).save(tmp_path / "skin.png")
    with pytest.warns(QuakeModelsWarning, match=r"'//etc/passwd' is an absolute path; refused"):
        skin = skins.find_skin(["//etc/passwd", "skin.png"], model)
    assert skin is not None and skin.path.name == "skin.png"
    with pytest.warns(QuakeModelsWarning, match="every skin name was refused"):
        assert skins.find_skin(["//etc/passwd"], model) is None


def test_skin_name_with_high_bytes(tmp_path: Path) -> None:
    """Bytes ≥ 0x80 are looked up as the file system's own bytes, and a name escaped by a
    reader is refused as what it is, not as 'an absolute path'."""
    raw = b"sk\xe9n.png"
    model = _model(tmp_path, [raw])
    Image.new("RGB", (4, 4), (7, 8, 9)).save(tmp_path / os.fsdecode(raw))
    Image.new("RGB", (4, 4)).save(tmp_path / "decoy.png")
    with pytest.warns(QuakeModelsWarning, match="non-ASCII"):
        loaded = quakemodels.load(model)
        assert loaded.skins == ["sk\\xe9n.png"]  # the reader's escaped text, with its note
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        em = registry.scene(loaded)
    skin = em.surfaces[0].skin
    assert skin is not None and os.fsencode(skin.path.name) == raw
    with pytest.warns(QuakeModelsWarning, match=r"has bytes ≥ 0x80 that are not ASCII text"):
        skins.find_skin(["sk\\xe9n.png"], model)
