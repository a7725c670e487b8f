"""The ``ksy-numpy`` command: layout modules for specs, and ``--verify`` against the compiler.

    ksy-numpy SPEC.ksy... --outdir DIR [--facts] [-I DIR] [--verify] [--compiler DIR]

Writes ``DIR/<id>_layout.py`` per spec (and with ``--facts``, ``DIR/<id>_facts.py``: its
``contents:``, ``valid:`` and field offsets as plain data, importable without numpy).
Every type that gets no complete dtype is listed with a one-line reason; a spec that
cannot be read is refused with its reason and the run goes on. The last line is
``ksy-numpy: S specs, T types, A accepted, M mismatches``.
Exit status: 0, 1 when a spec was refused, a mismatch found or fewer types accepted than
``--min-accepted``, 2 on a usage error or (``--verify``) without node and the compiler.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .layout import KsyError, Spec, emit, emit_facts, plan
from .report import Report


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ksy-numpy",
        description="Numpy structured dtypes of the fixed-size types of Kaitai Struct specs.",
    )
    parser.add_argument("specs", type=Path, nargs="+", help="ksy files")
    parser.add_argument("--outdir", type=Path, help="folder to write <id>_layout.py into")
    parser.add_argument(
        "--facts",
        action="store_true",
        help="also write <id>_facts.py: contents, valid and field offsets, without numpy",
    )
    parser.add_argument(
        "-I",
        "--import-path",
        type=Path,
        action="append",
        default=[],
        help="folder that absolute imports (/common/x) resolve in; folders above each spec "
        "are searched too",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="compile each spec with the Kaitai compiler (node) and compare its Python parser "
        "with the dtypes on random and boundary inputs",
    )
    parser.add_argument(
        "--compiler",
        type=Path,
        help="node_modules folder holding kaitai-struct-compiler and js-yaml (default: "
        "$KSY_NUMPY_NODE_MODULES, else a node_modules above the current folder)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="leave out the refused types' reasons"
    )
    parser.add_argument("--table", action="store_true", help="print the refusals by reason")
    parser.add_argument(
        "--min-accepted",
        type=int,
        default=0,
        metavar="N",
        help="fail (exit 1) when fewer than N types are accepted",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit status."""
    args = _parser().parse_args(argv)
    if args.outdir is not None and not args.outdir.is_dir():
        print(f"ksy-numpy: {args.outdir} is not a folder", file=sys.stderr)
        return 2
    if args.outdir is None and not args.verify:
        print("ksy-numpy: give --outdir, --verify or both", file=sys.stderr)
        return 2

    report = Report()
    loaded = []
    for path in args.specs:
        try:
            spec = Spec(path, import_paths=args.import_path)
            entries = plan(spec)
            source = emit(spec, entries)
        except (KsyError, RecursionError) as e:
            report.refuse_spec(path, str(e).replace(f"{path}: ", "", 1))
            print(
                f"ksy-numpy: {e}" if isinstance(e, KsyError) else f"ksy-numpy: {path}: {e}",
                file=sys.stderr,
            )
            continue
        if args.outdir is not None:
            (args.outdir / f"{spec.id}_layout.py").write_bytes(source.encode("utf-8"))
            if args.facts:
                facts = emit_facts(spec, entries)
                (args.outdir / f"{spec.id}_facts.py").write_bytes(facts.encode("utf-8"))
        report.add_spec(spec, entries)
        loaded.append((spec, entries))
    if args.verify:
        from .verify import CompilerMissing, verify

        try:
            verify(loaded, report, args.import_path, args.compiler, args.seed)
        except CompilerMissing as e:
            print(f"ksy-numpy: --verify: {e}", file=sys.stderr)
            return 2
    for line in ([] if args.quiet else report.messages) + (report.table() if args.table else []):
        print(line)
    print(report.summary())
    return 1 if report.failed or report.accepted < args.min_accepted else 0


def console_main() -> None:
    """The ``ksy-numpy`` console script."""
    sys.exit(main())
