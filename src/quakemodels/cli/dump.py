"""``quakemodels dump FILE``: the generated parser's whole tree as JSON (Web IDE or ksdump)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import IO

from ..core.atomic import atomic_output
from ..core.dump import FORMATS, ParsedTree, dump
from ..errors import ModelFormatError, UnsupportedError
from ..registry import by_magic, explain, folder_format, members, read_any, spec_id
from .output import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, refuse_existing, resolve, writing


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help="model file (any spec in ksy/), a player folder, or - for stdin",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="webide",
        help="webide: the Web IDE's Export to JSON (default); ksdump: ksdump -f json",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write this .json file (atomically; its folder is created) or into this folder;"
        " - or no -o: stdout",
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="on a parse failure still write what parsed, under "
        '{"$incomplete": true, "$error": ..., "tree": ...} (exit status stays 1)',
    )
    parser.add_argument(
        "--no-clobber", action="store_true", help="never replace an existing file (exit 3)"
    )


def _read(name: str) -> bytes:
    """stdin, a file, an entry read through its archive (``pak0.pak/models/a/tris.md2``) or a
    file named by its place in a game folder (``baseq3/models/a/b.md3``)."""
    if name == "-":
        return sys.stdin.buffer.read()
    return read_any(name, models=False)[0]


def _better(error: ModelFormatError, data: bytes) -> ModelFormatError:
    """The format reader's error for ``data`` (field and offset in the format's terms) when it
    has one, else ``error``: the generated parser only says how many bytes it missed."""
    if error.offset is not None:
        return error
    try:
        explain(data)
    except ModelFormatError as e:
        return e
    return error


def _dump_to(data: bytes, out: IO[str], args: argparse.Namespace) -> ParsedTree:
    fmt = by_magic(data)
    if fmt is not None and fmt.spec_id is None:
        # a text format (MD5): no Kaitai spec, so no parse tree; guessing one would fail
        # with another format's error
        raise UnsupportedError(f"{fmt.name} ({fmt.title}) is text: it has no binary spec to dump")
    return dump(
        data, out, args.format, partial=args.partial, spec_id=spec_id(data), explain=explain
    )


def run(args: argparse.Namespace) -> int:
    if args.file != "-" and not os.path.isfile(args.file) and _is_folder_set(args.file):
        return _dump_player(args)
    return _dump_file(args)


def _is_folder_set(path: str) -> bool:
    """A folder set (a player) or any folder (which then says what it lacks)."""
    return os.path.isdir(path) or folder_format(path) is not None


def _dump_player(args: argparse.Namespace) -> int:
    """One dump per member file of a folder set (a player's parts), as ``<part>.json`` in the
    ``-o`` folder."""
    parts = members(args.file)
    if parts is None:
        print(
            f"{args.file}: error: not a player folder (lower.md3, upper.md3, head.md3)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if not args.output or args.output == "-" or os.path.isfile(args.output):
        print(
            f"{args.file}: error: a player folder dumps one file per part: -o a folder",
            file=sys.stderr,
        )
        return EXIT_USAGE
    os.makedirs(args.output, exist_ok=True)
    status = EXIT_OK
    for part, path in parts.items():
        out = os.path.join(args.output, f"{part}.json")
        code = _dump_file(argparse.Namespace(**{**vars(args), "file": str(path), "output": out}))
        status = max(status, code)
        if code == EXIT_OK:
            print(f"{path} -> {out}")
    return status


def _dump_file(args: argparse.Namespace) -> int:
    try:
        data = _read(args.file)
    except OSError as e:
        print(f"{args.file}: error: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ModelFormatError as e:  # a broken archive, a FIFO or a device
        print(f"{args.file}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    target: Path | None = None
    if args.output and args.output != "-":
        t = resolve("dump", args.output, (".json",), 1, no_clobber=args.no_clobber)
        stem = "stdin" if args.file == "-" else Path(args.file).name
        target = t.path if t.is_file else t.path / f"{stem}.json"
        refuse_existing([target], args.no_clobber)
    try:
        if target is not None:
            with writing(target), atomic_output(target, "w") as out:
                tree = _dump_to(data, out, args)  # type: ignore[arg-type]
        else:
            # Spool first so that a failure half-way leaves nothing on stdout either.
            with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
                tree = _dump_to(data, spool, args)
                spool.seek(0)
                shutil.copyfileobj(spool, sys.stdout)
                if sys.stdout.isatty() and args.format == "webide":
                    sys.stdout.write("\n")
    except ModelFormatError as e:
        print(f"{args.file}: error: {_better(e, data)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if tree.error is not None:
        print(
            f"{args.file}: error: {_better(tree.error, data)} (partial tree written)",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    return EXIT_OK
