"""Archive directories as arrays: the same listing and lookups as one object per entry, and a
1,000,000-entry pak listed (``ls``) and searched (``info``) within a bounded memory.

Wall time is not asserted here (the machine is shared); ``make bench`` has the timings.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from archivebuilder import big_pak_bytes, pak_bytes, pak_listing, pk3_bytes
from conftest import CORPUS, IN_CI

from quakemodels import archive
from quakemodels.archive import GameFS
from quakemodels.archive.names import ENGINES, Engine, name_key, query_key, type_by_magic
from quakemodels.errors import ArchiveError
from quakemodels.registry import by_magic

MILLION = 1_000_000
# ru_maxrss of the child that lists, over the interpreter's own (kilobytes, as Linux counts)
MEMORY_BUDGET_KB = 200 * 1024


def _peak_kb(*argv: str) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Run ``argv`` under a fresh parent and return the child's peak RSS (kB) and result: the
    parent's RUSAGE_CHILDREN then counts that child alone, not this test run's others."""
    probe = (
        "import json, resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(json.dumps([peak, r.returncode, r.stdout, r.stderr]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True
    )
    peak, code, out, err = json.loads(done.stdout)
    return peak, subprocess.CompletedProcess(list(argv), code, out, err)


@pytest.fixture(scope="module")
def million_pak(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("million") / "big.pak"
    path.write_bytes(big_pak_bytes(MILLION))
    return path


@pytest.fixture(scope="module")
def baseline_kb() -> int:
    return _peak_kb(sys.executable, "-c", "pass")[0]


def test_ls_million_entries(million_pak: Path, baseline_kb: int) -> None:
    """Every entry listed once, in name order, typed (the one with IDP2 magic as md2, the
    empty ones by extension), within 200 MB over the interpreter."""
    peak, r = _peak_kb(sys.executable, "-m", "quakemodels", "ls", str(million_pak))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == MILLION
    assert lines[0] == "         4  md2   data/f0000000.dat  [big.pak]"
    assert lines[1] == "         0  dat   data/f0000001.dat  [big.pak]"
    assert lines[-1] == "         0  dat   data/f0999999.dat  [big.pak]"
    assert r.stderr.strip().splitlines()[-1] == (
        "1000000 files (1 model) from 1 source, quake2 order"
    )
    assert peak < MEMORY_BUDGET_KB + baseline_kb, f"peak {peak} kB, baseline {baseline_kb} kB"


def test_ls_million_entries_models_only(million_pak: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "quakemodels", "ls", "--models", str(million_pak)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["         4  md2   data/f0000000.dat  [big.pak]"]
    assert "1 model from 1 source" in r.stderr


def test_info_million_entries(million_pak: Path, baseline_kb: int) -> None:
    """``info`` finds no model among a million names (by extension) within the budget."""
    peak, r = _peak_kb(sys.executable, "-m", "quakemodels", "info", str(million_pak))
    assert r.returncode == 1
    assert r.stdout == ""
    kinds = ".md2 or .md3 or .mdl or .md5mesh or .spr or .sp2 or .iqm"
    assert f"no {kinds} files in this game data" in r.stderr
    assert peak < MEMORY_BUDGET_KB + baseline_kb, f"peak {peak} kB, baseline {baseline_kb} kB"


def test_million_entry_lookup(million_pak: Path) -> None:
    with archive.open(million_pak) as a:
        assert len(a) == MILLION
        assert a.find("DATA/F0999999.DAT") == archive.Entry(
            "data/f0999999.dat", MILLION - 1, 16, 0, 0
        )
        assert a.find("data/f1000000.dat") is None
        assert a.read("data/f0000000.dat") == b"IDP2"


# -- the arrays give what one object per entry gave --------------------------------------------

ODD = [
    ("models/a/tris.md2", b"IDP2" + bytes(60)),
    ("Models/B/Tris.MD2", b"x" * 3),
    ("sound/ a b .wav", b"RIFF"),
    ("x" * 56, b"full name, no NUL"),
    ("pics/.hidden", b""),
    ("pics/..dots", b"\x89PNG...."),
    ("noext", b"data"),
    ("dir.d/file", b"BM.."),
    ("a.b.c.TGA", b"\0\0\2"),
    ("maps/e1m1.bsp", b"IBSP" + bytes(8)),
    ("progs/player.mdl", b"IDPO"),
    ("empty.pcx", b""),
    ("q\\back\\slash.txt", b"t"),
]


def _reference_lookup(names: list[str], engine: Engine) -> dict[str, int]:
    """name_key -> the first entry holding it: what one dict per archive gave."""
    first: dict[str, int] = {}
    for i, n in enumerate(names):
        first.setdefault(name_key(n, engine), i)
    return first


@pytest.mark.parametrize("engine", ["quake", "quake2"])
def test_pak_arrays_equal_struct_listing(engine: Engine) -> None:
    data = pak_bytes(ODD)
    with archive.PakArchive(data, engine=engine) as a:
        assert [(e.name, e.offset, e.size) for e in a.entries] == pak_listing(data)
        assert [(e.name, e.offset, e.size) for e in a.entries[::-1]] == pak_listing(data)[::-1]
        assert a.names() == [n for n, _, _ in pak_listing(data)]
        ref = _reference_lookup(a.names(), engine)
        for name in [*a.names(), "MODELS/A/TRIS.MD2", "models/b/tris.md2", "nope", ""]:
            want = ref.get(query_key(name, engine))
            got = a.find(name)
            assert (got.index if got else None) == want, name


def test_bytes_after_the_nul_are_ignored() -> None:
    data = bytearray(pak_bytes([("abc", b"1"), ("def", b"2")]))
    ofs = len(data) - 128
    data[ofs + 4 : ofs + 10] = b"\0junk!"  # "abc\0\0\0\0..." -> "abc\0junk!"
    with archive.PakArchive(bytes(data)) as a:
        assert a.names() == ["abc", "def"]


def test_duplicates_refused_as_before() -> None:
    """Quake II folds case: the second spelling is named, with the first (as before)."""
    data = pak_bytes([("a/x.md2", b"1"), ("b", b"2"), ("A/X.md2", b"3"), ("B", b"4")])
    with pytest.raises(ArchiveError, match=r"'A/X.md2' \(#2\) and 'a/x.md2' \(#0\)"):
        archive.PakArchive(data)
    with archive.PakArchive(data, engine="quake") as a:  # strcmp: four names
        assert [a.find(n).index for n in ("a/x.md2", "b", "A/X.md2", "B")] == [0, 1, 2, 3]


def test_hash_collisions_never_merge_names() -> None:
    """Many names of every length 0..60 and content: each found as itself."""
    names = [f"{'d/' * (i % 9)}n{i:x}{'.e' * (i % 5)}" for i in range(5000)]
    entries = [archive.Entry(n, i, 0, 0, 0) for i, n in enumerate(names)]
    for engine in ENGINES:
        a = archive.Archive(Path("x"), entries, engine)
        assert [a.find(n).index for n in names] == list(range(5000))  # type: ignore[union-attr]


def _old_ls(path: Path) -> list[str]:
    """The per-entry ls of one archive (as the CLI did for every source before)."""
    lines = []
    with GameFS(path) as fs:
        for found, _ in fs.listing():
            assert found.entry is not None and found.source.archive is not None
            head = found.source.archive.read_head(found.entry)
            fmt = by_magic(head)
            kind = fmt.name if fmt is not None else type_by_magic(head, found.name)
            lines.append(f"{found.size:>10}  {kind:<5} {found.name}  [{path.name}]")
    return lines


def _archives(tmp_path: Path) -> list[Path]:
    pak = tmp_path / "odd.pak"
    pak.write_bytes(pak_bytes(ODD))
    pk3 = tmp_path / "odd.pk3"
    pk3.write_bytes(pk3_bytes(ODD[:3] + ODD[5:], folders=True))
    found = [pak, pk3]
    if (CORPUS / "archives").is_dir():
        found += sorted((CORPUS / "archives").iterdir())
    elif IN_CI:
        pytest.fail(f"CI=true but {CORPUS / 'archives'} is missing")
    return found


def test_ls_arrays_equal_per_entry_listing(tmp_path: Path) -> None:
    for path in _archives(tmp_path):
        r = subprocess.run(
            [sys.executable, "-m", "quakemodels", "ls", str(path)], capture_output=True, text=True
        )
        assert r.returncode == 0, r.stderr
        rows = r.stdout.splitlines()
        assert [x for x in rows if "  player " not in x] == _old_ls(path), path


def test_pk3_listing_equals_zipfile(tmp_path: Path) -> None:
    for path in _archives(tmp_path):
        if path.suffix != ".pk3":
            continue
        with zipfile.ZipFile(path) as zf, archive.open(path) as a:
            files = [(i, n) for n, i in enumerate(zf.infolist()) if not i.is_dir()]
            got = [(e.name, e.index, e.offset, e.size, e.compressed_size) for e in a.entries]
            assert got == [
                (i.filename, n, i.header_offset, i.file_size, i.compress_size) for i, n in files
            ]
            for i, _ in files:
                assert a.find(i.filename.upper()) == a.entries[a.names().index(i.filename)]


def test_pk3_opens_without_zipfile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing and lookups come from the central directory walked here: zipfile (a ZipInfo
    per entry) opens only when an entry's bytes are read."""
    path = tmp_path / "a.pk3"
    path.write_bytes(pk3_bytes(ODD[:3], folders=True))
    opened: list[object] = []
    real = zipfile.ZipFile

    def counting(*args: object, **kwargs: object) -> zipfile.ZipFile:
        opened.append(args[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(zipfile, "ZipFile", counting)
    with archive.open(path) as a:
        assert a.names() == [n for n, _ in ODD[:3]]
        assert a.find("MODELS/B/TRIS.md2") == a.entries[1]
        assert [e.index for e in a.entries] == [2, 5, 7]  # after folders models/, models/a/, ...
        assert opened == []
        assert a.read("sound/ a b .wav") == b"RIFF"
        assert len(opened) == 1


def test_pk3_with_prefix_and_comment_lists_as_zipfile(tmp_path: Path) -> None:
    """A zip after other bytes (offsets shifted, as zipfile's `concat`) and with a comment."""
    buf = pk3_bytes(ODD[:3], folders=False)
    path = tmp_path / "sfx.pk3"
    with zipfile.ZipFile(path, "w") as zf:
        pass
    data = b"MZ" + bytes(1000) + buf
    path.write_bytes(data)
    with zipfile.ZipFile(path, "a") as zf:
        zf.comment = b"a comment"
    with zipfile.ZipFile(path) as zf, archive.open(path) as a:
        assert [(e.name, e.offset) for e in a.entries] == [
            (i.filename, i.header_offset) for i in zf.infolist()
        ]
        assert a.read("models/a/tris.md2") == ODD[0][1]


def test_zip64_directory_lists_as_zipfile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over 65,535 entries zipfile writes zip64 end records: read here too, not via zipfile."""
    path = tmp_path / "many.pk3"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for i in range(70_000):
            zf.writestr(f"d{i % 7}/f{i}.txt", b"x" if i % 2 else b"")
    with zipfile.ZipFile(path) as zf:
        want = [(i.filename, i.header_offset, i.file_size) for i in zf.infolist()]
    monkeypatch.setattr(zipfile, "ZipFile", None)  # any use of zipfile at open would fail
    with archive.open(path) as a:
        assert [(e.name, e.offset, e.size) for e in a.entries] == want
        assert a.find("D5/F69998.TXT") == a.entries[69998]


# -- the plain and the numpy paths give the same archive ----------------------------------------


def _outcome(data: bytes, kind: str, engine: Engine) -> object:
    """Everything an opened archive says of itself, or the error it was refused with."""
    opener = archive.PakArchive if kind == "pak" else archive.Pk3Archive
    try:
        with opener(data, engine=engine) as a:
            names = a.names()
            return (
                list(a.entries),
                names,
                [a.position(n) for n in [*names, *(n.upper() for n in names), "nope"]],
                a.sort_order(),
                a.entries.ending_with([".md2", ".TXT", "e"]),
            )
    except ArchiveError as e:
        return ("refused", str(e), e.field, e.offset)


def _hostile_archives(count: int = 40) -> list[tuple[str, bytes]]:
    sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))
    import archives as fuzz_archives  # the fuzz harness's generators (fuzz/archives.py)

    found = list(fuzz_archives.cases(3, count))
    found += [("odd pak", pak_bytes(ODD)), ("odd pk3", pk3_bytes(ODD[:3] + ODD[5:], folders=True))]
    dup = pak_bytes([("a/x.md2", b"1"), ("b", b"2"), ("A/X.md2", b"3"), ("B", b"4")])
    found.append(("duplicate names", dup))
    return found


@pytest.mark.parametrize("engine", ["quake2", "quake3"])
def test_plain_and_numpy_paths_agree(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hostile archive of the fuzz harness (bombs, lying sizes, overlaps, flipped
    bytes...) and the odd names above: the same entries, lookups, order and suffix matches, or
    the same refusal, whether the directory is read in Python or with numpy."""
    from quakemodels.archive import base

    cases = _hostile_archives()
    kinds = [("pak" if data[:4] == b"PACK" else "pk3") for _, data in cases]
    plain = [_outcome(data, k, engine) for (_, data), k in zip(cases, kinds, strict=True)]
    monkeypatch.setattr(base, "PLAIN_MAX_ENTRIES", -1)  # every directory through archive/fast.py
    vectorised = [_outcome(data, k, engine) for (_, data), k in zip(cases, kinds, strict=True)]
    refused = sum(isinstance(o, tuple) and o[0] == "refused" for o in plain)
    assert 0 < refused < len(cases)  # both outcomes are exercised
    for (label, _), a, b in zip(cases, plain, vectorised, strict=True):
        assert a == b, label


def test_ls_lists_alike_by_either_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`quakemodels ls` of each test archive prints the same lines from either path."""
    from quakemodels.archive import base
    from quakemodels.cli import main

    outputs = {}
    for limit in (base.PLAIN_MAX_ENTRIES, -1):
        monkeypatch.setattr(base, "PLAIN_MAX_ENTRIES", limit)
        for path in _archives(tmp_path):
            for extra in ([], ["--models"]):
                assert main(["ls", str(path), *extra]) == 0
                outputs.setdefault((path.name, *extra), []).append(capsys.readouterr())
    for key, (plain, vectorised) in outputs.items():
        assert plain.err and plain == vectorised, key


def _extracted(data: bytes, kind: str, folder: Path) -> object:
    """What extracting the archive wrote (path -> bytes), or the error it was refused with."""
    from quakemodels.archive.extract import extract

    opener = archive.PakArchive if kind == "pak" else archive.Pk3Archive
    try:
        with opener(data, engine="quake") as a:
            extract(a, folder)
    except ArchiveError as e:
        return ("refused", str(e).replace(str(folder), "OUT"))
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_extraction_checks_agree_by_either_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names that differ only in case, a file that is also a folder, and the fuzz harness's
    archives: the same files or the same refusal whether the picks' hashes are matched in
    Python or with numpy."""
    from quakemodels.archive import base

    cases = [
        ("case clash", pak_bytes([("a/x.txt", b"1"), ("b", b"2"), ("A/X.txt", b"3")])),
        ("file and folder", pak_bytes([("b", b"1"), ("b/c.txt", b"2")])),
        ("fine", pak_bytes([("a/x.txt", b"1"), ("a/y/z.txt", b"2"), ("b.txt", b"3")])),
        *_hostile_archives(10),
    ]
    results = []
    for limit in (base.PLAIN_MAX_ENTRIES, -1):
        monkeypatch.setattr(base, "PLAIN_MAX_ENTRIES", limit)
        results.append(
            [
                _extracted(data, "pak" if data[:4] == b"PACK" else "pk3", tmp_path / f"{limit}_{i}")
                for i, (_, data) in enumerate(cases)
            ]
        )
    plain, vectorised = results
    assert plain[0][0] == "refused" and "differ only in case" in str(plain[0][1])
    assert plain[1][0] == "refused" and "also the folder" in str(plain[1][1])
    assert plain[2] == {"a/x.txt": b"1", "a/y/z.txt": b"2", "b.txt": b"3"}
    for (label, _), a, b in zip(cases, plain, vectorised, strict=True):
        assert a == b, label
