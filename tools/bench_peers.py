"""The peers table of ``make bench``: quakemodels against assimp, three.js, vgio and numpy.

Every figure comes from the same run, measured side by side (the machines are shared and noisy:
compare the ratios, not the absolute times). The corpus is the shared corpus's ``md2/`` and
``md3/`` folders. Peers that are not installed are skipped, with the line that installs them:

* assimp through Python: ``pip install impasse`` (a cffi binding) over Debian's ``libassimp5``
  (``apt-get install libassimp5``); the ``assimp`` command from ``apt-get install assimp-utils``
* three.js's MD2Loader in node: ``make node`` (three is a dev dependency)
* vgio 1.3.0: the dev extra (``make setup``)

Rows (targets in brackets; "x" is quakemodels' time over the peer's unless said otherwise):

  first mesh     ``load(bytes).meshes(0)``: frame 0 with normals and UVs, render-ready, against
                 assimp importing the same bytes (``aiImportFileFromMemory``, which builds
                 frame 0 with normals and UVs); median over the corpus MD2 + MD3 [<= 1x]
  first mesh     ``load(path).meshes(0)`` against assimp importing the same path
  from a path    (``aiImportFile``): a plain file should cost its read, not the probes for
                 player folders, archives and game folders; median per-file ratio over the
                 corpus MD2 + MD3, each file's time the best of 30 runs [<= 1x]
  full load      every array of every frame (``load_all``), median over the animated corpus
                 MD2s, against three.js's MD2Loader (all frames as morph targets) [>= 10x
                 faster] and vgio's ``Md2.open`` [>= 20x faster]; and against the numpy floor
                 (one ``frombuffer`` + the position multiply-add) [MD2 <= 1.5x], MD3 likewise
                 [<= 1.5x]
  one-file CLI   ``quakemodels export ppm_drfreak.md2 -o x.glb`` (198 frames, 20 clips, skin) as
                 a user runs it, a fresh process, median wall time of N, against ``python -c
                 "import numpy"`` [<= 1.6x] and ``assimp export`` (frame 0 only)
  batch          ``quakemodels export md2/ md3/ -o OUT -j 2`` (every frame, clip and skin)
                 against a serial loop of ``assimp export FILE OUT.glb`` over the same files
                 (frame 0 only, no animation) [<= 1x]; and ``python -c "import numpy"``
                 timed in the same run, the least any Python batch costs; the batch's work
                 in this process (every file exported in turn, no start-up), and that start
                 plus half the work: the least two perfect workers could take; two floors
                 of that work (:func:`batch_floors`), and the start plus half of each
  MDL            first mesh against assimp and full load against vgio, for information
  first mesh,    per format (MD2, MD3, MDL), from bytes and from a path (:func:`first_mesh_copied`):
  per format     ``load(bytes).meshes(0)`` / ``load(path).meshes(0)`` against assimp importing
                 the same bytes / path *and copying its arrays* into numpy
                 (:func:`assimp_arrays`): what a Python caller of assimp needs to hold before
                 it can draw; median of the per-file ratios over the corpus files of the
                 format [<= 0.9x each]; the ratio to assimp's bare import beside it

In-process rows are medians of CPU time (``time.process_time``): on a shared machine the time
other processes take the cores from this one is not counted, for either side. A load and its
numpy floor run interleaved (:func:`benchutil.raced`); a peer runs on its own, right after
quakemodels on the same file (interleaving a peer's heap churn with our calls slows ours).
Command lines are median wall times of N fresh processes (9; 5 for the batch), the contenders
interleaved run by run, each run writing new outputs.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from bench import floor_arrays as md2_floor
from bench_md3 import floor_arrays as md3_floor
from benchutil import CORPUS, REPO, raced, timed
from compare_gltf import read_gltf

import quakemodels
from quakemodels import Md2, Md3, Mdl

PLAYER = CORPUS / "q3" / "models" / "players" / "human_bsuit"

INSTALL = {
    "impasse": "pip install impasse && apt-get install libassimp5",
    "assimp": "apt-get install assimp-utils",
    "three": "make node",
    "vgio": "make setup (vgio==1.3.0 is in the dev extra)",
}


def corpus_files() -> list[Path]:
    """The corpus MD2s then MD3s (the 28 models the peers are compared on)."""
    return sorted((CORPUS / "md2").glob("*.md2")) + sorted((CORPUS / "md3").glob("*.md3"))


def mdl_files() -> list[Path]:
    """The corpus MDLs (assimp and vgio read them too: rows of their own)."""
    return sorted((CORPUS / "mdl").glob("*.mdl"))


def _impasse() -> Any | None:
    try:
        import impasse
    except (ImportError, OSError):  # the binding or libassimp is missing
        return None
    return impasse


def first_mesh(files: Sequence[Path]) -> dict[str, Any]:
    """Per file: quakemodels' first mesh and assimp's import, median seconds of each."""
    impasse = _impasse()
    rows = []
    for path in files:
        data = path.read_bytes()
        kind = path.suffix[1:].lower()

        def qm(d: bytes = data) -> None:
            quakemodels.load(d).meshes(0)

        row = {"file": path.name, "qm": timed(qm), "assimp": float("nan")}
        if impasse is not None:

            def assimp(d: bytes = data, k: str = kind) -> None:
                # The C import builds frame 0's vertices, normals and UVs; the binding's lazy
                # Python views of them are not read (that would only add to assimp's time).
                scene = impasse.load(io.BytesIO(d), file_type=k)
                assert len(scene.meshes) > 0

            row["assimp"] = timed(assimp)
        rows.append(row)
    return {"rows": rows, "assimp": impasse is not None}


def best_of(fn: Callable[[], object], runs: int = 30) -> float:
    """The least CPU seconds of ``runs`` runs of ``fn``: for work this short the least time is
    the work itself, the rest is the machine's noise."""
    least = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        least = min(least, time.process_time() - t0)
    return least


def first_mesh_path(files: Sequence[Path], runs: int = 30) -> dict[str, Any]:
    """Per file: ``load(path).meshes(0)`` and assimp's import of the same path, each the best
    of ``runs``, the two interleaved file by file (assimp reads the file itself, so both pay
    the open and the read)."""
    impasse = _impasse()
    rows = []
    for path in files:
        name = str(path)

        def qm(p: str = name) -> None:
            quakemodels.load(p).meshes(0)

        row = {"file": path.name, "qm": best_of(qm, runs), "assimp": float("nan")}
        if impasse is not None:

            def assimp(p: str = name) -> None:
                scene = impasse.load(p)  # aiImportFile: assimp opens and reads the path
                assert len(scene.meshes) > 0

            row["assimp"] = best_of(assimp, runs)
        rows.append(row)
    return {"rows": rows, "assimp": impasse is not None}


def assimp_arrays(scene: Any) -> list[tuple[np.ndarray, ...]]:
    """assimp's meshes as numpy arrays a renderer takes, each a copy out of assimp's memory:
    per mesh (N,3) float32 positions and normals, (N,2) float32 uvs (channel 0; assimp
    stores three components) and (T,3) uint32 indices.

    The least a Python caller of assimp pays for them, so that the ratio against it is
    strict: straight from the C structs through cffi (not impasse's wrappers and
    per-element views, which cost hundreds of times more), one buffer copy per vertex
    array, and the indices, which assimp allocates face by face, gathered by one numpy
    ``take`` from a view over the span of addresses their allocations lie in (only the
    listed indices are read; reading them face by face through cffi costs up to several
    times assimp's import)."""
    from impasse.structs import ffi

    s = scene.struct
    out: list[tuple[np.ndarray, ...]] = []
    for k in range(s.mNumMeshes):
        m = s.mMeshes[k]
        n, t = m.mNumVertices, m.mNumFaces
        faces = np.frombuffer(ffi.buffer(m.mFaces, _AI_FACE.itemsize * t), _AI_FACE)
        if not (faces["mNumIndices"] == 3).all():  # Triangulate gives triangles only
            raise ValueError("assimp gave a face that is not a triangle")
        indices = np.empty((0, 3), np.uint32)
        if t:
            pointers = faces["mIndices"]
            low = int(pointers.min())
            words = np.asarray(_Span(low, (int(pointers.max()) - low) // 4 + 3))
            first = ((pointers - np.uint64(low)) >> np.uint64(2)).astype(np.intp)
            indices = words.take(first[:, None] + _CORNER)
        out.append(
            (
                np.frombuffer(ffi.buffer(m.mVertices, 12 * n), np.float32).reshape(n, 3).copy(),
                np.frombuffer(ffi.buffer(m.mNormals, 12 * n), np.float32).reshape(n, 3).copy(),
                np.frombuffer(ffi.buffer(m.mTextureCoords[0], 12 * n), np.float32)
                .reshape(n, 3)[:, :2]
                .copy(),
                indices,
            )
        )
    return out


_AI_FACE = np.dtype([("mNumIndices", "<u4"), ("pad", "<u4"), ("mIndices", "<u8")])
"""assimp's ``struct aiFace`` on 64-bit Linux (:func:`check_assimp_arrays` holds it to
cffi's size and to a face-by-face read)."""
_CORNER = np.arange(3, dtype=np.intp)


class _Span:
    """A read-only uint32 array interface over ``count`` words of memory from ``address``:
    only the elements a ``take`` lists are read."""

    def __init__(self, address: int, count: int) -> None:
        self.__array_interface__ = {
            "shape": (count,),
            "typestr": "<u4",
            "data": (address, True),
            "version": 3,
        }


def check_assimp_arrays(scene: Any) -> None:
    """:func:`assimp_arrays` of ``scene`` against impasse's own views, read element by
    element (slow, so untimed: once per file before timing)."""
    from impasse.structs import ffi

    assert ffi.sizeof("struct aiFace") == _AI_FACE.itemsize
    copied = assimp_arrays(scene)
    assert len(copied) == len(scene.meshes) > 0
    for mesh, (positions, normals, uvs, indices) in zip(scene.meshes, copied, strict=True):
        faces = mesh.struct.mFaces[0 : mesh.struct.mNumFaces]
        assert np.array_equal(indices, [ffi.unpack(f.mIndices, 3) for f in faces])
        assert np.array_equal(positions, np.array(mesh.vertices))
        assert np.array_equal(normals, np.array(mesh.normals))
        assert np.array_equal(uvs, np.array(mesh.texture_coords[0])[:, :2])


def _rounds(fns: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Each of ``fns`` timed (:func:`timed`, a short budget) in turn, ``rounds`` times: the
    contenders interleaved block by block, so load on the machine hits them alike, while no
    peer's heap churn lands between two of our calls (see :func:`benchutil.raced`)."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            times[name].append(timed(fn, budget=0.03, min_runs=5))
    return times


FORMATS = ("md2", "md3", "mdl")


def first_mesh_copied(rounds: int = 5) -> dict[str, list[dict[str, Any]]]:
    """Per format, per corpus file, from bytes and from a path: quakemodels' first mesh,
    assimp's import plus :func:`assimp_arrays` (the target's peer) and assimp's bare import
    (for information), median CPU seconds of each over ``rounds`` interleaved rounds, and
    the median of the rounds' ratios to each. Empty without impasse."""
    impasse = _impasse()
    if impasse is None:
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    for kind in FORMATS:
        rows = []
        for path in sorted((CORPUS / kind).glob(f"*.{kind}")):
            data, name = path.read_bytes(), str(path)
            check_assimp_arrays(impasse.load(name))
            row: dict[str, Any] = {"file": path.name}

            def qm_bytes(d: bytes = data) -> object:
                return quakemodels.load(d).meshes(0)

            def assimp_bytes(d: bytes = data, k: str = kind) -> object:
                return assimp_arrays(impasse.load(io.BytesIO(d), file_type=k))

            def qm_path(p: str = name) -> object:
                return quakemodels.load(p).meshes(0)

            def assimp_path(p: str = name) -> object:
                return assimp_arrays(impasse.load(p))  # aiImportFile: assimp reads the path

            def bare_bytes(d: bytes = data, k: str = kind) -> object:
                return impasse.load(io.BytesIO(d), file_type=k)

            def bare_path(p: str = name) -> object:
                return impasse.load(p)

            sources: list[tuple[str, dict[str, Callable[[], object]]]] = [
                ("bytes", {"qm": qm_bytes, "assimp": assimp_bytes, "bare": bare_bytes}),
                ("path", {"qm": qm_path, "assimp": assimp_path, "bare": bare_path}),
            ]
            for source, fns in sources:
                times = _rounds(fns, rounds)
                row[source] = {name: statistics.median(times[name]) for name in fns}
                for peer, key in (("assimp", "ratio"), ("bare", "bare_ratio")):
                    pairs = zip(times["qm"], times[peer], strict=True)
                    row[source][key] = statistics.median(q / a for q, a in pairs)
            rows.append(row)
        out[kind] = rows
    return out


def first_mesh_lines(copied: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The per-format first-mesh rows of the table (markdown), target <= 0.9x each."""
    if not copied:
        return [
            f"| first mesh per format | | impasse: `{INSTALL['impasse']}` | | <= 0.9x | skipped |"
        ]
    med = statistics.median
    lines = []
    for kind, rows in copied.items():
        for source, words in (("bytes", "from bytes"), ("path", "from a path")):
            ratio = med(r[source]["ratio"] for r in rows)
            bare = med(r[source]["bare_ratio"] for r in rows)
            qm = med(r[source]["qm"] for r in rows)
            peer = med(r[source]["assimp"] for r in rows)
            lines.append(
                f"| first mesh {words}, {len(rows)} {kind.upper()} (median per-file ratio"
                f" {ratio:.2f}x; to the bare import {bare:.2f}x) | {_ms(qm)} | assimp import"
                f" + copy of its arrays {_ms(peer)} | {_ratio(qm, peer)} | <= 0.9x |"
                f" {'yes' if ratio <= 0.9 else '**no**'} |"
            )
    return lines


def _threejs(files: Sequence[Path]) -> dict[str, float] | None:
    if shutil.which("node") is None or not (REPO / "node_modules" / "three").is_dir():
        return None
    done = subprocess.run(
        ["node", str(REPO / "tools" / "bench_threejs_md2.mjs"), *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    times: dict[str, float] = json.loads(done.stdout)
    return {Path(k).name: v / 1e3 for k, v in times.items()}


def _vgio() -> Callable[[bytes], None] | None:
    try:
        from vgio.quake2 import md2 as vgio_md2
    except ImportError:
        return None

    def open_md2(data: bytes) -> None:
        vgio_md2.Md2.open(io.BytesIO(data)).close()

    return open_md2


def full_load(files: Sequence[Path]) -> dict[str, Any]:
    """Per animated file: full load and the numpy floor (raced), and for MD2 three.js (in
    node, its own run) and vgio (right after), median seconds."""
    md2 = [p for p in files if p.suffix.lower() == ".md2" and Md2.from_file(p).num_frames > 1]
    md3 = [p for p in files if p.suffix.lower() == ".md3" and Md3.from_file(p).num_frames > 1]
    three = _threejs(md2)
    vgio = _vgio()
    rows = []
    for path in md2 + md3:
        data = path.read_bytes()
        is_md2 = path.suffix.lower() == ".md2"
        model = Md2 if is_md2 else Md3
        floor = md2_floor if is_md2 else md3_floor
        fns: dict[str, Callable[[], object]] = {
            "qm": lambda d=data, m=model: m.from_bytes(d).load_all(),
            "floor": lambda d=data, f=floor: f(d),
        }
        row = {"file": path.name, "vgio": float("nan"), **raced(fns)}
        row["solo"] = timed(fns["qm"])  # on its own, as each peer is timed
        # three.js reports node's wall clock: ours by the wall clock too, right before it
        row["wall"] = timed(fns["qm"], clock=time.perf_counter) if is_md2 else float("nan")
        if vgio is not None and is_md2:
            row["vgio"] = timed(lambda d=data: vgio(d), min_runs=3)
        row["three"] = three.get(path.name, float("nan")) if three and is_md2 else float("nan")
        rows.append(row)
    return {"rows": rows, "three": three is not None, "vgio": vgio is not None}


def mdl_rows(files: Sequence[Path]) -> dict[str, Any]:
    """Per corpus MDL: first mesh against assimp and full load against vgio."""
    impasse = _impasse()
    try:
        from vgio.quake.mdl import Mdl as VgioMdl
    except ImportError:
        VgioMdl = None
    rows = []
    for path in files:
        data = path.read_bytes()
        row: dict[str, Any] = {"file": path.name, "assimp": float("nan"), "vgio": float("nan")}
        row["first"] = timed(lambda d=data: Mdl.from_bytes(d).meshes(0))
        if impasse is not None:
            row["assimp"] = timed(lambda d=data: impasse.load(io.BytesIO(d), file_type="mdl"))
        row["full"] = timed(lambda d=data: Mdl.from_bytes(d).load_all())
        if VgioMdl is not None:
            row["vgio"] = timed(lambda d=data: VgioMdl.open(io.BytesIO(d)).close())
        rows.append(row)
    return {"rows": rows, "assimp": impasse is not None, "vgio": VgioMdl is not None}


def gltf_json_share(model: Path) -> dict[str, float]:
    """For one export of ``model`` to a new .glb, in this process (CPU medians, raced): the
    JSON's serialization against the rest of the glTF writer's work, which is the binary
    chunk (every frame's deltas, bounds, indices and skin turned into bytes, and all the bytes
    written). "glTF at data speed": the JSON must cost less than the binary chunk."""
    from quakemodels.interchange.gltf_write import _build, export_gltf

    em = quakemodels.registry.scene(quakemodels.load(model))
    built: list[Any] = []

    def whole() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            export_gltf(em, Path(tmp) / "x.glb")

    def json_text() -> None:
        # the JSON as the export writes it: the builder's own encoder (the morph-target
        # accessors' text rendered in it), not the plain one, which the export never calls
        doc, _, builder = built
        builder.json_bytes(doc)

    built[:] = _build(em)
    times = raced({"whole": whole, "json": json_text})
    return {"json": times["json"], "binary": times["whole"] - times["json"]}


def _env() -> dict[str, str]:
    """The environment of a user's shell: bytecode caches on (an installed package has them)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _wall(argv: Sequence[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return time.perf_counter() - t0


def median_walls(
    commands: dict[str, list[list[str]]], runs: int, fresh: Sequence[Path] = ()
) -> dict[str, float]:
    """Median wall seconds of each named command sequence (run one after the other), the
    commands interleaved run by run so load on the machine hits them alike. The ``fresh``
    paths are removed before every command (untimed): each run writes its outputs anew."""
    env = _env()
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, sequence in commands.items():
            for path in fresh:
                if path.is_dir():
                    shutil.rmtree(path)
                elif path.exists():
                    path.unlink()
            t0 = time.perf_counter()
            for argv in sequence:
                _wall(argv, env)
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(values) for name, values in times.items()}


def cli_runs(files: Sequence[Path], runs: int = 9, batch_runs: int = 5) -> dict[str, Any]:
    """The one-file export and the batch export, with their peers, median wall seconds."""
    python = sys.executable
    qm = str(Path(python).with_name("quakemodels"))
    assimp = shutil.which("assimp")
    model = CORPUS / "md2" / "ppm_drfreak.md2"
    # Bytecode for the package, as an installed wheel has it.
    subprocess.run(
        [python, "-m", "compileall", "-q", str(REPO / "src" / "quakemodels")],
        env=_env(),
        check=True,
    )
    out: dict[str, Any] = {"assimp": assimp is not None}
    with tempfile.TemporaryDirectory() as tmp:
        one: dict[str, list[list[str]]] = {
            "numpy": [[python, "-c", "import numpy"]],
            "qm": [[qm, "export", str(model), "-o", f"{tmp}/one.glb"]],
        }
        if assimp:
            one["assimp"] = [[assimp, "export", str(model), f"{tmp}/one_assimp.glb"]]
        if PLAYER.is_dir():  # a Quake III player: three MD3s, animation.cfg, a .skin
            one["player"] = [[qm, "export", str(PLAYER), "-o", f"{tmp}/player.glb"]]
        outputs = [Path(tmp) / "one.glb", Path(tmp) / "one_assimp.glb", Path(tmp) / "player.glb"]
        out["one"] = median_walls(one, runs, fresh=outputs)
        folders = [str(CORPUS / "md2"), str(CORPUS / "md3")]
        batch: dict[str, list[list[str]]] = {
            # A fresh output folder each run: every file is written new, as a user's first
            # batch export writes it.
            "qm": [[qm, "export", *folders, "-o", f"{tmp}/batch", "--format", "glb", "-j", "2"]],
            # The least any Python batch can cost: one interpreter start importing numpy.
            "numpy": [[python, "-c", "import numpy"]],
        }
        if assimp:
            batch["assimp"] = [
                [assimp, "export", str(p), f"{tmp}/assimp/{p.stem}.glb"] for p in files
            ]
        (Path(tmp) / "assimp").mkdir()
        folders_out = [
            Path(tmp) / "batch",
            *(Path(tmp) / "assimp" / f"{p.stem}.glb" for p in files),
        ]
        out["batch"] = median_walls(batch, batch_runs, fresh=folders_out)
        out["batch_files"] = len(files)
        # The timed runs leave no outputs behind (each command's are removed before the
        # next): one more untimed run of each gives the bytes they write.
        for path in folders_out:
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
        env = _env()
        for argv in batch["qm"] + batch.get("assimp", []):
            _wall(argv, env)
        out["batch_bytes"] = sum(f.stat().st_size for f in (Path(tmp) / "batch").iterdir())
        if assimp:
            out["assimp_bytes"] = sum(f.stat().st_size for f in (Path(tmp) / "assimp").iterdir())
        out["work"] = batch_work(files, batch_runs)
        out["floor"], out["outputs_floor"] = batch_floors(files, batch_runs)
    return out


def _png_rows(doc: dict[str, Any], chunk: bytes) -> list[bytes]:
    """The uncompressed rows (filter bytes included) of every PNG image a .glb embeds."""
    rows = []
    for image in doc.get("images", []):
        view = doc["bufferViews"][image["bufferView"]]
        start = view.get("byteOffset", 0)
        png = chunk[start : start + view["byteLength"]]
        if png[:8] != b"\x89PNG\r\n\x1a\n":
            continue  # a JPEG skin is embedded as it is: no work
        pos, idat = 8, b""
        while pos < len(png):
            (size,) = struct.unpack_from(">I", png, pos)
            if png[pos + 4 : pos + 8] == b"IDAT":
                idat += png[pos + 8 : pos + 8 + size]
            pos += 12 + size
        rows.append(zlib.decompress(idat))
    return rows


def _numbers(doc: Any, floats: list[float], ints: list[int]) -> None:
    """Every number in a JSON document, into ``floats`` and ``ints``."""
    if isinstance(doc, dict):
        for value in doc.values():
            _numbers(value, floats, ints)
    elif isinstance(doc, list):
        for value in doc:
            _numbers(value, floats, ints)
    elif isinstance(doc, float):
        floats.append(doc)
    elif isinstance(doc, int) and not isinstance(doc, bool):
        ints.append(doc)


# glTF's Y-up axes in Quake's (x forward, y left, z up): glTF x, y, z are Quake y, z, x.
_Y_UP = (1, 2, 0)


def _outputs_floor(positions: np.ndarray, normals: np.ndarray) -> None:
    """The least numpy work from a surface's decoded (F,V,3) frames to what its glTF holds:
    the Y-up differences from frame 0 of positions and normals (one axis plane at a time),
    and each frame's bounds of the position differences (required on POSITION accessors)."""
    moved = np.empty(positions.shape, np.float32)
    turned = np.empty(normals.shape, np.float32)
    for axis, quake in enumerate(_Y_UP):
        plane = positions[:, :, quake] - positions[0, :, quake]
        plane.min(axis=1)
        plane.max(axis=1)
        moved[:, :, axis] = plane
        np.subtract(normals[:, :, quake], normals[0, :, quake], out=turned[:, :, axis])


def batch_floors(files: Sequence[Path], runs: int) -> tuple[float, float]:
    """Median wall seconds, in one process, of two floors of exporting these files:

    * the decode floor: read each file, decode every frame's positions and normals with the
      numpy floors, write the very bytes our export writes (made once beforehand, untimed);
    * the floor of these outputs: that, plus what the .glb files hold beyond the decode and
      any writer of them must compute: the morph targets' Y-up differences and per-frame
      bounds (:func:`_outputs_floor`), each PNG skin's rows compressed (zlib level 1, as these
      PNGs are), the text of every number in the JSON, and each file written under a
      temporary name then renamed (no partial output, as our exports guarantee). Still no
      glTF structure, skin search or decode, checks or clips.
    """
    blobs = []
    rows: list[bytes] = []
    floats: list[float] = []
    ints: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            glb = Path(tmp) / f"{path.stem}.glb"
            quakemodels.load(path).export(glb)
            blobs.append(glb.read_bytes())
            doc, chunk = read_gltf(glb)
            rows += _png_rows(doc, chunk)
            _numbers(doc, floats, ints)

    def decode(path: Path, data: bytes) -> list[tuple[np.ndarray, np.ndarray]]:
        return [md2_floor(data)] if path.suffix.lower() == ".md2" else md3_floor(data)

    def decode_floor(tmp: Path) -> None:
        for path, blob in zip(files, blobs, strict=True):
            decode(path, path.read_bytes())
            (tmp / f"{path.stem}.glb").write_bytes(blob)

    def outputs_floor(tmp: Path) -> None:
        for path, blob in zip(files, blobs, strict=True):
            for positions, normals in decode(path, path.read_bytes()):
                _outputs_floor(positions, normals)
            part = tmp / f".{path.stem}.glb.part"
            part.write_bytes(blob)
            os.replace(part, tmp / f"{path.stem}.glb")
        for raw in rows:
            zlib.compress(raw, 1)
        ",".join(map(repr, floats))
        ",".join(map(str, ints))

    totals: dict[str, list[float]] = {"decode": [], "outputs": []}
    for _ in range(runs):  # interleaved, run by run
        for key, floor in (("decode", decode_floor), ("outputs", outputs_floor)):
            with tempfile.TemporaryDirectory() as tmp:
                t0 = time.perf_counter()
                floor(Path(tmp))
                totals[key].append(time.perf_counter() - t0)
    return statistics.median(totals["decode"]), statistics.median(totals["outputs"])


def batch_work(files: Sequence[Path], runs: int) -> float:
    """Median wall seconds of exporting every file in this process, one after the other,
    each to a new .glb: the batch's own work with no process start, import or pool (what two
    perfect workers would split between them)."""
    totals = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            for path in files:
                quakemodels.load(path).export(Path(tmp) / f"{path.stem}.glb")
            totals.append(time.perf_counter() - t0)
    return statistics.median(totals)


def _ms(seconds: float) -> str:
    return "skipped" if seconds != seconds else f"{seconds * 1e3:.3f} ms"


def _ratio(a: float, b: float) -> str:
    return "–" if a != a or b != b else f"{a / b:.2f}x"


def report(files: Sequence[Path] | None = None) -> list[str]:
    """Measure everything and return the table's lines (markdown)."""
    files = list(files or corpus_files())
    if not files:
        return [f"no corpus at {CORPUS}: peers table skipped"]
    fm, fp = first_mesh(files), first_mesh_path(files)
    copied = first_mesh_copied()
    fl, mdl, cli = full_load(files), mdl_rows(mdl_files()), cli_runs(files)
    med = statistics.median
    lines = [
        "| row | quakemodels | peer | ratio (qm / peer) | target | met |",
        "|---|---|---|---|---|---|",
    ]

    def add(row: str, qm: float, peer: str, time: float, target: str, ok: bool | None) -> None:
        met = "(information)" if ok is None else ("yes" if ok else "**no**")
        ratio = _ratio(qm, time)
        lines.append(f"| {row} | {_ms(qm)} | {peer} {_ms(time)} | {ratio} | {target} | {met} |")

    def skip(row: str, peer: str, target: str) -> None:
        lines.append(f"| {row} | | {peer}: `{INSTALL[peer]}` | | {target} | skipped |")

    if fm["assimp"]:
        ratio = med(r["qm"] / r["assimp"] for r in fm["rows"])
        row = f"first mesh, median of {len(files)} MD2+MD3 (median per-file ratio {ratio:.2f}x)"
        qm, peer = med(r["qm"] for r in fm["rows"]), med(r["assimp"] for r in fm["rows"])
        add(row, qm, "assimp (impasse)", peer, "<= 1x", ratio <= 1.0)
    else:
        skip("first mesh", "impasse", "<= 1x")
    if fp["assimp"]:
        ratio = med(r["qm"] / r["assimp"] for r in fp["rows"])
        row = (
            f"first mesh from a path, {len(files)} MD2+MD3, best of 30"
            f" (median per-file ratio {ratio:.2f}x)"
        )
        qm, peer = med(r["qm"] for r in fp["rows"]), med(r["assimp"] for r in fp["rows"])
        add(row, qm, "assimp (impasse) from the path", peer, "<= 1x", ratio <= 1.0)
    else:
        skip("first mesh from a path", "impasse", "<= 1x")
    lines += first_mesh_lines(copied)
    md2 = [r for r in fl["rows"] if r["file"].endswith(".md2")]
    md3 = [r for r in fl["rows"] if r["file"].endswith(".md3")]
    for key, name, peer, want in (
        ("three", "three.js MD2Loader", "three", 10),
        ("vgio", "vgio 1.3.0", "vgio", 20),
    ):
        if fl[key]:
            mine = "wall" if key == "three" else "solo"  # node's figures are wall times
            faster = med(r[key] / r[mine] for r in md2)
            row = f"full load, {len(md2)} animated MD2 ({key} / qm: {faster:.1f}x)"
            qm_time = med(r[mine] for r in md2)
            add(row, qm_time, name, med(r[key] for r in md2), f">= {want}x faster", faster >= want)
        else:
            skip(f"full load vs {name}", peer, f">= {want}x faster")
    for rows, kind in ((md2, "MD2"), (md3, "MD3")):
        if rows:
            ratio = med(r["qm"] / r["floor"] for r in rows)
            row = f"full load, {len(rows)} animated {kind} vs numpy floor (median ratio)"
            qm, floor = med(r["qm"] for r in rows), med(r["floor"] for r in rows)
            lines.append(
                f"| {row} | {_ms(qm)} | floor {_ms(floor)} | {ratio:.2f}x | <= 1.5x |"
                f" {'yes' if ratio <= 1.5 else '**no**'} |"
            )
    if mdl["rows"]:
        n = len(mdl["rows"])
        if mdl["assimp"]:
            ratio = med(r["first"] / r["assimp"] for r in mdl["rows"])
            row = f"first mesh, {n} MDL (median per-file ratio {ratio:.2f}x)"
            first, peer = (
                med(r["first"] for r in mdl["rows"]),
                med(r["assimp"] for r in mdl["rows"]),
            )
            add(row, first, "assimp (impasse)", peer, "–", None)
        if mdl["vgio"]:
            faster = med(r["vgio"] / r["full"] for r in mdl["rows"])
            row = f"full load, {n} MDL (vgio / qm: {faster:.1f}x; vgio decodes no positions)"
            full, peer = med(r["full"] for r in mdl["rows"]), med(r["vgio"] for r in mdl["rows"])
            add(row, full, "vgio 1.3.0", peer, "–", None)
    share = gltf_json_share(CORPUS / "md2" / "ppm_drfreak.md2")
    lines.append(
        f"| glTF writer, drfreak .glb: the JSON (85 KB) | {_ms(share['json'])} | its binary"
        f" chunk, built and written (3 MB) {_ms(share['binary'])} |"
        f" {_ratio(share['json'], share['binary'])} | < 1x |"
        f" {'yes' if share['json'] < share['binary'] else '**no**'} |"
    )
    one = cli["one"]
    row = "one-file `quakemodels export` (drfreak: 198 frames, 20 clips, skin)"
    ok = one["qm"] / one["numpy"] <= 1.6
    add(row, one["qm"], "`python -c 'import numpy'`", one["numpy"], "<= 1.6x", ok)
    if "player" in one:
        row = f"one-file export of a Quake III player ({PLAYER.name}: 3 MD3s, clips, skin)"
        add(row, one["player"], "`python -c 'import numpy'`", one["numpy"], "–", None)
    if cli["assimp"]:
        add("one-file export vs assimp (frame 0 only)", one["qm"], "`assimp export`",
            one["assimp"], "–", None)  # fmt: skip
        batch = cli["batch"]
        row = f"batch export of {cli['batch_files']} files, -j 2 (every frame, clip, skin)"
        ok = batch["qm"] <= batch["assimp"]
        add(row, batch["qm"], "serial `assimp export` loop", batch["assimp"], "<= 1x", ok)
        row = "lower bound of any Python batch: one `python -c 'import numpy'`"
        add(row, batch["numpy"], "serial `assimp export` loop", batch["assimp"], "–", None)
        work = cli["work"]
        row = "the batch's work in one process (decode, glTF, skins, write; no start-up)"
        add(row, work, "serial `assimp export` loop", batch["assimp"], "–", None)
        row = "lower bound with 2 perfect workers: `import numpy` + half that work"
        add(row, batch["numpy"] + work / 2, "serial `assimp export` loop", batch["assimp"], "–",
            None)  # fmt: skip
        floor = cli["floor"]
        row = "floor of that work: read, decode every frame (numpy floors), write the same bytes"
        add(row, floor, "serial `assimp export` loop", batch["assimp"], "–", None)
        row = "floor of any Python -j 2 batch: `import numpy` + half that floor"
        add(row, batch["numpy"] + floor / 2, "serial `assimp export` loop", batch["assimp"], "–",
            None)  # fmt: skip
        floor = cli["outputs_floor"]
        row = (
            "floor of these outputs: that, plus morph deltas and bounds, PNG rows compressed,"
            " the JSON's numbers as text, write-then-rename"
        )
        add(row, floor, "serial `assimp export` loop", batch["assimp"], "–", None)
        row = "floor of any Python -j 2 batch writing these outputs: `import numpy` + half that"
        add(row, batch["numpy"] + floor / 2, "serial `assimp export` loop", batch["assimp"], "–",
            None)  # fmt: skip
        mib = 2**20
        lines.append(
            f"| bytes written by the batch | {cli['batch_bytes'] / mib:.1f} MiB | assimp"
            f" {cli['assimp_bytes'] / mib:.1f} MiB (frame 0, no skins) |"
            f" {cli['batch_bytes'] / cli['assimp_bytes']:.1f}x | – | (information) |"
        )
    else:
        skip("one-file and batch export vs assimp", "assimp", "<= 1x")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """The whole table; ``first-mesh`` as the argument: the per-format first-mesh rows only,
    with each file's ratios (the quick check while working on the first mesh)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["first-mesh"]:
        copied = first_mesh_copied()
        for kind, rows in copied.items():
            for r in rows:
                b, p = r["bytes"], r["path"]
                print(
                    f"{kind} {r['file']:<30} bytes {b['ratio']:.2f}x ({_ms(b['qm'])} /"
                    f" {_ms(b['assimp'])}; bare {b['bare_ratio']:.2f}x)  path {p['ratio']:.2f}x"
                    f" ({_ms(p['qm'])} / {_ms(p['assimp'])}; bare {p['bare_ratio']:.2f}x)"
                )
        for line in first_mesh_lines(copied):
            print(line)
        return 0
    for line in report():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
