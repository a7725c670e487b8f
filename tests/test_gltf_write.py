"""The plain-data glTF writer: every corpus export is the document pygltflib's object model
writes for the same data (the writer used to be built on it), skins are embedded once per file
and encoded once per image, and the GLB/.gltf containers hold exactly that document."""

from __future__ import annotations

import base64
import io
import json
import struct
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pygltflib
import pytest
from conftest import corpus_models, corpus_params, no_corpus
from PIL import Image

import quakemodels
from quakemodels.core.png import encode_png
from quakemodels.core.records import replace
from quakemodels.core.skins import Skin
from quakemodels.interchange import gltf_write
from quakemodels.interchange.gltf_write import build_gltf, glb_bytes, gltf_bytes, json_bytes
from quakemodels.registry import scene


def _through_pygltflib(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` read into pygltflib's dataclasses and written back (its empty arrays dropped,
    as glTF requires): the document the old pygltflib-built writer wrote for the same data."""
    text = pygltflib.GLTF2.from_json(json.dumps(doc)).to_json()
    back: dict[str, Any] = json.loads(text)
    # Reading fills in two spec defaults the writer leaves out, as the old writer did.
    for accessor in back.get("accessors", []):
        if accessor.get("byteOffset") == 0:
            del accessor["byteOffset"]
    for material in back.get("materials", []):
        if material.get("alphaMode") == "OPAQUE":
            del material["alphaMode"]
    return {k: v for k, v in back.items() if v not in ([], {})}


@pytest.mark.parametrize("path", corpus_params("md2")[:6] + corpus_params("md3"))
def test_corpus_document_is_what_pygltflib_writes(path: Path | None) -> None:
    assert path is not None
    doc, blob = build_gltf(scene(quakemodels.load(path)))
    # Same keys, same values, same order of keys as the pygltflib-built writer produced.
    assert json.dumps(_through_pygltflib(doc)) == json.dumps(doc)
    assert doc["buffers"] == [{"byteLength": len(blob)}] and len(blob) % 4 == 0
    views = doc["bufferViews"]
    assert views[-1]["byteOffset"] + views[-1]["byteLength"] <= len(blob)


@pytest.mark.parametrize("name", ["human_base", "human_bsuit"])
def test_player_document_is_what_pygltflib_writes(corpus_dir: Path, name: str) -> None:
    # a Quake III player is built on the same builder: the same form, defaults included
    from quakemodels.formats.q3player.gltf import build_player_gltf

    player = quakemodels.load(corpus_dir / "q3" / "models" / "players" / name)
    doc, blob = build_player_gltf(player)
    with warnings.catch_warnings():  # pygltflib on the extras it does not model
        warnings.filterwarnings("ignore", "'NoneType' object value", RuntimeWarning)
        again = _through_pygltflib(doc)
    assert json.dumps(again) == json.dumps(doc)
    assert doc["buffers"] == [{"byteLength": len(blob)}] and len(doc["animations"]) > 20


def test_glb_and_gltf_containers_hold_the_document(corpus_dir: Path) -> None:
    em = scene(quakemodels.load(corpus_dir / "md2" / "ppm_drfreak.md2"))
    doc, blob = build_gltf(em)
    glb = glb_bytes(doc, blob)
    magic, version, total = struct.unpack_from("<4sII", glb)
    js_len, js_kind = struct.unpack_from("<I4s", glb, 12)
    assert (magic, version, total, js_kind) == (b"glTF", 2, len(glb), b"JSON")
    assert json.loads(glb[20 : 20 + js_len]) == doc
    bin_len, bin_kind = struct.unpack_from("<I4s", glb, 20 + js_len)
    assert (bin_len, bin_kind) == (len(blob), b"BIN\0") and glb[28 + js_len :] == blob
    text = json.loads(gltf_bytes(doc, blob))
    uri = text["buffers"][0].pop("uri")
    assert base64.b64decode(uri.split(",", 1)[1]) == blob
    assert text == doc and "uri" not in doc["buffers"][0]  # the document was not modified
    assert json_bytes(doc).isascii()


def test_skin_embedded_once_and_encoded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the first model with a mesh (sprites give pictures, not a scene)
    models = [m for m in corpus_models() if m.suffix.lower() not in (".spr", ".sp2")]
    if not models:
        no_corpus()
    em = scene(quakemodels.load(models[0]))
    image = Image.new("RGB", (16, 8), (10, 200, 30))
    image.putpixel((3, 5), (1, 2, 3))
    skin = Skin(tmp_path / "shared.pcx", image)
    two = replace(em, surfaces=[replace(em.surfaces[0], skin=skin, name=n) for n in "ab"])
    encoded: list[tuple[int, ...]] = []
    real = gltf_write.encode_png
    monkeypatch.setattr(gltf_write, "encode_png", lambda a: encoded.append(a.shape) or real(a))
    gltf_write._PNG_CACHE.clear()
    doc, blob = build_gltf(two)
    assert len(doc["images"]) == len(doc["textures"]) == len(doc["materials"]) == 1
    assert [m["primitives"][0]["material"] for m in doc["meshes"]] == [0, 0]
    build_gltf(two)  # another model with the same pixels: no second encoding
    other = Skin(tmp_path / "other.pcx", Image.new("RGB", (16, 8), (10, 200, 31)))
    build_gltf(replace(two, surfaces=[replace(two.surfaces[0], skin=other)]))
    assert encoded == [(8, 16, 3), (8, 16, 3)]
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    png = blob[view["byteOffset"] : view["byteOffset"] + view["byteLength"]]
    with Image.open(io.BytesIO(png)) as back:
        assert back.mode == "RGB" and np.array_equal(np.asarray(back), np.asarray(image))


@pytest.mark.parametrize("shape", [(1, 1, 3), (7, 5, 4), (64, 33, 3)])
def test_encode_png_round_trips_through_pillow(shape: tuple[int, int, int]) -> None:
    pixels = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    data = encode_png(pixels)
    with Image.open(io.BytesIO(data)) as back:
        back.load()
        assert back.format == "PNG" and back.mode == ("RGB" if shape[2] == 3 else "RGBA")
        assert np.array_equal(np.asarray(back), pixels)


def test_encode_png_refuses_other_pixels() -> None:
    with pytest.raises(ValueError, match=r"expected \(H,W,3\|4\) uint8 pixels, not uint8 \(2, 2\)"):
        encode_png(np.zeros((2, 2), np.uint8))
    with pytest.raises(ValueError, match="not float32"):
        encode_png(np.zeros((2, 2, 3), np.float32))


@pytest.mark.parametrize("path", corpus_params("md2") + corpus_params("md3") + corpus_params("mdl"))
def test_builder_json_is_the_encoders_json(path: Path | None) -> None:
    """export_gltf writes the morph-target accessors from text made in one go per surface:
    byte for byte what json_bytes writes of the same document, .glb and .gltf."""
    assert path is not None
    model = scene(quakemodels.load(path))
    doc, pieces, builder = gltf_write._build(model)
    targets = sum(len(p.get("targets", [])) for m in doc["meshes"] for p in m["primitives"])
    assert targets > 0 and len(builder._rendered) == len(doc["meshes"])
    assert builder.json_bytes(doc) == json_bytes(doc)
    blob = b"".join(pieces)
    assert gltf_bytes(doc, blob, builder.json_bytes) == gltf_bytes(doc, blob)
    # one frame, and a model cut to its last and first frames (offsets, bounds)
    for frames in ([0], [model.num_frames - 1, 0]):
        doc, _, builder = gltf_write._build(model.select(frames))
        assert builder.json_bytes(doc) == json_bytes(doc)


def test_builder_json_of_a_changed_document_is_the_encoders_json(corpus_dir: Path) -> None:
    doc, _, builder = gltf_write._build(
        scene(quakemodels.load(corpus_dir / "md2" / "ppm_drfreak.md2"))
    )
    other = {**doc, "accessors": [dict(a) for a in doc["accessors"]]}
    other["accessors"][7]["count"] = 1  # a copied list is encoded as it is, not from the text
    assert builder.json_bytes(other) == json_bytes(other) != json_bytes(doc)
    assert json.loads(builder.json_bytes(other))["accessors"][7]["count"] == 1
