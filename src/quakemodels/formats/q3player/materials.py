"""How the engine draws a player's surfaces: the shader scripts of its game (or of the game
root above a player folder on disk) for the shader each surface shows.

ioquake3's ``RE_RegisterSkin`` registers each ``.skin`` line's name with ``R_FindShader``, and
a surface no skin names shows its MD3's first shader: either name finds a script's
definition (:mod:`quakemodels.core.shaders`: sides, alpha test) or, without one, draws the
image of that name single-sided and opaque.
"""

from __future__ import annotations

import warnings

from ...core.scene import Material
from .player import PlayerFolder


def part_materials(player: PlayerFolder, skin: str = "default") -> dict[str, dict[str, Material]]:
    """``{part: {surface: material}}`` for the surfaces whose shader a script defines, with
    the ``.skin`` set ``skin`` (surfaces not listed are drawn single-sided and opaque)."""
    scripts = player.shader_scripts()
    out: dict[str, dict[str, Material]] = {}
    if not len(scripts):
        return out
    for part, model in player.parts.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # skin_textures has read (and warned about) it
            skin_file = player.skin_file(part, skin)
        for s in model.surfaces:
            name = skin_file.surfaces.get(s.name.lower()) if skin_file is not None else None
            if not name:
                name = next((sh.name for sh in s.shaders), None)
            found = scripts.find(name) if name else None
            if found is not None:
                out.setdefault(part, {})[s.name] = found.material
    return out


__all__ = ["part_materials"]
