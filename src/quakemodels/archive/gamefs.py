"""A game's search path: folders and the archives in them, in the order the engine searches.

Each root is a game folder (``baseq2``, ``baseq3``, a mod folder) or an archive file. Roots are
given in the order the engine adds them, base game first: like ``FS_AddGameDirectory``, every
root goes in front of the ones before it, so a mod's files override the base game's.

Inside one game folder the order depends on the engine (``engine=``):

``quake2``  Quake II ``FS_AddGameDirectory`` (``qcommon/files.c``): the folder is added, then
            ``pak0.pak`` .. ``pak9.pak`` (a missing number is skipped), each in front of the
            previous. Search order: ``pak9`` .. ``pak1``, ``pak0``, then the loose files:
            **later paks override earlier ones, and paks override loose files**. Names compare
            with ``Q_strcasecmp`` (ASCII case ignored).
``quake``   Quake ``COM_AddGameDirectory`` (``WinQuake/common.c``): the same, but it stops at
            the first missing ``pakN.pak``; names compare byte for byte (``strcmp``).
``quake3``  ioquake3 ``FS_AddGameDirectory`` (``code/qcommon/files.c``): every ``*.pk3`` and
            ``*.pk3dir`` folder, sorted with ``FS_PathCmp`` (ASCII case ignored, ``\\`` and
            ``:`` as ``/``), each in front of the previous, then the folder itself in front of
            them all. Search order: loose files, then the pk3s from the last in sorted order to
            the first: **loose files override pk3s, and later pk3s (``pak8.pk3``,
            ``zz_mod.pk3``) override earlier ones**. Names compare with ``FS_FilenameCompare``.

``engine=None`` infers it: ``quake3`` when the folders hold ``.pk3`` files and no
``pakN.pak``, else ``quake2``. Loose files are found case-insensitively when no exact match
exists (as on Windows, where these games shipped), and never outside their game folder (names
with ``..``, absolute names, drive letters and symlinks leading out are not found).

With ``lazy=True`` (the search path a model's skins are looked up through: ``vpath.
shared_gamefs``) a game folder's archives are opened when a lookup first reaches them, in
search order (Quake's, where a pak that fails to open hides the ones after it, at once): a
model's skin found in its own archive opens no other, and a broken archive nothing needs is
never read or warned about. Otherwise (``ls``, ``extract``) every archive opens at once.
"""

from __future__ import annotations

import os
import re
import threading
import warnings
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ..core.files import HEAD, SizeLimit, file_kind, is_regular, open_regular, read_regular
from ..core.gamepaths import Listings, _find_ci, _where, strip_leading_slash
from ..core.records import Record
from ..errors import ArchiveError, BadValueError, QuakeModelsWarning
from .base import Archive, Closing, Entry
from .names import Engine, name_key, pk3_sort_key, query_key, split_parts, unsafe_reason

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import Literal

    SourceKind = Literal["dir", "pak", "pk3", "pk3dir"]
else:
    SourceKind = str
# The image types skins and shader textures are looked up as (Quake II: PCX; Quake III: TGA,
# JPG, and PNG in ioquake3; BMP for the odd exporter).
IMAGE_EXTENSIONS = (".pcx", ".tga", ".png", ".jpg", ".jpeg", ".bmp")
_PAK_NAME = re.compile(r"pak(\d+)\.pak", re.IGNORECASE)
# Quake II's FS_AddGameDirectory tries pak0.pak .. pak9.pak.
QUAKE2_PAKS = 10


class Source(Record):
    """One element of the search path: a folder of loose files or an open archive."""

    __slots__ = ("archive", "kind", "path")
    __hash__ = Record.value_hash  # type: ignore[assignment]  # never changed once made

    def __init__(self, path: Path, kind: SourceKind, archive: Archive | None = None) -> None:
        self.path = path
        self.kind = kind
        self.archive = archive

    def __str__(self) -> str:
        return os.fspath(self.path)


class _Pending(Record):
    """An archive of a game folder not opened yet: the first lookup reaching it opens it."""

    __slots__ = ("kind", "path")
    __hash__ = Record.value_hash  # type: ignore[assignment]  # never changed once made

    def __init__(self, path: Path, kind: SourceKind) -> None:
        self.path = path
        self.kind = kind

    def __str__(self) -> str:
        return os.fspath(self.path)


class Found(Record):
    """Where a name was found: the ``source``, and the archive ``entry`` or the loose ``file``."""

    __slots__ = ("entry", "file", "name", "size", "source")

    def __init__(
        self,
        name: str,
        source: Source,
        size: int,
        entry: Entry | None = None,
        file: Path | None = None,
    ) -> None:
        self.name = name
        self.source = source
        self.size = size
        self.entry = entry
        self.file = file


def _inside(path: Path, root: Path) -> bool:
    """True when ``path`` resolves (symlinks followed) to a regular file under ``root``."""
    return _where(path, root.resolve()) is None


def _listdir(folder: Path) -> list[str]:
    """The names in ``folder`` (none when it cannot be listed)."""
    return Listings().names(folder)


def _sniff(path: Path) -> SourceKind | None:
    """``pak`` or ``pk3`` by the file's magic (``PACK`` / ``PK``), else None."""
    try:
        with open_regular(path, "archive") as f:
            magic = f.read(4)
    except (OSError, ArchiveError, BadValueError):
        return None
    if magic == b"PACK":
        return "pak"
    if magic[:2] == b"PK":
        return "pk3"
    return None


def open_archive(path: str | os.PathLike[str], engine: Engine | None = None) -> Archive:
    """Open a .pak or .pk3 by its magic; ``engine`` picks the name comparison (see names.py)."""
    p = Path(path)
    if os.path.exists(p) and not os.path.isdir(p) and not is_regular(p):
        # a FIFO would block the open and a device never end (the pak's own open checks
        # its descriptor again; zipfile opens the path itself)
        raise ArchiveError(
            f"{p}: cannot open: {file_kind(os.stat(p).st_mode)}, not a regular file",
            archive=str(p),
        )
    kind = _sniff(p)
    # each reader imported when an archive of its kind opens (a pak's brings the Kaitai runtime)
    if kind == "pk3" or (kind is None and p.suffix.lower() == ".pk3"):
        from .pk3 import Pk3Archive

        return Pk3Archive(p, engine=engine or "quake3")
    from .pak import PakArchive

    return PakArchive(p, engine=engine if engine in ("quake", "quake2") else "quake2")


def game_archives(folder: Path, engine: Engine) -> list[tuple[Path, SourceKind]]:
    """The archives (and .pk3dir folders) ``engine`` loads from ``folder``, in load order."""
    entries = _listdir(folder)
    if engine == "quake3":
        found: list[tuple[Path, SourceKind]] = []
        for e in entries:
            lower = e.lower()
            if lower.endswith(".pk3") and (folder / e).is_file():
                found.append((folder / e, "pk3"))
            elif lower.endswith(".pk3dir") and (folder / e).is_dir():
                found.append((folder / e, "pk3dir"))
        found.sort(key=lambda item: pk3_sort_key(item[0].name))
        return found
    by_number: dict[int, Path] = {}
    for e in entries:
        m = _PAK_NAME.fullmatch(e)
        if m and str(int(m.group(1))) == m.group(1) and (folder / e).is_file():
            by_number.setdefault(int(m.group(1)), folder / e)
    paks: list[tuple[Path, SourceKind]] = []
    if engine == "quake2":
        paks = [(by_number[i], "pak") for i in range(QUAKE2_PAKS) if i in by_number]
    else:
        i = 0
        while i in by_number:
            paks.append((by_number[i], "pak"))
            i += 1
    return paks


def infer_engine(roots: Iterable[Path]) -> Engine:
    """``quake3`` when the roots hold .pk3 files and no ``pakN.pak``, else ``quake2``."""
    has_pk3 = has_pak = False
    for root in roots:
        if root.is_dir():
            for e in _listdir(root):
                lower = e.lower()
                has_pk3 = has_pk3 or lower.endswith((".pk3", ".pk3dir"))
                has_pak = has_pak or _PAK_NAME.fullmatch(e) is not None
        else:
            kind = _sniff(root)
            has_pk3 = has_pk3 or kind == "pk3"
            has_pak = has_pak or kind == "pak"
    return "quake3" if has_pk3 and not has_pak else "quake2"


def _skipped_by_engine(kind: SourceKind, error: ArchiveError) -> bool:
    """Whether the engine goes on without an archive of a game folder that failed to open.

    ioquake3's ``FS_AddGameDirectory`` skips a pk3 that ``FS_LoadZipFile`` cannot open (``This
    isn't a .pk3! Next!``), so a broken pk3 is skipped, whatever is wrong with it. Quake's and
    Quake II's ``FS_LoadPackFile`` skip only a pak that ``fopen`` fails on; one that opens
    but has no ``PACK`` header, or too many files, stops the game (``Com_Error(ERR_FATAL,
    "%s is not a packfile")``), so those stay errors here."""
    return kind == "pk3" or isinstance(error.__cause__, OSError)


# Archives warned about in this process, by (path, size, mtime): one warning per broken
# archive however many GameFS objects (one per model, per worker) open its folder. Forked
# batch workers inherit the set, so the parent's warning is the only one.
_WARNED: set[tuple[str, int, int]] = set()


def _warn_skipped(path: Path, error: ArchiveError) -> None:
    """One QuakeModelsWarning per broken archive (see :data:`_WARNED`)."""
    try:
        st = path.stat()
        key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    except OSError:
        key = (os.path.abspath(path), -1, -1)
    if key in _WARNED:
        return
    _WARNED.add(key)
    reason = str(error).removeprefix(f"{path}: ")
    warnings.warn(
        f"{path} skipped, as the engine skips an archive it cannot open: {reason}",
        QuakeModelsWarning,
        stacklevel=5,
    )


class GameFS(Closing):
    """Files as the engine sees them through a search path (see the module docstring).

    ``sources`` lists the search path, first searched first. ``find(name)`` gives where the
    engine would open ``name`` from; ``read(name)`` its bytes; ``listing()`` every visible name
    with the source that wins and the ones it shadows. Use as a context manager (archives stay
    open until :meth:`close`).
    """

    def __init__(
        self,
        roots: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        engine: Engine | None = None,
        lazy: bool = False,
    ):
        if isinstance(roots, (str, os.PathLike)):
            roots = [roots]
        paths = [Path(r) for r in roots]
        for p in paths:
            if not p.exists():
                raise FileNotFoundError(f"game folder or archive {p} does not exist")
        self.engine: Engine = engine or infer_engine(paths)
        self._listing: list[tuple[Found, list[Source]]] | None = None
        self.roots = paths
        # the search path, first searched first; archives of a folder opened on first reach
        self._entries: list[Source | _Pending | None] = []
        self._opening = threading.Lock()
        self._lazy = lazy and self.engine != "quake"
        # archives of a game folder the engine would skip: (path, why), each warned about once
        self.skipped: list[tuple[Path, str]] = []
        try:
            for root in paths:
                self._entries[:0] = self._root_sources(root)
        except BaseException:
            self.close()
            raise

    def _root_sources(self, root: Path) -> list[Source | _Pending | None]:
        """One root's sources, first searched first."""
        if not root.is_dir():
            archive = open_archive(root, self.engine)
            return [Source(root, archive.kind, archive)]
        added: list[Source | _Pending | None] = []
        for path, kind in game_archives(root, self.engine):
            if kind == "pk3dir":
                added.insert(0, Source(path, "pk3dir"))
            elif self._lazy:
                added.insert(0, _Pending(path, kind))
            else:
                try:
                    source = self._open(_Pending(path, kind))
                except BaseException:
                    for opened in added:  # not in self._entries yet: close() would miss them
                        if isinstance(opened, Source) and opened.archive is not None:
                            opened.archive.close()
                    raise
                if source is None:
                    if self.engine == "quake":
                        break  # COM_AddGameDirectory stops at the first pak it cannot open
                    continue
                added.insert(0, source)
        folder = Source(root, "dir")
        # Quake and Quake II put the folder behind its paks; ioquake3 in front of its pk3s.
        return [folder, *added] if self.engine == "quake3" else [*added, folder]

    def _open(self, pending: _Pending) -> Source | None:
        """``pending`` opened; None (warned once) when it fails and the engine skips it."""
        try:
            archive = open_archive(pending.path, self.engine)
        except ArchiveError as e:
            if not _skipped_by_engine(pending.kind, e):
                raise
            self.skipped.append((pending.path, str(e)))
            _warn_skipped(pending.path, e)
            return None
        return Source(pending.path, archive.kind, archive)

    def _search(self) -> Iterator[Source]:
        """The search path in order, each archive opened when it is first reached."""
        for i in range(len(self._entries)):
            entry = self._entries[i]
            if isinstance(entry, _Pending):
                with self._opening:  # workers of one process share a GameFS
                    entry = self._entries[i]
                    if isinstance(entry, _Pending):
                        entry = self._entries[i] = self._open(entry)
            if entry is not None:
                yield entry

    @property
    def sources(self) -> list[Source]:
        """The search path, first searched first (every archive in it opened)."""
        return list(self._search())

    # -- lookup -----------------------------------------------------------------------------

    def _in_source(self, source: Source, name: str) -> Found | None:
        if source.archive is not None:
            entry = source.archive.find(name)
            if entry is None:
                return None
            return Found(entry.name, source, entry.size, entry=entry)
        if self.engine == "quake3" and name[:1] in ("/", "\\"):
            name = name[1:]
        if unsafe_reason(name):
            return None
        hit = _find_ci(source.path, split_parts(name), Listings())
        if hit is None or not _inside(hit, source.path):
            return None
        rel = hit.relative_to(source.path).as_posix()
        return Found(rel, source, hit.stat().st_size, file=hit)

    def find(self, name: str) -> Found | None:
        """Where the engine opens ``name`` from (the first source that has it), or None."""
        for source in self._search():  # stops at the first source that has it
            found = self._in_source(source, name)
            if found is not None:
                return found
        return None

    def settled(self, found: Found) -> bool:
        """True when ``found`` (this search path's answer) holds as long as this GameFS: an
        archive's entry with no folder of loose files searched before its archive. An archive
        is read once, when opened, and :func:`~quakemodels.archive.vpath.shared_gamefs` gives
        a new GameFS once it changes; loose files are looked up on every call."""
        if found.entry is None:
            return False
        for source in self._entries:  # those before found's were opened by the search
            if source is found.source:
                return True
            if isinstance(source, Source) and source.archive is None:
                return False
        return False

    def find_all(self, name: str) -> list[Found]:
        """Every source holding ``name``, the winner first."""
        return [f for s in self.sources if (f := self._in_source(s, name)) is not None]

    def exists(self, name: str) -> bool:
        return self.find(name) is not None

    def read(self, name: str) -> bytes:
        """The bytes the engine would load for ``name``; FileNotFoundError when none."""
        found = self.find(name)
        if found is None:
            raise FileNotFoundError(f"{name!r} is not in the search path {self.describe()}")
        return self.read_found(found)

    @staticmethod
    def read_found(found: Found, limit: SizeLimit | None = None) -> bytes:
        """The bytes of a found file; an archive entry is first judged by ``limit`` on its
        head (see :data:`~quakemodels.core.files.SizeLimit`)."""
        if found.entry is not None:
            archive = found.source.archive
            assert archive is not None
            max_size = None if limit is None else limit(archive.read_head(found.entry, HEAD))
            return archive.read(found.entry, max_size=max_size)
        assert found.file is not None
        return read_regular(found.file)

    # -- listing ----------------------------------------------------------------------------

    def _loose(self, source: Source) -> Iterator[Found]:
        """Loose files under a folder source, skipping the archives mounted from it."""
        mounted = {s.path for s in self._entries if s is not None and s.path.parent == source.path}
        root = source.path
        for folder, dirs, files in os.walk(root):
            here = Path(folder)
            dirs[:] = sorted(d for d in dirs if here / d not in mounted)
            for f in sorted(files):
                path = here / f
                if path in mounted or not _inside(path, root):
                    continue
                rel = path.relative_to(root).as_posix()
                yield Found(rel, source, path.stat().st_size, file=path)

    def _source_files(self, source: Source) -> Iterator[Found]:
        if source.archive is not None:
            for e in source.archive.entries:
                yield Found(e.name, source, e.size, entry=e)
        else:
            yield from self._loose(source)

    def listing(self) -> list[tuple[Found, list[Source]]]:
        """Every visible name once: (the winning Found, the sources it shadows), sorted by name."""
        seen: dict[str, tuple[Found, list[Source]]] = {}
        for source in self.sources:
            for found in self._source_files(source):
                key = query_key(found.name, self.engine)
                if key in seen:
                    seen[key][1].append(source)
                else:
                    seen[key] = (found, [])
        return sorted(seen.values(), key=lambda item: name_key(item[0].name, "quake3"))

    def listdir(self, folder: str) -> list[str]:
        """Visible names directly in ``folder`` (``models/a``), as stored where they win."""
        prefix = name_key(folder.strip("/\\"), "quake3")
        out = []
        for found, _ in self._cached_listing():
            key = name_key(found.name, "quake3")
            head, _sep, tail = key.rpartition("/")
            if head == prefix and tail:
                out.append(found.name)
        return out

    def _cached_listing(self) -> list[tuple[Found, list[Source]]]:
        if self._listing is None:
            self._listing = self.listing()
        return self._listing

    def find_image(
        self, names: Sequence[str], model_name: str | None = None, *, under: str = ""
    ) -> Found | None:
        """The first image the search path holds for a model's skin/shader ``names``.

        For each name (one leading slash dropped, as ioquake3 does; unsafe ones skipped): the
        name, then each shorter tail of it (``players/male/skin.pcx``, ``male/skin.pcx``,
        ``skin.pcx``), each with its own
        extension first and then the other IMAGE_EXTENSIONS (ioquake3's ``R_FindImageFile``
        likewise tries every image type for a name); each inside folder ``under`` when given
        (``--skin-dir x.pak/skins``). Then, beside ``model_name``:
        ``<stem>.<ext>``, the single ``<stem>__*`` image, the single image in its folder.
        """
        inside = split_parts(under) if under else []
        for name in names:
            name = strip_leading_slash(name)  # a game path: one leading slash is dropped
            if not name or unsafe_reason(name):
                continue
            parts = split_parts(name)
            if not parts:
                continue
            base, ext = os.path.splitext(parts[-1])
            lasts = [parts[-1]] + [base + e for e in IMAGE_EXTENSIONS if e != ext.lower()]
            for start in range(len(parts)):
                for last in lasts:
                    found = self.find("/".join([*inside, *parts[start:-1], last]))
                    if found is not None:
                        return found
        if model_name is None:
            return None
        folder, _, file = model_name.replace("\\", "/").rpartition("/")
        stem = os.path.splitext(file)[0].lower()
        images = [
            n for n in self.listdir(folder) if os.path.splitext(n)[1].lower() in IMAGE_EXTENSIONS
        ]
        leaf = [n.rpartition("/")[2] for n in images]
        picks = [
            n for n, f in zip(images, leaf, strict=True) if os.path.splitext(f)[0].lower() == stem
        ]
        prefixed = [
            n for n, f in zip(images, leaf, strict=True) if f.lower().startswith(stem + "__")
        ]
        for choice in (
            picks[:1],
            prefixed if len(prefixed) == 1 else [],
            images if len(images) == 1 else [],
        ):
            if choice:
                return self.find(choice[0])
        return None

    def image(self, names: Sequence[str], model_name: str | None) -> tuple[str, bytes] | None:
        """(label, bytes) of :meth:`find_image`'s hit: core.skins' ImageSource protocol."""
        found = self.find_image(names, model_name)
        if found is None:
            return None
        label = found.file if found.file is not None else found.source.path / found.name
        return str(label), self.read_found(found)

    def names(self) -> list[str]:
        """Every visible name (each once, as stored where it wins), sorted."""
        return [found.name for found, _ in self.listing()]

    def describe(self) -> str:
        return "[" + ", ".join(str(s) for s in self._entries if s is not None) + "]"

    # -- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        for s in self._entries:  # only those opened
            if isinstance(s, Source) and s.archive is not None:
                s.archive.close()

    def __repr__(self) -> str:
        return f"<GameFS {self.engine} {self.describe()}>"
