"""Mutation fuzzing with hypothesis, seeded from synthetic files and the corpus.

Every mutated input must either load or raise ModelFormatError — through load, every array,
``mesh(0)``, the checker (which never raises at all), the JSON dump and the exporters (see
fuzz/harness.py). Deterministic (``derandomize=True``) with a bounded number of examples, so CI
runs the same short slice every time; ``QUAKEMODELS_FUZZ_EXAMPLES=N`` runs more (``make fuzz``).
Time and memory budgets are measured by the fuzz drivers (fuzz/fuzz_md2.py, fuzz/budgets.py),
not asserted here.
"""

from __future__ import annotations

import os
import struct
import sys
import tracemalloc
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, REPO, corpus_files, corpus_params, formats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from md2builder import FIELDS as MD2_FIELDS
from md2builder import Md2Spec, build, set_header

sys.path.insert(0, str(REPO / "fuzz"))
import harness
import seeds

import quakemodels

EXAMPLES = int(os.environ.get("QUAKEMODELS_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    derandomize=True,
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# The dump and the exporters are slow on big models; they run on inputs up to this size.
HEAVY_LIMIT = 32 * 1024
SPECIAL = (0, -1, 1, 2**31 - 1, -(2**31), 0x7FFF, 0xFFFF, 1 << 20)
HEADER = struct.Struct("<4s16i")


@cache
def seed_files() -> tuple[bytes, ...]:
    """The synthetic seeds of every format plus every corpus file of it (when present)."""
    synthetic = list(seeds.synthetic_models())
    corpus = [p.read_bytes() for f in formats() for p in corpus_files(f.name)]
    return tuple(synthetic + corpus)


@cache
def small_seeds() -> tuple[bytes, ...]:
    """Seeds small enough for exhaustive mutation (synthetic, and corpus files ≤ 32 KB)."""
    return tuple(d for d in seed_files() if len(d) <= HEAVY_LIMIT)


def run(data: bytes) -> None:
    harness.exercise(data, heavy=len(data) <= HEAVY_LIMIT)


def md2_boundaries(data: bytes) -> list[int]:
    """Every MD2 section start and end the header names (clipped to the data), ±1."""
    if len(data) < HEADER.size or data[:4] != b"IDP2":
        return []
    h = dict(zip(MD2_FIELDS, HEADER.unpack_from(data)[1:], strict=True))
    sizes = {
        "ofs_skins": ("num_skins", 64),
        "ofs_tex_coords": ("num_tex_coords", 4),
        "ofs_triangles": ("num_triangles", 12),
        "ofs_frames": ("num_frames", h["bytes_per_frame"]),
        "ofs_gl_cmds": ("num_gl_cmds", 4),
    }
    points = {0, 4, 8, HEADER.size - 1, HEADER.size, len(data) - 1, h["ofs_end"]}
    for ofs_name, (num_name, item) in sizes.items():
        start = h[ofs_name]
        end = start + h[num_name] * item
        points.update({start - 1, start, start + 1, end - 1, end, start + item})
    return sorted(p for p in points if 0 <= p < len(data))


def md3_boundaries(data: bytes) -> list[int]:
    """MD3 header, frame, tag and surface offsets (and each surface's sections), ±1."""
    if len(data) < 108 or data[:4] != b"IDP3":
        return []
    points = {0, 4, 72, 107, 108, len(data) - 1}
    ofs = struct.unpack_from("<4i", data, 92)  # ofs_frames, ofs_tags, ofs_surfaces, ofs_end
    points.update(ofs)
    surface = ofs[2]
    for _ in range(8):  # follow the surface chain a few steps
        if not 0 <= surface <= len(data) - 108:
            break
        fields = struct.unpack_from("<5i", data, surface + 84)  # ofs_triangles .. ofs_end
        points.update({surface, surface + 108, *(surface + f for f in fields)})
        step = fields[-1]
        if step <= 0:
            break
        surface += step
    return sorted(q for p in points for q in (p - 1, p, p + 1) if 0 <= q < len(data))


def mdl_boundaries(data: bytes) -> list[int]:
    """Where an MDL's skins, texcoords, triangles, frames and poses start and end, ±1 (from
    the reader's section walk; nothing when the file does not open)."""
    from quakemodels.formats.mdl import Mdl

    try:
        m = Mdl.from_bytes(data)
    except quakemodels.ModelFormatError:
        return []
    points = {0, 4, 84, m.ofs_texcoords, m.ofs_triangles, m.ofs_frames, m.ofs_end, len(data)}
    points.update(g.offset for g in m.skin_groups)
    points.update(g.offset for g in m.frame_groups)
    points.update(m.pose_offsets)
    return sorted(q for p in points for q in (p - 1, p, p + 1) if 0 <= q < len(data))


# -- exhaustive, deterministic mutations ------------------------------------------------------


def test_every_target_is_present() -> None:
    """The dump and the exporters exist, so the heavy path really runs them."""
    import quakemodels.core.dump
    import quakemodels.formats.md3
    import quakemodels.interchange.gltf_write
    import quakemodels.interchange.obj_write

    assert callable(quakemodels.core.dump.dumps)
    assert callable(quakemodels.interchange.gltf_write.build_gltf)
    assert callable(quakemodels.interchange.obj_write.obj_text)
    assert callable(quakemodels.formats.md3.Md3.from_bytes)


def test_seeds_load() -> None:
    """Every seed runs through the harness (the corpus ones are real, valid models)."""
    for data in seed_files():
        harness.exercise(data, heavy=False)


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, id=p.name)
        for p in corpus_files("md2") + corpus_files("md3") + corpus_files("mdl")
    ]
    + [pytest.param(p, id=p.name) for p in sorted((CORPUS / "md5").glob("*/*.md5*"))]
    or corpus_params("md2"),  # one skip that says why
)
def test_corpus_parsing_within_its_memory_budget(path: Path) -> None:
    # the budget fuzz/budgets.py holds mutated files to (20 x the input + 256 KB of traced
    # memory): the MD2 checker's zero-area test once peaked at 34x on corpus files
    data = path.read_bytes()
    _, peak = harness.measure(data)
    assert peak <= harness.memory_budget(len(data)), f"{peak / len(data):.1f}x the input"


def test_mesh_of_a_small_file_naming_many_pairs_within_the_memory_budget() -> None:
    # 1,024 vertices and 1,024 texcoords in 8 KB: a table over every (vertex, texcoord) pair
    # would be 4 MB, 500x the file; the first mesh sorts the corners instead
    verts = np.zeros((1024, 4), np.uint8)
    spec = Md2Spec(
        frames=[((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f", verts)],
        triangles=[(0, 511, 1023, 0, 511, 1023)],
        texcoords=[(k % 64, k // 64) for k in range(1024)],
    )
    data = build(spec)
    model = quakemodels.load(data)
    tracemalloc.start()
    try:
        mesh = model.mesh(0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= harness.memory_budget(len(data)), f"{peak / len(data):.1f}x the input"
    assert mesh.indices.tolist() == [[0, 2, 1]] and mesh.texcoord_ids.tolist() == [0, 511, 1023]


@pytest.mark.parametrize("index", range(len(small_seeds())))
def test_truncation_at_every_section_boundary(index: int) -> None:
    data = small_seeds()[index]
    for cut in {*md2_boundaries(data), *md3_boundaries(data), *mdl_boundaries(data)}:
        harness.exercise(data[:cut], heavy=False)


@pytest.mark.parametrize("field", MD2_FIELDS)
def test_md2_header_field_special_values(field: str) -> None:
    data = build()
    size = len(data)
    for value in (*SPECIAL, size, size + 1, size - 1, 10 * size):
        run(set_header(data, field, value))


def small_md2_seeds() -> list[bytes]:
    return [d for d in small_seeds() if d[:4] == b"IDP2"]


@pytest.mark.parametrize("index", range(len(small_md2_seeds())))
def test_md2_overlapping_and_swapped_offsets(index: int) -> None:
    data = small_md2_seeds()[index]
    h = dict(zip(MD2_FIELDS, HEADER.unpack_from(data)[1:], strict=True))
    offsets = [f for f in MD2_FIELDS if f.startswith("ofs_")]
    for a in offsets:
        for b in offsets:
            if a == b:
                continue
            # overlap: a's section starts where b's does; then the two swapped
            overlapping = set_header(data, a, h[b])
            swapped = set_header(overlapping, b, h[a])
            for mutated in (overlapping, swapped):
                harness.exercise(mutated, heavy=len(mutated) <= 4096)


# -- hypothesis: random mutations of every seed ------------------------------------------------


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(seed_files())))
    kind = draw(st.sampled_from(["flip", "int32", "truncate", "boundary", "splice"]))
    if kind == "flip" and data:
        for _ in range(draw(st.integers(1, 16))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
    elif kind == "int32" and len(data) >= 4:
        # Header and surface-header fields are int32s: overwrite aligned words near the
        # start (where the headers are) with special or arbitrary values.
        for _ in range(draw(st.integers(1, 4))):
            limit = min(len(data) - 4, 512)
            i = 4 * draw(st.integers(0, limit // 4))
            value = draw(st.one_of(st.sampled_from(SPECIAL), st.integers(-(2**31), 2**31 - 1)))
            data[i : i + 4] = struct.pack("<i", value)
    elif kind == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif kind == "boundary":
        points = md2_boundaries(bytes(data)) + md3_boundaries(bytes(data))
        points += mdl_boundaries(bytes(data))
        if points:
            data = data[: draw(st.sampled_from(points))]
    elif kind == "splice":
        other = draw(st.sampled_from(seed_files()))
        at = draw(st.integers(0, len(data)))
        data = data[:at] + other[draw(st.integers(0, len(other))) :]
    return bytes(data)


@FUZZ
@given(mutated())
def test_mutations_load_or_raise_model_format_error(data: bytes) -> None:
    run(data)


@FUZZ
@given(st.binary(max_size=512).map(lambda tail: b"IDP2\x08\0\0\0" + tail))
def test_random_md2_headers(data: bytes) -> None:
    run(data)


@FUZZ
@given(st.binary(max_size=512).map(lambda tail: b"IDP3\x0f\0\0\0" + tail))
def test_random_md3_headers(data: bytes) -> None:
    run(data)


@FUZZ
@given(st.binary(max_size=512).map(lambda tail: b"IDPO\x06\0\0\0" + tail))
def test_random_mdl_headers(data: bytes) -> None:
    run(data)


@FUZZ
@given(
    st.integers(0, 40),
    st.integers(0, 3000),
    st.integers(-3, 3),
    st.integers(0, 3),
)
def test_builder_models_with_odd_counts(frames: int, vertices: int, extra: int, skins: int) -> None:
    """Valid-layout files at the engines' limits (frames, vertices, framesize padding)."""
    import numpy as np

    verts = np.zeros((vertices, 4), np.uint8)
    verts[:, 0] = np.arange(vertices) % 256
    spec = Md2Spec(
        frames=[((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f%d" % i, verts) for i in range(frames)]
        or [((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f", verts)],
        skins=[b"s%d.pcx" % i for i in range(skins)],
        framesize_extra=max(extra, 0),
    )
    data = build(spec)
    if extra < 0:
        data = set_header(data, "bytes_per_frame", 40 + 4 * vertices + extra)
    run(data)


# -- structure-aware generators (fuzz/structured.py): a deterministic slice ---------------------


@pytest.mark.parametrize("seed", range(4))
def test_structured_generators(seed: int) -> None:
    """Hostile glTF fields, multi-surface MD3s sharing sections and many-skin MD2s: only
    ModelFormatError escapes, within the budgets (40 inputs per seed, every generator)."""
    import structured

    for label, data in structured.cases(seed, 40):
        structured.run_case(label, data, budgets=seed == 0)


def test_gltf_generator_survives_its_own_hostile_extras() -> None:
    """Case 988 of seed 0 set the tag node's extras to a number and then changed its rotation,
    which reads the extras' frames: the generator itself raised TypeError, ending the run."""
    import random

    import structured

    rng = random.Random(0)
    labels = [structured.gltf_case(rng)[0] for _ in range(1000)]
    assert "node extras=-4096" in labels[987] and "node rotation=1.5" in labels[987]


@pytest.mark.parametrize("seed", range(2))
def test_writer_bad_input(seed: int) -> None:
    """Hostile arguments to every build, from_scene and from_imported (fuzz/writers.py): a
    model or a ModelFormatError, never a numpy warning (300 calls per seed)."""
    import writers

    for _label, call in writers.cases(seed, 300):
        writers.run_case(call)


# -- warnings as errors ----------------------------------------------------------------------


def test_harness_turns_numpy_warnings_into_escapes() -> None:
    # numpy's cast warnings are text a user would see: inside the harness they raise.
    with (
        pytest.raises(RuntimeWarning, match="overflow encountered in cast"),
        harness.strict_warnings(),
    ):
        np.array([1e39]).astype(np.float32)
    with harness.strict_warnings():  # the package's own warnings are not escapes
        warnings.warn("odd name", quakemodels.QuakeModelsWarning, stacklevel=1)


FRAME_FLOATS = (1e38, -3e38, float("inf"), float("-inf"), float("nan"), 3.4e38)


@pytest.mark.parametrize("value", FRAME_FLOATS, ids=map(str, FRAME_FLOATS))
def test_md2_frame_scale_and_translate_extremes(value: float) -> None:
    """Every scale and translate float of frame 0 of each small MD2 seed set to an extreme:
    inf/NaN/overflowing positions load, and check, export and render refuse or report them
    without a numpy warning (the harness runs with warnings as errors)."""
    for data in small_md2_seeds():
        (ofs_frames,) = struct.unpack_from("<i", data, 56)
        for word in range(6):
            mutated = bytearray(data)
            struct.pack_into("<f", mutated, ofs_frames + 4 * word, value)
            harness.exercise(bytes(mutated), heavy=True, engines=("any",))
