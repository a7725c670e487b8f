"""Where a player's files come from: a folder on disk, or a game's search path.

ioquake3 opens every file of a player (``models/players/<name>/lower.md3``, ``animation.cfg``,
the ``.skin`` files and the images they name) through its search path (``FS_FOpenFileRead``,
``code/qcommon/files.c``): loose files in the game folder first, then the ``.pk3`` files from
the last to the first, names compared ignoring case. A player may so be spread over loose
files and several pk3s. :func:`player_files` picks the view for a player path:

* a path through an archive (``baseq3/pak0.pk3/models/players/sarge``): that archive first,
  then the search path of its folder (or of ``game_dir``);
* a path under a game folder (the nearest folder above holding ``*.pk3`` or ``pakN.pak``, or
  ``game_dir`` when the path is inside it), on disk or not: the game's search path, with the
  path's name in it (``models/players/sarge``);
* a folder outside ``game_dir``: the folder's own files first, then the search path of
  ``game_dir`` as if the folder were ``models/players/<its name>`` there (a player being
  edited outside the game finds the images and skins it shares with the game);
* any other folder: :class:`DiskFiles`, the folder itself, images under the game root above
  it (see :mod:`.skinfile`).

Every lookup of an untrusted name (a ``.skin`` line, a shader name) goes through
:class:`~quakemodels.archive.GameFS`, which finds nothing outside its folders and archives:
names with ``..``, absolute names, drive letters and symlinks leading out are not found. The
files found are named by :class:`~pathlib.Path` labels, a path through the archive for an
archive entry (``baseq3/pak0.pk3/models/players/sarge/band.tga``), and read through the view.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ...archive.names import Engine, split_parts
from ...archive.vpath import game_folder_above, shared_gamefs, split_archive_path
from ...core.files import is_regular, read_regular
from ...core.gamepaths import _unsafe_reason
from ...core.skins import Skin, _open
from ...errors import ModelFormatError
from .parts import PARTS
from .skinfile import (
    IMAGE_ORDER,
    _find_ci,
    _images,
    _inside,
    _listdir,
    _warn,
    find_game_root,
    image_names,
    image_parts,
    resolve_image,
)

if TYPE_CHECKING:  # only annotations here: the archive readers load when an archive is opened
    from ...archive import Found, GameFS


class DiskFiles:
    """A player folder on disk and the game root above it (no archives involved)."""

    def __init__(self, folder: Path, root: Path) -> None:
        self.folder = folder
        self.root = root

    def entries(self) -> list[str]:
        """The names in the player folder, sorted."""
        return _listdir(self.folder)

    def find(self, name: str) -> Path | None:
        """The file ``name`` in the player folder, matched ignoring case, or None."""
        hit = _find_ci(self.folder, [name])
        return hit if hit is not None and is_regular(hit) else None

    def read(self, path: Path) -> bytes:
        """The bytes of a file this view found (regular files only)."""
        return read_regular(path, "player file")

    def image(self, name: str, what: str) -> Path | None:
        """The image a game-root relative ``name`` names (see :func:`.resolve_image`)."""
        return resolve_image(name, self.root, folder=self.folder, what=what)

    def images(self) -> dict[str, Path]:
        """Images in the player folder by lower-case stem, preferred extension first."""
        return _images(self.folder)

    def open_image(self, path: Path) -> Skin | None:
        """The decoded image (None, with a warning, when it cannot be decoded)."""
        return _open(path)


class GameFiles:
    """A player seen through a game's search path: ``inner`` is its folder's name there
    (``models/players/sarge``); ``local`` a folder on disk searched first (a player outside
    the game folder); ``folder`` the player's label path; ``root`` the game folder."""

    def __init__(
        self, fs: GameFS, inner: str, *, folder: Path, root: Path, local: Path | None = None
    ) -> None:
        self.fs = fs
        self.inner = inner.strip("/")
        self.folder = folder
        self.root = root
        self.local = local
        self._found: dict[Path, Found] = {}

    def _label(self, found: Found) -> Path:
        label = found.file if found.file is not None else found.source.path / found.name
        self._found[label] = found
        return label

    def _find(self, name: str) -> Path | None:
        """``name`` (game-root relative) through the search path, or None."""
        found = self.fs.find(name)
        return None if found is None else self._label(found)

    def _in_folder(self, name: str) -> str:
        return f"{self.inner}/{name}" if self.inner else name

    def entries(self) -> list[str]:
        """The names in the player folder (the local folder's, then the search path's;
        each name once, ignoring case), sorted."""
        names = {e.lower(): e for e in (_listdir(self.local) if self.local else [])}
        for name in self.fs.listdir(self.inner):
            leaf = name.replace("\\", "/").rpartition("/")[2]
            names.setdefault(leaf.lower(), leaf)
        return sorted(names.values())

    def find(self, name: str) -> Path | None:
        """The file ``name`` in the player folder: the local folder's, else the one the
        engine opens; matched ignoring case."""
        if self.local is not None:
            hit = _find_ci(self.local, [name])
            if hit is not None and is_regular(hit):
                return hit
        if _unsafe_reason(name) or len(split_parts(name)) != 1:
            return None
        return self._find(self._in_folder(name))

    def read(self, path: Path) -> bytes:
        """The bytes of a file this view found."""
        found = self._found.get(path)
        if found is None:
            return read_regular(path, "player file")
        return self.fs.read_found(found)

    def image(self, name: str, what: str) -> Path | None:
        """The image a game-root relative ``name`` names: through the search path with the
        engine's extension order, then by its file name in the player folder. Unsafe names
        warn and give None; the search path finds nothing outside the game."""
        parts = image_parts(name, what)
        if parts is None:
            return None
        for last in image_names(parts[-1]):
            hit = self._find("/".join([*parts[:-1], last]))
            if hit is not None:
                return hit
        for last in image_names(parts[-1]):
            hit = self.find(last)
            if hit is not None:
                return self._sandboxed(hit, what)
        return None

    def _sandboxed(self, hit: Path, what: str) -> Path | None:
        """``hit``, unless it is a file of the local folder that a symlink leads out of."""
        if hit in self._found or self.local is None or _inside(hit, self.local.resolve()):
            return hit
        _warn(f"{what}: {hit} leads outside {self.local}; refused")
        return None

    def images(self) -> dict[str, Path]:
        """Images in the player folder by lower-case stem, preferred extension first."""
        entries = self.entries()
        found: dict[str, Path] = {}
        for ext in IMAGE_ORDER:
            for entry in entries:
                stem, e = os.path.splitext(entry)
                if e.lower() != ext or stem.lower() in found:
                    continue
                hit = self.find(entry)
                if hit is not None and self._sandboxed(hit, "image") is not None:
                    found[stem.lower()] = hit
        return found

    def open_image(self, path: Path) -> Skin | None:
        """The decoded image (None, with a warning, when it cannot be decoded)."""
        return _open(path, io.BytesIO(self.read(path)))


PlayerFiles = DiskFiles | GameFiles

GAME_ENGINE: Engine = "quake3"  # players are a Quake III thing: pk3s and loose files, loose first


def player_files(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> PlayerFiles | None:
    """The view of the player at ``path`` (see the module docstring); None when ``path`` is
    neither a folder on disk nor inside an archive or a game folder."""
    label = Path(os.path.abspath(path))
    base = Path(game_dir) if game_dir is not None else None
    split = split_archive_path(path)
    if split is not None:
        archive, inner = split
        game = base if base is not None else archive.parent
        fs = shared_gamefs((game, archive), GAME_ENGINE)
        return GameFiles(fs, inner, folder=label, root=game)
    if base is not None:
        fs = shared_gamefs((base,), GAME_ENGINE)
        try:
            inside = label.resolve().relative_to(base.resolve()).as_posix()
        except (ValueError, OSError):
            if not label.is_dir():
                return None
            # a player outside the game: its own files first, then the game's for its name
            return GameFiles(
                fs, f"models/players/{label.name}", folder=label, root=base, local=label
            )
        return GameFiles(fs, inside, folder=label, root=base)
    above = game_folder_above(label)
    if above is not None:
        inner = label.relative_to(above).as_posix()
        # the engine loads players from models/players/<name>: a folder elsewhere under a
        # game folder is not one the game sees
        if inner.split("/")[0].lower() == "models":
            return GameFiles(shared_gamefs((above,), GAME_ENGINE), inner, folder=label, root=above)
    if label.is_dir():
        return DiskFiles(label, find_game_root(label))
    return None


def _parts_in(files: PlayerFiles) -> dict[str, Path] | None:
    found = {}
    for part in PARTS:
        hit = files.find(f"{part}.md3")
        if hit is None:
            return None
        found[part] = hit
    return found


def find_parts(
    folder: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> dict[str, Path] | None:
    """``{"lower": path, "upper": ..., "head": ...}`` when ``folder`` (on disk, through an
    archive or in a game's search path, see the module docstring) holds the three MD3 parts (names
    matched ignoring case), else None. Paths through an archive name its entries."""
    files = player_files(folder, game_dir)
    return None if files is None else _parts_in(files)


def is_player_folder(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> bool:
    """True when ``path`` is a folder holding ``lower.md3``, ``upper.md3`` and ``head.md3``:
    on disk, through an archive (``pak0.pk3/models/players/sarge``) or in the search path
    of the game folder above it."""
    if os.path.isfile(path):
        return False
    try:
        return find_parts(path, game_dir) is not None
    except (ModelFormatError, OSError):
        return False
