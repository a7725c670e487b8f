"""``check`` for a player folder: each part's own findings, then whether the parts agree.

Beyond each MD3's findings (``check_md3``, prefixed with the part's file name):

* ``player-tag`` (error): ``lower.md3`` without ``tag_torso`` or ``upper.md3`` without
  ``tag_head`` (the engine draws the part at its parent's origin); a warning for an
  ``upper.md3`` without ``tag_weapon`` (no weapon can be held);
* ``player-cfg`` (error): no ``animation.cfg``, or an unnamed table with fewer than 25 rows
  (``CG_ParseAnimationFile`` refuses both, and the player does not load);
* ``player-frames`` (warning): a clip asking for frames its part lacks (the renderer shows
  frame 0 for them, ``R_AddMD3Surfaces``; tags clamp to the last frame);
* ``player-skin`` (error): a skin name with ``.skin`` files for some parts but not all
  (``CG_RegisterClientSkin`` fails); warnings for a skin line naming a surface the part does
  not have, a surface its skin does not name (drawn with the default shader), and a skin path
  that resolves to no image in the game root.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from ...core.findings import Finding, finding_from_error
from ...errors import ModelFormatError
from ..md3 import FORMAT as MD3
from .animcfg import QUAKE3_ANIMATIONS
from .parts import PARTS
from .player import ATTACHMENTS, WEAPON_TAG, PlayerFolder


def _part_findings(player: PlayerFolder, engine: str) -> list[Finding]:
    found = []
    for part in PARTS:
        path = player.paths[part]
        for f in MD3.check(player.parts[part], engine, name=os.fspath(path)):
            found.append(
                Finding(f.severity, f.field, f.offset, f"{path.name}: {f.message}", f.code)
            )
    return found


def _skin_findings(player: PlayerFolder) -> list[Finding]:
    found = []
    for name in player.skins:
        missing = [p for p in PARTS if player.skin_file_path(p, name) is None]
        if missing:
            files = ", ".join(f"{p}_{name}.skin" for p in missing)
            found.append(
                Finding(
                    "error",
                    None,
                    None,
                    f"skin {name!r}: {files} missing; the engine fails to load the skin",
                    "player-skin",
                )
            )
        for part in PARTS:
            skin = player.skin_file(part, name)
            if skin is None:
                continue
            where = skin.path.name if skin.path else f"{part}_{name}.skin"
            surfaces = {s.name.lower() for s in player.parts[part].surfaces}
            for surface, path in skin.surfaces.items():
                if surface not in surfaces:
                    found.append(
                        Finding(
                            "warning",
                            None,
                            None,
                            f"{where}: surface {surface!r} is not in {player.paths[part].name}",
                            "player-skin",
                        )
                    )
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # refusals are reported just below
                    hit = player.files.image(path, "skin")
                if hit is None:
                    found.append(
                        Finding(
                            "warning",
                            None,
                            None,
                            f"{where}: {surface} -> {path!r} is no image inside the game root",
                            "player-skin",
                        )
                    )
            for surface in sorted(surfaces - set(skin.surfaces)):
                found.append(
                    Finding(
                        "warning",
                        None,
                        None,
                        f"{where}: surface {surface!r} has no line;"
                        " the engine draws it with its default shader",
                        "player-skin",
                    )
                )
    return found


def check_player_model(player: PlayerFolder, engine: str = "any") -> list[Finding]:
    """Findings for a loaded player (parts, tags, clip table, skins); never raises."""
    found = _part_findings(player, engine)
    for child, parent, tag in ATTACHMENTS:
        if tag not in player.parts[parent].tags.names:
            found.append(
                Finding(
                    "error",
                    None,
                    None,
                    f"{player.paths[parent].name} has no {tag}: {child}.md3 is drawn at its origin",
                    "player-tag",
                )
            )
    if WEAPON_TAG not in player.upper.tags.names:
        found.append(
            Finding(
                "warning",
                None,
                None,
                f"{player.paths['upper'].name} has no {WEAPON_TAG}:"
                " the player cannot hold a weapon",
                "player-tag",
            )
        )
    cfg = player.config
    if cfg.path is None:
        found.append(
            Finding(
                "error",
                None,
                None,
                "no animation.cfg: the engine does not load the player",
                "player-cfg",
            )
        )
    elif cfg.names_from == "engine" and len(cfg) < len(QUAKE3_ANIMATIONS):
        found.append(
            Finding(
                "error",
                None,
                None,
                f"{cfg.path}: {len(cfg)} animation rows; ioquake3 needs {len(QUAKE3_ANIMATIONS)}",
                "player-cfg",
            )
        )
    for clip, part, low, high in player.out_of_range():
        n = player.parts[part].num_frames
        found.append(
            Finding(
                "warning",
                None,
                None,
                f"{clip.name} (animation.cfg line {clip.line}) asks"
                f" for frames {low}..{high} of {player.paths[part].name}, which has {n}",
                "player-frames",
            )
        )
    return found + _skin_findings(player)


def check_player(
    folder: str | os.PathLike[str],
    engine: str = "any",
    game_dir: str | os.PathLike[str] | None = None,
) -> list[Finding]:
    """Findings for the player folder ``folder`` (on disk, through an archive or in a game's
    search path; ``game_dir`` as for :meth:`PlayerFolder.from_folder`); never raises on any
    input."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # everything a warning says is a finding here
            player = PlayerFolder.from_folder(Path(folder), game_dir=game_dir)
    except ModelFormatError as e:
        return [finding_from_error(e)]
    except OSError as e:
        return [Finding("error", None, None, f"cannot read {folder}: {e.strerror or e}", "io")]
    try:
        return check_player_model(player, engine)
    except Exception as e:  # the checker must never raise
        return [
            Finding("error", None, None, f"checker failed: {type(e).__name__}: {e}", "internal")
        ]
