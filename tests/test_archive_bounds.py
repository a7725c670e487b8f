"""Archives as large and as hostile as real ones: streamed, bounded, all or nothing.

Zip bombs (10**9 deflated zeros in a 1 MB pk3), lying sizes, symlink entries and failures half
way through an extraction, each run through the CLI in a child process whose peak memory is
measured: no MemoryError, no traceback, no file left behind, the user's files untouched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from archivebuilder import deflated_zeros, pak_bytes, pk3_bytes, raw_zip

from quakemodels.archive.extract import extract
from quakemodels.archive.pk3 import Pk3Archive
from quakemodels.errors import ArchiveError

BOMB = "models/a/bomb.md3"
REG = 0o100644 << 16
LINK = 0o120777 << 16
# What a child process may grow by (its peak resident size over its size once the package is
# imported), whatever the entries' sizes.
BUDGET = 100 << 20

_MEASURED = """
import json, resource, sys
import quakemodels.registry, quakemodels.cli, quakemodels.archive.pk3, quakemodels.archive.pak
from quakemodels.cli import main
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    rc = main(sys.argv[1:])
except SystemExit as e:
    rc = e.code
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stderr.flush()
print(json.dumps({"rc": rc, "grew": (peak - base) * 1024}), file=sys.__stdout__)
"""


def measured(*args: str | Path) -> tuple[int, int, str, str]:
    """Run the CLI in a child process: (exit status, peak memory growth in bytes, stdout
    before the report, stderr)."""
    p = subprocess.run(
        [sys.executable, "-c", _MEASURED, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr
    *out, report = p.stdout.splitlines()
    result = json.loads(report)
    return int(result["rc"]), int(result["grew"]), "\n".join(out), p.stderr


def contents(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` (hidden ones too), a file's bytes or None for a folder."""
    return {
        p.relative_to(folder).as_posix(): (None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.rglob("*"))
    }


@pytest.fixture(scope="session")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The issue's bomb: a 1 MB pk3 whose model entry inflates to 10**9 zero bytes (honestly
    declared: sizes and CRC right), after a small text file."""
    data, crc = deflated_zeros(10**9)
    path = tmp_path_factory.mktemp("bomb") / "bomb.pk3"
    path.write_bytes(
        raw_zip(
            [
                ("readme.txt", b"hello\n", 6, zlib.crc32(b"hello\n"), 0, REG),
                (BOMB, data, 10**9, crc, 8, REG),
            ]
        )
    )
    assert path.stat().st_size < 1 << 20
    return path


def user_folder(tmp_path: Path) -> tuple[Path, dict[str, bytes | None]]:
    """An output folder holding the user's own files (one that extraction would replace)."""
    out = tmp_path / "out"
    (out / "mine").mkdir(parents=True)
    (out / "mine" / "notes.txt").write_bytes(b"the user's\n")
    (out / "readme.txt").write_bytes(b"the user's readme\n")
    return out, contents(out)


# -- 1. streamed and bounded ------------------------------------------------------------------


def test_extract_refuses_the_zip_bomb_before_writing(bomb: Path, tmp_path: Path) -> None:
    out, before = user_folder(tmp_path)
    rc, grew, stdout, stderr = measured("extract", bomb, "-o", out)
    assert rc == 1
    assert stderr == (
        f"quakemodels extract: error: {bomb}: entry {BOMB!r}: declares 1000000000 bytes from"
        " 973602 compressed: a ratio of 1027:1, over the limit of 1000:1 (a zip bomb?"
        " `extract --max-ratio` raises the limit)\n"
    )
    assert stdout == ""
    assert grew < BUDGET
    assert contents(out) == before  # readme.txt not replaced, nothing added, no staging folder
    # into a folder that did not exist: it does not exist afterwards either
    rc, _, _, _ = measured("extract", bomb, "-o", tmp_path / "new" / "deeper")
    assert rc == 1
    assert not (tmp_path / "new").exists()


def test_info_on_the_bomb_named_as_a_model_refuses_cleanly(bomb: Path) -> None:
    """Its first bytes are no model's magic: refused from them, before it is inflated."""
    rc, grew, _, stderr = measured("info", f"{bomb}/{BOMB}")
    assert rc == 1
    assert "magic=b'\\x00\\x00\\x00\\x00' at offset 0 is not a known model format" in stderr
    assert "MemoryError" not in stderr
    assert grew < BUDGET


def _low_ratio_bomb(folder: Path, head: bytes) -> Path:
    """A pk3 whose model entry is ``head`` then zeros, 10**9 bytes deflated at level 1: about
    230:1, which the archive's ratio guard lets through (real data reaches 20:1)."""
    data, crc = deflated_zeros(10**9, level=1, head=head)
    assert 200 < 10**9 // len(data) < 1000
    path = folder / "low.pk3"
    path.write_bytes(raw_zip([(BOMB, data, 10**9, crc, 8, REG)]))
    return path


# An MD3 header's first fields: magic, version 15, then zeros (a name, counts).
MD3_HEAD = b"IDP3" + (15).to_bytes(4, "little")


@pytest.mark.parametrize("verb", ["info", "check", "export"])
def test_a_low_ratio_bomb_without_magic_is_refused_from_its_head(verb: str, tmp_path: Path) -> None:
    bomb = _low_ratio_bomb(tmp_path, b"")
    extra = ["-o", str(tmp_path / "x.glb")] if verb == "export" else []
    rc, grew, stdout, stderr = measured(verb, f"{bomb}/{BOMB}", *extra)
    assert rc == 1
    assert "is not a known model format" in stdout + stderr  # check reports on stdout
    assert grew < BUDGET
    assert not (tmp_path / "x.glb").exists()


@pytest.mark.parametrize("verb", ["info", "check", "dump"])
def test_a_model_entry_over_its_formats_limit_is_refused_before_it_is_read(
    verb: str, tmp_path: Path
) -> None:
    """An MD3 head and 10**9 bytes: over the largest MD3 read (Q2PRO's MAX_LOADFILE)."""
    bomb = _low_ratio_bomb(tmp_path, MD3_HEAD)
    rc, grew, stdout, stderr = measured(verb, f"{bomb}/{BOMB}")
    stderr += stdout  # check reports on stdout
    assert rc == 1
    assert f"entry {BOMB!r}: declares 1000000000 bytes, over the limit of 67112960 bytes" in stderr
    assert grew < BUDGET


def test_a_model_file_over_its_formats_limit_is_refused(tmp_path: Path) -> None:
    from quakemodels import load
    from quakemodels.errors import BadValueError

    big = tmp_path / "big.md3"
    with open(big, "wb") as f:
        f.write(MD3_HEAD)
        f.truncate(0x4001001)  # one byte over Q2PRO's MAX_LOADFILE, sparse
    with pytest.raises(BadValueError) as e:
        load(big)
    assert e.value.field == "file_size"
    assert str(e.value) == (
        f"{big} is 67112961 bytes, over the largest Quake III MD3 file quakemodels reads"
        " (67112960 bytes)"
    )
    rc, _, _, stderr = measured("info", big)
    assert rc == 1
    assert "over the largest Quake III MD3 file" in stderr


def test_model_bytes_over_their_formats_limit_are_refused() -> None:
    """load(bytes) is judged by the same limit as a file or an archive entry."""
    from quakemodels import load
    from quakemodels.errors import BadValueError

    data = bytearray(0x4001001)  # one byte over Q2PRO's MAX_LOADFILE
    data[: len(MD3_HEAD)] = MD3_HEAD
    with pytest.raises(BadValueError) as e:
        load(bytes(data))
    assert e.value.field == "file_size"
    assert str(e.value).startswith("the data is 67112961 bytes, over the largest Quake III MD3")


def test_a_large_entry_extracts_in_bounded_memory(bomb: Path, tmp_path: Path) -> None:
    """Raised past the ratio guard, the gigabyte entry is streamed to disk a chunk at a time."""
    out = tmp_path / "out"
    rc, grew, stdout, stderr = measured("extract", bomb, "-o", out, "--max-ratio", "2000")
    assert rc == 0, stderr
    assert stdout.splitlines() == [str(out / "readme.txt"), str(out / BOMB)]
    assert grew < BUDGET
    assert (out / BOMB).stat().st_size == 10**9
    with open(out / BOMB, "rb") as f:
        f.seek(10**9 - 4096)
        assert f.read() == bytes(4096)
    assert sorted(p.name for p in out.iterdir()) == ["models", "readme.txt"]


def test_an_entry_inflating_past_its_declared_size_is_stopped(tmp_path: Path) -> None:
    """It declares 1,000 bytes (no ratio guard applies) and inflates to 10**9."""
    data, crc = deflated_zeros(10**9)
    path = tmp_path / "liar.pk3"
    path.write_bytes(raw_zip([(BOMB, data, 1000, crc, 8, REG)]))
    out, before = user_folder(tmp_path)
    rc, grew, _, stderr = measured("extract", path, "-o", out)
    assert rc == 1
    assert stderr == (
        f"quakemodels extract: error: {path}: entry {BOMB!r}: inflates past its declared"
        " size of 1000 bytes (lying size or zip bomb) at offset 0\n"
    )
    assert grew < BUDGET
    assert contents(out) == before
    with Pk3Archive(path) as a, pytest.raises(ArchiveError, match="inflates past"):
        a.read(BOMB)


def test_local_header_must_agree_with_the_central_directory() -> None:
    blob = b"x" * 100
    data = bytearray(raw_zip([("a.txt", blob, 100, zlib.crc32(blob), 0, REG)]))
    data[22:26] = (50).to_bytes(4, "little")  # the local header's uncompressed size
    with Pk3Archive(bytes(data), name="x.pk3") as a, pytest.raises(ArchiveError) as err:
        a.read("a.txt")
    assert str(err.value) == (
        "x.pk3: entry 'a.txt': local header declares a size of 50 bytes, the central directory"
        " 100 at offset 0"
    )


def test_a_truncated_or_corrupt_stream_names_the_entry() -> None:
    packed = zlib.compress(b"y" * 5000)[2:-4]  # raw deflate
    crc = zlib.crc32(b"y" * 5000)
    cut = raw_zip([("a.txt", packed[:-3], 5000, crc, 8, REG)])
    with Pk3Archive(cut, name="x.pk3") as a, pytest.raises(ArchiveError, match="ends early"):
        a.read("a.txt")
    bad_crc = raw_zip([("a.txt", packed, 5000, crc ^ 1, 8, REG)])
    with Pk3Archive(bad_crc, name="x.pk3") as a, pytest.raises(ArchiveError) as err:
        a.read("a.txt")
    assert f"CRC-32 is {crc:08x}, not the declared {crc ^ 1:08x}" in str(err.value)
    assert err.value.entry == "a.txt"


def test_the_total_budget_stops_an_extraction_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "two.pk3"
    path.write_bytes(pk3_bytes([("a.bin", bytes(700_000)), ("b.bin", bytes(700_000))]))
    out, before = user_folder(tmp_path)
    rc, _, _, stderr = measured("extract", path, "-o", out, "--max-total", "1M")
    assert rc == 1
    assert stderr == (
        f"quakemodels extract: error: {path}: entry 'b.bin': brings the selected entries to"
        " 1400000 bytes, over the budget of 1048576 bytes (--max-total raises it)\n"
    )
    assert contents(out) == before
    rc, _, _, _ = measured("extract", path, "-o", out, "--max-total", "2M")
    assert rc == 0
    assert (out / "b.bin").read_bytes() == bytes(700_000)


def test_a_pak_streams_too(tmp_path: Path) -> None:
    path = tmp_path / "pak0.pak"
    body = os.urandom(3 << 20)
    path.write_bytes(pak_bytes([("maps/big.bsp", body), ("a.txt", b"a")]))
    from quakemodels.archive.pak import PakArchive

    with PakArchive(path) as a:
        pieces = list(a.stream(a.info("maps/big.bsp")))
        assert [len(p) for p in pieces] == [1 << 20] * 3
        assert b"".join(pieces) == body
        assert a.read_head(a.info("maps/big.bsp"), 4) == body[:4]
        with pytest.raises(ArchiveError, match=r"declares 3145728 bytes, over the limit of 1000"):
            a.read("maps/big.bsp", max_size=1000)


# -- 2. all or nothing ------------------------------------------------------------------------


def test_a_symlink_entry_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "link.pk3"
    path.write_bytes(
        raw_zip(
            [
                ("models/a.txt", b"aaa", 3, zlib.crc32(b"aaa"), 0, REG),
                ("link", b"/etc", 4, zlib.crc32(b"/etc"), 0, LINK),
                ("link/pwned.txt", b"pwned", 5, zlib.crc32(b"pwned"), 0, REG),
            ]
        )
    )
    out, before = user_folder(tmp_path)
    rc, _, stdout, stderr = measured("extract", path, "-o", out)
    assert rc == 1
    assert stderr == (
        f"quakemodels extract: error: {path}: entry 'link': is a symbolic link (zip external"
        " attributes); links are never written or followed\n"
    )
    assert stdout == ""
    assert contents(out) == before
    # the other entries alone extract
    rc, _, _, _ = measured("extract", path, "-o", out, "models/*")
    assert rc == 0
    assert (out / "models" / "a.txt").read_bytes() == b"aaa"
    assert not (out / "link").exists()


def test_an_entry_that_is_also_a_folder_is_refused_before_writing(tmp_path: Path) -> None:
    path = tmp_path / "clash.pk3"
    path.write_bytes(pk3_bytes([("a.txt", b"1"), ("b", b"file"), ("b/c.txt", b"2")]))
    out, before = user_folder(tmp_path)
    with Pk3Archive(path) as a, pytest.raises(ArchiveError) as err:
        extract(a, out)
    assert str(err.value) == f"{path}: entry 'b': is a file, and also the folder of 'b/c.txt'"
    assert contents(out) == before


def test_a_failure_mid_extraction_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    """The third entry's CRC is wrong: the first two were already inflated (staged); none
    reaches the folder, and the user's readme.txt (which the archive would replace) stays."""
    good = b"archive readme\n"
    path = tmp_path / "bad.pk3"
    path.write_bytes(
        raw_zip(
            [
                ("readme.txt", good, len(good), zlib.crc32(good), 0, REG),
                ("models/a/x.txt", b"x", 1, zlib.crc32(b"x"), 0, REG),
                ("models/b/y.txt", b"y", 1, 0, 0, REG),
            ]
        )
    )
    out, before = user_folder(tmp_path)
    rc, _, stdout, stderr = measured("extract", path, "-o", out)
    assert rc == 1
    assert "entry 'models/b/y.txt': CRC-32 is" in stderr
    assert stdout == ""
    assert contents(out) == before


def test_a_failed_move_puts_back_the_users_file(tmp_path: Path) -> None:
    """readme.txt is moved over the user's first; then models/ is a file: the move fails,
    the user's readme.txt comes back and nothing else is left."""
    path = tmp_path / "pak0.pak"
    path.write_bytes(pak_bytes([("readme.txt", b"new\n"), ("models/a/tris.md2", b"IDP2")]))
    out, _ = user_folder(tmp_path)
    (out / "models").write_bytes(b"a file where a folder goes")
    before = contents(out)
    from quakemodels.archive.pak import PakArchive

    with PakArchive(path) as a, pytest.raises(NotADirectoryError):
        extract(a, out)
    assert contents(out) == before


def test_extract_writes_every_file_with_its_bytes(tmp_path: Path) -> None:
    files = [("a.txt", b"a"), ("models/m/tris.md2", os.urandom(3_000_000)), ("z/e.txt", b"")]
    path = tmp_path / "ok.pk3"
    path.write_bytes(pk3_bytes(files))
    out = tmp_path / "out"
    with Pk3Archive(path) as a:
        written = extract(a, out)
    assert [p.relative_to(out).as_posix() for p in written] == [n for n, _ in files]
    assert contents(out) == {
        "a.txt": b"a",
        "models": None,
        "models/m": None,
        "models/m/tris.md2": files[1][1],
        "z": None,
        "z/e.txt": b"",
    }


def test_zipfile_agrees_with_the_bomb_builder() -> None:
    data, crc = deflated_zeros(25_000_000, block=10**7)
    blob = raw_zip([("z", data, 25_000_000, crc, 8, REG)])
    import io

    with zipfile.ZipFile(io.BytesIO(blob)) as zf, zf.open("z") as f:
        n = 0
        while piece := f.read(1 << 22):
            n += len(piece)
    assert n == 25_000_000


def test_reading_a_large_entry_whole_holds_it_about_once() -> None:
    """A 100 MB entry under the ratio guard (deflate level 1: 229:1) read whole, as a model
    is: the traced peak stays near its size, not twice it."""
    import tracemalloc

    size = 10**8
    c = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
    packed = c.compress(bytes(size)) + c.flush()
    blob = raw_zip([("big.bin", packed, size, zlib.crc32(bytes(size)), 8, REG)])
    with Pk3Archive(blob) as a:
        tracemalloc.start()
        try:
            data = a.read("big.bin")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert len(data) == size and data[-4096:] == bytes(4096)
    assert peak < 1.1 * size + (8 << 20)


_KILLED = """
import os, signal, sys
from quakemodels.archive.extract import extract
from quakemodels.archive.pak import PakArchive

stop, calls, real = int(sys.argv[3]), [0], os.replace


def replace(src, dst):  # the process dies at its stop-th rename, as a SIGKILL would strike
    calls[0] += 1
    if calls[0] == stop:
        os.kill(os.getpid(), signal.SIGKILL)
    real(src, dst)


os.replace = replace
with PakArchive(sys.argv[1]) as a:
    extract(a, sys.argv[2])
"""

KILL_FILES = [("readme.txt", b"new\n"), ("models/a/x.txt", b"x"), ("mine/extra.txt", b"e")]
"""Four renames: the user's readme.txt out and the new one in, then two new files."""


@pytest.mark.parametrize("stop", [1, 2, 3, 4])
def test_an_extraction_killed_half_way_is_undone_by_the_next(stop: int, tmp_path: Path) -> None:
    """SIGKILL at each rename of the moves: the staging folder and journal survive it, and
    the next extraction into the folder puts it back as it was (the user's readme.txt too)
    before doing its own work."""
    from quakemodels.archive.extract import STAGE_PREFIX, recover
    from quakemodels.errors import QuakeModelsWarning

    path = tmp_path / "pak0.pak"
    path.write_bytes(pak_bytes(KILL_FILES))
    out, before = user_folder(tmp_path)
    p = subprocess.run(
        [sys.executable, "-c", _KILLED, str(path), str(out), str(stop)],
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert p.returncode == -9
    stages = [q.name for q in out.iterdir() if q.name.startswith(STAGE_PREFIX)]
    assert len(stages) == 1
    assert contents(out) != before
    with pytest.warns(QuakeModelsWarning, match="undid an extraction that was killed"):
        assert recover(out) == 1
    assert contents(out) == before
    assert recover(out) == 0


def test_extract_undoes_a_killed_extraction_first(tmp_path: Path) -> None:
    path = tmp_path / "pak0.pak"
    path.write_bytes(pak_bytes(KILL_FILES))
    out, before = user_folder(tmp_path)
    p = subprocess.run(
        [sys.executable, "-c", _KILLED, str(path), str(out), "3"],
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert p.returncode == -9
    assert (out / "readme.txt").read_bytes() == b"new\n"  # killed after moving it in
    rc, _, stdout, stderr = measured("extract", path, "-o", out)
    assert rc == 0, stderr
    assert "undid an extraction that was killed half way" in stderr
    assert "1 file(s) restored, 0 removed" in stderr  # the user's readme.txt, then replaced
    assert stdout.splitlines() == [str(out / name) for name, _ in KILL_FILES]
    expected = {**before, "readme.txt": b"new\n", "mine/extra.txt": b"e"}
    expected |= {"models": None, "models/a": None, "models/a/x.txt": b"x"}
    assert contents(out) == dict(sorted(expected.items()))
