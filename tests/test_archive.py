"""quakemodels.archive: .pak (generated quake_pak parser) and .pk3 (zipfile) archives, GameFS.

The PAK listing is compared with the generated Kaitai parser and with an independent struct
reading (tests/archivebuilder.py); archives holding the corpus models are built in the tests.
Every broken or hostile archive must raise an ArchiveError naming the archive and the entry.
"""

from __future__ import annotations

import hashlib
import os
import sys
import zipfile
from pathlib import Path

import pytest
from archivebuilder import (
    pak_bytes,
    pak_listing,
    pk3_bytes,
    pk3_patch_sizes,
    set_entry,
    set_header,
)
from conftest import CORPUS, IN_CI, REPO, corpus_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quakemodels
from quakemodels import archive
from quakemodels.archive import ArchiveError, GameFS, PakArchive, Pk3Archive
from quakemodels.archive.names import name_key, pk3_sort_key, query_key, unsafe_reason
from quakemodels.errors import ModelFormatError
from quakemodels.kaitai.quake_pak import QuakePak

sys.path.insert(0, str(REPO / "fuzz"))
import harness

# -- the corpus archives -----------------------------------------------------------------------


def archive_params() -> list[object]:
    """Every corpus archive as a pytest parameter, or one skip when the corpus is absent."""
    folder = CORPUS / "archives"
    files = sorted(folder.glob("*.pk3")) + sorted(folder.glob("*.pak"))
    if IN_CI and not files:
        raise RuntimeError(f"CI=true but {folder} has no archives")
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"corpus not found at {folder}"))]
    return [pytest.param(p, id=p.name) for p in files]


def kaitai_listing(path: Path) -> list[tuple[str, int, int]]:
    with QuakePak.from_file(str(path)) as pak:
        return [(e.name, e.ofs, e.size) for e in pak.index.entries]


EXPECTED_PAKS = {
    "qmin_pak0.pak": [("hellothere.txt", 56, 21)],
    "qmin_pak1.pak": [
        ("progs.dat", 12, 2348),
        ("gfx/colormap.lmp", 2360, 16385),
        ("gfx/palette.lmp", 18745, 768),
        ("gfx/pop.lmp", 19513, 256),
    ],
    "tb_gamefs_pak0.pak": [
        ("id1_pak0_loose_file.txt", 12, 4),
        ("id1_pak0_1.txt", 16, 10),
        ("id1_pak0_2.txt", 26, 10),
    ],
}


@pytest.mark.parametrize("path", archive_params())
def test_corpus_archive_listing(path: Path) -> None:
    """Every corpus archive lists the same as the generated parser / zipfile, and reads back."""
    data = path.read_bytes()
    with archive.open(path) as a:
        if path.suffix == ".pak":
            ours = [(e.name, e.offset, e.size) for e in a.entries]
            assert ours == EXPECTED_PAKS[path.name]
            assert ours == kaitai_listing(path) == pak_listing(data)
            for name, ofs, size in ours:
                assert a.read(name) == data[ofs : ofs + size]
        else:
            with zipfile.ZipFile(path) as zf:
                files = [i for i in zf.infolist() if not i.is_dir()]
                assert a.names() == [i.filename for i in files]
                for i in files:
                    assert a.read(i.filename) == zf.read(i)
                    assert a.info(i.filename).size == i.file_size


def test_corpus_pk3_models(corpus_dir: Path) -> None:
    """The real pk3: five 30-frame MD3 trees, a shader script, textures; folders not listed."""
    with archive.open(corpus_dir / "archives" / "cge_jkm_oaktree.pk3") as a:
        assert isinstance(a, Pk3Archive)
        assert len(a) == 11
        models = sorted(n for n in a.names() if n.endswith(".md3"))
        assert models == [f"models/mapobjects/oak/oak{i}.md3" for i in (1, 2, 3, 4, 5)]
        sizes = {n: a.info(n).size for n in models}
        assert sizes["models/mapobjects/oak/oak1.md3"] == 165464
        assert sizes["models/mapobjects/oak/oak5.md3"] == 97252
        for n in models:
            m = quakemodels.load(a.read(n))
            assert isinstance(m, quakemodels.Md3)
            assert m.num_frames == 30
        # FS_FilenameCompare: case and separators ignored
        upper = a.read("MODELS\\MAPOBJECTS\\OAK\\OAK1.MD3")
        assert (
            hashlib.sha256(upper).hexdigest()
            == hashlib.sha256(a.read("models/mapobjects/oak/oak1.md3")).hexdigest()
        )
        assert "models/mapobjects/oak/" not in a


def test_corpus_paks_have_no_models(corpus_dir: Path) -> None:
    for p in sorted((corpus_dir / "archives").glob("*.pak")):
        with archive.open(p) as a:
            assert isinstance(a, PakArchive)
            assert not [n for n in a.names() if n.endswith((".md2", ".md3", ".mdl"))]


# -- paks built from the corpus models ---------------------------------------------------------


def corpus_model_files() -> list[tuple[str, bytes]]:
    """(inner name, bytes) for every corpus MD2 and MD3 and the skins beside them."""
    files: list[tuple[str, bytes]] = []
    for p in [*corpus_files("md2"), *corpus_files("md3")]:
        stem = p.stem
        files.append((f"models/{stem}/tris{p.suffix}", p.read_bytes()))
        for skin in sorted(p.parent.glob(f"{stem}__*")):
            files.append((f"models/{stem}/{skin.name.split('__', 1)[1]}", skin.read_bytes()))
    return files


@pytest.fixture(scope="module")
def model_files() -> list[tuple[str, bytes]]:
    files = corpus_model_files()
    if not files:
        pytest.skip("corpus not found (set CI=true to require it)")
    return files


@pytest.mark.parametrize("dir_first", [False, True])
def test_pak_of_corpus_models(
    tmp_path: Path, model_files: list[tuple[str, bytes]], dir_first: bool
) -> None:
    data = pak_bytes(model_files, dir_first=dir_first)
    path = tmp_path / "pak0.pak"
    path.write_bytes(data)
    expected = pak_listing(data)
    assert kaitai_listing(path) == expected
    with archive.open(path) as a:
        assert [(e.name, e.offset, e.size) for e in a.entries] == expected
        assert a.names() == [n for n, _ in model_files]
        for name, blob in model_files:
            assert a.read(name) == blob
            # Q_strcasecmp: ASCII case ignored, '/' and '\\' distinct
            assert a.read(name.upper()) == blob
            assert a.find(name.replace("/", "\\")) is None
            if name.endswith((".md2", ".md3")):
                m = quakemodels.load(a.open(name))
                assert m.num_frames == quakemodels.load(blob).num_frames


def test_pk3_of_corpus_models(tmp_path: Path, model_files: list[tuple[str, bytes]]) -> None:
    path = tmp_path / "models.pk3"
    path.write_bytes(pk3_bytes(model_files))
    with archive.open(path) as a:
        assert isinstance(a, Pk3Archive)
        assert a.names() == [n for n, _ in model_files]
        for name, blob in model_files:
            assert a.read(name) == blob


def test_quake_engine_compares_exactly(tmp_path: Path) -> None:
    data = pak_bytes([("progs.dat", b"x"), ("maps/E1M1.bsp", b"yy")])
    pak = PakArchive(data, engine="quake")
    assert pak.read("maps/E1M1.bsp") == b"yy"
    assert "maps/e1m1.bsp" not in pak
    assert PakArchive(data).read("MAPS/e1m1.BSP") == b"yy"


def test_directory_remainder_is_ignored() -> None:
    """numpackfiles = dirlen / 64: a 10-byte tail is not an entry (the upstream spec failed)."""
    data = pak_bytes([("a.txt", b"abc"), ("b.txt", b"defg")], dirlen_extra=10)
    assert len(pak_listing(data)) == 2
    assert QuakePak.from_bytes(data).num_files == 2
    assert PakArchive(data).names() == ["a.txt", "b.txt"]


def test_empty_pak() -> None:
    data = pak_bytes([])
    assert PakArchive(data).names() == []


def test_engine_limit_reported() -> None:
    data = pak_bytes([(f"f{i}", b"") for i in range(2049)])
    assert PakArchive(data).over_engine_limit() == ["quake"]


# -- broken and hostile paks -------------------------------------------------------------------

GOOD = pak_bytes([("models/a/tris.md2", b"A" * 40), ("models/a/skin.pcx", b"B" * 30)])


def pak_error(data: bytes) -> ArchiveError:
    with pytest.raises(ArchiveError) as info:
        PakArchive(data, name="x.pak")
    err = info.value
    assert isinstance(err, ModelFormatError)
    assert str(err).startswith("x.pak")
    assert err.archive == "x.pak"
    return err


@pytest.mark.parametrize(
    ("data", "entry", "field", "offset", "text"),
    [
        (b"PACK\0\0", None, "len_index", None, "shorter than the 12-byte header"),
        (b"PAKC" + GOOD[4:], None, "magic", 0, "not a pak file"),
        (set_header(GOOD, dirofs=-1), None, "ofs_index", 4, "negative"),
        (set_header(GOOD, dirlen=-64), None, "len_index", 8, "negative"),
        (set_header(GOOD, dirlen=192), None, "len_index", 8, "past the end"),
        (set_header(GOOD, dirofs=4), None, "ofs_index", 4, "overlaps the 12-byte header"),
        (set_entry(GOOD, 1, ofs=-5), "models/a/skin.pcx", "ofs", 12 + 70 + 64 + 56, "negative"),
        (set_entry(GOOD, 0, size=-1), "models/a/tris.md2", "size", 12 + 70 + 60, "negative"),
        (set_entry(GOOD, 1, size=999), "models/a/skin.pcx", "size", 12 + 70 + 124, "past the end"),
        (set_entry(GOOD, 1, size=31), "models/a/skin.pcx", "ofs", 82, "of the directory overlap"),
        (set_entry(GOOD, 1, ofs=40), "models/a/skin.pcx", "ofs", 40, "overlap 'models/a/tris.md2'"),
        (set_entry(GOOD, 0, ofs=100, size=10), "models/a/tris.md2", "ofs", 100, "the directory"),
        (set_entry(GOOD, 0, ofs=0, size=4), "models/a/tris.md2", "ofs", 0, "the header"),
        (set_entry(GOOD, 1, name="../../etc/passwd"), "../../etc/passwd", None, None, "'..'"),
        (set_entry(GOOD, 1, name="/etc/passwd"), "/etc/passwd", None, None, "absolute"),
        (set_entry(GOOD, 1, name="\\x\\y"), "\\x\\y", None, None, "absolute"),
        (set_entry(GOOD, 1, name="c:/autoexec.bat"), "c:/autoexec.bat", None, None, "drive"),
        (set_entry(GOOD, 1, name=""), "", None, None, "is empty"),
        (set_entry(GOOD, 1, name="models/"), "models/", None, None, "ends with a path sep"),
        (
            set_entry(GOOD, 1, name="MODELS/A/Tris.md2"),
            "MODELS/A/Tris.md2",
            None,
            None,
            "duplicate",
        ),
        (set_entry(GOOD, 1, name=b"models/\xe9.pcx"), None, "name", 12 + 70 + 64, "non-ASCII"),
    ],
)
def test_broken_pak(
    data: bytes, entry: str | None, field: str | None, offset: int | None, text: str
) -> None:
    err = pak_error(data)
    assert text in str(err)
    assert err.entry == entry
    if entry:
        assert repr(entry) in str(err)
    assert err.field == field
    assert err.offset == offset


def test_zero_size_entries_do_not_overlap() -> None:
    data = pak_bytes([("a", b""), ("b", b"xy"), ("c", b"")])
    data = set_entry(data, 0, ofs=13)  # inside b's bytes, but empty
    assert PakArchive(data).names() == ["a", "b", "c"]


def test_missing_file_and_name(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="cannot open"):
        PakArchive(tmp_path / "nope.pak")
    with pytest.raises(KeyError, match="no entry named 'nope'"):
        PakArchive(GOOD).read("nope")


def test_read_after_close_and_truncation(tmp_path: Path) -> None:
    path = tmp_path / "a.pak"
    path.write_bytes(GOOD)
    a = archive.open(path)
    path.write_bytes(GOOD[:50])  # shrinks under the open handle
    with pytest.raises(ArchiveError, match="file shrank"):
        a.read("models/a/skin.pcx")
    a.close()
    with pytest.raises(ArchiveError, match="closed"):
        a.read("models/a/tris.md2")


# -- broken and hostile pk3s -------------------------------------------------------------------

PK3 = pk3_bytes([("models/a/a.md3", b"\0" * 5000), ("scripts/a.shader", b"textures/a {}\n")])


def pk3_error(data: bytes, **kw: int) -> ArchiveError:
    with pytest.raises(ArchiveError) as info:
        Pk3Archive(data, name="x.pk3", **kw)
    assert str(info.value).startswith("x.pk3")
    return info.value


def test_pk3_not_a_zip() -> None:
    assert "not a readable zip" in str(pk3_error(b"PK\x03\x04 not really"))


def test_pk3_needing_a_newer_zip_version() -> None:
    # zipfile refuses to open an archive whose central directory asks for a version it lacks
    # (found by fuzzing: a NotImplementedError escaped)
    data = bytearray(PK3)
    central = data.index(b"PK\x01\x02")
    data[central + 6 : central + 8] = (83).to_bytes(2, "little")  # needs version 8.3
    err = pk3_error(bytes(data))
    assert "not a readable zip/pk3 file: zip file version 8.3" in str(err)


def test_pk3_bomb_ratio() -> None:
    err = pk3_error(pk3_patch_sizes(PK3, "models/a/a.md3", file_size=1 << 29))
    assert err.entry == "models/a/a.md3"
    assert "zip bomb" in str(err)
    assert err.field == "file_size"


def test_pk3_size_limit_and_lying_size() -> None:
    assert "over the limit" in str(pk3_error(PK3, max_entry_size=4096))
    # declares fewer bytes than it inflates to: inflating stops there, naming the entry
    short = Pk3Archive(pk3_patch_sizes(PK3, "models/a/a.md3", file_size=4000), name="x.pk3")
    with pytest.raises(
        ArchiveError,
        match=r"x\.pk3: entry 'models/a/a\.md3': inflates past its declared size of 4000 bytes",
    ):
        short.read("models/a/a.md3")
    # declares more than it holds
    long = Pk3Archive(pk3_patch_sizes(PK3, "models/a/a.md3", file_size=6000), name="x.pk3")
    with pytest.raises(ArchiveError, match=r"inflates to \d+ bytes, not the declared 6000"):
        long.read("models/a/a.md3")


def test_pk3_stored_sizes_and_methods() -> None:
    stored = pk3_bytes([("a.txt", b"hello")], method=zipfile.ZIP_STORED)
    assert Pk3Archive(stored).read("a.txt") == b"hello"
    assert "holds 5" in str(pk3_error(pk3_patch_sizes(stored, "a.txt", file_size=9)))
    bz = pk3_bytes([("a.txt", b"hello")], method=zipfile.ZIP_BZIP2)
    err = pk3_error(bz)
    assert "compression method 12" in str(err)
    assert err.entry == "a.txt"


def test_pk3_overlapping_entries() -> None:
    """Two central-directory entries sharing one local header (the overlapping zip bomb)."""
    data = bytearray(pk3_bytes([("a.txt", b"x" * 100), ("b.txt", b"y" * 100)], folders=False))
    first = data.find(b"PK\x01\x02")
    second = data.find(b"PK\x01\x02", first + 4)
    data[second + 42 : second + 46] = data[first + 42 : first + 46]  # same local header offset
    err = pk3_error(bytes(data))
    assert "overlapping entries" in str(err)


def test_pk3_hostile_names() -> None:
    for bad, why in [("../evil.cfg", "'..'"), ("/abs.txt", "absolute"), ("c:/x.txt", "drive")]:
        err = pk3_error(pk3_bytes([(bad, b"x")], folders=False))
        assert why in str(err) and err.entry == bad
    dup = pk3_bytes([("Models/A.md3", b"1"), ("models\\a.MD3", b"2")], folders=False)
    assert "duplicate" in str(pk3_error(dup))
    nul = bytearray(pk3_bytes([("abc.txt", b"1")], folders=False))
    for i in range(len(nul) - 7):
        if nul[i : i + 7] == b"abc.txt":
            nul[i + 1] = 0
    assert "NUL" in str(pk3_error(bytes(nul)))


def test_pk3_encrypted_flag() -> None:
    data = bytearray(pk3_bytes([("a.txt", b"x")], folders=False))
    central = data.find(b"PK\x01\x02")
    data[central + 8] |= 1
    data[4 + 2] |= 1  # local header flags too
    assert "encrypted" in str(pk3_error(bytes(data)))


# -- names -------------------------------------------------------------------------------------


def test_name_keys() -> None:
    assert name_key("Models\\A.MD2", "quake") == "Models\\A.MD2"
    assert name_key("Models\\A.MD2", "quake2") == "models\\a.md2"
    assert name_key("Models\\A:MD2", "quake3") == "models/a/md2"
    assert query_key("/models/a.md3", "quake3") == "models/a.md3"
    assert query_key("/models/a.md3", "quake2") == "/models/a.md3"
    assert name_key("É", "quake2") == "É"  # only a..z fold, as Q_strcasecmp


def test_pk3_sort_order() -> None:
    """FS_PathCmp: upper-cased ASCII, so '_' (0x5F) sorts after letters; signed bytes first."""
    names = ["z.pk3", "pak_a.pk3", "PAK1.pk3", "paka.pk3", "pak0.pk3", "pak\xe9.pk3", "pak.pk3"]
    assert sorted(names, key=pk3_sort_key) == [
        "pak\xe9.pk3",
        "pak.pk3",
        "pak0.pk3",
        "PAK1.pk3",
        "paka.pk3",
        "pak_a.pk3",
        "z.pk3",
    ]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("models/a.md2", None),
        ("a..b/c", None),
        ("", "is empty"),
        ("a\0b", "NUL"),
        ("/a", "absolute"),
        ("\\a", "absolute"),
        ("C:a", "drive letter"),
        ("a/b:c", "':'"),
        ("a/../b", "'..'"),
        ("a\\..\\b", "'..'"),
        ("a/", "separator"),
    ],
)
def test_unsafe_names(name: str, reason: str | None) -> None:
    got = unsafe_reason(name)
    assert (got is None) if reason is None else (reason in str(got))


# -- GameFS ------------------------------------------------------------------------------------


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_quake2_search_order(tmp_path: Path) -> None:
    """FS_AddGameDirectory: pak9..pak0 then loose files; a later game folder before all."""
    base = tmp_path / "baseq2"
    write(base / "pak0.pak", pak_bytes([("a.txt", b"pak0"), ("only0.txt", b"0"), ("l.txt", b"p")]))
    write(base / "pak1.pak", pak_bytes([("A.TXT", b"pak1")]))
    write(base / "pak3.pak", pak_bytes([("b.txt", b"pak3")]))  # pak2 missing: still loaded
    write(base / "pak10.pak", pak_bytes([("a.txt", b"pak10")]))  # Quake II stops at pak9
    write(base / "l.txt", b"loose")
    write(base / "loose.txt", b"loose only")
    mod = tmp_path / "mymod"
    write(mod / "b.txt", b"mod")
    with GameFS([base, mod]) as fs:
        assert fs.engine == "quake2"
        assert [s.path.name for s in fs.sources] == [
            "mymod",
            "pak3.pak",
            "pak1.pak",
            "pak0.pak",
            "baseq2",
        ]
        assert fs.read("a.txt") == b"pak1"
        assert fs.read("l.txt") == b"p"  # paks override loose files
        assert fs.read("LOOSE.txt") == b"loose only"
        assert fs.read("b.txt") == b"mod"
        assert fs.read("only0.txt") == b"0"
        found = fs.find("a.txt")
        assert found is not None and found.source.path.name == "pak1.pak"
        assert [f.source.path.name for f in fs.find_all("a.txt")] == ["pak1.pak", "pak0.pak"]
        listing = {
            f.name.lower(): (f.source.path.name, [s.path.name for s in sh])
            for f, sh in fs.listing()
        }
        assert listing["a.txt"] == ("pak1.pak", ["pak0.pak"])
        assert listing["l.txt"] == ("pak0.pak", ["baseq2"])
        assert listing["b.txt"] == ("mymod", ["pak3.pak"])
        assert "pak10.pak" in listing  # a loose file to Quake II, not an archive
        assert "pak0.pak" not in listing
        with pytest.raises(FileNotFoundError):
            fs.read("missing.txt")


def test_quake_stops_at_first_missing_pak(tmp_path: Path, corpus_dir: Path) -> None:
    base = tmp_path / "id1"
    write(base / "pak0.pak", (corpus_dir / "archives" / "tb_gamefs_pak0.pak").read_bytes())
    write(base / "pak2.pak", pak_bytes([("id1_pak0_1.txt", b"never")]))
    write(base / "id1_pak0_loose_file.txt", b"loose")
    with GameFS(base, engine="quake") as fs:
        assert [s.path.name for s in fs.sources] == ["pak0.pak", "id1"]
        assert (
            fs.read("id1_pak0_1.txt")
            == (corpus_dir / "archives" / "tb_gamefs_pak0.pak").read_bytes()[16:26]
        )
        assert fs.read("id1_pak0_loose_file.txt") != b"loose"  # the pak wins
        assert fs.find("ID1_PAK0_1.TXT") is None  # strcmp in paks


def test_quake3_search_order(tmp_path: Path) -> None:
    """ioquake3: pk3s sorted by FS_PathCmp, later ones first; loose files before every pk3."""
    base = tmp_path / "baseq3"
    write(base / "pak0.pk3", pk3_bytes([("models/x.md3", b"pak0"), ("scripts/s.shader", b"0")]))
    write(base / "pak_z.pk3", pk3_bytes([("models/x.md3", b"pak_z")]))
    write(base / "PAKA.pk3", pk3_bytes([("models/x.md3", b"paka"), ("y.txt", b"a")]))
    write(base / "zz.pk3dir" / "y.txt", b"pk3dir")
    write(base / "scripts" / "s.shader", b"loose")
    with GameFS(base) as fs:
        assert fs.engine == "quake3"
        assert [s.path.name for s in fs.sources] == [
            "baseq3",
            "zz.pk3dir",
            "pak_z.pk3",
            "PAKA.pk3",
            "pak0.pk3",
        ]
        assert fs.read("models/x.md3") == b"pak_z"
        assert fs.read("MODELS\\X.MD3") == b"pak_z"
        assert fs.read("/models/x.md3") == b"pak_z"
        assert fs.read("scripts/s.shader") == b"loose"
        assert fs.read("y.txt") == b"pk3dir"
        assert "zz.pk3dir/y.txt" not in fs.names()


def test_gamefs_over_corpus_pk3(corpus_dir: Path) -> None:
    with GameFS(corpus_dir / "archives" / "cge_jkm_oaktree.pk3") as fs:
        assert fs.engine == "quake3"
        assert len(fs.names()) == 11
        m = quakemodels.load(fs.read("models/mapobjects/oak/oak3.md3"))
        assert m.num_frames == 30


def test_gamefs_loose_files_stay_inside(tmp_path: Path) -> None:
    base = tmp_path / "baseq2"
    write(tmp_path / "secret.txt", b"secret")
    write(base / "ok.txt", b"ok")
    os.symlink(tmp_path / "secret.txt", base / "link.txt")
    with GameFS(base) as fs:
        assert fs.read("ok.txt") == b"ok"
        for name in ("../secret.txt", "link.txt", str(tmp_path / "secret.txt"), "c:/x"):
            assert fs.find(name) is None
        assert "link.txt" not in fs.names()


def test_gamefs_missing_root(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        GameFS(tmp_path / "nope")


def test_gamefs_broken_pak_names_it(tmp_path: Path) -> None:
    write(tmp_path / "baseq2" / "pak0.pak", set_entry(GOOD, 1, size=10**6))
    with pytest.raises(ArchiveError, match=r"pak0\.pak: entry 'models/a/skin\.pcx'"):
        GameFS(tmp_path / "baseq2")


# -- fuzzing through the existing harness ------------------------------------------------------

FUZZ = settings(
    derandomize=True,
    max_examples=int(os.environ.get("QUAKEMODELS_FUZZ_EXAMPLES", "60")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(st.binary(max_size=400).map(lambda tail: b"PACK" + tail))
def test_random_pak_headers(data: bytes) -> None:
    harness.exercise(data, heavy=False)


@FUZZ
@given(
    st.sampled_from([GOOD, pak_bytes([("a", b"1"), ("b", b"22"), ("c", b"")], dir_first=True)]),
    st.lists(st.tuples(st.integers(0, 300), st.integers(0, 255)), min_size=1, max_size=8),
)
def test_mutated_paks(base: bytes, edits: list[tuple[int, int]]) -> None:
    data = bytearray(base)
    for at, value in edits:
        data[at % len(data)] = value
    harness.exercise(bytes(data), heavy=False)


@FUZZ
@given(st.integers(0, len(PK3) - 1), st.integers(0, 255))
def test_mutated_pk3(at: int, value: int) -> None:
    data = bytearray(PK3)
    data[at] = value
    harness.exercise(bytes(data), heavy=False)


# -- paths through archives, game folders, images ----------------------------------------------


def test_split_and_read_archive_path(tmp_path: Path) -> None:
    from quakemodels.archive.vpath import game_roots, read_path, split_archive_path

    base = tmp_path / "baseq2"
    write(base / "pak0.pak", GOOD)
    write(tmp_path / "mine.pak", GOOD)
    write(base / "models" / "b" / "tris.md2", b"loose")
    inner = base / "pak0.pak" / "models" / "a" / "tris.md2"
    assert split_archive_path(inner) == (base / "pak0.pak", "models/a/tris.md2")
    assert split_archive_path(base / "models" / "b" / "tris.md2") is None
    assert split_archive_path(base / "nope" / "x") is None
    assert read_path(base / "pak0.pak" / "MODELS" / "A" / "TRIS.MD2") == b"A" * 40
    assert read_path(base / "models" / "b" / "tris.md2") == b"loose"
    with pytest.raises(FileNotFoundError, match=r"has no entry 'models/z\.md2'"):
        read_path(base / "pak0.pak" / "models" / "z.md2")
    assert game_roots(inner) == ([base], "models/a/tris.md2")
    assert game_roots(tmp_path / "mine.pak" / "models/a/tris.md2") == (
        [tmp_path, tmp_path / "mine.pak"],
        "models/a/tris.md2",
    )
    assert game_roots(base / "models" / "b" / "tris.md2") == ([base], "models/b/tris.md2")
    assert game_roots(tmp_path / "elsewhere" / "x.md2") is None


def test_find_image_through_the_search_path(tmp_path: Path) -> None:
    base = tmp_path / "baseq2"
    write(
        base / "pak0.pak",
        pak_bytes(
            [
                ("models/weapons/g_rail/tris.md2", b"m"),
                ("models/weapons/g_rail/skin.pcx", b"\x0a\x05\x01\x08"),
                ("players/hueteotl/weapon.tga", b"tga"),
                ("models/tree/tris.md2", b"m"),
                ("models/tree/bark.jpg", b"\xff\xd8\xff"),
            ]
        ),
    )
    with GameFS(base) as fs:
        hit = fs.find_image(["models/weapons/g_rail/skin.pcx"])
        assert hit is not None and hit.name == "models/weapons/g_rail/skin.pcx"
        # other extension, other case, a tail of the name
        hit = fs.find_image(["PLAYERS/Hueteotl/weapon.pcx"])
        assert hit is not None and hit.name == "players/hueteotl/weapon.tga"
        hit = fs.find_image(["c:/quake2/baseq2/x.pcx", "sauer 10-13-06/g_rail/skin.pcx"])
        assert hit is None  # unsafe name skipped; the tail g_rail/skin.pcx is not a full path
        hit = fs.find_image([], "models/tree/tris.md2")  # the single image beside the model
        assert hit is not None and hit.name == "models/tree/bark.jpg"
        assert fs.listdir("MODELS/TREE") == ["models/tree/bark.jpg", "models/tree/tris.md2"]


def test_extract_safely(tmp_path: Path, model_files: list[tuple[str, bytes]]) -> None:
    from quakemodels.archive.extract import extract

    path = write(tmp_path / "pak0.pak", pak_bytes(model_files))
    out = tmp_path / "out"
    with archive.open(path) as a:
        written = extract(a, out, "MODELS/*/TRIS.MD2")
    assert sorted(p.relative_to(out).as_posix() for p in written) == sorted(
        n for n, _ in model_files if n.endswith("tris.md2")
    )
    for name, blob in model_files:
        if name.endswith("tris.md2"):
            assert (out / name).read_bytes() == blob
    # names that differ only in case collide on disk: refused before anything is written
    clash = PakArchive(pak_bytes([("a/x.txt", b"1"), ("A/X.txt", b"2")]), engine="quake")
    with pytest.raises(ArchiveError, match="differ only in case"):
        extract(clash, tmp_path / "clash")
    assert not list((tmp_path / "clash").rglob("*.txt"))
    # a symlinked folder inside the output leading out of it
    (tmp_path / "evil").mkdir()
    os.symlink(tmp_path / "evil", tmp_path / "out2")
    (tmp_path / "out3").mkdir()
    os.symlink(tmp_path / "evil", tmp_path / "out3" / "models")
    with pytest.raises(ArchiveError, match="outside"):
        extract(PakArchive(GOOD), tmp_path / "out3")
    assert not list((tmp_path / "evil").iterdir())


def test_cli_ls_and_extract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model_files: list[tuple[str, bytes]]
) -> None:
    from quakemodels.cli import main

    base = tmp_path / "baseq2"
    write(base / "pak0.pak", pak_bytes(model_files))
    write(base / "pak1.pak", pak_bytes([("models/ppm_sentry/tris.md2", b"IDP2override")]))
    assert main(["ls", str(base), "--models"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    n_models = sum(1 for n, _ in model_files if n.endswith((".md2", ".md3")))
    assert len(lines) == n_models
    sentry = next(line for line in lines if "ppm_sentry/tris.md2" in line)
    assert sentry.split() == [
        "12",
        "md2",
        "models/ppm_sentry/tris.md2",
        "[pak1.pak]",
        "(over",
        "pak0.pak)",
    ]
    assert err.strip().splitlines()[-1] == f"{n_models} models from 3 sources, quake2 order"
    assert main(["ls", str(base / "pak0.pak")]) == 0
    out, _ = capsys.readouterr()
    assert any(
        line.split()[:2] == [str(len(model_files[1][1])), "bmp"] for line in out.splitlines()
    )
    assert main(["extract", str(base / "pak0.pak"), "-o", str(tmp_path / "x"), "*sentry*"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == sum(1 for n, _ in model_files if "sentry" in n)
    bad = write(tmp_path / "bad.pak", set_entry(GOOD, 0, name="../evil"))
    assert main(["extract", str(bad), "-o", str(tmp_path / "y")]) == 1
    _, err = capsys.readouterr()
    assert "bad.pak: entry '../evil': entry name '../evil' has a '..' component" in err
    assert not (tmp_path / "y").exists() or not list((tmp_path / "y").iterdir())
    assert main(["ls", str(bad)]) == 1


# -- the done-when: export a game folder holding a pak -----------------------------------


def _validate(files: list[Path]) -> dict[str, dict[str, object]]:
    """The Khronos glTF validator (tools/validate_gltf.mjs, run as test_export runs it)."""
    from test_export import _node_json

    return {r["file"]: r for r in _node_json("validate_gltf.mjs", files)}


GAME_MODELS = {  # corpus model → where its skin goes in the game tree
    "ppm_drfreak.md2": "models/ppm_drfreak/drfreak.pcx",  # beside the model (no skin names)
    "ppm_hueteotl_weapon.md2": "players/hueteotl/weapon.pcx",  # its skin name, other case
    "ppm_drfreak_w_railgun.md2": "models/weapons/g_rail/skin.pcx",  # its skin name
    "assimp_watercan.md3": "models/assimp_watercan/water_can.tga",  # its shader name
}


def test_export_game_folder_with_a_pak(tmp_path: Path, corpus_dir: Path) -> None:
    """`quakemodels export baseq2/ -o out/`: one validator-clean glTF per model with its skin
    embedded, byte for byte the same as exporting the unpacked files."""
    from quakemodels.cli import main

    files: list[tuple[str, bytes]] = []
    for model, skin in GAME_MODELS.items():
        src = corpus_dir / model.rsplit(".", 1)[1] / model
        skin_src = next(src.parent.glob(f"{src.stem}__*"), None)
        if skin_src is None:  # the railgun's skin is the drfreak one
            skin_src = corpus_dir / "md2" / "ppm_drfreak__drfreak.pcx"
        files.append((f"models/{src.stem}/tris{src.suffix}", src.read_bytes()))
        files.append((skin, skin_src.read_bytes()))
    base = tmp_path / "baseq2"
    write(base / "pak0.pak", pak_bytes(files))
    unpacked = tmp_path / "unpacked"
    for name, data in files:
        write(unpacked / name, data)

    assert main(["export", str(base), "-o", str(tmp_path / "out"), "-j", "2"]) == 0
    assert (
        main(["export", str(unpacked), "-o", str(tmp_path / "ref"), "--skin-dir", str(unpacked)])
        == 0
    )
    outs = sorted((tmp_path / "out").rglob("*.glb"))
    assert [p.relative_to(tmp_path / "out").as_posix() for p in outs] == sorted(
        f"models/{Path(m).stem}/tris.glb" for m in GAME_MODELS
    )
    reports = _validate(outs)
    for out in outs:
        report = reports[str(out)]
        errors = [m for m in report["messages"] if m["severity"] == 0]  # type: ignore[union-attr]
        assert errors == [], out
        doc = __import__("pygltflib").GLTF2().load_binary(str(out))
        assert len(doc.images) >= 1, f"{out}: no skin embedded"
    assert (
        main(["render", str(base / "pak0.pak"), "-o", str(tmp_path / "png"), "--size", "32x32"])
        == 0
    )
    assert sorted(
        p.relative_to(tmp_path / "png").as_posix() for p in (tmp_path / "png").rglob("*.png")
    ) == sorted(f"models/{Path(m).stem}/tris.png" for m in GAME_MODELS)
    # the unpacked export keeps the same tree: each output matches its twin byte for byte
    refs = sorted((tmp_path / "ref").rglob("*.glb"))
    assert [p.relative_to(tmp_path / "ref") for p in refs] == [
        p.relative_to(tmp_path / "out") for p in outs
    ]
    assert [p.read_bytes() for p in outs] == [p.read_bytes() for p in refs]


def test_load_and_skin_through_an_archive_path(tmp_path: Path, corpus_dir: Path) -> None:
    from quakemodels.registry import scene

    src = corpus_dir / "md2" / "ppm_hueteotl_weapon.md2"
    skin = corpus_dir / "md2" / "ppm_hueteotl_weapon__WEAPON.pcx"
    pak = write(
        tmp_path / "x.pak",
        pak_bytes(
            [
                ("models/a/tris.md2", src.read_bytes()),
                ("players/hueteotl/weapon.pcx", skin.read_bytes()),
            ]
        ),
    )
    m = quakemodels.load(pak / "models" / "a" / "tris.md2")
    assert m.name == str(pak / "models" / "a" / "tris.md2")
    assert m.num_frames == quakemodels.load(src).num_frames
    em = scene(m)
    got = em.surfaces[0].skin
    assert got is not None and got.path == pak / "players/hueteotl/weapon.pcx"
    # --game-dir: the same skin for the model read from a file elsewhere (no skin beside it)
    lone = write(tmp_path / "elsewhere" / "w.md2", src.read_bytes())
    em2 = scene(quakemodels.load(lone), game_dir=tmp_path)
    assert em2.surfaces[0].skin is None  # x.pak is not pakN.pak: not in the game's search path
    write(tmp_path / "pak0.pak", pak.read_bytes())
    em3 = scene(quakemodels.load(lone), game_dir=tmp_path)
    assert em3.surfaces[0].skin is not None
    assert em3.surfaces[0].skin.png_bytes() == got.png_bytes()
    with pytest.raises(FileNotFoundError):
        quakemodels.load(pak / "models" / "b" / "tris.md2")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(min_size=0, max_size=40).map(lambda b: b.replace(b"\0", b"a"))))
def test_one_names_hash_is_the_bulk_hash(names: list[bytes]) -> None:
    """A lookup hashes its one name in Python (``hash_one``); the table hashes every name of
    an archive with numpy passes (``hashes``): the same 64-bit values, or no lookup finds."""
    import numpy as np

    from quakemodels.archive.fast import hash_one, hashes

    blob = b"".join(n + b"\0" for n in names)
    starts = np.cumsum([0] + [len(n) + 1 for n in names]).astype(np.int64)
    assert [int(h) for h in hashes(blob, starts)] == [hash_one(n) for n in names]
