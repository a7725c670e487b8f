"""One dispatch for every format: ``load``, ``check``, ``info``, ``dump``, ``export``, the
Web IDE cross-check and the fuzzers find a file's format here, by its magic.

The formats are listed in :mod:`quakemodels.formats` (one line each); nothing else in the
package names a format to decide what to do with a file. A folder is not a format: a Quake III
player folder (``lower.md3``, ``upper.md3``, ``head.md3``) loads as a
:class:`~quakemodels.formats.q3player.Player`, which ``check``, ``describe`` and ``scene``
serve too.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeGuard

from .archive.vpath import game_context, game_roots, read_path, shared_gamefs, split_archive_path
from .core.facade import Source, read_source
from .core.findings import Finding, Report, check_engine, finding_from_error
from .core.format import Format
from .core.scene import ExportModel
from .core.shaders import game_shaders
from .core.skins import game_images
from .errors import BadMagicError, ModelFormatError, PlayerFolderError
from .formats import FORMATS
from .interchange.export import select_frames

if TYPE_CHECKING:
    from .formats.q3player import Player

__all__ = [
    "FORMATS",
    "Format",
    "Player",
    "by_magic",
    "by_name",
    "check",
    "describe",
    "explain",
    "for_class",
    "for_model",
    "is_game_path",
    "is_player",
    "is_player_folder",
    "is_player_model",
    "load",
    "scene",
]


# A Quake III player loads its modules (the MD3 reader, the archive readers) when a folder is
# met or a Player is asked for, never for a single file: the functions below import them there.
_PLAYER_MODULE = "quakemodels.formats.q3player.player"


def __getattr__(name: str) -> Any:
    if name == "Player":
        from .formats.q3player import Player

        return Player
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_player_model(obj: object) -> TypeGuard[Player]:
    """True for a :class:`Player`; imports nothing when no player was ever loaded (then no
    object can be one)."""
    if _PLAYER_MODULE not in sys.modules:
        return False
    from .formats.q3player import Player

    return isinstance(obj, Player)


def _player_from_folder(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None
) -> Player:
    from .formats.q3player import Player

    return Player.from_folder(path, game_dir=game_dir)


def is_player_folder(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> bool:
    """True when ``path`` is a Quake III player folder (see
    :func:`quakemodels.formats.q3player.is_player_folder`); never raises."""
    from .formats.q3player.files import is_player_folder as is_folder

    return is_folder(path, game_dir)


def by_magic(data: bytes) -> Format | None:
    """The format whose magic ``data`` starts with, or None."""
    for fmt in FORMATS:
        if fmt.accepts(data):
            return fmt
    return None


def by_name(name: str) -> Format:
    """The format called ``name`` (``md2``); KeyError listing the formats there are."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(f"no format {name!r}; formats: {', '.join(f.name for f in FORMATS)}")


def for_model(model: object) -> Format:
    """The format of a loaded model; TypeError for anything else."""
    for fmt in FORMATS:
        if fmt.holds(model):
            return fmt
    raise TypeError(f"not a loaded model: {type(model).__name__}")


def for_class(cls: type[Any]) -> Format:
    """The format whose model class is ``cls`` (or a base of it); TypeError for others."""
    for fmt in FORMATS:
        if fmt.holds_class(cls):
            return fmt
    raise TypeError(f"not a model class: {cls!r}; formats: {', '.join(f.name for f in FORMATS)}")


def unknown_magic(data: bytes) -> BadMagicError:
    """The error for data no format recognises, listing the magics there are."""
    known = ", ".join(
        f"{f.magic.decode('latin-1')} = {f.name.upper()}" for f in FORMATS if f.magic
    )
    return BadMagicError(
        f"magic={data[:4]!r} at offset 0 is not a known model format ({known})",
        field="magic",
        offset=0,
    )


def load(source: Source, *, game_dir: str | os.PathLike[str] | None = None) -> Any:
    """The model in ``source`` (a path, bytes or a binary file object), by its magic; a
    folder path is read as a Quake III player folder (:class:`Player`), on disk, through an
    archive (``baseq3/pak0.pk3/models/players/sarge``) or in the search path of the game
    folder above it (``baseq3/models/players/sarge`` with the player in ``baseq3/*.pk3``).
    ``game_dir`` names the game folder whose pk3s and files a player's images and skins are
    found in (inferred when not given).

    Raises ModelFormatError for data no format reads (PlayerFolderError for a folder without
    the three parts), OSError when a path cannot be read and TypeError for anything that is
    not a path, bytes or a binary file.
    """
    if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
        return _player_from_folder(source, game_dir)
    try:
        data, name = read_any(source)
    except (FileNotFoundError, IsADirectoryError):
        assert isinstance(source, (str, os.PathLike))
        player = _game_player(source, game_dir)
        if player is None:
            raise
        return player
    fmt = by_magic(data)
    if fmt is None:
        raise unknown_magic(data)
    return fmt.open(data, name)


def _game_player(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None
) -> Player | None:
    """The player at a path that is no file: a folder inside an archive or in a game's search
    path; None when nothing is there (PlayerFolderError when a folder lacks a part)."""
    if os.path.lexists(path):
        return None
    try:
        return _player_from_folder(path, game_dir)
    except PlayerFolderError as e:
        if e.reason == "no-folder":
            return None
        raise


def _game_file(path: str | os.PathLike[str]) -> bytes | None:
    """The bytes of a file named by its place in a game folder (``baseq3/models/x/y.md3``
    held by ``baseq3/pak0.pk3``), as the engine finds it; None when the path is on disk,
    runs through an archive, or no game folder above has it."""
    if os.path.lexists(path) or split_archive_path(path) is not None:
        return None
    found = game_roots(path)
    if found is None:
        return None
    roots, inner = found
    fs = shared_gamefs(tuple(roots))
    hit = fs.find(inner)
    return None if hit is None else fs.read_found(hit)


def is_game_path(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is no file on disk but names a player folder or a file through an
    archive or in a game folder's search path; never raises."""
    if os.path.lexists(path):
        return False
    if split_archive_path(path) is not None or is_player(path):
        return True
    try:
        return _game_file(path) is not None
    except (ModelFormatError, OSError):
        return False


def is_player(path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None) -> bool:
    """True when ``path`` names a Quake III player folder (on disk, through an archive, or
    in a game's search path); never raises."""
    return is_player_folder(path, game_dir)


def read_any(source: Source) -> tuple[bytes, str | None]:
    """``read_source``, and a path that runs through a .pak/.pk3 (``x.pak/models/a/tris.md2``)
    read from inside the archive, or that names a file by its place in a game folder whose
    archives hold it (``baseq3/models/a/b.md3``); the name stays the whole path."""
    if isinstance(source, (str, os.PathLike)) and split_archive_path(source) is not None:
        return read_path(source), os.fspath(source)
    try:
        return read_source(source)
    except FileNotFoundError:
        assert isinstance(source, (str, os.PathLike))
        data = _game_file(source)
        if data is None:
            raise
        return data, os.fspath(source)


def check(
    source: object, engine: str = "any", *, game_dir: str | os.PathLike[str] | None = None
) -> list[Finding]:
    """Findings for any supported model (a loaded model, bytes, a path or a binary file),
    chosen by magic, or a player folder (``game_dir`` as for :func:`load`); never raises on
    any input (an unknown ``engine`` is a ValueError)."""
    check_engine(engine)
    if is_player_model(source):
        from .formats.q3player.check import check_player_model

        return check_player_model(source, engine)
    if isinstance(source, (str, os.PathLike)) and (
        os.path.isdir(source) or (not os.path.lexists(source) and is_player(source, game_dir))
    ):
        from .formats.q3player.check import check_player

        return check_player(source, engine, game_dir)
    try:
        fmt = for_model(source)
    except TypeError:
        pass
    else:
        return fmt.check(source, engine)
    try:
        data, name = read_any(source)  # type: ignore[arg-type]
    except OSError as e:
        name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else str(source)
        return [Finding("error", None, None, f"cannot read {name}: {e.strerror or e}", "io")]
    except TypeError as e:
        return [Finding("error", None, None, str(e), "io")]
    found = by_magic(data)
    if found is None:
        report = Report(engine)
        report.findings.append(finding_from_error(unknown_magic(data)))
        return report.findings
    return found.check(data, engine, name=name)


def describe(model: object) -> str:
    """``quakemodels info``'s text for a loaded model or player."""
    if is_player_model(model):
        from .formats.q3player.describe import describe_player

        return describe_player(model)
    return for_model(model).describe(model)


def scene(
    model: object,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
    skin: str = "default",
    frame: int | None = None,
    clip: str | None = None,
) -> ExportModel:
    """The exporters' view of a loaded model (surfaces, clips, tags, skins).

    Skins are looked up through the game's search path (``quakemodels.archive.GameFS``) when
    the model sits in an archive or a game folder (one holding ``pakN.pak``/``*.pk3``), or
    when ``game_dir`` is given, and so are Quake III shader scripts (an MD3 surface's sides
    and alpha test, :mod:`quakemodels.core.shaders`); an explicit ``skin_dir`` searches only
    that folder. A
    player's scene is assembled: its rest pose, then every cfg clip, textured from the
    ``.skin`` set ``skin`` (``skin_dir`` is for single models).

    With ``frame`` (0..F-1, IndexError else) or ``clip`` (KeyError naming the clips), the
    scene holds only that frame (no clips) or that clip's frames (the one clip), and only
    those frames are decoded: the same scene as :meth:`ExportModel.select` on the full one.
    """
    frames: list[int] | None = None
    clips: dict[str, range] = {}
    if frame is not None or clip is not None:
        table, count = scene_frames(model)
        frames, clips = select_frames(table, count, frame, clip)
    if is_player_model(model):
        from .formats.q3player.scene import scene as player_scene

        if game_dir is not None:
            model = model.with_game_dir(game_dir)
        em = player_scene(model, skin=skin, frames=frames)
    else:
        fmt = for_model(model)
        name = getattr(model, "name", None)
        context = None if skin_dir is not None else game_context(name, game_dir)
        kwargs: dict[str, Any] = {"skin_dir": skin_dir}
        if frames is not None:
            kwargs["frames"] = frames
        if context is None:
            em = fmt.scene(model, **kwargs)
        else:
            # the archive readers are loaded already (the context is a GameFS)
            from .archive.shaders import game_scripts

            fs = context[0]
            with game_images(*context), game_shaders(lambda: game_scripts(fs)):
                em = fmt.scene(model, **kwargs)
    return em if frames is None else replace(em, clips=clips)


def scene_frames(model: object) -> tuple[dict[str, range], int]:
    """The clip table and frame count of ``model``'s scene, without decoding any frame."""
    if is_player_model(model):
        from .formats.q3player.scene import player_clips

        return player_clips(model)
    animations: dict[str, range] = getattr(model, "animations")  # noqa: B009
    # frame_names has one name per frame of the scene (MDL: per pose)
    return dict(animations), len(getattr(model, "frame_names"))  # noqa: B009


def spec_id(data: bytes) -> str | None:
    """The generated parser (``quakemodels.kaitai`` module) for ``data``, by magic."""
    fmt = by_magic(data)
    return None if fmt is None else fmt.spec_id


def explain(data: bytes) -> None:
    """Raise the format reader's ModelFormatError for ``data`` (dump's better message)."""
    fmt = by_magic(data)
    if fmt is None:
        raise unknown_magic(data)
    fmt.open(data)
