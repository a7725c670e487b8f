"""Inputs the fuzzers broke the package with, regenerated with the test builder (minimized).

Each test names what escaped and where it was fixed; the bytes are synthetic (tests/md2builder.py),
never corpus content.
"""

from __future__ import annotations

import tracemalloc
import warnings
from pathlib import Path

import pytest
from md2builder import Md2Spec, build, gl_command, set_header

import quakemodels
from quakemodels import ModelFormatError
from quakemodels.formats.md2.check import check_md2
from quakemodels.registry import scene as from_model


@pytest.mark.parametrize("section", ["ofs_triangles", "ofs_tex_coords", "ofs_frames"])
def test_empty_section_with_offset_past_the_end(section: str) -> None:
    """atheris: check raised ValueError from np.frombuffer (fixed in check.py: empty sections
    are never read). A section with no items may point anywhere."""
    counts = {
        "ofs_triangles": "num_triangles",
        "ofs_tex_coords": "num_tex_coords",
        "ofs_frames": "num_frames",
    }
    data = set_header(set_header(build(), counts[section], 0), section, 10**6)
    for engine in ("any", "quake2", "q2pro", "quake3"):
        findings = check_md2(data, engine)
        assert "internal" not in {f.code for f in findings}
    # Quake II refuses a model with none of these; the report says which.
    empty = [f for f in check_md2(data, "quake2") if f.code == "empty"]
    assert [f.field for f in empty] == [counts[section]]


def test_export_of_a_model_without_frames() -> None:
    """hypothesis (num_frames=0): the exporter raised IndexError from mesh(0) (fixed first in
    the exporter; now the reader refuses the file at load, naming num_frames)."""
    with pytest.raises(ModelFormatError, match="no frames") as e:
        quakemodels.load(set_header(build(), "num_frames", 0))
    assert (e.value.field, e.value.offset) == ("num_frames", 40)


def test_many_one_vertex_gl_commands_stay_small() -> None:
    """Budget driver: 20000 one-vertex GL commands made a Python object each (33x the file
    size, 250 ms/MB). Fixed in md2.py: GlCommands builds a command when asked for."""
    n = 20000
    data = build(Md2Spec(gl_dwords=[*gl_command("strip", [(0.25, 0.5, 3)]) * n, 0]))
    m = quakemodels.load(data)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        commands = m.gl_commands
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < 20 * len(data)
    assert len(commands) == n
    last = commands[-1]
    assert last.primitive == "strip"
    assert last.vertex_indices.tolist() == [3]
    assert last.texcoords.tolist() == [[0.25, 0.5]]
    assert last.offset == m.ofs_gl_commands + 16 * (n - 1)
    assert [c.offset for c in commands[:2]] == [m.ofs_gl_commands, m.ofs_gl_commands + 16]
    with pytest.raises(IndexError):
        commands[n]
    # The checker reports them (they draw nothing) without a finding per command.
    short = [f for f in check_md2(data, "any") if f.code == "gl-short-command"]
    assert len(short) == 1 and f"({n - 1} more)" in short[0].message


def test_gltf_export_of_a_nan_frame_scale() -> None:
    """atheris heavy: a NaN frame scale reached json.dumps (ValueError: out of range float).
    Fixed in export/gltf.py: non-finite geometry is a BadValueError; check reports it."""
    import numpy as np

    from quakemodels.interchange.gltf_write import build_gltf

    verts = np.array([[0, 0, 0, 1], [9, 0, 0, 1], [9, 9, 0, 1], [0, 9, 0, 1]], np.uint8)
    frames = [((float("nan"), 1.0, 1.0), (0.0, 0.0, 0.0), b"f", verts)]
    data = build(Md2Spec(frames=frames))
    with pytest.raises(
        ModelFormatError, match=r"frame 0: positions\[0\]\[0\]=\[nan, 0.0, 0.0\] is not finite"
    ) as e:
        build_gltf(from_model(quakemodels.load(data)))
    assert e.value.field == "positions"
    bad = [f for f in check_md2(data, "any") if f.code == "non-finite"]
    assert [(f.severity, f.field, f.offset) for f in bad] == [
        ("error", "scale", quakemodels.load(data).ofs_frames)
    ]


REGRESSIONS = Path(__file__).parent


def test_mdl_scale_that_overflows_float32() -> None:
    """Mutation fuzzing of MDL seeds (an int32 written over header ``scale.x``): positions
    decoded to inf with only a numpy RuntimeWarning, and the exporters wrote non-finite
    glTF bounds (fixed in formats/mdl/reader.py: a BadValueError naming ``scale``; check.py
    reports it). The file is hand-made with tests/mdlbuilder.py: scale (1e38, 0.25, 1)."""
    data = (REGRESSIONS / "mdl_scale_overflow.mdl").read_bytes()
    m = quakemodels.load(data)
    assert m.num_poses == 2 and m.header["scale"][0] == pytest.approx(1e38, rel=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning either
        with pytest.raises(ModelFormatError, match="not finite in float32") as e:
            m.positions  # noqa: B018
    assert (e.value.field, e.value.offset) == ("scale", 8)
    with pytest.raises(ModelFormatError) as e2:
        from_model(m)
    assert (e2.value.field, e2.value.offset) == ("scale", 8)
    findings = quakemodels.check_model(data)
    assert [(f.code, f.field, f.offset) for f in findings if f.severity == "error"] == [
        ("not-finite", "scale", 8)
    ]
