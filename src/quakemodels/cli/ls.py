"""``quakemodels ls ARCHIVE|GAMEDIR [--models]``: what the engine sees, and which source wins."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..archive import Archive, GameFS
from ..archive.base import LISTING_ORDER, vectorised
from ..archive.names import type_by_magic
from ..core.files import open_regular
from ..core.names import plural
from ..errors import ModelFormatError
from ..formats import by_magic, folder_sets
from .output import reported_warnings

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    import numpy as np

# Lines written per block when listing one archive from its arrays.
_BLOCK = 1 << 14


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="ARCHIVE|GAMEDIR", help="a .pak/.pk3 or a game folder")
    parser.add_argument("--models", action="store_true", help="list only models (by magic)")
    parser.add_argument(
        "--engine",
        choices=("quake", "quake2", "quake3"),
        default=None,
        help="search order and name rules (default: quake3 for pk3s, else quake2)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        with reported_warnings(args.source):
            fs = GameFS(args.source, engine=args.engine)
    except (ModelFormatError, OSError) as e:
        print(f"quakemodels ls: error: {e}", file=sys.stderr)
        return 1
    base = Path(args.source)
    with fs:
        single = fs.sources[0].archive if len(fs.sources) == 1 else None
        if single is not None:
            lister = _list_archive if vectorised(len(single.entries)) else _list_plain
            try:
                rows, models, n_players = lister(single, _label(single.path, base), args)
            except ModelFormatError as e:
                print(f"quakemodels ls: error: {e}", file=sys.stderr)
                return 1
            _summary(rows, models, n_players, len(fs.sources), fs.engine, args.models)
            return 0
        rows = 0
        models = 0
        everything = fs.listing()
        for found, shadowed in everything:
            try:
                if found.entry is not None and found.source.archive is not None:
                    head = found.source.archive.read_head(found.entry)
                else:
                    assert found.file is not None
                    with open_regular(found.file) as f:
                        head = f.read(16)
            except (ModelFormatError, OSError) as e:
                print(f"quakemodels ls: error: {found.name}: {e}", file=sys.stderr)
                return 1
            fmt = by_magic(head)
            is_model = fmt is not None
            kind = fmt.name if fmt is not None else type_by_magic(head, found.name)
            models += is_model
            if args.models and not is_model:
                continue
            rows += 1
            where = _label(found.source.path, base)
            over = (
                f"  (over {', '.join(_label(s.path, base) for s in shadowed)})" if shadowed else ""
            )
            print(f"{found.size:>10}  {kind:<5} {found.name}  [{where}]{over}")
        # Quake III player folders: one line each, naming where each part comes from
        listing = {found.name: found for found, _ in everything}
        players = folder_sets(listing)
        for folder, parts in players.items():
            size = sum(listing[name].size for name in parts.values())
            wheres = sorted({_label(listing[name].source.path, base) for name in parts.values()})
            print(f"{size:>10}  {'player':<5} {folder}/  [{', '.join(wheres)}]")
        _summary(rows, models, len(players), len(fs.sources), fs.engine, args.models)
    return 0


def _summary(rows: int, models: int, players: int, sources: int, engine: str, only: bool) -> None:
    """`18 files (6 models, 2 players)`; with --models every row is a model: `6 models`."""
    counts = [plural(models, "model")] if not only else []
    if players:
        counts.append(plural(players, "player"))
    what = plural(rows, "model" if only else "file")
    if counts:
        what += f" ({', '.join(counts)})"
    print(f"{what} from {plural(sources, 'source')}, {engine} order", file=sys.stderr)


def _list_plain(archive: Archive, where: str, args: argparse.Namespace) -> tuple[int, int, int]:
    """``ls`` of one archive of up to PLAIN_MAX_ENTRIES entries, an entry at a time: (rows,
    models, players). :func:`_list_archive` lists a larger one from its arrays, alike."""
    table = archive.entries
    kinds: dict[bytes, tuple[str | None, bool]] = {}  # head -> (type, a model)
    models = 0
    md3: dict[str, int] = {}  # player part candidates, in listing order: name -> size
    lines = []
    for i in archive.sort_order():
        entry = table[i]
        head = archive.read_head(entry)
        kind, model = kinds.get(head) or kinds.setdefault(head, _kind(head))
        models += model
        name = entry.name
        if name[-4:].lower() == ".md3":
            md3[name] = entry.size
        if args.models and not model:
            continue
        lines.append(f"{entry.size:>10}  {kind or type_by_magic(b'', name):<5} {name}  [{where}]\n")
    rows = len(lines)
    players = folder_sets(md3)
    for folder, parts in players.items():
        size = sum(md3[name] for name in parts.values())
        lines.append(f"{size:>10}  {'player':<5} {folder}/  [{where}]\n")
    sys.stdout.write("".join(lines))
    return rows, models, len(players)


def _kind(head: bytes) -> tuple[str | None, bool]:
    """(the type an entry's first bytes tell, None where its extension must; a model)."""
    fmt = by_magic(head)
    if fmt is not None:
        return fmt.name, True
    kind = type_by_magic(head)
    return (None if kind == "data" else kind), False


def _kinds(archive: Archive) -> tuple[np.ndarray, list[str | None], np.ndarray]:
    """Each entry's type by its first 16 bytes, decided once per distinct head: (int64 code
    per entry, the code's type, None where the name's extension decides; bool per code: a
    model). Heads are taken a block at a time, so only the codes stay."""
    import numpy as np

    count = len(archive.entries)
    codes = np.empty(count, np.int64)
    seen: dict[bytes, int] = {}
    for a in range(0, count, _BLOCK * 4):
        heads, lengths = archive.heads(16, a, a + _BLOCK * 4)
        keyed = np.zeros((len(heads), 17), np.uint8)
        keyed[:, :16] = heads
        keyed[:, 16] = lengths
        distinct, inverse = np.unique(keyed.view("V17").ravel(), return_inverse=True)
        local = np.array([seen.setdefault(bytes(v), len(seen)) for v in distinct], np.int64)
        codes[a : a + len(heads)] = local[inverse.reshape(-1)]
    names: list[str | None] = []
    model = np.zeros(len(seen), bool)
    for c, raw in enumerate(seen):  # dicts keep insertion order: raw's code is c
        head = raw[: raw[16]]
        fmt = by_magic(head)
        model[c] = fmt is not None
        kind = fmt.name if fmt is not None else type_by_magic(head)
        names.append(None if kind == "data" else kind)  # no magic: by extension, per name
    return codes, names, model


def _list_archive(archive: Archive, where: str, args: argparse.Namespace) -> tuple[int, int, int]:
    """``ls`` of one archive from its entry arrays: (rows, models, players). Lines go out
    in blocks of a few thousand, never one Python object per entry kept."""
    from ..archive import fast

    table = archive.entries
    codes, kinds, model_code = _kinds(archive)
    is_model = model_code[codes]
    order = fast.sort_order(
        table.blob, table.starts, LISTING_ORDER, lambda: table.plain_sort_order(LISTING_ORDER)
    )
    out = sys.stdout
    rows = 0
    md3: dict[str, int] = {}  # player part candidates, in listing order: name -> size
    blob, starts, sizes = table.blob, fast.column(table.starts), fast.column(table.size)
    by_ext: dict[str, str] = {}
    for a in range(0, len(order), _BLOCK):
        block = order[a : a + _BLOCK]
        lines = []
        for size, code, model, lo, hi in zip(
            sizes[block].tolist(),
            codes[block].tolist(),
            is_model[block].tolist(),
            starts[block].tolist(),
            starts[block + 1].tolist(),
            strict=True,
        ):
            name = blob[lo : hi - 1].decode("utf-8", "surrogateescape")
            if name[-4:].lower() == ".md3":
                md3[name] = size
            if args.models and not model:
                continue
            kind = kinds[code]
            if kind is None:  # no magic: by extension (inline: this runs per entry)
                dot = name.rfind(".")
                ext = name[dot + 1 :]
                if dot > 0 and name[dot - 1] not in "./" and "/" not in ext:
                    kind = by_ext.get(ext) or by_ext.setdefault(ext, ext.lower() or "data")
                else:
                    kind = type_by_magic(b"", name)
            lines.append(f"{size:>10}  {kind:<5} {name}  [{where}]\n")
        rows += len(lines)
        out.write("".join(lines))
    players = folder_sets(md3)
    for folder, parts in players.items():
        size = sum(md3[name] for name in parts.values())
        out.write(f"{size:>10}  {'player':<5} {folder}/  [{where}]\n")
    return rows, int(is_model.sum()), len(players)


def _label(path: Path, base: Path) -> str:
    """A source's path relative to the listed folder (``pak0.pak``, ``.``), else its name."""
    if path == base:
        return "." if base.is_dir() else path.name
    try:
        rel = path.relative_to(base)
    except ValueError:
        return str(path)
    return str(rel) if str(rel) != "." else "."
