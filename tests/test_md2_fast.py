"""MD2's fast paths (``formats/md2/fast.py``) give the plain decode's values exactly, on every
corpus file and on synthetic ones, and leave every error to the plain path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import corpus_params
from md2builder import Md2Spec, build

from quakemodels.core.mesh import Mesh
from quakemodels.errors import BadValueError
from quakemodels.formats.md2 import Md2, fast

MESH_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")


# every test twice: the compiled decode of the first mesh and the numpy path (conftest.py)
pytestmark = pytest.mark.usefixtures("first_mesh_decode")


def _same_mesh(a: Mesh, b: Mesh) -> None:
    for name in MESH_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name  # bit for bit (NaN and -0.0 included)


def _fast_mesh(m: Md2, frame: int) -> Mesh | None:
    from quakemodels.formats.md2 import reader

    return fast.first_mesh(
        m._data,
        m._h,
        frame,
        m._mesh_corners,
        reader.PREFIX_WORDS,
        reader.SCALE_WORDS,
        reader.TRANSLATE_WORDS,
        reader.TEX_POINT_WORDS,
        reader.ST_WORDS,
    )


def _check_equal(data: bytes) -> None:
    """mesh() and corner_frames() of fresh models (fast) against the plain decode."""
    frames = Md2.from_bytes(data).num_frames
    for f in sorted({0, frames // 2, frames - 1}):
        quick = Md2.from_bytes(data)
        plain = Md2.from_bytes(data)
        assert _fast_mesh(quick, f) is not None
        _same_mesh(quick.mesh(f), plain._plain_mesh(f))
    for picked in (None, [frames - 1, 0]):
        p, n = Md2.from_bytes(data).corner_frames(picked)
        pp, pn = Md2.from_bytes(data)._plain_corner_frames(picked)
        assert p.tobytes() == np.ascontiguousarray(p).tobytes()  # the view reads as (k,N,3)
        assert np.ascontiguousarray(p).tobytes() == pp.tobytes() and p.shape == pp.shape
        assert n.tobytes() == pn.tobytes() and n.flags.c_contiguous


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_fast_paths_equal_the_plain_decode_on_the_corpus(path: Path) -> None:
    _check_equal(path.read_bytes())


@pytest.mark.parametrize(
    "spec",
    [
        Md2Spec(),  # 64 x 32 skin: per-axis division
        Md2Spec(skin_width=64, skin_height=64),  # square skin: one scalar divisor
        Md2Spec(skin_width=3, skin_height=7),  # quotients that round
    ],
    ids=["wide", "square", "odd"],
)
def test_fast_paths_equal_the_plain_decode_on_synthetic_files(spec: Md2Spec) -> None:
    _check_equal(build(spec))


def test_a_skin_wider_than_float32_counts_takes_the_plain_path(first_mesh_decode: str) -> None:
    """2**24 + 1 is not exact in float32: the plain decode divides in double, and the numpy
    fast path declines rather than give other values; the compiled one divides in double."""
    data = build(Md2Spec(skin_width=(1 << 24) + 1, skin_height=32))
    m = Md2.from_bytes(data)
    fast_mesh = _fast_mesh(m, 0)
    if first_mesh_decode == "numpy":
        assert fast_mesh is None
    else:
        assert fast_mesh is not None
        _same_mesh(fast_mesh, Md2.from_bytes(data)._plain_mesh(0))
    _same_mesh(m.mesh(0), Md2.from_bytes(data)._plain_mesh(0))
    assert (
        m.mesh(0).uvs.tobytes()
        == Md2.from_bytes(data).texcoords.take(m.mesh(0).texcoord_ids, axis=0).tobytes()
    )


def test_errors_are_left_to_the_plain_path() -> None:
    """A normal index past the table: the fast paths decline, the plain path names it."""
    spec = Md2Spec()
    scale, translate, name, verts = spec.frames[0]
    verts = np.array(verts, np.uint8)
    verts[1, 3] = 200
    spec.frames[0] = (scale, translate, name, verts)
    data = build(spec)
    m = Md2.from_bytes(data)
    assert _fast_mesh(m, 0) is None
    with pytest.raises(BadValueError, match=r"frames\[0\]\.vertices\[1\]\.normal_index=200"):
        m.mesh(0)
    with pytest.raises(BadValueError, match="normal_index=200"):
        Md2.from_bytes(data).corner_frames()
    zero = Md2.from_bytes(build(Md2Spec(header_overrides={"skin_width_px": 0})))
    assert _fast_mesh(zero, 0) is None
    with pytest.raises(BadValueError, match="skin_width_px=0"):
        zero.mesh(0)
