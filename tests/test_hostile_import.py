"""Hostile glTF and OBJ files (issue #17, findings 1, 2, 7, 8, 10): every one is a clean
ModelFormatError naming the file and the JSON path, or a correct import; never a crash, a
read outside the buffer, a hang or another exception type. Inputs are built here."""

from __future__ import annotations

import copy
import os
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gltfbuilder import doc, glb, png_header

from quakemodels.cli import main
from quakemodels.errors import ModelFormatError, QuakeModelsWarning
from quakemodels.interchange.gltf_read import read_gltf
from quakemodels.interchange.imported import ImportLimits
from quakemodels.interchange.obj_read import default_frame_name, read_obj, read_obj_sequence


def _write(tmp_path: Path, document: Any, blob: bytes | None, name: str = "in.glb") -> Path:
    path = tmp_path / name
    path.write_bytes(glb(document, blob))
    return path


def _edited(path: str, value: Any, targets: int = 0) -> tuple[dict[str, Any], bytes]:
    """The base document with the field at ``path`` (``accessors.0.count``) set to ``value``
    (``...`` deletes it)."""
    document, blob = doc(targets)
    node: Any = document
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for key in keys[:-1]:
        node = node[key]
    if value is ...:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return document, blob


HOSTILE: list[tuple[str, Any, str]] = [
    # finding 1: signs and indices
    ("bufferViews.0.byteStride", -4096, "bufferViews[0].byteStride=-4096 is outside 0..252"),
    ("bufferViews.0.byteStride", -24, "bufferViews[0].byteStride=-24 is outside 0..252"),
    ("bufferViews.0.byteStride", 6, "bufferViews[0].byteStride=6 must be a multiple of 4 from"),
    ("bufferViews.0.byteStride", 256, "bufferViews[0].byteStride=256 is outside 0..252"),
    ("accessors.0.count", -5, "accessors[0].count=-5 is outside ≥ 1"),
    ("accessors.0.count", 0, "accessors[0].count=0 is outside ≥ 1"),
    ("meshes.0.primitives.0.attributes.POSITION", -1, "attributes.POSITION=-1 is outside ≥ 0"),
    ("accessors.0.bufferView", -1, "accessors[0].bufferView=-1 is outside ≥ 0"),
    ("bufferViews.0.buffer", -1, "bufferViews[0].buffer=-1 is outside ≥ 0"),
    # finding 7: what used to escape as TypeError / AttributeError / OverflowError / exit 2
    ("accessors.0.count", None, "accessors[0].count is missing, not an integer"),
    ("accessors.0.count", 1e400, "accessors[0].count is the number inf, not an integer"),
    ("accessors.0.count", "3", "accessors[0].count is a string, not an integer"),
    ("accessors.0.count", True, "accessors[0].count is a boolean, not an integer"),
    ("buffers.0.byteLength", ..., "buffers[0].byteLength is missing, not an integer"),
    ("meshes.0.primitives.0.attributes", {}, "meshes[0].primitives[0].attributes has no POSITION"),
    ("meshes.0.primitives.0.attributes", [], "attributes is an array, not a JSON object"),
    ("accessors.0.byteOffset", -4, "accessors[0].byteOffset=-4 is outside ≥ 0"),
    ("bufferViews.0.byteOffset", -36, "bufferViews[0].byteOffset=-36 is outside ≥ 0"),
    ("accessors.0.type", "VEC2", "accessors[0].type is 'VEC2'; meshes[0].primitives[0].attributes"),
    ("accessors.0.bufferView", 7, "accessors[0].bufferView=7 names no item: bufferViews has 1"),
    ("accessors.0.componentType", 5130, "accessors[0].componentType=5130 is not one of"),
    ("accessors.0.count", 4, "accessors[0] needs 48 bytes of bufferViews[0]"),
    ("bufferViews.0.byteLength", 40, "bufferViews[0] runs to byte 40 of buffers[0], which has 36"),
    # finding 10: lengths past anything real
    ("buffers.0.byteLength", 2**40, "buffers[0].byteLength=1099511627776 is outside"),
    ("buffers.0.byteLength", 4096, "buffers[0].byteLength=4096 but the buffer holds 36 bytes"),
    ("buffers.0.uri", "http://example.com/x.bin", "unsupported URI scheme 'http'"),
    ("buffers.0.uri", "file:///etc/passwd", "unsupported URI scheme 'file'"),
    ("buffers.0.uri", "../outside.bin", "points outside"),
    ("buffers.0.uri", "/etc/passwd", "is not a relative path"),
    ("meshes.0.primitives.0.mode", 1, "meshes[0].primitives[0].mode=1 is not triangles"),
    ("meshes", [], "meshes is empty"),
    ("meshes", {"a": 1}, "meshes is an object, not a JSON array"),
]


@pytest.mark.parametrize(
    ("field", "value", "message"), HOSTILE, ids=[h[0] + "=" + repr(h[1])[:20] for h in HOSTILE]
)
def test_hostile_fields_are_model_format_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: Any, message: str
) -> None:
    path = _write(tmp_path, *_edited(field, value))
    with pytest.raises(ModelFormatError) as e:
        read_gltf(path)
    assert message in str(e.value)
    assert str(e.value).startswith(f"{path}: ")
    out = tmp_path / "out.md2"
    assert main(["convert", str(path), str(out)]) == 1  # bad input, not a usage error
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and message in err
    assert not out.exists()


def test_texcoord_must_be_vec2(tmp_path: Path) -> None:
    document, blob = doc()
    document["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = 0  # a VEC3 accessor
    with pytest.raises(ModelFormatError, match=r"accessors\[0\]\.type is 'VEC3'; .*TEXCOORD_0"):
        read_gltf(_write(tmp_path, document, blob))


def test_strided_reads_stay_inside_and_are_exact(tmp_path: Path) -> None:
    """A legal stride (16 for 12-byte elements) reads the right bytes; one more element than
    fits is refused, never read from past the buffer (finding 1's heap read)."""
    rows = np.arange(16, dtype=np.float32).reshape(4, 4)  # 3 rows used, 4th float is padding
    document, _ = doc()
    blob = rows[:3].tobytes()
    document["bufferViews"][0].update(byteLength=len(blob), byteStride=16)
    document["buffers"][0]["byteLength"] = len(blob)
    mesh = read_gltf(_write(tmp_path, document, blob))
    expected = rows[:3, :3][:, [2, 0, 1]]  # Y-up → Quake
    assert mesh.positions.shape == (1, 3, 3)
    np.testing.assert_array_equal(mesh.positions[0], expected)
    document["accessors"][0]["count"] = 4  # 3·16 + 12 = 60 bytes > 48
    with pytest.raises(ModelFormatError, match=r"needs 60 bytes of bufferViews\[0\]"):
        read_gltf(_write(tmp_path, document, blob))


def test_deep_json_is_a_format_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.glb"
    path.write_bytes(glb(None, None, json_text=b"[" * 200_000 + b"]" * 200_000))
    with pytest.raises(ModelFormatError, match="nested too deeply"):
        read_gltf(path)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"glTF\x02\0\0\0", "GLB header cut at 8 bytes"),
        (b"glTF\x01\0\0\0\x0c\0\0\0", "GLB version 1"),
        (b"glTF\x02\0\0\0\xff\0\0\0", "length=255 is past the end of the file"),
        (b"glTF\x02\0\0\0\x14\0\0\0\0\0\0\x80JSON", "claims 2147483648 bytes; 0 remain"),
        (b"not json at all", "not a readable glTF"),
        (b"[1, 2]", "the glTF JSON is not an object"),
    ],
)
def test_bad_containers(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "c.glb"
    path.write_bytes(data)
    with pytest.raises(ModelFormatError, match=message):
        read_gltf(path)


def test_bin_chunk_claiming_2_31_bytes(tmp_path: Path) -> None:
    document, blob = doc()
    data = bytearray(glb(document, blob))
    at = len(data) - len(blob) - 8  # the BIN chunk's length field
    data[at : at + 4] = (2**31).to_bytes(4, "little")
    path = tmp_path / "bin.glb"
    path.write_bytes(bytes(data))
    with pytest.raises(ModelFormatError, match=f"GLB chunk 1 at offset {at} claims 2147483648"):
        read_gltf(path)


def test_shared_morph_targets_are_refused_before_decoding(tmp_path: Path) -> None:
    """Finding 2, small: 3,000 vertices × 400 targets all naming one accessor (a 72 KB GLB)
    would decode to 14 MB of positions; the frames limit or the positions limit refuses it
    while the traced peak stays near the file's size."""
    document, blob = doc(targets=400, vertices=3000)
    path = _write(tmp_path, document, blob)
    tracemalloc.start()
    try:
        with pytest.raises(ModelFormatError, match="401 frames exceed the limit of 256"):
            read_gltf(path, limits=ImportLimits(max_frames=256))
        with pytest.raises(ModelFormatError, match=r"401 frames × 3000 vertices = 1203000"):
            read_gltf(path, limits=ImportLimits(max_positions=1 << 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * path.stat().st_size + (1 << 20)
    # the CLI passes the engine's limit (512 frames in vanilla Quake II)
    document, blob = doc(targets=600)
    assert main(["convert", str(_write(tmp_path, document, blob)), str(tmp_path / "o.md2")]) == 1


def test_shared_targets_are_held_to_the_input_size(tmp_path: Path) -> None:
    """The default limits: 3,000 vertices × 100 targets naming one accessor is a 72 KB file
    that would decode 303,000 positions; at most max(65536, bytes / 3) are allowed."""
    document, blob = doc(targets=100, vertices=3000)
    path = _write(tmp_path, document, blob)
    size = path.stat().st_size
    with pytest.raises(ModelFormatError, match="303000 positions exceed the import limit of 65536"):
        read_gltf(path)
    assert size // 3 < 65536
    document, blob = doc(targets=20, vertices=3000)  # 63,000 positions: within the floor
    assert read_gltf(_write(tmp_path, document, blob)).positions.shape == (21, 3000, 3)


def test_shared_morph_targets_decode_once_and_right(tmp_path: Path) -> None:
    document, blob = doc(targets=5)
    mesh = read_gltf(_write(tmp_path, document, blob))
    assert mesh.positions.shape == (6, 3, 3)  # base + 5 targets
    base = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)[:, [2, 0, 1]]
    np.testing.assert_array_equal(mesh.positions[0], base)
    for f in range(1, 6):  # +1 in glTF y is +1 in Quake z
        np.testing.assert_array_equal(mesh.positions[f], base + np.array([0, 0, 1], np.float32))
    assert mesh.frame_names == [f"frame{f}" for f in range(1, 7)]


def test_percent_encoded_uri_and_fifo_buffer(tmp_path: Path) -> None:
    document, blob = doc()
    (tmp_path / "my buf.bin").write_bytes(blob)
    document["buffers"][0]["uri"] = "my%20buf.bin"
    path = tmp_path / "in.gltf"
    path.write_text(__import__("json").dumps(document))
    mesh = read_gltf(path)
    assert mesh.positions.shape == (1, 3, 3)
    os.mkfifo(tmp_path / "pipe.bin")
    document["buffers"][0]["uri"] = "pipe.bin"
    path.write_text(__import__("json").dumps(document))
    with pytest.raises(ModelFormatError, match=r"buffers\[0\]\.uri 'pipe.bin'.* is a FIFO"):
        read_gltf(path)  # returns at once: the FIFO is never waited on
    os.mkfifo(tmp_path / "in2.glb")
    with pytest.raises(ModelFormatError, match="is a FIFO, not a regular file"):
        read_gltf(tmp_path / "in2.glb")


def test_decompression_bomb_image_is_a_warning(tmp_path: Path) -> None:
    """Finding 7: an embedded 30000 × 30000 PNG (a header only) costs nothing and gives no
    skin size, with a warning; the mesh imports."""
    document, blob = doc()
    image = png_header(30000, 30000)
    document["bufferViews"].append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(image)})
    document["images"] = [{"bufferView": 1, "mimeType": "image/png"}]
    document["buffers"][0]["byteLength"] = len(blob) + len(image)
    path = _write(tmp_path, document, blob + image)
    with pytest.warns(QuakeModelsWarning, match=r"images\[0\] ignored"):
        mesh = read_gltf(path)
    assert mesh.skin_size is None and mesh.positions.shape == (1, 3, 3)
    small = copy.deepcopy(document)
    image = png_header(64, 32)
    small["bufferViews"][1]["byteLength"] = len(image)
    small["buffers"][0]["byteLength"] = len(blob) + len(image)
    assert read_gltf(_write(tmp_path, small, blob + image)).skin_size == (64, 32)


# -- OBJ --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("v 0 0\n", ":1: a v needs 3 coordinates"),
        ("v 0 0 nan\n", ":1: v coordinates must be finite numbers"),
        ("v 0 0 x\n", ":1: bad number in 'v 0 0 x'"),
        ("vt\n", ":1: a vt needs 1 coordinates"),
        ("v 0 0 0\nf 1 1 2\n", ":2: v index 2 outside 1..1"),
        ("v 0 0 0\nf 1/0 1 1\n", ":2: vt index 0 outside 1..0"),
        ("v 0 0 0\nf 1 1\n", ":2: a face needs 3 corners"),
    ],
)
def test_bad_obj(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "bad.obj"
    path.write_text(text)
    with pytest.raises(ModelFormatError, match=message):
        read_obj(path)
    assert main(["convert", str(path), str(tmp_path / "o.md2")]) == 1
    assert f"error: {path}:" in capsys.readouterr().err


def test_obj_vt_with_u_only_and_long_stems(tmp_path: Path) -> None:
    """``vt 0`` (v defaults to 0) used to exit 2; a 16+ character stem used to fail as a frame
    name: it is cut, keeping its frame number."""
    paths = []
    for k in range(2):
        p = tmp_path / f"walkcycle_frame_{k:03d}.obj"
        p.write_text(f"v 0 0 {k}\nv 1 0 0\nv 0 1 0\nvt 0\nvt 1\nvt 0.5\nf 1/1 2/2 3/3\n")
        paths.append(p)
    mesh = read_obj_sequence(paths)
    assert mesh.frame_names == ["walkcycle_fr000", "walkcycle_fr001"]
    assert mesh.uvs is not None and mesh.uvs.tolist() == [[0, 1], [1, 1], [0.5, 1]]
    assert default_frame_name("ünïcödé_stem_name") == "ünïcödé_ste"  # 15 UTF-8 bytes
    assert main(["convert", *map(str, paths), str(tmp_path / "w.md2")]) == 0


def test_obj_limits_before_reading_more_frames(tmp_path: Path) -> None:
    p = tmp_path / "a.obj"
    p.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n")
    with pytest.raises(ModelFormatError, match=r"a.obj:5: 6 vertices exceed the import limit of 5"):
        read_obj(p, limits=ImportLimits(max_corners=5))
    (tmp_path / "never_read.obj").write_text("f 9 9 9\n")  # would fail if it were parsed
    missing = [p, tmp_path / "never_read.obj"]  # refused on the first file's size
    with pytest.raises(ModelFormatError, match="2 frames × 3 vertices = 6 positions"):
        read_obj_sequence(missing, limits=ImportLimits(max_positions=5))
    os.mkfifo(tmp_path / "f.obj")
    with pytest.raises(ModelFormatError, match="is a FIFO"):
        read_obj(tmp_path / "f.obj")
