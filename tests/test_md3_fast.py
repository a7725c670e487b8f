"""MD3's fast path (``formats/md3/fast.py``) gives the plain decode's mesh exactly, on every
corpus file and on synthetic ones, and leaves every error to the plain path."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_params
from md3builder import Md3Spec, build

from quakemodels.core.mesh import Mesh
from quakemodels.errors import BadValueError
from quakemodels.formats.md3 import Md3, fast
from quakemodels.formats.md3.reader import Md3Surface, normal_table

MESH_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")


def _same_mesh(a: Mesh, b: Mesh) -> None:
    for name in MESH_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name  # bit for bit


def _fast_mesh(s: Md3Surface, frame: int) -> Mesh | None:
    return fast.first_mesh(
        s._data,
        s.offset,
        s.ofs_triangles,
        s.num_triangles,
        s.ofs_vertices,
        s.ofs_tex_coords,
        s.num_vertices,
        frame,
        normal_table(),
    )


def _check_equal(data: bytes) -> None:
    model = Md3.from_bytes(data)
    for i, surface in enumerate(model.surfaces):
        for f in sorted({0, model.num_frames // 2, model.num_frames - 1}):
            assert _fast_mesh(surface, f) is not None
            quick = Md3.from_bytes(data).surfaces[i].mesh(f)
            plain = Md3.from_bytes(data).surfaces[i]._plain_mesh(f)
            _same_mesh(quick, plain)


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_fast_path_equals_the_plain_decode_on_the_corpus(path: Path) -> None:
    _check_equal(path.read_bytes())


def test_fast_path_equals_the_plain_decode_on_a_synthetic_file() -> None:
    _check_equal(build(Md3Spec()))


def test_a_bad_index_is_left_to_the_plain_path() -> None:
    """Negative (read as 2**31 or more) and too large: the fast path declines, the plain
    path names the index."""
    for bad in (7, -1):
        spec = Md3Spec()
        spec.surfaces[0].triangles = [(0, 1, 2), (0, 2, bad)]
        surface = Md3.from_bytes(build(spec)).surfaces[0]
        assert _fast_mesh(surface, 0) is None
        with pytest.raises(BadValueError, match=rf"triangles\[1\]\.vertex_indices\[2\]={bad}"):
            surface.mesh(0)
