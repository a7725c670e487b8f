"""The compiled first pose of an IQM (``formats/iqm/_pose.c`` through ``fast.py``) against the
numpy path it stands in for: the same meshes on every corpus file and frame, on synthetic
models of the shapes the kernel reads (no joints, float weights, weightless vertices, no
texture coordinates, frames without anims, empty anims), handed back on the shapes it does
not read (other vertex formats, a bind pose close to singular, a frame out of range), and on
hostile files and random damage never a mesh where the numpy path raises, nor other meshes
than it poses. "The same" is :func:`test_iqm.same_pose`: uvs and triangles exactly, positions
within one float32 step of the model's size, normals exactly those of the kernel's positions."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import IN_CI, corpus_files
from iqmbuilder import set_f4, set_header, set_u4, two_bone_iqm
from test_iqm import IQM, _hostile, _same_meshes

from quakemodels.errors import ModelFormatError
from quakemodels.formats.iqm import fast
from quakemodels.formats.iqm.layout import (
    ANIM,
    FORMATS,
    HEADER_OFFSETS,
    HEADER_SIZE,
    JOINT,
    MESH,
    POSE,
    TRIANGLE,
    TYPES,
    VERTEX_ARRAY,
)
from quakemodels.formats.iqm.limits import MAX_JOINTS, MAX_POSE_FRAMES
from quakemodels.formats.iqm.model import Iqm, posed_meshes
from quakemodels.formats.iqm.scene import frame_scene

# what pose() returns when it hands a file back
OTHER_FORMAT, FAULT, NEAR_SINGULAR, OUT_OF_RANGE = 1, 2, 3, 4


def _pose() -> fast.Pose:
    if fast.POSE is None:
        if IN_CI and not os.environ.get("QUAKEMODELS_PURE_PYTHON"):
            pytest.fail("CI=true but the compiled IQM pose (_pose.c) is not built")
        pytest.skip(
            "the compiled IQM pose (_pose.c) is not in use (not built, or"
            " QUAKEMODELS_PURE_PYTHON set)"
        )
    return fast.POSE


def _plain(data: bytes, frame: int) -> Any:
    """The numpy path's meshes of ``frame``, or its error as (type, field, offset)."""
    try:
        m = Iqm(data, "x.iqm")
        return [mesh for _, mesh in m._posed_meshes(frame)]
    except ModelFormatError as e:
        return (type(e), e.field, e.offset)
    except IndexError:
        return IndexError


def _check(data: bytes, frame: int = 0) -> Any:
    """The compiled pose of ``data`` is the numpy path's meshes or hands the file back (always
    where the numpy path raises); ``Iqm.meshes`` gives the numpy path's outcome. Returns what
    pose() returned: 0 when it posed the file, the code it handed the file back with, None
    when the header refuses the file."""
    pose = _pose()
    plain = _plain(data, frame)
    try:
        m = Iqm(data, "x.iqm")
    except ModelFormatError:
        return None
    got = pose(m.data, frame, MAX_JOINTS, MAX_POSE_FRAMES)
    if isinstance(plain, list):
        if not isinstance(got, int):
            meshes = fast.compiled_meshes(Iqm(data, "x.iqm").data, frame)
            assert meshes is not None
            _same_meshes(meshes, plain)
        _same_meshes(Iqm(data, "x.iqm").meshes(frame), plain)
    else:
        assert isinstance(got, int) and got > 0, plain
        try:
            Iqm(data, "x.iqm").meshes(frame)
        except ModelFormatError as e:
            assert (type(e), e.field, e.offset) == plain
        except IndexError:
            assert plain is IndexError
        else:
            pytest.fail(f"meshes({frame}) posed a file the numpy path refuses: {plain}")
    return got if isinstance(got, int) else 0


def test_the_kernels_layout_is_layout_py() -> None:
    """The offsets, record sizes and enum values ``_pose.c`` reads by are the spec's."""
    _pose()
    from quakemodels.formats.iqm._pose import LAYOUT

    sizes = {
        "header": HEADER_SIZE,
        "mesh": MESH.itemsize,
        "vertex_array": VERTEX_ARRAY.itemsize,
        "anim": ANIM.itemsize,
        "joint": JOINT.itemsize,
        "pose": POSE.itemsize,
        "triangle": TRIANGLE.itemsize,
        "custom": TYPES["custom"],
        "ubyte": FORMATS["ubyte"],
        "float": FORMATS["float"],
    }
    for name, value in LAYOUT.items():
        assert value == sizes.get(name, HEADER_OFFSETS.get(name)), name
    # the fields read inside records, at the offsets _pose.c reads them at
    read_at = {
        (JOINT, "parent"): 4,
        (JOINT, "translate"): 8,
        (JOINT, "rotate"): 20,
        (JOINT, "scale"): 36,
        (POSE, "channel_mask"): 4,
        (POSE, "channel_offsets"): 8,
        (POSE, "channel_scales"): 48,
        (VERTEX_ARRAY, "format"): 8,
        (VERTEX_ARRAY, "size"): 12,
        (VERTEX_ARRAY, "offset"): 16,
        (MESH, "ofs_material"): 4,
        (MESH, "first_vertex"): 8,
        (MESH, "num_vertices"): 12,
        (MESH, "first_triangle"): 16,
        (MESH, "num_triangles"): 20,
        (ANIM, "first_frame"): 4,
        (ANIM, "num_frames"): 8,
    }
    for (dtype, name), at in read_at.items():
        assert dtype.fields[name][1] == at, name
    kinds = ("position", "texcoord", "blend_indexes", "blend_weights")
    assert [TYPES[t] for t in kinds] == [0, 1, 4, 5]


@pytest.mark.parametrize("path", IQM)
def test_corpus_takes_the_compiled_path_to_the_plain_meshes(path: Path) -> None:
    """Every corpus file and every frame posed by the kernel (none handed back), as the numpy
    path poses it."""
    pose = _pose()
    data = Path(path).read_bytes()
    frames = Iqm(data).num_frames
    for frame in range(frames):
        got = fast.compiled_meshes(data, frame)
        assert got is not None, frame
        _same_meshes(got, [m for _, m in posed_meshes(frame_scene(Iqm(data), frame))])
    assert pose(data, frames, MAX_JOINTS, MAX_POSE_FRAMES) == OUT_OF_RANGE
    assert fast.compiled_meshes(data, -1) is None  # negative frames: the numpy path


def test_corpus_positions_are_bit_for_bit_but_near_zero() -> None:
    """What the tolerance covers in practice: on the corpus every position is numpy's to the
    bit but a few within 1e-15 of zero, which differ by less than 1e-20 (a rest pose's bind @
    inverse bind is not exactly the identity, differently in each path), and every normal
    is."""
    _pose()
    files = corpus_files("iqm")
    if not files:
        pytest.skip("no IQM corpus")
    for path in files:
        data = Path(path).read_bytes()
        got = fast.compiled_meshes(data, 0)
        assert got is not None
        for a, (_, b) in zip(got, posed_meshes(frame_scene(Iqm(data), 0)), strict=True):
            differ = a.positions != b.positions
            assert np.abs(b.positions[differ]).max(initial=0.0) < 1e-15
            assert np.abs(a.positions - b.positions).max() < 1e-20
            assert np.array_equal(a.normals, b.normals)


# -- synthetic files of every shape the kernel reads, and those it hands back ------------------


def _arrays(data: bytes) -> dict[str, int]:
    """The byte offset of each vertex array's record by its type name."""
    h = Iqm(data).header
    out: dict[str, int] = {}
    for i, a in enumerate(Iqm(data).vertex_arrays):
        out.setdefault(a.kind, h["ofs_vertex_arrays"] + i * VERTEX_ARRAY.itemsize)
    return out


def _with_array(data: bytes, kind: str, values: np.ndarray, fmt: str) -> bytes:
    """``data`` with its ``kind`` vertex array replaced by (V,K) ``values`` stored as
    ``fmt``, appended at the end of the file."""
    record = _arrays(data)[kind]
    at = len(data) + (-len(data)) % 4
    stored = np.ascontiguousarray(values, dtype=np.dtype(_FORMAT_TYPES[fmt]).newbyteorder("<"))
    out = data.ljust(at, b"\0") + stored.tobytes()
    out = set_u4(out, record + 8, FORMATS[fmt])
    out = set_u4(out, record + 12, stored.shape[1])
    out = set_u4(out, record + 16, at)
    return set_header(out, "len_file", len(out))


_FORMAT_TYPES = {"ubyte": np.uint8, "ushort": np.uint16, "half": np.float16, "float": np.float32}


def _weights(data: bytes) -> np.ndarray:
    a = Iqm(data).array("blend_weights")
    assert a is not None
    return np.asarray(a.data, dtype=np.float64) / 255.0


SHAPES = {
    "two bones, 3 frames": lambda g: g,
    "no joints (rigid)": lambda g: set_header(g, "num_joints", 0),
    "joints but no poses": lambda g: set_header(g, "num_poses", 0),
    "frames without anims": lambda g: set_header(g, "num_anims", 0),
    "one empty anim": lambda g: set_u4(g, Iqm(g).header["ofs_anims"] + 8, 0),
    "float weights": lambda g: _with_array(g, "blend_weights", _weights(g), "float"),
    "float weights not summing to 1": lambda g: _with_array(
        g, "blend_weights", _weights(g) * 3.7, "float"
    ),
    "weightless vertices": lambda g: _with_array(
        g, "blend_weights", _weights(g) * (np.arange(8) % 3 > 0)[:, None], "float"
    ),
    "no texture coordinates": lambda g: set_u4(g, _arrays(g)["texcoord"], 7),
    "a zero rotation in a frame": lambda g: _zero_frame_rotation(g),
}


def _zero_frame_rotation(good: bytes) -> bytes:
    """Pose 1's rotation channels all constant zero: ioquake3's QuatNormalize2 makes it none."""
    at = Iqm(good).header["ofs_poses"] + POSE.itemsize
    data = set_u4(good, at + 4, 0)  # no channel read per frame; every value its offset
    for c in range(3, 7):
        data = set_f4(data, at + 8 + 4 * c, 0.0)
    used = sum(bin(int(m)).count("1") for m in Iqm(data).pose_masks)
    return set_header(data, "num_frame_channels", max(used, 1))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_shapes_the_kernel_reads_pose_as_numpy(shape: str) -> None:
    data = SHAPES[shape](two_bone_iqm())
    frames = Iqm(data).num_frames
    for frame in range(frames):
        assert _check(data, frame) == 0, frame  # taken, not handed back
    assert _check(data, frames) == OUT_OF_RANGE


HANDED_BACK = {
    "half positions": (
        lambda g: _with_array(g, "position", Iqm(g).positions, "half"),
        OTHER_FORMAT,
    ),
    "ushort blend indexes": (
        lambda g: _with_array(g, "blend_indexes", Iqm(g).blend_indexes, "ushort"),
        OTHER_FORMAT,
    ),
    "a joint scaled to 1e-29": (
        lambda g: set_f4(g, Iqm(g).header["ofs_joints"] + 36, 1e-29),
        NEAR_SINGULAR,
    ),
}


@pytest.mark.parametrize("case", sorted(HANDED_BACK))
def test_shapes_the_kernel_hands_back_are_posed_by_numpy(case: str) -> None:
    make, code = HANDED_BACK[case]
    data = make(two_bone_iqm())
    assert _check(data) == code
    assert isinstance(_plain(data, 0), list)  # posed, by the numpy path


@pytest.mark.parametrize("case", list(_hostile()))
def test_hostile_files_are_handed_back_where_numpy_raises(case: str) -> None:
    _check(_hostile()[case])


def test_random_damage_never_poses_what_numpy_refuses() -> None:
    """Bytes changed at random in the header, the records and the data, and every cut: the
    kernel gives the numpy path's meshes or hands the file back, and reads nothing outside
    the buffer (run it under ASan: see docs/performance.md)."""
    _pose()
    good = two_bone_iqm()
    rng = np.random.default_rng(38)
    for cut in range(HEADER_SIZE, len(good), 7):
        _check(set_header(good[:cut], "len_file", cut))
    for _ in range(400):
        b = bytearray(good)
        # past the magic, version and len_file, which the reader checks before any pose
        for i in rng.integers(HEADER_OFFSETS["flags"], len(good), 2):
            b[i] = int(rng.integers(0, 256))
        _check(bytes(b), int(rng.integers(0, 3)))


def _shared_meshes(good: bytes) -> bytes:
    """``good`` with its one mesh record twice: two meshes over the same vertices."""
    h = Iqm(good).header
    record = good[h["ofs_meshes"] : h["ofs_meshes"] + MESH.itemsize]
    at = len(good)
    data = set_header(good + record * 2, "ofs_meshes", at)
    data = set_header(data, "num_meshes", 2)
    return set_header(data, "len_file", len(data))


def test_meshes_sharing_vertices_are_posed_by_numpy() -> None:
    """Outputs the size of meshes × vertices are not allocated: the numpy path poses them."""
    data = _shared_meshes(two_bone_iqm())
    assert _check(data) == OTHER_FORMAT
    assert len(_plain(data, 0)) == 2


@pytest.mark.parametrize(
    "claim",
    [
        ("num_joints", MAX_JOINTS),
        ("num_vertices", 0xFFFFFFFF),
        ("num_triangles", 0xFFFFFFFF),
        ("num_frames", 0xFFFFFFFF),
        ("num_meshes", 0xFFFFFFFF),
    ],
    ids=lambda c: c[0],
)
def test_claimed_counts_allocate_nothing_before_their_sections_fit(claim: tuple[str, int]) -> None:
    """A small file claiming huge counts is handed back before anything is allocated (the
    vertices here with no vertex arrays at all, which bounds nothing by the file's size)."""
    pose = _pose()
    field, value = claim
    data = set_header(two_bone_iqm(), field, value)
    if field == "num_vertices":
        data = set_header(data, "num_vertex_arrays", 0)
        data = set_u4(data, Iqm(data).header["ofs_meshes"] + 12, value)  # the mesh claims them
    tracemalloc.start()
    try:
        got = pose(data, 0, MAX_JOINTS, MAX_POSE_FRAMES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == FAULT
    assert peak < 16 * len(data)


def test_bad_arguments_raise() -> None:
    pose = _pose()
    with pytest.raises(TypeError):
        pose("not bytes", 0, 1, 1)  # type: ignore[arg-type]
    assert pose(b"short", 0, 1, 1) == OTHER_FORMAT
