"""Paths that pass through an archive as if it were a folder: ``baseq2/pak0.pak/models/a/tris.md2``.

Path resolution, before any format is asked: ``split_archive_path`` finds the archive in such
a path; ``read_path`` reads the bytes of a plain file or of an archive entry, and
``read_resolved`` those of any source (a file named by its place in a game folder too);
``game_roots`` infers the game folder a model belongs to (the folder of its archive, or the
nearest folder above it holding ``pakN.pak`` or ``*.pk3``), so that skins are looked up
through the same search path the engine would use.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import stat
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from ..core.compiled import compiled
from ..core.files import HEAD, SizeLimit, read_regular
from ..core.gamepaths import listed
from ..core.skins import ImageSource, game_images
from .names import Engine

if TYPE_CHECKING:
    from ..core.facade import Readable
    from .gamefs import Found, GameFS


# The archive readers (zipfile, the generated pak parser) are imported by the functions that
# open an archive: loading a plain model file never needs them, and start-up stays short.

_K = TypeVar("_K")
_V = TypeVar("_V")
_Stamp = tuple[int, int, int, int, int, int]  # see _folder_stamp
_MTIME = 4  # a stamp's mtime: what the 2 s rule reads (a test or a tool may set it back; the
# ctime beside it, which no one but the kernel sets, still tells a kept answer from today's)
_GAME_ARCHIVE = re.compile(r"(pak\d+\.pak|.+\.pk3)", re.IGNORECASE)
# How many folders above a model to look for its game folder.
MAX_GAME_DEPTH = 8


def split_archive_path(path: str | os.PathLike[str]) -> tuple[Path, str] | None:
    """(archive file, inner name) when ``path`` runs through a .pak/.pk3, else None.

    A path that exists on disk is never split. The inner name is ``/``-joined.
    """
    if os.path.lexists(path):  # before any Path: most paths are plain files
        return None
    p = Path(path)
    from .gamefs import _sniff

    parts = p.parts
    for i in range(1, len(parts)):
        head = Path(*parts[:i])
        if head.is_file():
            return (head, "/".join(parts[i:])) if _sniff(head) is not None else None
        if not head.is_dir():
            return None
    return None


def read_path(path: str | os.PathLike[str], limit: SizeLimit | None = None) -> bytes:
    """The bytes of a file, or of an archive entry named through its archive (see above).

    An entry is first judged by ``limit`` on its head, so that a huge one is refused before it
    is inflated. FileNotFoundError when neither exists; ArchiveError when the archive is broken.
    """
    split = split_archive_path(path)
    if split is None:
        return read_regular(path)
    archive_path, inner = split
    from .gamefs import open_archive

    with open_archive(archive_path) as a:
        entry = a.find(inner)
        if entry is None:
            raise FileNotFoundError(f"{archive_path} has no entry {inner!r}")
        max_size = None if limit is None else limit(a.read_head(entry, HEAD))
        return a.read(entry, max_size=max_size)


# is_game_folder's answers by folder, each with the folder's stamp (device, inode, mode, size,
# mtime, ctime) when it was listed: adding, removing or renaming an entry changes the folder's
# mtime and ctime, and setting the mtime back (tar, rsync -a, cp -a) changes the ctime again,
# so a stale answer is never given (GameFS's cache keys on the same fields, see _stamp).
# Sprites and models ask about the same few folders for every file of a folder: without it a
# folder of 20,000 files was listed again for each of them. A folder changed in the last
# RECENT_NS is not cached: file systems keep mtimes in coarse ticks, and an entry added in the
# same tick as the listing would leave the stamp as it was (git's "racy" index entries, the
# same way out).
_GAME_FOLDERS: dict[str, tuple[_Stamp, bool]] = {}
# game_folder_above's answers by (folder, working folder), with every folder walked and its
# stamp then: one stat per folder instead of a listing
_ABOVE: dict[tuple[str, str], _Above] = {}
_GAME_FOLDERS_MAX = 4096
RECENT_NS = 2_000_000_000
# folder_entries' listings by folder, each with its stamp then: the frames of a batch of
# Quake II sprites look for their images in the same folder; a few folders, none crowded, so
# that what is kept stays small
_LISTED: dict[str, tuple[_Stamp, dict[str, list[str]]]] = {}
_LISTED_MAX = 32
_LISTED_ENTRIES = 4096
# game_fs's answers by model folder (as _ABOVE's keys), for a model on disk: every sprite of
# a game asks for its palette, and the game folder's stamp (a listing and a stat of each
# archive) with the shared GameFS lookup cost several times a small sprite's frames. Checked
# as _known_above checks its answers (_unchanged), the game folder's archives with the folders
# walked (see _Game).
_GAMES: dict[tuple[str, str], _Game] = {}


def is_game_folder(folder: Path) -> bool:
    """True when ``folder`` holds ``pakN.pak`` or ``*.pk3`` files (a game folder's mark);
    listed once while the folder is unchanged."""
    key = os.fspath(folder)
    stamp = _folder_stamp(key)
    if stamp is None:
        return False
    known = _GAME_FOLDERS.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        names = os.listdir(key)
    except OSError:
        return False
    found = any(_GAME_ARCHIVE.fullmatch(n) for n in names)
    if time.time_ns() - stamp[_MTIME] > RECENT_NS:
        _keep(_GAME_FOLDERS, key, (stamp, found))
    return found


def folder_entries(folder: str) -> dict[str, list[str]] | None:
    """``folder``'s entries as :func:`quakemodels.core.gamepaths.listed` gives them, kept
    while the folder's stamp holds (as :func:`is_game_folder`'s answers: a folder changed in
    the last RECENT_NS is listed again); None when ``folder`` is no folder. The mapping is
    shared: not to be changed."""
    stamp = _folder_stamp(folder)
    if stamp is None or not stat.S_ISDIR(stamp[2]):
        return None
    known = _LISTED.get(folder)
    if known is not None and known[0] == stamp:
        return known[1]
    entries = listed(folder)
    if time.time_ns() - stamp[_MTIME] > RECENT_NS and len(entries) <= _LISTED_ENTRIES:
        _keep(_LISTED, folder, (stamp, entries), _LISTED_MAX)
    return entries


def game_roots(path: str | os.PathLike[str]) -> tuple[list[Path], str] | None:
    """(GameFS roots, the model's name inside them) for a model path, or None.

    Inside an archive: the archive's folder (and the archive itself when that folder's rules
    would not load it, e.g. ``mymodels.pak``, or an ``x.pk3`` beside Quake II's paks). On
    disk: the nearest folder above the model holding ``pakN.pak`` or ``*.pk3``, within
    MAX_GAME_DEPTH levels.
    """
    known = _known_above(path, in_folder=True)
    if not isinstance(known, _Unknown):
        # the model's folder is a folder on disk (checked with the cached answer): no
        # archive lies on its path, so the lstat of split_archive_path is not needed
        folder = known
    else:
        split = split_archive_path(path)
        if split is not None:
            return _archive_roots(*split)
        folder = game_folder_above(path)
    return None if folder is None else ([folder], Path(path).relative_to(folder).as_posix())


def _archive_roots(archive_path: Path, inner: str) -> tuple[list[Path], str]:
    """game_roots of a model inside ``archive_path`` (named ``inner`` there)."""
    roots = [archive_path.parent]
    from .gamefs import game_archives, infer_engine

    # the archive itself goes in front unless its folder's engine loads it already (an
    # x.pk3 among Quake II's pakN.pak, a mymodels.pak, are not on that engine's path)
    loaded = {path for path, _ in game_archives(archive_path.parent, infer_engine(roots))}
    if archive_path not in loaded:
        roots.append(archive_path)
    return roots, inner


def game_folder_above(path: str | os.PathLike[str]) -> Path | None:
    """The nearest folder above ``path`` (which need not exist) holding ``pakN.pak`` or
    ``*.pk3``, within MAX_GAME_DEPTH levels; None when there is none. Walked once per folder
    while none of the folders walked has changed (as :func:`is_game_folder`)."""
    text = os.fspath(path)
    known = _known_above(text)
    if not isinstance(known, _Unknown):
        return known
    walked: list[tuple[str, _Stamp | None]] = []
    found = None
    folder = Path(path).parent
    for _ in range(MAX_GAME_DEPTH):
        walked.append((os.fspath(folder), _folder_stamp(folder)))
        if is_game_folder(folder):
            found = folder
            break
        if folder.parent == folder:
            break
        folder = folder.parent
    now = time.time_ns()
    stamps = tuple(
        stamp for _, stamp in walked if stamp is not None and now - stamp[_MTIME] > RECENT_NS
    )
    key = _above_key(text)
    folders = tuple(f for f, _ in walked)
    # kept only when every folder is read and settled, and the key (the path's folder as
    # text) names the folder walked first: "a/b/" and "a/b/." walk from "a", not "a/b"
    if len(stamps) == len(walked) and os.path.normpath(key[0] or ".") == os.path.normpath(
        folders[0]
    ):
        in_folder = stat.S_ISDIR(stamps[0][2])
        _keep(_ABOVE, key, _Above(found, folders, stamps, in_folder, _packed(folders, stamps)))
    return found


class _Above(NamedTuple):
    """A game_folder_above answer kept, with what it holds while."""

    found: Path | None
    folders: tuple[str, ...]
    """Every folder walked, the model's own first."""
    stamps: tuple[_Stamp, ...]
    """Their stamps then."""
    in_folder: bool
    """The model's own folder is a folder (no archive is on the model's path)."""
    packed: tuple[tuple[bytes, ...], bytes] | None
    """The folders as bytes and their stamps as :func:`compiled_stamps` gives them, or None."""


class _Unknown:
    """The type of :data:`_UNKNOWN`."""


_UNKNOWN = _Unknown()
"""What :func:`_known_above` gives when it knows nothing (None is an answer: no game)."""


@functools.cache
def compiled_stamps() -> Callable[[tuple[bytes, ...]], bytes | None] | None:
    """The compiled stamps of a few folders at once (``_stamps.c``: one bytes object, no
    stat_result a folder), imported on the first game folder search (start-up stays light);
    None when the install had no C compiler or ``QUAKEMODELS_PURE_PYTHON`` is set (to any
    non-empty value)."""
    module = compiled("quakemodels.archive._stamps")  # without it os.stat serves
    stamps: Callable[[tuple[bytes, ...]], bytes | None] | None = (
        None if module is None else module.stamps
    )
    return stamps


def _packed(
    folders: tuple[str, ...], stamps: tuple[_Stamp, ...]
) -> tuple[tuple[bytes, ...], bytes] | None:
    """The folders as bytes and :func:`compiled_stamps` of them, the check of a kept answer;
    None without it, or when os.stat, asked again after it, no longer gives ``stamps`` (a
    folder changed since the walk: the bytes may hold the new state, and the answer the old)."""
    compiled = compiled_stamps()
    if compiled is None:
        return None
    paths = tuple(os.fsencode(f) for f in folders)
    got = compiled(paths)
    if got is None or tuple(_folder_stamp(f) for f in folders) != stamps:
        return None
    return paths, got


def _above_key(text: str) -> tuple[str, str]:
    # a relative path's folders are relative to the working folder: it is part of the key
    return (os.path.dirname(text), "" if os.path.isabs(text) else os.getcwd())


def _known_above(path: str | os.PathLike[str], in_folder: bool = False) -> Path | _Unknown | None:
    """:func:`game_folder_above`'s kept answer for ``path`` while every folder it walked is
    as it was (checked with one stat a folder and nothing else: every model of a batch asks,
    and for a small sprite this search was most of its frames' time). :data:`_UNKNOWN` when
    none is kept, it is stale, or ``in_folder`` asks for a model whose own folder is a folder
    and it is not (the path may run through an archive)."""
    known = _ABOVE.get(_above_key(os.fspath(path)))
    if known is None or (in_folder and not known.in_folder):
        return _UNKNOWN
    return known.found if _unchanged(known.folders, known.stamps, known.packed) else _UNKNOWN


def _unchanged(
    paths: tuple[str, ...],
    stamps: tuple[_Stamp, ...],
    packed: tuple[tuple[bytes, ...], bytes] | None,
) -> bool:
    """True while each of ``paths`` has its stamp of ``stamps``: checked with one call of the
    compiled stamps when ``packed`` holds them (:func:`_packed`), else with one os.stat each."""
    compiled = None if packed is None else compiled_stamps()
    if packed is not None and compiled is not None:
        return compiled(packed[0]) == packed[1]
    return all(_folder_stamp(p) == stamp for p, stamp in zip(paths, stamps, strict=True))


class _Game(NamedTuple):
    """A game_fs answer kept, with what it holds while (checked by :func:`_unchanged`)."""

    fs: weakref.ref[GameFS] | None
    """The GameFS, weakly (the shared GameFS cache decides how long it lives); None: no game."""
    paths: tuple[str, ...]
    """The folders the game folder search walked, then the game folder's archives (those
    :func:`_stamp` stamps)."""
    stamps: tuple[_Stamp, ...]
    packed: tuple[tuple[bytes, ...], bytes] | None


def game_fs(
    model_path: str | os.PathLike[str] | None, game_dir: str | os.PathLike[str] | None = None
) -> GameFS | None:
    """The search path of :func:`game_context`, without the model's name in it (what a Quake
    sprite's palette is looked up through). For a model on disk, kept by the model's folder
    while the folders its game folder search walked and the game folder's archives keep their
    stamps: an archive changed, added or removed changes its own stamp or the game folder's,
    and the next call searches again and gets a new GameFS from :func:`shared_gamefs`."""
    if game_dir is not None or model_path is None:
        context = game_context(model_path, game_dir)
        return None if context is None else context[0]
    text = os.fspath(model_path)
    key = _above_key(text)
    kept = _GAMES.get(key)
    if kept is not None and _unchanged(kept.paths, kept.stamps, kept.packed):
        if kept.fs is None:
            return None
        fs = kept.fs()
        if fs is not None:
            return fs
    found = game_roots(text)
    above = _ABOVE.get(key)  # the walk game_roots took, when it was kept
    if above is None or not above.in_folder:
        return None if found is None else shared_gamefs(tuple(found[0]))
    if found is None:
        if above.found is None:
            _keep(_GAMES, key, _Game(None, above.folders, above.stamps, above.packed))
        return None
    roots = tuple(found[0])
    if roots != (above.found,):
        return shared_gamefs(roots)
    archives = tuple(os.path.join(above.folders[-1], n) for n in _stamped_names(roots[0]))
    before = tuple(_folder_stamp(a) for a in archives)
    fs = shared_gamefs(roots)
    now = time.time_ns()
    stamps = above.stamps + tuple(
        s for s in before if s is not None and now - s[_MTIME] > RECENT_NS
    )
    paths = above.folders + archives
    # kept when every path has, after the GameFS is made, the stamp it had before (what is
    # kept is never newer than the GameFS) and, as the folders, no archive changed in the
    # last RECENT_NS
    if tuple(_folder_stamp(p) for p in paths) == stamps:
        _keep(_GAMES, key, _Game(weakref.ref(fs), paths, stamps, _packed(paths, stamps)))
    return fs


def _keep(table: dict[_K, _V], key: _K, value: _V, most: int = _GAME_FOLDERS_MAX) -> None:
    """Keep ``value`` in one of the caches above, emptied first when it holds ``most``: a
    bound on what a long batch keeps, and the answers come back at the cost of a walk."""
    if len(table) >= most:
        table.clear()
    table[key] = value


def _folder_stamp(folder: str | os.PathLike[str]) -> _Stamp | None:
    """(device, inode, mode, size, mtime, ctime) of ``folder``; None when it cannot be read.
    The mode's file type tells a folder from a file that took its place; the ctime catches a
    change whose mtime was set back afterwards (``tar x``, ``rsync -a`` and ``cp -a`` set a
    folder's mtime; nothing but the kernel sets its ctime)."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _stamp(roots: tuple[Path, ...]) -> tuple[object, ...]:
    """What changes when a root or an archive in it is added, removed or rewritten: the roots'
    and their archives' names and stamps (:func:`_folder_stamp`), so a cached GameFS never
    serves stale data (an archive replaced by a rename has another inode; one rewritten in
    place with its size and mtime kept has a new ctime)."""
    stamp: list[object] = []
    for root in roots:
        root_stamp = _folder_stamp(root)
        stamp.append((root, root_stamp))
        if root_stamp is not None and stat.S_ISDIR(root_stamp[2]):
            for name in _stamped_names(root):
                entry = _folder_stamp(root / name)
                if entry is not None:
                    stamp.append((name, entry))
    return tuple(stamp)


def _stamped_names(root: str | os.PathLike[str]) -> list[str]:
    """The names in folder ``root`` whose stamps :func:`_stamp` takes: its archives and
    ``.pk3dir`` folders, sorted."""
    return [n for n in sorted(os.listdir(root)) if n.lower().endswith((".pk3", ".pak", ".pk3dir"))]


@functools.lru_cache(maxsize=8)
def _cached_gamefs(roots: tuple[Path, ...], engine: Engine | None, stamp: object) -> GameFS:
    from .gamefs import GameFS

    return GameFS(list(roots), engine=engine, lazy=True)  # open only what lookups reach


def shared_gamefs(roots: tuple[Path, ...], engine: Engine | None = None) -> GameFS:
    """One GameFS per set of roots in this process (a batch exports many models of one game;
    the archives' directories are read once and stay open until the process ends). A root or
    archive that changed on disk since gives a new one."""
    return _cached_gamefs(tuple(roots), engine, _stamp(tuple(roots)))


class ArchiveFolder:
    """The images under one folder of an archive, looked up by name (``--skin-dir
    x.pak/skins``): an ``ImageSource`` of :mod:`quakemodels.core.skins`. ``fs`` is the
    archive's GameFS (its shader scripts too), ``folder`` the inner folder."""

    def __init__(self, fs: GameFS, folder: str) -> None:
        self.fs = fs
        self.folder = folder

    def image(self, names: Sequence[str], model_name: str | None) -> tuple[str, bytes] | None:
        """(label, bytes) of the first image ``names`` name under the folder, or None (the
        model is elsewhere: ``model_name`` is not used)."""
        found = self.fs.find_image(names, None, under=self.folder)
        if found is None:
            return None
        return str(found.source.path / found.name), self.fs.read_found(found)


def archive_folder(path: str | os.PathLike[str]) -> ArchiveFolder | None:
    """``path`` as a folder inside a .pak/.pk3 (``x.pak/models/skins``), None when it runs
    through no archive; FileNotFoundError when the archive holds nothing under it,
    ArchiveError when the archive is broken."""
    split = split_archive_path(path)
    if split is None:
        return None
    archive_path, inner = split
    fs = shared_gamefs((archive_path,))
    prefix = inner.strip("/").lower() + "/"
    if not any(name.lower().startswith(prefix) for name in fs.names()):
        raise FileNotFoundError(f"{archive_path} has no folder {inner!r}")
    return ArchiveFolder(fs, inner)


def clear_gamefs_cache() -> None:
    """Forget the shared GameFS objects (their archives close when they are collected),
    which folders are game folders, the models' kept games and the folders' kept listings."""
    _cached_gamefs.cache_clear()
    _GAME_FOLDERS.clear()
    _ABOVE.clear()
    _LISTED.clear()
    _GAMES.clear()


def game_context(
    model_path: str | os.PathLike[str] | None, game_dir: str | os.PathLike[str] | None = None
) -> tuple[GameFS, str | None] | None:
    """The search path a model's skins are looked up through, and the model's name in it.

    ``game_dir`` (``--game-dir``) when given, else inferred by :func:`game_roots`; None when
    the model belongs to no game folder.
    """
    if game_dir is not None:
        base = Path(game_dir)
        inner = None
        if model_path is not None:
            split = split_archive_path(model_path)
            where = split[0] if split is not None else Path(model_path)
            try:
                rel = where.resolve().relative_to(base.resolve())
            except (ValueError, OSError):
                rel = None
            if rel is not None:
                inner = split[1] if split is not None else rel.as_posix()
        return shared_gamefs((base,)), inner
    if model_path is None:
        return None
    found = game_roots(model_path)
    if found is None:
        return None
    roots, inner = found
    return shared_gamefs(tuple(roots)), inner


@contextlib.contextmanager
def model_game(
    model_path: str | os.PathLike[str] | None, game_dir: str | os.PathLike[str] | None = None
) -> Iterator[None]:
    """Within the block, skins (:func:`quakemodels.core.skins.find_skin`) and Quake III shader
    scripts (:func:`quakemodels.core.shaders.scripts_for`) are looked up through the game the
    model's path belongs to (its archive, or a game folder above it; ``game_dir`` when given:
    :func:`game_context`), before the folder lookups; nothing changes for a model of no game."""
    context = game_context(model_path, game_dir)
    if context is None:
        yield
        return
    with game_search(*context, context[0]):
        yield


@contextlib.contextmanager
def game_search(images: ImageSource, model_name: str | None, fs: GameFS) -> Iterator[None]:
    """Within the block, skins are looked up through ``images`` first (``model_name`` the
    model's name there) and shader scripts through ``fs``: what :func:`model_game` and a
    ``--skin-dir`` inside an archive both set up."""
    from ..core.shaders import game_shaders  # Quake III's: loaded with the first game search
    from .shaders import game_scripts  # the archive readers: loaded with ``fs`` already

    with game_images(images, model_name), game_shaders(lambda: game_scripts(fs)):
        yield


__all__ = [
    "ArchiveFolder",
    "archive_folder",
    "clear_gamefs_cache",
    "game_context",
    "game_folder_above",
    "game_fs",
    "game_roots",
    "game_search",
    "is_game_folder",
    "model_game",
    "read_path",
    "shared_gamefs",
    "split_archive_path",
]


def game_found(path: str | os.PathLike[str]) -> tuple[GameFS, Found] | None:
    """Where a file named by its place in a game folder (``baseq3/models/x/y.md3`` held by
    ``baseq3/pak0.pk3``) is, as the engine finds it; None when the path is on disk, runs
    through an archive, or no game folder above has it."""
    if os.path.lexists(path) or split_archive_path(path) is not None:
        return None
    found = game_roots(path)
    if found is None:
        return None
    roots, inner = found
    fs = shared_gamefs(tuple(roots))
    hit = fs.find(inner)
    return None if hit is None else (fs, hit)


def read_resolved(source: Readable, limit: SizeLimit | None) -> tuple[bytes, str | None]:
    """The bytes and name of ``source``: a path, bytes or a binary file
    (:func:`~quakemodels.core.facade.read_source`), a path that runs through a .pak/.pk3
    (``x.pak/models/a/tris.md2``, read from inside the archive), or a path naming a file by
    its place in a game folder whose archives hold it (``baseq3/models/a/b.md3``); the name
    stays the whole path. An archive entry's head is judged by ``limit`` before the entry is
    inflated. FileNotFoundError when nothing is there."""
    # here: the facade's numpy is no cost of listing or extracting an archive
    from ..core.facade import read_source

    if isinstance(source, (str, os.PathLike)) and split_archive_path(source) is not None:
        return read_path(source, limit), os.fspath(source)
    try:
        return read_source(source)
    except FileNotFoundError:
        assert isinstance(source, (str, os.PathLike))
        found = game_found(source)
        if found is None:
            raise
        return found[0].read_found(found[1], limit), os.fspath(source)
