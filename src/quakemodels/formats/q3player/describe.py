"""``info`` for a player folder: parts, tags, surfaces, the clip table after the legs offset,
skins and the texture each surface gets."""

from __future__ import annotations

import os
import warnings

from .player import PlayerFolder


def describe_player(player: PlayerFolder) -> str:
    """A human-readable report on one player folder."""
    cfg = player.config
    lines = [f"{player.folder}: Quake III player {player.name!r}, game root {player.game_root}"]
    lines.append("parts:")
    for part, model in player.parts.items():
        verts = sum(s.num_vertices for s in model.surfaces)
        tris = sum(s.num_triangles for s in model.surfaces)
        lines.append(
            f"  {part:<6} {player.paths[part].name:<10} {model.num_frames:>4} frames"
            f" {verts:>5} vertices {tris:>5} triangles  tags: {', '.join(model.tags.names)}"
        )
        for s in model.surfaces:
            lines.append(f"         surface {s.name}")
    keys = ", ".join(f"{k} {v}".strip() for k, v in cfg.keys.items()) or "(none)"
    lines.append(f"animation.cfg: {cfg.path or '(none)'}  keys: {keys}")
    lines.append(
        f"clips ({len(cfg)}, names from {cfg.names_from}; legs frames offset by {cfg.legs_offset}):"
    )
    for clip in cfg:
        last = clip.first_frame + clip.num_frames - 1
        loop = f"loops {clip.loop_frames}" if clip.looping else "once"
        flags = " reversed" if clip.reversed else ""
        lines.append(
            f"  {clip.name:<24} {clip.kind:<5} frames {clip.first_frame:>3}-{last:<3}"
            f" ({clip.num_frames:>2}) {clip.fps:g} fps {loop}{flags}"
        )
    lines.append(f"skins: {', '.join(player.skins) or '(no .skin files)'}")
    for name in player.skins or ["default"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a missing texture shows as "(none)" below
            textures = player.skin_textures(name)
        lines.append(f"  {name}:")
        for part, model in player.parts.items():
            for s in model.surfaces:
                path = textures[part].get(s.name)
                shown = os.path.relpath(path, player.game_root) if path else "(none)"
                lines.append(f"    {s.name:<24} {shown}")
    return "\n".join(lines)
