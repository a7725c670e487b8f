"""Cross-check: the Python dump against the Kaitai Web IDE's engine, on every model we have.

Run with ``make crosscheck`` (or ``python tools/crosscheck.py [FILE...]``). For every corpus file
whose extension is a spec's ``meta.file-extension`` (``../shared/corpus``: MD2, MD3, PAK) plus
synthetic MD2 edge cases built with ``tests/md2builder.py`` and paks of them
(``tests/archivebuilder.py``):

1. ``node tools/crosscheck.js`` compiles ``ksy/*.ksy`` to JavaScript with the pinned compiler in
   the IDE's debug mode, parses the file with the pinned ``kaitai-struct`` runtime and writes
   the IDE's Export to JSON;
2. ``quakemodels.core.dump`` writes the ``webide`` format from the generated Python parser;
3. the two are compared as values: numbers as parsed doubles (NaN equal to NaN), strings equal,
   the same keys in every object, arrays of the same length. Key order and byte identity of the
   text are reported but are not failures.

Exit status 0 when every file agrees, 1 on any difference or failure (with the path of the first
differences), 2 when the tools are missing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests"))

from md2builder import Md2Spec, build, float_bits, gl_command  # type: ignore[import-not-found]  # noqa: E402

from quakemodels import registry  # noqa: E402
from quakemodels.core.dump import dump  # noqa: E402
from quakemodels.errors import ModelFormatError  # noqa: E402
from quakemodels.formats import FORMATS  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
NODE_TOOL = REPO / "tools" / "crosscheck.js"
MAX_DIFFS = 10


# --- synthetic edge files -----------------------------------------------------------------------


def _frame(
    verts: np.ndarray, name: bytes = b"frame01", k: float = 1.0
) -> tuple[tuple[float, float, float], tuple[float, float, float], bytes, np.ndarray]:
    return ((0.5 * k, 0.25, 1.0 / 3.0), (-10.0, -5.5, 2.0 * k), name, verts)


def synthetic_files() -> dict[str, bytes]:
    """Named synthetic MD2 files covering the edges the corpus may not have."""
    rng = np.random.default_rng(3)
    quad = np.array([[0, 0, 0, 5], [255, 0, 0, 5], [255, 255, 0, 5], [0, 255, 10, 161]], np.uint8)
    files: dict[str, bytes] = {}
    files["negative_texcoords.md2"] = build(
        Md2Spec(texcoords=[(-5, -3), (63, -32768), (70, 40), (32767, 31)])
    )
    # num_gl_cmds = 0: the GL command substream is empty, so `items` (if: not _io.eof) is absent.
    files["empty_gl_commands.md2"] = build(Md2Spec(gl_dwords=[]))
    files["gl_terminator_only.md2"] = build(Md2Spec(gl_dwords=[0]))
    fan = gl_command("fan", [(0.0, 0.0, 0), (0.5, -0.25, 1), (1.5, 1.0, 2), (0.1, 0.3, 3)])
    strip = gl_command("strip", [(0.25, 0.75, 0), (1e-7, 3e21, 2), (-0.0, 0.5, 3)])
    files["gl_fan_and_strip.md2"] = build(Md2Spec(gl_dwords=fan + strip + [0]))
    files["gl_nan_texcoord.md2"] = build(
        Md2Spec(gl_dwords=[1, 0x7FC00000, float_bits(float("inf")), 0, 0])
    )
    files["zero_skins.md2"] = build(Md2Spec(skins=[]))
    files["one_frame.md2"] = build(Md2Spec(frames=[_frame(quad, b"stand01")]))
    verts = rng.integers(0, 256, size=(2048, 4), dtype=np.uint8)
    verts[:, 3] = rng.integers(0, 162, size=2048, dtype=np.uint8)
    files["vertices_2048.md2"] = build(
        Md2Spec(
            frames=[_frame(verts, b"run1"), _frame(verts[::-1].copy(), b"run2", 1.5)],
            triangles=[(0, 1000, 2047, 0, 1, 2), (5, 6, 7, 3, 2, 1)],
        )
    )
    # A normal index past the 162-entry table: JavaScript reads undefined and the IDE leaves
    # the key out; the dump must do the same.
    bad_normal = quad.copy()
    bad_normal[2, 3] = 200
    files["normal_index_out_of_range.md2"] = build(Md2Spec(frames=[_frame(bad_normal)]))
    files["junk_after_name_nul.md2"] = build(
        Md2Spec(
            skins=[b"models/a/skin.pcx\0junk junk", b""],
            frames=[_frame(quad, b"jump3\0\xff\xfe garbage")],
        )
    )
    if (REPO / "ksy" / "quake3_md3.ksy").is_file():
        files.update(md3_synthetic_files())
    if (REPO / "ksy" / "inter_quake_model.ksy").is_file():
        files.update(iqm_synthetic_files())
    if (REPO / "ksy" / "quake_pak.ksy").is_file():
        files.update(pak_synthetic_files(files))
    return files


def pak_synthetic_files(models: dict[str, bytes]) -> dict[str, bytes]:
    """Paks of the synthetic models: directory last, directory first with a 10-byte remainder."""
    from archivebuilder import pak_bytes  # type: ignore[import-not-found]

    inner = [
        (f"models/{n.rsplit('.', 1)[0]}/tris.{n.rsplit('.', 1)[1]}", d) for n, d in models.items()
    ]
    return {
        "models.pak": pak_bytes(inner),
        "dir_first_remainder.pak": pak_bytes(inner[:3], dir_first=True, dirlen_extra=10),
        "empty.pak": pak_bytes([]),
    }


def md3_synthetic_files() -> dict[str, bytes]:
    """Synthetic MD3 files (the default one-surface model and one with no surfaces)."""
    from md3builder import Md3Spec  # type: ignore[import-not-found]
    from md3builder import build as build_md3

    return {
        "md3_default.md3": build_md3(Md3Spec()),
        "md3_no_surfaces.md3": build_md3(Md3Spec(surfaces=[])),
    }


def iqm_synthetic_files() -> dict[str, bytes]:
    """Synthetic IQM files: our writer's two-bone bar with a comment, and with one
    extension (name, data) appended after it."""
    from iqmbuilder import set_header, two_bone_iqm  # type: ignore[import-not-found]

    bar = two_bone_iqm(comment=b"made by quakemodels")
    at = len(bar)
    ext = b"".join(n.to_bytes(4, "little") for n in (0, 4, at + 16, 0)) + b"data"
    extended = set_header(set_header(bar + ext, "num_extensions", 1), "ofs_extensions", at)
    return {
        "iqm_two_bone.iqm": bar,
        "iqm_extension.iqm": set_header(extended, "len_file", len(extended)),
    }


# --- value comparison ---------------------------------------------------------------------------


def _load(text: str) -> Any:
    return json.loads(text, parse_int=float, parse_float=float, parse_constant=float)


def differences(a: Any, b: Any, path: str = "") -> Iterator[str]:
    """Where ``a`` (Python) and ``b`` (JavaScript) differ as values, one message per place."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            only_a = sorted(a.keys() - b.keys())
            only_b = sorted(b.keys() - a.keys())
            yield f"{path or '<root>'}: keys only in python {only_a}, only in js {only_b}"
        for k in a:  # in the Python side's order, so reports are stable
            if k in b:
                yield from differences(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            yield f"{path}: python has {len(a)} items, js {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from differences(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        if not (a == b or (math.isnan(a) and math.isnan(b))):
            yield f"{path}: python {a!r} != js {b!r}"
    elif type(a) is not type(b) or a != b:
        yield f"{path}: python {a!r} != js {b!r}"


def key_order_differs(a: Any, b: Any) -> bool:
    """Whether some object lists the same keys in another order."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b) and a.keys() == b.keys():
            return True
        return any(key_order_differs(a[k], b[k]) for k in a.keys() & b.keys())
    if isinstance(a, list) and isinstance(b, list):
        return any(key_order_differs(x, y) for x, y in zip(a, b, strict=False))
    return False


# --- running both sides -------------------------------------------------------------------------


# Archives are no model format of the registry but have a spec of their own (ksy/quake_pak.ksy).
ARCHIVE_SPECS = {".pak": "quake_pak"}


def spec_of(path: Path) -> str | None:
    """The spec ``path`` is parsed with: the registry's choice by magic and version (so formats
    sharing a magic, IDSP version 1 and 2, get theirs), else the archive spec of its suffix."""
    found = registry.spec_id(path.read_bytes())
    return found if found is not None else ARCHIVE_SPECS.get(path.suffix.lower())


def corpus_files(folder: Path) -> list[Path]:
    """Files under ``folder`` with a suffix of a registered format with a spec, or of an archive
    spec (skins and images are skipped)."""
    suffixes = {s for f in FORMATS if f.spec_id for s in f.suffixes} | set(ARCHIVE_SPECS)
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)


def start_node(files: list[Path], outdir: Path) -> subprocess.Popen[str]:
    """Start the IDE-engine export of every file (it runs while Python dumps its side); each
    file with the spec :func:`spec_of` names, as Python's dump does."""
    args: list[str] = []
    for p in files:
        spec = spec_of(p)
        args += (["--spec", spec] if spec else []) + [str(p)]
    return subprocess.Popen(
        ["node", str(NODE_TOOL), "--outdir", str(outdir), *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def node_results(proc: subprocess.Popen[str]) -> dict[str, dict[str, Any]]:
    """file path → {"spec", "out"} or {"spec", "error"}, from crosscheck.js's JSON lines."""
    stdout, stderr = proc.communicate()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"crosscheck.js failed:\n{stderr}")
    results = {}
    for line in stdout.splitlines():
        r = json.loads(line)
        results[r["file"]] = r
    return results


def python_side(path: Path, out: Path) -> dict[str, Any]:
    """The dump's export of one file into ``out``: {"spec", "out"} or {"spec": None, "error"}."""
    try:
        with out.open("w", encoding="utf-8") as f:
            data = path.read_bytes()
            tree = dump(data, f, "webide", spec_id=registry.spec_id(data), explain=registry.explain)
    except ModelFormatError as e:
        out.unlink(missing_ok=True)
        return {"spec": None, "error": str(e)}
    return {"spec": tree.spec_id, "out": str(out)}


def compare(py: dict[str, Any], js: dict[str, Any], label: str) -> tuple[bool, str]:
    """Compare the two exports of one file; ``(agree, report line)``."""
    if "error" in js or "error" in py:
        return False, (
            f"FAIL {label}: js {js.get('error', 'ok')!s} / python {py.get('error', 'ok')}"
            " (both sides must parse the file)"
        )
    if py["spec"] != js["spec"]:
        return False, f"FAIL {label}: python chose spec {py['spec']}, js chose {js['spec']}"
    py_text = Path(py["out"]).read_text(encoding="utf-8")
    js_text = Path(js["out"]).read_text(encoding="utf-8")
    size = f"{len(py_text) / 1e6:.1f} MB" if len(py_text) > 1e6 else f"{len(py_text)} B"
    if js_text == py_text:
        # The same text parses to the same values: nothing more to compare.
        return True, f"ok   {label} ({py['spec']}, identical text, {size})"
    a, b = _load(py_text), _load(js_text)
    diffs = []
    for d in differences(a, b):
        diffs.append(d)
        if len(diffs) >= MAX_DIFFS:
            break
    if diffs:
        return False, f"FAIL {label} ({py['spec']}): values differ:\n    " + "\n    ".join(diffs)
    note = "same values, text differs"
    if key_order_differs(a, b):
        note += ", key order differs"
    return True, f"ok   {label} ({py['spec']}, {note}, {size})"


def against_ide_export(model: Path, export: Path) -> int:
    """Compare ``quakemodels dump`` of ``model`` with a JSON file the Web IDE exported."""
    with tempfile.TemporaryDirectory(prefix="crosscheck.") as tmp:
        py = python_side(model, Path(tmp) / "py.json")
        ok, line = compare(py, {"spec": py.get("spec"), "out": str(export)}, str(model))
    print(line.replace(" js ", " ide "))
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="only these files (default: corpus)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"default {CORPUS}")
    parser.add_argument("--no-synthetic", action="store_true", help="skip the synthetic files")
    parser.add_argument("--keep", type=Path, help="keep both exports in this folder")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="EXPORT.json",
        help="compare one FILE's dump with this JSON exported from the Web IDE itself",
    )
    args = parser.parse_args(argv)
    if args.against:
        if len(args.files) != 1:
            parser.error("--against needs exactly one FILE")
        return against_ide_export(args.files[0], args.against)
    if shutil.which("node") is None or not (REPO / "node_modules" / "kaitai-struct").is_dir():
        print("crosscheck: node and node_modules are needed (run `make setup`)", file=sys.stderr)
        return 2
    files = list(args.files)
    if not files:
        if args.corpus.is_dir():
            files = corpus_files(args.corpus)
        elif os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            print(f"crosscheck: CI=true but there is no corpus at {args.corpus}", file=sys.stderr)
            return 2
        elif args.no_synthetic:
            print(f"crosscheck: no corpus at {args.corpus} and --no-synthetic", file=sys.stderr)
            return 2
        else:  # a fresh clone: the corpus is optional (README)
            print(
                f"crosscheck: no corpus at {args.corpus}: the synthetic files only",
                file=sys.stderr,
            )
    with tempfile.TemporaryDirectory(prefix="crosscheck.") as tmp_name:
        tmp = Path(tmp_name)
        work = args.keep or tmp
        labels = {}
        for p in files:
            labels[str(p)] = (
                str(p.relative_to(args.corpus)) if p.is_relative_to(args.corpus) else str(p)
            )
        if not args.no_synthetic and not args.files:
            syn = work / "synthetic"
            syn.mkdir(parents=True, exist_ok=True)
            for name, data in synthetic_files().items():
                (syn / name).write_bytes(data)
                files.append(syn / name)
                labels[str(syn / name)] = f"synthetic/{name}"
        (work / "py").mkdir(parents=True, exist_ok=True)
        proc = start_node(files, work / "js")
        try:
            py = {str(p): python_side(p, work / "py" / (p.name + ".webide.json")) for p in files}
        finally:
            js = node_results(proc)
        failures = 0
        for p in files:
            ok, line = compare(py[str(p)], js[str(p)], labels[str(p)])
            print(line, flush=True)
            failures += not ok
    agree = len(files) - failures
    print(f"crosscheck: {agree} of {len(files)} files agree with the Web IDE engine")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
