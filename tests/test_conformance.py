"""The format contract, proven on every registered format and every corpus file of it.

Parametrized over ``quakemodels.formats.FORMATS`` (the kinds read from bytes) and the files of
each format's corpus folder (``../shared/corpus/<format name>/``, by suffix), so a new format
is picked up with no edit here. Per file:

- ``to_bytes`` gives back the file byte for byte;
- every truncation at a stride of cuts raises ModelFormatError naming a field (a cut inside
  trailing bytes the format keeps opaque, such as an MDL's QMEX trailer, loads instead and
  must write back exactly the cut bytes);
- ``check`` never raises, on the file, its truncations and damaged copies;
- export then import gives the model back: a mesh through glTF exactly (float32 morph
  deltas), and rebuilt by the format's ``build`` within its quantization; an image kind's
  frames rebuilt by its ``build`` exactly;
- ``dump`` equals the Kaitai Web IDE's Export to JSON (tools/crosscheck.js);
- the fuzzers' seeds (fuzz/seeds.py) hold files of the format.

A format lacking a capability skips that case with a reason naming the capability; a format
with no corpus folder skips, and fails under CI=true.
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import conftest
import numpy as np
import numpy.typing as npt
import pytest
from conftest import (
    IN_CI,
    REPO,
    accepts,
    corpus_folder,
    formats,
    has,
    kind_of,
    no_corpus,
    service,
)

from quakemodels.core.scene import ExportModel
from quakemodels.errors import ModelFormatError
from quakemodels.formats.contract import Format
from quakemodels.interchange.convert import BuildOptions, Source
from quakemodels.interchange.gltf_read import read_gltf_scene
from quakemodels.interchange.gltf_write import export_gltf

sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "fuzz"))

import crosscheck
import seeds

MESH = "animated mesh"
CUTS = 48
"""Truncations tried per file: evenly spaced cuts from 0 to the last byte (plus the header's
every byte, where most fields are)."""
HEADER_CUTS = 64


def files_of(fmt: Format) -> list[Path]:
    """The corpus files of ``fmt``: its folder's files (subfolders too) with one of its
    suffixes."""
    folder = corpus_folder(fmt.name)
    found = sorted(folder.rglob("*")) if folder.is_dir() else []
    return [p for p in found if p.is_file() and p.suffix.lower() in fmt.suffixes]


def cases() -> Iterator[Any]:
    for fmt in formats():
        files = files_of(fmt)
        if not files:
            # Under CI the test runs and fails (no_corpus); elsewhere it skips with the folder.
            marks = (
                []
                if IN_CI
                else [pytest.mark.skip(reason=f"no corpus at {corpus_folder(fmt.name)}")]
            )
            yield pytest.param(fmt, None, marks=marks, id=f"{fmt.name}-no-corpus")
        for p in files:
            yield pytest.param(fmt, p, id=f"{fmt.name}-{p.name}")


CASES = list(cases())


def need(fmt: Format, capability: str) -> None:
    """Skip the case, naming the capability, when ``fmt`` does not offer it."""
    if not has(fmt, capability):
        pytest.skip(f"{fmt.name} lacks the {capability!r} capability")


def read(fmt: Format, path: Path | None) -> bytes:
    if path is None:
        no_corpus(corpus_folder(fmt.name))
    data = path.read_bytes()
    assert accepts(fmt, data), f"{path} does not pass {fmt.name}'s magic/version test"
    return data


def open_model(fmt: Format, data: bytes, name: str | None = None) -> Any:
    return service(fmt, "model").from_bytes(data, name=name)


def cuts(size: int) -> list[int]:
    """Lengths to cut a file of ``size`` bytes to: the header's first bytes one by one, then
    :data:`CUTS` evenly spaced, all shorter than the file."""
    spaced = np.linspace(0, size - 1, CUTS).astype(int).tolist()
    return sorted({*range(min(HEADER_CUTS, size)), *spaced})


@pytest.mark.parametrize(("fmt", "path"), CASES)
def test_to_bytes_round_trip_is_exact(fmt: Format, path: Path | None) -> None:
    data = read(fmt, path)
    need(fmt, "model")
    model = open_model(fmt, data, path.name if path else None)
    if not hasattr(model, "to_bytes"):
        pytest.skip(f"{fmt.name} lacks the 'to_bytes' capability")
    assert model.to_bytes() == data


@pytest.mark.parametrize(("fmt", "path"), CASES)
def test_every_truncation_raises_naming_a_field(fmt: Format, path: Path | None) -> None:
    data = read(fmt, path)
    need(fmt, "model")
    loaded = []
    for cut in cuts(len(data)):
        try:
            model = open_model(fmt, data[:cut])
            whole = getattr(model, "load_all", None)  # a lazy model decodes everything
            if whole is not None:
                whole()
        except ModelFormatError as e:
            assert e.field, f"cut at {cut}: {e} names no field"
            assert str(e), f"cut at {cut}: empty message"
            continue
        # Only trailing bytes kept opaque may be cut: the model is whole, and writes back what
        # it was given.
        loaded.append(cut)
        if hasattr(model, "to_bytes"):
            assert model.to_bytes() == data[:cut], f"cut at {cut} loads but does not write back"
    if loaded:
        # ...and they are trailing: once a cut loads, every longer cut loads too.
        tried = cuts(len(data))
        assert tried[tried.index(loaded[0]) :] == loaded, f"cuts that load: {loaded}"
        assert loaded[0] > HEADER_CUTS


def damaged(data: bytes) -> Iterator[bytes]:
    """Copies of ``data`` with a header word set to extremes and bytes flipped at a stride."""
    for offset in range(4, min(len(data), 96), 4):
        for word in (b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80", b"\x00\x00\x00\x00"):
            yield data[:offset] + word + data[offset + 4 :]
    for offset in np.linspace(0, len(data) - 1, 16).astype(int).tolist():
        yield data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1 :]


@pytest.mark.filterwarnings("ignore::quakemodels.errors.QuakeModelsWarning")
@pytest.mark.parametrize(("fmt", "path"), CASES)
def test_check_never_raises(fmt: Format, path: Path | None) -> None:
    data = read(fmt, path)
    need(fmt, "check")
    check = service(fmt, "check")
    findings = check(data, "any", name=path.name if path else None)
    assert isinstance(findings, list)
    assert not [f for f in findings if f.severity == "error"], findings  # the corpus loads
    for variant in [*(data[:c] for c in cuts(len(data))[::4]), *damaged(data)]:
        found = check(variant, "any")
        assert isinstance(found, list)


def positions(model: ExportModel) -> list[npt.NDArray[np.float32]]:
    """Each surface's (F, V, 3) positions."""
    return [s.positions for s in model.surfaces]


def quantum(model: ExportModel) -> npt.NDArray[np.float64]:
    """(3,) the coarsest step a Quake mesh format stores a position with, per axis: a byte
    over the model's extent (MD2 per frame, MDL over all frames) or MD3's 1/64 unit."""
    every = np.concatenate([p.reshape(-1, 3) for p in positions(model)])
    extent = every.max(axis=0).astype(np.float64) - every.min(axis=0)
    step: npt.NDArray[np.float64] = np.maximum(extent / 255.0, 1.0 / 64.0)
    return step


@pytest.mark.parametrize(("fmt", "path"), CASES)
def test_export_import_gives_the_model_back(fmt: Format, path: Path | None, tmp_path: Path) -> None:
    data = read(fmt, path)
    if kind_of(fmt) != MESH:
        frames_round_trip(fmt, data, path)
        return
    need(fmt, "scene")
    model = open_model(fmt, data, path.name if path else None)
    scene: ExportModel = service(fmt, "scene")(model)
    out = tmp_path / "model.glb"
    export_gltf(scene, out)
    back = read_gltf_scene(out)
    assert len(back.surfaces) == len(scene.surfaces)
    for a, b in zip(scene.surfaces, back.surfaces, strict=True):
        assert a.positions.shape == b.positions.shape
        # glTF keeps frames as float32 morph deltas from the base: exact up to their rounding
        np.testing.assert_allclose(b.positions, a.positions, rtol=0, atol=1e-4)
        np.testing.assert_array_equal(b.indices, a.indices)
    need(fmt, "build")
    # the target side of `quakemodels convert model.glb back.<suffix>`: the build service
    # given the glTF as its Source, with the CLI's default options
    target = tmp_path / f"back{fmt.suffixes[0]}"
    built = service(fmt, "build")(Source(paths=(out,)), BuildOptions(out=target))
    again = open_model(fmt, built.model.to_bytes())
    got = service(fmt, "scene")(again)
    step = quantum(scene)
    want_all = np.concatenate([p.reshape(p.shape[0], -1, 3) for p in positions(scene)], axis=1)
    got_all = np.concatenate([p.reshape(p.shape[0], -1, 3) for p in positions(got)], axis=1)
    # A writer may weld or reorder corners: compare each frame's points as sorted sets.
    assert got_all.shape[0] == want_all.shape[0]
    for f in range(want_all.shape[0]):
        w = np.unique(want_all[f], axis=0)
        g = np.unique(got_all[f], axis=0)
        dist = np.abs(w[:, None, :] - g[None, :, :]).max(axis=2)  # (W, G) Chebyshev
        assert (dist.min(axis=1) <= step.max()).all(), f"frame {f}: a point moved"


def frames_round_trip(fmt: Format, data: bytes, path: Path | None) -> None:
    """An image kind's export -> import: its frames (RGBA, what PNG/GIF export writes) built
    back into the format with the build's defaults give the same frames: count, sizes, origins,
    groups and intervals exactly, and every opaque pixel's colour (the colours come from the
    format's palette, so quantizing them again is exact; alpha modes such as additive are the
    model's facts, not the frames', and build defaults them)."""
    need(fmt, "frames")
    model = open_model(fmt, data, path.name if path else None)
    frames = service(fmt, "frames")(model)
    need(fmt, "build")
    # the target side of `quakemodels convert x.spr back.spr`: the build service given the
    # frames as its Source, with the CLI's default options
    target = Path(path.name if path else f"sprite{fmt.suffixes[0]}")
    source = Source(paths=(target,), framer=lambda palette: frames)
    rebuilt = service(fmt, "build")(source, BuildOptions(out=target)).model
    again = service(fmt, "frames")(open_model(fmt, rebuilt.to_bytes()))
    assert len(again.frames) == len(frames.frames)
    for i, (a, b) in enumerate(zip(frames.frames, again.frames, strict=True)):
        assert a.rgba.shape == b.rgba.shape, i
        assert (b.origin, b.interval, b.group) == (a.origin, a.interval, a.group), i
        opaque = (a.rgba[..., 3] == 255) & (b.rgba[..., 3] == 255)
        np.testing.assert_array_equal(b.rgba[opaque], a.rgba[opaque], err_msg=f"frame {i}")


@cache
def ide_exports() -> dict[str, dict[str, Any]]:
    """file path -> (python side, js side) of tools/crosscheck for every corpus file of every
    format: one node run per format (its own output folder: names repeat across folders)."""
    work = Path(tempfile.mkdtemp(prefix="conformance-crosscheck."))
    results: dict[str, dict[str, Any]] = {}
    for fmt in formats():
        files = files_of(fmt) if fmt.spec_id else []
        if not files:
            continue
        out = work / fmt.name
        (out / "py").mkdir(parents=True)
        proc = crosscheck.start_node(files, out / "js")
        try:
            py = {str(p): crosscheck.python_side(p, out / "py" / (p.name + ".json")) for p in files}
        finally:
            js = crosscheck.node_results(proc)
        for p in files:
            results[str(p)] = {"py": py[str(p)], "js": js[str(p)]}
    return results


@pytest.mark.parametrize(("fmt", "path"), CASES)
def test_dump_equals_the_web_ide_export(fmt: Format, path: Path | None) -> None:
    read(fmt, path)
    if not fmt.spec_id:
        pytest.skip(f"{fmt.name} lacks the 'spec_id' capability (no generated parser to dump)")
    if not (REPO / "node_modules" / "kaitai-struct").is_dir():
        if IN_CI:
            pytest.fail("CI=true but node_modules is missing (run `make setup`)")
        pytest.skip("node_modules is missing (run `make setup`)")
    assert path is not None
    sides = ide_exports()[str(path)]
    assert sides["py"]["spec"] == fmt.spec_id
    agree, line = crosscheck.compare(sides["py"], sides["js"], path.name)
    assert agree, line


@cache
def fuzz_seeds() -> tuple[bytes, ...]:
    return tuple(seeds.all_seeds())


@pytest.mark.parametrize("fmt", formats(), ids=lambda f: f.name)
def test_fuzz_seeds_hold_the_format(fmt: Format) -> None:
    """fuzz/seeds.py writes seeds of every format: its synthetic files and corpus files."""
    found = [d for d in fuzz_seeds() if accepts(fmt, d)]
    folder_files = files_of(fmt)
    if not found and not folder_files and not IN_CI:
        pytest.skip(f"no corpus at {corpus_folder(fmt.name)} and no synthetic {fmt.name} seed")
    assert found, f"no fuzz seed passes {fmt.name}'s magic test"
    small = [p.read_bytes() for p in folder_files if p.stat().st_size <= seeds.MAX_SIZE]
    for data in small:  # every small corpus file is a seed
        assert data in found


def test_a_format_without_corpus_skips_or_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """The case a format with no corpus folder gets: a skip naming the folder, a failure under
    CI=true (where every corpus test must run)."""
    fmt = formats()[0]
    monkeypatch.setattr(conftest, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="corpus not found at"):
        read(fmt, None)
    monkeypatch.setattr(conftest, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="CI=true but"):
        read(fmt, None)


IMAGE_CASES = [case for case in CASES if kind_of(case.values[0]) != MESH]


@pytest.mark.parametrize(("fmt", "path"), IMAGE_CASES)
def test_an_image_kind_exports_as_a_user_runs_it(
    fmt: Format, path: Path | None, tmp_path: Path
) -> None:
    # `quakemodels export sprite -o x.gif` and `-o x.png`, the command line's own path: an
    # animated GIF of every picture and one PNG per picture, equal to the frames service's
    if path is None:
        pytest.skip("no corpus file")
    from PIL import Image

    from quakemodels.cli import main
    from quakemodels.interchange.sprites import png_frames

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Quake II sprite's images may be missing
        frames = service(fmt, "frames")(open_model(fmt, read(fmt, path), str(path)))
        assert main(["export", str(path), "-o", str(tmp_path / "x.gif")]) == 0
        assert main(["export", str(path), "-o", str(tmp_path / "x.png")]) == 0
    gif = Image.open(tmp_path / "x.gif")
    left, top, right, bottom = frames.bounds()
    assert gif.size == (right - left, bottom - top)
    # Pillow merges a GIF's identical consecutive frames when it saves them
    assert 1 <= gif.n_frames <= len(frames.frames)
    names = [f"x_{i}.png" for i in range(len(frames))] if len(frames) > 1 else ["x.png"]
    assert sorted(p.name for p in tmp_path.glob("x*.png")) == sorted(names)
    for name, want in zip(names, png_frames(frames), strict=True):
        assert (tmp_path / name).read_bytes() == want
