"""Quake II's load-time rules for sprites (``Mod_LoadSpriteModel`` in ``ref_gl/gl_model.c``
and ``ref_soft/r_model.c``): what ``check`` reports and ``build`` enforces."""

from __future__ import annotations

MAX_FRAMES = 32
"""MAX_MD2SKINS: "has too many frames (%i > %i)" is fatal."""
MIN_FRAMES = 1
"""A sprite with no frame draws nothing (R_DrawSpriteModel indexes frame 0)."""
