"""One dispatch for every format: ``load``, ``check``, ``info``, ``dump``, ``export``, the
Web IDE cross-check and the fuzzers find a file's format here, by its magic, and a folder's
through the folder formats' ``detect``/``open`` services.

The formats are listed in :mod:`quakemodels.formats` (one line each); nothing here names a
format. Verbs ask a format for a capability (:meth:`Format.service`), which raises
:class:`~quakemodels.errors.UnsupportedError` when the format does not serve it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeGuard

from .archive.vpath import (
    archive_folder,
    game_context,
    game_found,
    game_search,
    model_game,
    read_resolved,
    split_archive_path,
)
from .core.facade import Readable
from .core.files import read_regular
from .core.records import replace
from .core.scene import ExportModel
from .core.skins import game_images
from .errors import BadMagicError, BadValueError, ModelFormatError
from .formats import FORMATS, builders, by_magic, by_name, folder_formats, folder_sets
from .formats.contract import Format, Kind
from .interchange.export import select_frames

if TYPE_CHECKING:
    from .core.findings import Finding
    from .core.quantized import QuantizedMesh
    from .core.skeletal import Skeletal, SkeletalScene
    from .core.sprite import SpriteFrames
    from .interchange.convert import Source
    from .interchange.gltf_write import Doc, Encoder, Piece

__all__ = [
    "FORMATS",
    "Format",
    "Kind",
    "builders",
    "by_magic",
    "by_name",
    "check",
    "describe",
    "explain",
    "folder_format",
    "folder_formats",
    "folder_sets",
    "for_class",
    "for_model",
    "frames",
    "is_folder_set",
    "is_game_path",
    "load",
    "scene",
    "skeletal",
]


def folder_format(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> Format | None:
    """The folder format whose ``detect`` takes ``path`` (on disk, through an archive or in a
    game's search path), or None; never raises."""
    return next((f for f in folder_formats() if f.detect(path, game_dir)), None)


def is_folder_set(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> bool:
    """True when ``path`` names a folder some folder format reads (a Quake III player);
    never raises."""
    return folder_format(path, game_dir) is not None


def _open_folder(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None
) -> Any | None:
    """The model a folder format reads at ``path``; None when nothing is a folder there. When
    every folder format refuses the folder, the first one's ModelFormatError says why."""
    refused: ModelFormatError | None = None
    for fmt in folder_formats():
        try:
            model = fmt.open_folder(path, game_dir)
        except ModelFormatError as e:
            refused = refused or e
            continue
        if model is not None:
            return model
    if refused is not None:
        raise refused
    return None


# for_model's answers by the model's class, for the FORMATS they were found in: whether a
# format holds a model depends on its class alone (an isinstance test), so an answer stays
# true while FORMATS is the same tuple (tests put a fake format in front). Every verb asks,
# once per model: the walk over the formats cost a small sprite's frames a tenth.
_BY_CLASS: dict[type[Any], Format] = {}
_BY_CLASS_OF: tuple[Format, ...] = ()
# frames' service by the model's class, the same way: a small sprite's frames() cost a tenth
# more through the format's accessor
_FRAMERS: dict[type[Any], Callable[..., SpriteFrames]] = {}


def for_model(model: object) -> Format:
    """The format of a loaded model (the one lookup: :meth:`Format.holds`); TypeError for
    anything else."""
    global _BY_CLASS_OF
    if _BY_CLASS_OF is not FORMATS:
        _BY_CLASS.clear()
        _FRAMERS.clear()
        _BY_CLASS_OF = FORMATS
    known = _BY_CLASS.get(type(model))
    if known is not None:
        return known
    for fmt in FORMATS:
        if fmt.holds(model):
            _BY_CLASS[type(model)] = fmt
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
    known = ", ".join(f"{f.magic_text} = {f.name.upper()}" for f in FORMATS if f.magic)
    return BadMagicError(
        f"magic={data[:4]!r} at offset 0 is not a known model format ({known})",
        field="magic",
        offset=0,
    )


def load(source: Readable, *, game_dir: str | os.PathLike[str] | None = None) -> Any:
    """The model in ``source`` (a path, bytes or a binary file object), by its magic; a
    folder path is read by the folder format that takes it (a Quake III player), on disk, through an
    archive (``baseq3/pak0.pk3/models/players/sarge``) or in the search path of the game
    folder above it (``baseq3/models/players/sarge`` with the player in ``baseq3/*.pk3``).
    ``game_dir`` names the game folder whose pk3s and files a player's images and skins are
    found in (inferred when not given).

    A plain file is read and dispatched by magic before any folder or game-folder probe.

    Raises ModelFormatError for data no format reads (the folder format's, PlayerFolderError,
    for a folder without a player's three parts), OSError when a path cannot be read and
    TypeError for anything that is not a path, bytes or a binary file.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _open_bytes(bytes(source), None)
    if isinstance(source, (str, os.PathLike)):
        # A plain file costs its read: the folder, archive and game-folder probes below run
        # only when the path opens as no regular file (a folder, a FIFO, nothing there).
        try:
            data = read_regular(source)
        except (OSError, ModelFormatError):
            pass
        else:
            return _open_bytes(data, os.fspath(source))
        if os.path.isdir(source):
            model = _open_folder(source, game_dir)
            if model is None:
                raise IsADirectoryError(21, "Is a directory", os.fspath(source))
            return model
    # path resolution (an archive entry, a file in a game folder's search path; an entry's
    # head judged before it is inflated), then one dispatch and one size refusal
    try:
        data, name = read_resolved(source, _model_limit)
    except (FileNotFoundError, IsADirectoryError):
        assert isinstance(source, (str, os.PathLike))
        found = None if os.path.lexists(source) else _open_folder(source, game_dir)
        if found is None:
            raise
        return found
    return _open_bytes(data, name)


def _open_bytes(data: bytes, name: str | None) -> Any:
    """The model in ``data`` by its magic, refused when over its format's size limit."""
    fmt = by_magic(data)
    if fmt is None:
        raise unknown_magic(data)
    _refuse_oversized(fmt, data, name)
    return fmt.open(data, name)


def size_limit(head: bytes) -> int | None:
    """The most bytes a file starting with ``head`` may hold: its format's
    :attr:`~quakemodels.formats.contract.Format.max_file_size`; None when no format starts
    so (data that may be no model: ``dump`` of a .pak)."""
    fmt = by_magic(head)
    return None if fmt is None else fmt.max_file_size


def _model_limit(head: bytes) -> int:
    """:func:`size_limit`, refusing (the unknown-magic error) a head no model starts with,
    before the rest of an archive entry is read."""
    limit = size_limit(head)
    if limit is None:
        raise unknown_magic(head)
    return limit


def _refuse_oversized(fmt: Format | None, data: bytes, name: str | None) -> None:
    """A file larger than its format's limit (``fmt``, None for no model): the same refusal
    as for an archive entry."""
    if fmt is not None and len(data) > (limit := fmt.max_file_size):
        raise BadValueError(
            f"{name or 'the data'} is {len(data)} bytes, over the largest {fmt.title} file"
            f" quakemodels reads ({limit} bytes)",
            field="file_size",
            offset=0,
        )


def is_game_path(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is no file on disk but names a folder set (a player) or a file
    through an archive or in a game folder's search path; never raises (and reads no file)."""
    if os.path.lexists(path):
        return False
    if split_archive_path(path) is not None or is_folder_set(path):
        return True
    try:
        return game_found(path) is not None
    except (ModelFormatError, OSError):
        return False


def read_any(source: Readable, *, models: bool = True) -> tuple[bytes, str | None]:
    """``read_source``, and a path that runs through a .pak/.pk3 (``x.pak/models/a/tris.md2``)
    read from inside the archive, or that names a file by its place in a game folder whose
    archives hold it (``baseq3/models/a/b.md3``); the name stays the whole path.

    With ``models`` (the default) the bytes must be a model: an archive entry without a
    model's magic is refused from its first bytes, before it is inflated (a zip bomb named
    ``x.md3``). Either way an entry with a model's magic that declares more than its format's
    :func:`max_file_size` is refused before it is read, and so is a larger file afterwards."""
    data, name = read_resolved(source, _model_limit if models else size_limit)
    _refuse_oversized(by_magic(data), data, name)
    return data, name


def check(
    source: object, engine: str = "any", *, game_dir: str | os.PathLike[str] | None = None
) -> list[Finding]:
    """Findings for any supported model (a loaded model, bytes, a path or a binary file),
    chosen by magic, or a player folder (``game_dir`` as for :func:`load`); never raises on
    any input (an unknown ``engine`` is a ValueError)."""
    from .core.findings import Finding, Report, check_engine, finding_from_error

    check_engine(engine)
    try:
        fmt = for_model(source)
    except TypeError:
        pass
    else:
        with _skins_of(getattr(source, "name", None), game_dir):
            return fmt.check(source, engine)
    if isinstance(source, (str, os.PathLike)) and (
        os.path.isdir(source) or not os.path.lexists(source)
    ):
        folder = folder_format(source, game_dir)
        if folder is None and os.path.isdir(source):
            # a folder no format detects: the first folder format says what it lacks
            folder = next(folder_formats(), None)
        if folder is not None:
            return folder.check(source, engine, game_dir=game_dir)
    try:
        data, name = read_any(source)  # type: ignore[arg-type]
    except OSError as e:
        name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else str(source)
        return [Finding("error", None, None, f"cannot read {name}: {e.strerror or e}", "io")]
    except TypeError as e:
        return [Finding("error", None, None, str(e), "io")]
    except ModelFormatError as e:  # a FIFO or a device, an archive entry refused
        return [finding_from_error(e)]
    found = by_magic(data)
    if found is None:
        report = Report(engine)
        report.findings.append(finding_from_error(unknown_magic(data)))
        return report.findings
    with _skins_of(name, game_dir):
        return found.check(data, engine, name=name)


def _skins_of(name: str | None, game_dir: str | os.PathLike[str] | None) -> Any:
    """The block in which a checker looks skins up by name as :func:`scene` does: through
    the game's search path when the model sits in an archive or a game folder (or
    ``game_dir`` is given), else (a null context) in its folder."""
    try:
        context = game_context(name, game_dir) if isinstance(name, str) else None
    except (ModelFormatError, OSError):  # a broken archive: check never raises
        context = None
    return contextlib.nullcontext() if context is None else game_images(*context)


def describe(model: object) -> str:
    """``quakemodels info``'s text for a loaded model (or folder set)."""
    return for_model(model).describe(model)


def scene(
    model: object,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
    skin: str = "default",
    frame: int | None = None,
    clip: str | None = None,
    fps: float | None = None,
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

    ``fps``: a model that animates by joints (:class:`~quakemodels.core.skeletal.Skeletal`:
    MD5, IQM) bakes its clips resampled at ``fps`` frames per second instead of at their own
    frames; ignored for a vertex-animated model (its frames are what it stores) and with
    ``frame`` or ``clip``.
    """
    frames: list[int] | None = None
    clips: dict[str, range] = {}
    if frame is not None or clip is not None:
        table, count = scene_frames(model)
        frames, clips = select_frames(table, count, frame, clip)
    fmt = for_model(model)
    if fmt.kind is Kind.FOLDER:
        # a folder set finds its own files (and skins by .skin set) through its game folder
        em = fmt.scene(model, skin=skin, game_dir=game_dir, frames=frames)
    else:
        with skin_search(getattr(model, "name", None), skin_dir, game_dir) as where:
            kwargs: dict[str, Any] = {"skin_dir": where}
            if frames is not None:
                kwargs["frames"] = frames
            elif fps is not None and skeletal_model(model):
                kwargs["fps"] = fps
            em = fmt.scene(model, **kwargs)
    return em if frames is None else replace(em, clips=clips)


@contextlib.contextmanager
def skin_search(
    name: str | None,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> Iterator[str | os.PathLike[str] | None]:
    """Within the block, skins (and Quake III shader scripts) of the model called ``name``
    are looked up as :func:`scene` looks them up; yields the ``skin_dir`` to give
    :func:`~quakemodels.core.skins.find_skin`. ``skin_dir`` on disk: that folder only; a
    folder inside a .pak/.pk3 (``x.pak/skins``): its images by name, then the model's
    folder; else the game's search path when the model sits in an archive or a game folder
    (or ``game_dir`` is given), then the model's folder."""
    inside = archive_folder(skin_dir) if skin_dir is not None else None
    if inside is not None:
        with game_search(inside, None, inside.fs):
            yield None
    elif skin_dir is not None:
        yield skin_dir
    else:
        with model_game(name, game_dir):
            yield None


def skeletal(model: object) -> SkeletalScene | None:
    """The joints, skinned meshes and clips of a model that animates by joints (its
    :class:`~quakemodels.core.skeletal.Skeletal` ``skeletal()``, in Quake space), None for a
    vertex-animated one: what makes ``export`` and ``convert`` write a real skin."""
    return model.skeletal() if skeletal_model(model) else None


def skeletal_model(model: object) -> TypeGuard[Skeletal]:
    """Whether ``model`` animates by joints (is a :class:`~quakemodels.core.skeletal.Skeletal`).

    A model without the protocol's ``skeletal`` method is told apart without loading
    ``core.skeletal``: a vertex-animated export never needs that module."""
    if getattr(type(model), "skeletal", None) is None:
        return False
    from .core.skeletal import Skeletal

    return isinstance(model, Skeletal)


def frames(
    model: object,
    *,
    palette: Any = None,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> SpriteFrames:
    """The pictures of a loaded sprite (any image kind) as RGBA frames with their origins,
    groups and intervals, a picture file of its own (Quake II's frames) found under
    ``skin_dir`` or through ``game_dir``; UnsupportedError for a format that gives none."""
    framer = _FRAMERS.get(type(model))
    if framer is None or _BY_CLASS_OF is not FORMATS:
        framer = for_model(model).frames
        _FRAMERS[type(model)] = framer
    return framer(model, palette=palette, skin_dir=skin_dir, game_dir=game_dir)


def scene_frames(model: object) -> tuple[dict[str, range], int]:
    """The clip table and frame count of ``model``'s scene, without decoding any frame."""
    fmt = for_model(model)
    if fmt.clips is not None:
        return fmt.clips(model)
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


def is_sprite(model: object) -> bool:
    """True when ``model`` is a loaded model of an image kind (a sprite): its verbs read
    frames, not a mesh scene."""
    try:
        return for_model(model).kind is Kind.IMAGE
    except TypeError:
        return False


def quantized(model: object, palette: Any = None) -> QuantizedMesh | None:
    """The byte-compressed frames of a model as stored, when its format stores them (MD2,
    MDL): the neutral record of an exact conversion between such formats; None else."""
    fmt = for_model(model)
    return None if fmt.services.quantized is None else fmt.quantized(model, palette=palette)


def is_folder_set_model(model: object) -> bool:
    """True when ``model`` is a folder set (a player: three parts on tags)."""
    try:
        return for_model(model).kind is Kind.FOLDER
    except TypeError:
        return False


def own_gltf(
    model: object, skin: str, game_dir: str | os.PathLike[str] | None = None
) -> tuple[Doc, list[Piece], Encoder] | None:
    """The glTF a model's format builds itself (a player: its parts on their tags, every
    clip, textured from the ``.skin`` set ``skin``); None for a model the shared road
    writes (its scene or its skin)."""
    fmt = for_model(model)
    return None if fmt.gltf is None else fmt.gltf(model, skin, game_dir)


def pose(
    model: object,
    clips: Mapping[str, str | None],
    time: float | None,
    *,
    skin: str = "default",
    game_dir: str | os.PathLike[str] | None = None,
) -> tuple[ExportModel, float, str]:
    """The scene of a model whose parts play clips at once (a player's ``legs`` and
    ``torso``): one frame ``time`` seconds in, or every step of the longest clip (None);
    with its rate and a label. UnsupportedError for a model without parts that do."""
    return for_model(model).pose(model, clips, time, skin, game_dir)


def facts(model: object, name: str) -> dict[str, Any]:
    """What ``info --json`` prints of a loaded model: its format's own facts when it has them
    (a player: each part's, its clips and skins), else the facts every model shares."""
    fmt = for_model(model)
    if fmt.facts is not None:
        return fmt.facts(model, name, facts)
    if fmt.kind is Kind.IMAGE:  # a sprite: pictures, not a mesh's bounds
        summary: dict[str, Any] = getattr(model, "summary")()  # noqa: B009
        return {"file": name, "format": fmt.name, **summary}
    m: Any = model
    lo, hi = m.bounds
    out: dict[str, Any] = {
        "file": name,
        "format": fmt.name,
        "bytes": len(m.data),
        "header": {k: _jsonable(v) for k, v in m.header.items()},
        "frames": m.num_frames,
        "clips": {c: [r.start, len(r)] for c, r in m.animations.items()},
        "bounds": {"min": [float(v) for v in lo], "max": [float(v) for v in hi]},
    }
    if isinstance(getattr(m, "skins", None), list):
        out["skins"] = list(m.skins)
    return out


def _jsonable(value: Any) -> Any:
    """A header value as JSON: numbers as they are, bytes as Latin-1 text, arrays as lists."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, (int, float, str)) or value is None:
        return value
    return str(value)


def clip_lines(model: object, name: str) -> list[str]:
    """``info --clips``: one line per clip (a player's with its part and rate)."""
    from .core.names import plural

    fmt = for_model(model)
    if fmt.clip_lines is not None:
        return fmt.clip_lines(model, name)
    animations: dict[str, range] = getattr(model, "animations")  # noqa: B009
    lines = [f"{name}: {plural(len(animations), 'clip')}"]
    # Names are padded to 14 or the longest so the columns line up (Team Arena names run to 21).
    width = max([14, *(len(c) for c in animations)])
    for clip, frames in animations.items():
        span = f"{frames.start}-{frames.stop - 1}" if len(frames) else "-"
        lines.append(f"  {clip:<{width}} frames {span:<9} ({plural(len(frames), 'frame')})")
    return lines


def members(path: str | os.PathLike[str]) -> Mapping[str, Any] | None:
    """The files the folder set at ``path`` is made of (a player: ``lower``, ``upper``,
    ``head`` → each part's path), one dump each; None when no folder format takes it."""
    fmt = folder_format(path)
    return None if fmt is None else fmt.members(path)


def model_source(
    path: str | os.PathLike[str],
    model: object,
    scener: Callable[[str | None, str | None], ExportModel] | None = None,
) -> Source:
    """A loaded model as convert's input (``interchange.convert.Source``): what its format
    gives, each read only when a build asks (its scene through ``scener(skin, skin_dir)``,
    by default :func:`scene` with that skin folder; its image frames; its stored frames)."""
    from pathlib import Path

    from .interchange.convert import Source as Input

    def scene_of(skin: str | None, skin_dir: str | None) -> ExportModel:
        return scene(model, skin_dir=skin_dir)

    return Input(
        (Path(path),),
        model,
        folder_set=is_folder_set_model(model),
        scener=scener or scene_of,
        framer=(lambda p: frames(model, palette=p)) if is_sprite(model) else None,
        quantizer=lambda p: quantized(model, p),
    )
