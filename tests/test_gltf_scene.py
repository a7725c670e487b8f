"""glTF → scene → MD3: what quakemodels exports as glTF comes back as the same MD3 (surfaces,
frames, tags), and a glTF that is not one is a clean ModelFormatError."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, corpus_params

from quakemodels import Md3, ModelFormatError, load
from quakemodels.core.scene import ExportModel, Tag
from quakemodels.formats.md3.write import FORMAT_LIMITS
from quakemodels.interchange.gltf_read import read_gltf_scene, tag_axes
from quakemodels.interchange.gltf_write import export_gltf
from quakemodels.registry import scene

# every corpus MD3, players' parts too; one skip (a failure under CI=true) without the corpus
MD3_FILES = [
    pytest.param(p, id=str(p.relative_to(CORPUS)))
    for p in sorted(CORPUS.glob("md3/*.md3")) + sorted(CORPUS.glob("q3/models/players/*/*.md3"))
] or corpus_params("md3")


@pytest.mark.parametrize("path", MD3_FILES)
def test_md3_through_gltf_comes_back(path: Path, tmp_path: Path) -> None:
    model = load(path)
    glb = tmp_path / "model.glb"
    export_gltf(scene(model), glb)
    back = Md3.from_scene(read_gltf_scene(glb), limits=FORMAT_LIMITS).model
    assert back.num_frames == model.num_frames
    assert [s.name for s in back.surfaces] == [s.name for s in model.surfaces]
    for a, b in zip(back.surfaces, model.surfaces, strict=True):
        np.testing.assert_array_equal(a.positions_raw, b.positions_raw)  # exact, not within a step
        np.testing.assert_array_equal(a.triangles, b.triangles)
        np.testing.assert_array_equal(a.texcoords, b.texcoords)
        # every canonical code comes back; the file's alias codes come back canonical
        lng, lat = b.normal_angles[..., 0], b.normal_angles[..., 1]
        same = ((lng >= 1) & (lng <= 127)) | ((lat == 0) & ((lng == 0) | (lng == 128)))
        np.testing.assert_array_equal(a.normal_angles[same], b.normal_angles[same])
        dots = np.einsum("...i,...i", a.normals[~same], b.normals[~same])
        assert dots.size == 0 or dots.min() > 1 - 1e-5
    assert back.tags.names == model.tags.names
    np.testing.assert_array_equal(back.tags.origins, model.tags.origins)
    np.testing.assert_allclose(back.tags.axes, model.tags.axes, rtol=0, atol=1e-6)


def test_tags_only_gltf_has_one_frame_per_key(tmp_path: Path) -> None:
    angle = np.radians([0, 30, 90])
    axes = np.stack(
        [[[np.cos(a), np.sin(a), 0], [-np.sin(a), np.cos(a), 0], [0, 0, 1]] for a in angle]
    ).astype(np.float32)
    origins = np.array([[0, 0, 0], [1, 2, 3], [4, 5, 6]], np.float32)
    view = ExportModel(
        name="hand", surfaces=[], clips={"all": range(3)},
        tags=[Tag("tag_weapon", origins, axes)],
    )  # fmt: skip
    glb = tmp_path / "hand.glb"
    export_gltf(view, glb)
    read = read_gltf_scene(glb)
    assert (read.num_frames, [t.name for t in read.tags]) == (3, ["tag_weapon"])
    np.testing.assert_array_equal(read.tags[0].origins, origins)
    np.testing.assert_allclose(read.tags[0].axes, axes, atol=1e-6)
    m = Md3.from_scene(read).model
    assert (m.num_frames, m.num_surfaces, m.tags.names) == (3, 0, ["tag_weapon"])


def test_tag_axes_of_the_identity_rotation() -> None:
    np.testing.assert_array_equal(tag_axes([[0, 0, 0, 1]]), [np.eye(3)])


def test_a_file_that_is_not_gltf_is_a_format_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"glTF" + b"\x02\x00\x00\x00" + b"\xff" * 20)
    with pytest.raises(ModelFormatError):
        read_gltf_scene(bad)
