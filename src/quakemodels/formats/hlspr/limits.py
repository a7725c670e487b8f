"""Half-Life's rules for sprites (the engine's ``Mod_LoadSpriteModel``; Valve's ``sprgen``):
what ``check`` reports and ``build`` enforces."""

from __future__ import annotations

MIN_FRAMES = 1
"""A sprite has at least one frame (``Invalid # of frames``)."""
MAX_ORIENTATION = 4
"""SPR_VP_PARALLEL_ORIENTED."""
MAX_TEX_FORMAT = 3
"""SPR_ALPHTEST; the engine knows four texture formats."""
PALETTE_COLORS = 256
"""Colours the engine reads from a sprite's palette (sprgen writes 256; Xash3D refuses
more)."""
MAX_FRAME_SIDE = 256
"""sprgen: "Sprite has a dimension longer than 256"."""
FRAME_SIDE_MULTIPLE = 8
"""sprgen: "Sprite dimensions not multiples of 8" (a tool's rule: a warning)."""
