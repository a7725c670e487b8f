"""Archives end to end: zip bombs, lying sizes, symlink entries, huge and overlapping
directories, and byte flips of small .pak/.pk3 files, from a seeded random generator.

Each case is written to a file and taken through everything a user can do with it: open,
list, ``read_head``, ``stream`` every entry, ``extract`` into a folder that holds the user's own
files, and ``quakemodels.load`` of every model-named entry through its archive path (what
``info x.pk3/models/...`` does). The invariants (fuzz/README.md):

* only :class:`quakemodels.ModelFormatError` (``ArchiveError`` is one) escapes, and no numpy
  warning (``RuntimeWarning``) is raised;
* peak traced memory stays under :data:`MEMORY_BUDGET` whatever the entries declare or
  inflate to (entries stream in 1 MiB chunks; bombs are refused before they are read);
* an extraction either writes every selected file with its declared size, or leaves the
  folder exactly as it was (the user's files untouched, nothing added).

    python fuzz/archives.py [--seconds N] [--seed S]   # exit 1 on a failure
"""

from __future__ import annotations

import random
import sys
import tempfile
import tracemalloc
import warnings
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import harness  # noqa: E402
from archivebuilder import deflated_zeros, pak_bytes, pk3_bytes, raw_zip  # noqa: E402
from md2builder import Md2Spec, build  # noqa: E402

# Traced peak while one case is exercised: a few 1 MiB chunks and the small models read whole,
# plus what extraction holds per entry (its plan: a target Path and a name key each).
MEMORY_BUDGET = 64 << 20
EXTRACT_BYTES_PER_ENTRY = 2048
# Traced peak of opening the archive and listing its names alone: the directory is arrays
# (offsets, sizes, one blob of names), about 300 bytes an entry for a pak and 480 for a pk3
# (its central directory read whole) with the list of names.
DIRECTORY_BUDGET = 4 << 20
DIRECTORY_BYTES_PER_ENTRY = 640
REG = 0o100644 << 16
LINK = 0o120777 << 16
MODEL = build(Md2Spec())
MODEL_NAMES = ("models/a/tris.md2", "models/b/bomb.md3", "progs/x.mdl")


def _bytes_entry(
    name: str, blob: bytes, method: int = 8, attr: int = REG
) -> tuple[str, bytes, int, int, int, int]:
    packed = zlib.compress(blob)[2:-4] if method == 8 else blob
    return (name, packed, len(blob), zlib.crc32(blob), method, attr)


def bomb_case(rng: random.Random) -> tuple[str, bytes]:
    """Deflated zeros, honest or lying about their size, named as a model or not, among a few
    ordinary entries: the ratio guard, the inflate-past check and streaming."""
    size = rng.choice((10**6, 10**7, 2 * 10**7, 10**8))
    data, crc = deflated_zeros(size, block=min(size, 10**7))
    declared = rng.choice((size, size, 1000, 0, size - 1, size + 1, 2**32 - 1))
    name = rng.choice((*MODEL_NAMES, "maps/big.bsp"))
    entries = [_bytes_entry("readme.txt", b"hello\n", rng.choice((0, 8)))]
    entries.append((name, data, declared, crc, 8, REG))
    if rng.random() < 0.3:  # the same bomb under a second name: the overlapping-entry bomb
        entries.append((name + ".2", data, declared, crc, 8, REG))
    label = f"pk3 bomb {size} declared {declared} as {name}"
    return label, raw_zip(entries)


def symlink_case(rng: random.Random) -> tuple[str, bytes]:
    """Symbolic-link entries (Unix external attributes), alone or with files below them."""
    target = rng.choice((b"/etc", b"../../..", b"models", b"/"))
    entries = [_bytes_entry("models/a.txt", b"aaa", 0)]
    link = rng.choice(("link", "models/link", "models/a/tris.md2"))
    entries.append(_bytes_entry(link, target, 0, LINK))
    if rng.random() < 0.7:
        entries.append(_bytes_entry(f"{link}/pwned.txt", b"pwned", 0))
    rng.shuffle(entries)
    return f"pk3 symlink {link} -> {target!r}", raw_zip(entries)


def lying_sizes_case(rng: random.Random) -> tuple[str, bytes]:
    """An ordinary entry whose declared size, CRC, method or stream is wrong, in the central
    directory, the local header or both."""
    blob = rng.choice((MODEL, b"x" * 5000, bytes(300_000)))
    method = rng.choice((0, 8))
    name, packed, size, crc, method, attr = _bytes_entry(rng.choice(MODEL_NAMES), blob, method)
    change = rng.randrange(6)
    if change == 0:
        size = rng.choice((0, 1, size - 1, size + 1, size * 2, 2**31, 2**32 - 1))
    elif change == 1:
        crc ^= 1 << rng.randrange(32)
    elif change == 2:
        packed = packed[: rng.randrange(len(packed) + 1)]
    elif change == 3:
        packed = bytes(b ^ 0x55 for b in packed[:64]) + packed[64:]
    data = bytearray(
        raw_zip([_bytes_entry("a.txt", b"a", 0), (name, packed, size, crc, method, attr)])
    )
    if change == 4:  # the local header's sizes or method only
        local = data.find(b"PK\3\4", 1)
        at = local + rng.choice((8, 18, 22))
        data[at : at + 4] = rng.choice((0, 1, 2**32 - 1, len(blob) + 7)).to_bytes(4, "little")
    elif change == 5:  # the local header's name or extra length
        local = data.find(b"PK\3\4", 1)
        at = local + rng.choice((26, 28))
        data[at : at + 2] = rng.choice((0, 1, 0xFFFF, 200)).to_bytes(2, "little")
    return f"pk3 lying change {change} {name} size {size}", bytes(data)


def directory_case(rng: random.Random) -> tuple[str, bytes]:
    """Huge, overlapping or out-of-file directories: many entries, entries sharing bytes,
    a header whose directory runs past the file or over the header."""
    kind = rng.randrange(5)
    if kind == 0:
        n = rng.choice((5000, 50_000))
        files = [(f"f/{i:06d}.txt", b"") for i in range(n)]
        return f"pak {n} entries", pak_bytes(files)
    if kind == 1:
        n = rng.choice((5000, 20_000))
        files = [(f"f/{i:06d}.txt", b"x") for i in range(n)]
        return f"pk3 {n} entries", pk3_bytes(files, method=0)
    if kind == 2:  # every directory entry pointing at the same bytes (or the header)
        data = bytearray(pak_bytes([(f"m/{i}.md2", MODEL) for i in range(4)]))
        ofs = int.from_bytes(data[4:8], "little")
        at = rng.choice((0, 12, ofs))
        for i in range(4):
            data[ofs + 64 * i + 56 : ofs + 64 * i + 60] = at.to_bytes(4, "little")
        return f"pak overlapping at {at}", bytes(data)
    if kind == 3:  # the header's directory: past the end, huge, negative, over the header
        data = bytearray(pak_bytes([("a.txt", b"a"), ("models/a/tris.md2", MODEL)]))
        field = rng.choice((4, 8))
        value = rng.choice((0, 4, 2**31 - 1, -64, 64 * 10**6, len(data)))
        data[field : field + 4] = value.to_bytes(4, "little", signed=True)
        return f"pak header +{field}={value}", bytes(data)
    # a zip whose central directory names one local header many times (overlap bomb)
    one = _bytes_entry("models/a/tris.md2", MODEL)
    n = rng.choice((2, 100, 5000))
    data = raw_zip([one] + [(f"m{i}", b"", 0, 0, 0, REG) for i in range(n)])
    blob = bytearray(data)
    start = blob.find(b"PK\1\2")
    i = blob.find(b"PK\1\2", start + 4)
    while i >= 0:
        blob[i + 42 : i + 46] = (0).to_bytes(4, "little")  # every local header offset: 0
        i = blob.find(b"PK\1\2", i + 4)
    return f"pk3 {n} entries sharing one local header", bytes(blob)


def flip_case(rng: random.Random) -> tuple[str, bytes]:
    """A small valid .pak or .pk3 holding models, with 1-16 random bit flips."""
    files = [("models/a/tris.md2", MODEL), ("readme.txt", b"hello\n" * 50)]
    data = bytearray(pak_bytes(files) if rng.random() < 0.5 else pk3_bytes(files))
    for _ in range(rng.randint(1, 16)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return f"{bytes(data[:4])!r} flips", bytes(data)


GENERATORS: tuple[Callable[[random.Random], tuple[str, bytes]], ...] = (
    bomb_case,
    symlink_case,
    lying_sizes_case,
    directory_case,
    flip_case,
)


def cases(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` inputs from every generator in turn, deterministic for ``seed``."""
    rng = random.Random(seed)
    for k in range(count):
        yield GENERATORS[k % len(GENERATORS)](rng)


def _contents(folder: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(folder).as_posix(): (None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.rglob("*"))
    }


def exercise(data: bytes) -> tuple[int, int, int]:
    """One archive through open, list, stream, extract and load: (traced peak in bytes,
    traced peak of opening and listing it, entries in its directory, 0 when it did not open).
    Raises AssertionError on a broken invariant and lets anything but ModelFormatError out."""
    import quakemodels
    from quakemodels import ModelFormatError, archive
    from quakemodels.archive.extract import extract

    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy's overflow / invalid cast
        folder = Path(tmp)
        suffix = ".pak" if data[:4] == b"PACK" else ".pk3"
        path = folder / f"case{suffix}"
        path.write_bytes(data)
        out = folder / "out"
        out.mkdir()
        (out / "readme.txt").write_bytes(b"the user's\n")
        tracemalloc.start()
        try:
            try:
                a = archive.open(path)
            except ModelFormatError:
                peak = tracemalloc.get_traced_memory()[1]
                return peak, peak, 0
            with a:
                a.names()
                listed = tracemalloc.get_traced_memory()[1]
                for entry in a.entries[:64]:
                    try:
                        a.read_head(entry)
                        a.guard(entry)
                        total = sum(len(piece) for piece in a.stream(entry))
                        assert total == entry.size, (entry.name, total, entry.size)
                    except ModelFormatError:
                        pass
                before = _contents(out)
                try:
                    written = extract(a, out)
                except ModelFormatError:
                    assert _contents(out) == before, "a failed extraction left files"
                else:
                    sizes = {e.name: e.size for e in a.entries}
                    for p in written:
                        rel = p.relative_to(out).as_posix()
                        assert p.stat().st_size == sizes[rel], rel
                    assert not [p for p in out.iterdir() if p.name.startswith(".quakemodels")]
                models = [e.name for e in a.entries if e.name.endswith((".md2", ".md3", ".mdl"))]
            for name in models[:4]:
                try:
                    quakemodels.load(f"{path}/{name}")
                except ModelFormatError:
                    pass
                except OSError:
                    # load's documented error for a path it cannot read: a name the path
                    # cannot spell (case, backslash), or an archive whose first bytes no
                    # longer say "PK"/"PACK" (archive.open found the zip's end record anyway)
                    pass
            return tracemalloc.get_traced_memory()[1], listed, len(a.entries)
        finally:
            tracemalloc.stop()


def listing(data: bytes) -> tuple[int, int]:
    """(traced peak of opening the archive in ``data`` and listing its names, entries): the
    directory phase of :func:`exercise` alone, for archives too large to extract in a test."""
    from quakemodels import archive

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("case.pak" if data[:4] == b"PACK" else "case.pk3")
        path.write_bytes(data)
        tracemalloc.start()
        try:
            with archive.open(path) as a:
                a.names()
                return tracemalloc.get_traced_memory()[1], len(a.entries)
        finally:
            tracemalloc.stop()


def run_case(label: str, data: bytes) -> None:
    """One case; AssertionError naming the label when memory ran over the budget."""
    peak, listed, entries = exercise(data)
    budget = DIRECTORY_BUDGET + DIRECTORY_BYTES_PER_ENTRY * entries
    assert listed <= budget, f"{label}: listing peak {listed >> 10} KiB over {budget >> 10} KiB"
    budget = MEMORY_BUDGET + EXTRACT_BYTES_PER_ENTRY * entries
    assert peak <= budget, f"{label}: traced peak {peak >> 20} MiB over {budget >> 20} MiB"


def main(argv: list[str] | None = None) -> int:
    return harness.drive_cases("archives", __doc__, cases, run_case, argv)


if __name__ == "__main__":
    raise SystemExit(main())
