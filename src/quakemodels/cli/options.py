"""Options the writing verbs share (``--skin``, ``--skin-dir``, ``--scale``, ``--fps``,
``--no-clobber``) and the scene they produce for one model file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core.names import plural
from ..core.records import replace
from ..core.scene import FPS, ExportModel

__all__ = [
    "add_scene_args",
    "folder",
    "frame_number",
    "load_scene",
    "plural",
    "positive",
    "scene_options",
]


def positive(text: str) -> float:
    """argparse type: a finite number above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be above zero")
    return value


def folder(text: str) -> str:
    """argparse type: an existing folder (``--skin-dir``), on disk or inside a .pak/.pk3
    (``x.pak/skins``): a typo stops the command at once (exit 2) instead of warning for
    every model."""
    path = Path(text)
    if not path.exists():
        from ..archive.vpath import archive_folder

        try:
            if archive_folder(text) is not None:
                return text
        except (OSError, ValueError) as e:  # no such folder in it; a broken archive
            raise argparse.ArgumentTypeError(str(e)) from None
        raise argparse.ArgumentTypeError(f"{text} does not exist")
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is not a folder")
    return text


def frame_number(text: str) -> int:
    """argparse type: a frame index, 0 or more (``-1`` is not "the last frame")."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a frame number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"frame {value}: frames count from 0")
    return value


def add_skin_dir_arg(parser: argparse.ArgumentParser) -> None:
    """``--skin-dir DIR``: an existing folder to look skins up under."""
    parser.add_argument(
        "--skin-dir",
        type=folder,
        default=None,
        metavar="DIR",
        help="look skins up under DIR, a folder or one inside a .pak/.pk3 (default: the"
        " model's own folder)",
    )


def add_scene_args(parser: argparse.ArgumentParser, *, fps: bool = True) -> None:
    """``--skin``, ``--skin-dir``, ``--scale``, ``--fps`` and ``--no-clobber``."""
    parser.add_argument(
        "--skin",
        default=None,
        metavar="N|NAME",
        help="the skin to use: the model's skin number N (from 0, as `info` lists them) or an"
        " image NAME looked up beside the model or under --skin-dir (default: the first found)",
    )
    add_skin_dir_arg(parser)
    parser.add_argument(
        "--scale",
        type=positive,
        default=1.0,
        metavar="K",
        help="multiply positions by K (default 1: Quake units, about an inch each;"
        " 0.0254 gives metres)",
    )
    if fps:
        parser.add_argument(
            "--fps",
            type=positive,
            default=None,
            metavar="N",
            help="clip playback speed in frames per second (default: the model's own rate,"
            f" an MD5 animation's frameRate; else {FPS:g}, as Quake)",
        )
    parser.add_argument(
        "--no-clobber",
        action="store_true",
        help="never replace an existing file: stop with exit 3 instead",
    )


def scene_options(args: argparse.Namespace) -> dict[str, Any]:
    """The picklable options :func:`load_scene` reads."""
    return {
        "skin": args.skin,
        "skin_dir": args.skin_dir,
        "scale": args.scale,
        "fps": getattr(args, "fps", FPS),
        "no_clobber": args.no_clobber,
        "game_dir": getattr(args, "game_dir", None),
    }


def load_scene(
    path: str | Path,
    opts: dict[str, Any],
    model: Any = None,
    *,
    frame: int | None = None,
    clip: str | None = None,
) -> ExportModel:
    """The scene of the model file ``path`` (``model`` when already loaded) with ``opts``'
    skin, scale and fps applied (``bake_fps``: a skeletal model's clips resampled at that
    rate); only ``frame`` or ``clip`` (decoding only those frames) when given (see
    :func:`quakemodels.registry.scene`)."""
    from ..registry import is_folder_set_model, load, scene

    if model is None:
        model = load(path, game_dir=opts.get("game_dir"))
    # a folder set (a player) takes --skin as the name of its .skin set, as export and view do
    folder_set = is_folder_set_model(model)
    skin = opts.get("skin")
    em = scene(
        model,
        skin_dir=opts["skin_dir"],
        game_dir=opts.get("game_dir"),
        skin=str(skin) if folder_set and skin is not None else "default",
        frame=frame,
        clip=clip,
        fps=opts.get("bake_fps"),
    )
    if skin is not None and not folder_set:
        em = _with_skin(model, em, str(skin), opts["skin_dir"], opts.get("game_dir"))
    em = em.scaled(float(opts.get("scale", 1.0)))
    fps = opts.get("fps")
    # a model that says its rate (MD5's frameRate) plays at it unless --fps says otherwise
    return em if fps is None else replace(em, fps=float(fps))


def _with_skin(
    model: Any, em: ExportModel, skin: str, skin_dir: str | None, game_dir: str | None = None
) -> ExportModel:
    from ..core.skins import find_skin
    from ..registry import skin_search

    names = [n for n in getattr(model, "skins", []) if isinstance(n, str)]
    if skin.isdigit():
        k = int(skin)
        if k >= len(names):
            listed = ", ".join(f"{i}: {n}" for i, n in enumerate(names)) or "none"
            raise ValueError(f"--skin {k}: the model names {plural(len(names), 'skin')} ({listed})")
        name = names[k]
    else:
        name = skin
    with skin_search(model.name, skin_dir, game_dir) as where:  # as the scene looks
        found = find_skin([name], model.name, where)
    wanted = Path(name.replace("\\", "/")).stem.lower()
    if found is None or wanted not in found.path.stem.lower():
        where = skin_dir or (str(Path(model.name).parent) if model.name else "the skin folder")
        raise ValueError(f"--skin {skin}: no image {name!r} in {where}")
    return replace(em, surfaces=[replace(s, skin=found) for s in em.surfaces])


def skin_label(em: ExportModel) -> str:
    """The embedded skin's file name, or ``none``."""
    return next((s.skin.path.name for s in em.surfaces if s.skin is not None), "none")
