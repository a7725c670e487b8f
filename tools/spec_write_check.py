"""Kaitai's serializer as a second writer: ``make spec-write-check``.

Every spec of ``ksy/`` is compiled read-write (Kaitai 0.11 serialization: ``_check()``,
``_write()``; ``node tools/ksc.js --read-write``) into a temporary folder (a build product,
never committed). Then:

1. every corpus file (``../shared/corpus``, each registered format's folder and suffixes) is
   parsed by the read-write parser, ``_check()``ed and ``_write()``n into a buffer of its size.
   The output is compared with the input and with our writer's ``to_bytes()``. Where the spec
   does not keep every byte (text after a name's NUL, bytes between or after the sections it
   describes), the output must hold the same values as the input (the generated parser's
   dumps equal) and equal our writer's ``to_bytes()`` of the output;
2. models built and edited by our writers (a changed frame, a renamed skin, a removed surface,
   from corpus models) go the same way: ``to_bytes()`` → parse → ``_check()`` → ``_write()``,
   which must give ``to_bytes()`` back byte for byte.

The last line is ``N files: _write() == to_bytes()``. Exit status 0 when every file agrees,
1 on any difference or failure, 2 when node or the compiler is missing. Without the corpus it
says so and checks the edited models of the bundled sample only (CI=true requires the corpus).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import io
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from kaitaistruct import KaitaiStream  # noqa: E402

from quakemodels import Md2, Md3, Mdl, registry  # noqa: E402
from quakemodels.core.dump import dumps  # noqa: E402
from quakemodels.formats import FORMATS  # noqa: E402
from quakemodels.formats.md3.write import SurfaceData  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def compile_read_write(specs: list[Path], outdir: Path) -> dict[str, ModuleType]:
    """The read-write parsers of ``specs``, by spec id (compiled into ``outdir``)."""
    run = subprocess.run(
        ["node", str(REPO / "tools" / "ksc.js"), "--target", "python", "--read-write"]
        + ["--outdir", str(outdir)]
        + [str(p) for p in specs],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        sys.exit(f"spec-write-check: the compiler failed:\n{run.stderr}")
    modules = {}
    for path in sorted(outdir.glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"_rw_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules[path.stem] = module
    return modules


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def kaitai_write(module: ModuleType, spec_id: str, data: bytes) -> bytes:
    """``data`` parsed by the read-write parser, checked and written into as many bytes."""
    root = getattr(module, camel(spec_id))(KaitaiStream(io.BytesIO(data)))
    root._read()
    root._fetch_instances()  # parse instances (pos:) are written too
    root._check()
    out = KaitaiStream(io.BytesIO(bytearray(len(data))))
    root._write(out)
    return bytes(out.to_byte_array())


def spans(a: bytes, b: bytes) -> str:
    """The ranges where ``a`` and ``b`` differ, a few of them, as text."""
    diff = np.flatnonzero(np.frombuffer(a, np.uint8) != np.frombuffer(b, np.uint8))
    if diff.size == 0:
        return "none"
    breaks = [(int(p), int(d)) for p, d in itertools.pairwise(diff) if d != p + 1]
    starts = [int(diff[0])] + [d for _, d in breaks]
    ends = [p for p, _ in breaks] + [int(diff[-1])]
    shown = ", ".join(f"{s}-{e}" for s, e in list(zip(starts, ends, strict=True))[:4])
    more = f" (+{len(starts) - 4} more)" if len(starts) > 4 else ""
    return f"{diff.size} bytes at {shown}{more}"


@dataclasses.dataclass
class Tally:
    files: int = 0
    same_input: int = 0
    same_to_bytes: int = 0
    failures: list[str] = dataclasses.field(default_factory=list)


def check_file(
    tally: Tally, label: str, data: bytes, module: ModuleType, spec_id: str, *, edited: bool
) -> None:
    tally.files += 1
    try:
        written = kaitai_write(module, spec_id, data)
    except Exception as e:  # the serializer's own refusals are findings, not crashes
        tally.failures.append(f"{label}: _check()/_write() failed: {type(e).__name__}: {e}")
        print(f"FAIL {label}: {type(e).__name__}: {e}")
        return
    ours = registry.load(data).to_bytes()
    if edited:
        ok = written == ours
        if ok:
            tally.same_to_bytes += 1
            tally.same_input += 1
        else:
            tally.failures.append(f"{label}: _write() != to_bytes(): {spans(written, ours)}")
        print(f"{'ok  ' if ok else 'FAIL'} {label}: _write() {'==' if ok else '!='} to_bytes()")
        return
    if ours != data:
        tally.failures.append(f"{label}: to_bytes() != input: {spans(ours, data)}")
    if written == data:
        tally.same_input += 1
        if ours == written:
            tally.same_to_bytes += 1
        print(f"ok   {label}: _write() == input == to_bytes()")
        return
    # Bytes the spec does not keep: the values must be the same, and our writer must give
    # Kaitai's output back exactly.
    same_values = dumps(written, spec_id=spec_id) == dumps(data, spec_id=spec_id)
    again = registry.load(written).to_bytes()
    if same_values and again == written:
        tally.same_to_bytes += 1
        print(
            f"ok   {label}: _write() == to_bytes() of it; differs from the input only in "
            f"bytes the spec does not keep ({spans(written, data)})"
        )
        return
    why = "values differ" if not same_values else f"to_bytes() of it: {spans(again, written)}"
    tally.failures.append(f"{label}: _write() != input ({spans(written, data)}); {why}")
    print(f"FAIL {label}: {why}")


# -- models built and edited by our writers --------------------------------------------------------


def edited_md2(model: Any) -> Iterator[tuple[str, bytes]]:
    positions = np.array(model.positions)
    positions[0] += np.float32(1.5)  # a changed frame
    skins = [f"models/edited/skin{k}.pcx" for k in range(max(1, len(model.skins)))]
    built = Md2.build(
        positions,
        model.triangles,
        model.texcoords_px,
        model.triangle_texcoords,
        model.frame_names,
        skins=skins,  # renamed skins
        skin_size=(model.skin_width, model.skin_height),
    ).model
    yield "changed frame 0, renamed skins", built.to_bytes()


def edited_md3(model: Any) -> Iterator[tuple[str, bytes]]:
    surfaces = [
        SurfaceData(
            s.name,
            np.array(s.positions),
            s.triangles,
            s.texcoords,
            s.normal_angles,
            [f"textures/edited/{sh.name.rsplit('/', 1)[-1]}" for sh in s.shaders],
        )
        for s in model.surfaces
    ]
    surfaces[0].positions[-1] *= np.float32(0.5)  # type: ignore[index]  # a changed frame
    label = "changed last frame, renamed shaders"
    if len(surfaces) > 1:
        surfaces = surfaces[:-1]  # a removed surface
        label += ", removed the last surface"
    built = Md3.build(surfaces, frame_names=model.frame_names).model
    yield label, built.to_bytes()


def edited_mdl(model: Any) -> Iterator[tuple[str, bytes]]:
    positions = np.array(model.positions)
    positions[-1] -= np.float32(2.0)  # a changed frame
    built = Mdl.build(
        positions,
        model.triangles,
        model.texcoords_px,
        model.triangle_texcoords,
        model.frame_names,
        skins=[np.asarray(model.skin_images[0])] if model.num_skins else [],
    ).model
    yield "changed the last frame", built.to_bytes()


EDITS: dict[str, Callable[[Any], Iterator[tuple[str, bytes]]]] = {
    "md2": edited_md2,
    "md3": edited_md3,
    "mdl": edited_mdl,
}


def many_surfaces(path: Path) -> bool:
    return len(registry.load(path).surfaces) > 1


def corpus_files(fmt: Any) -> list[Path]:
    folder = CORPUS / fmt.name
    found = sorted(folder.rglob("*")) if folder.is_dir() else []
    return [p for p in found if p.is_file() and p.suffix.lower() in fmt.suffixes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, help="keep the read-write parsers in this folder")
    parser.add_argument("--edits", type=int, default=3, help="corpus models edited per format")
    args = parser.parse_args(argv)
    if shutil.which("node") is None:
        print("spec-write-check: node is not on PATH (make node)", file=sys.stderr)
        return 2
    if IN_CI and not CORPUS.is_dir():
        print(f"spec-write-check: CI=true but {CORPUS} is missing", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="spec-write-") as tmp:
        outdir = args.out or Path(tmp)
        outdir.mkdir(parents=True, exist_ok=True)
        modules = compile_read_write(sorted((REPO / "ksy").glob("*.ksy")), outdir)
        tally = Tally()
        if not CORPUS.is_dir():
            print(f"spec-write-check: no corpus at {CORPUS}: the bundled sample only")
        for fmt in FORMATS:
            spec_id = getattr(fmt, "spec_id", None)
            if spec_id not in modules:
                continue
            files = corpus_files(fmt)
            for path in files:
                label = str(path.relative_to(CORPUS))
                check_file(tally, label, path.read_bytes(), modules[spec_id], spec_id, edited=False)
            edit = EDITS.get(fmt.name)
            if edit is None:
                continue
            sources = files[: args.edits] if files else ([SAMPLE] if fmt.name == "md2" else [])
            if fmt.name == "md3":  # one with several surfaces, so that one can be removed
                sources += [next((p for p in files if many_surfaces(p)), sources[0])]
            for path in sources:
                for what, data in edit(registry.load(path)):
                    label = f"{path.name} ({what})"
                    check_file(tally, label, data, modules[spec_id], spec_id, edited=True)
    for failure in tally.failures:
        print(f"spec-write-check: {failure}", file=sys.stderr)
    print(f"{tally.same_input} files: _write() == input")
    print(f"{tally.same_to_bytes} files: _write() == to_bytes()")
    return 1 if tally.failures or tally.same_to_bytes != tally.files else 0


if __name__ == "__main__":
    sys.exit(main())
