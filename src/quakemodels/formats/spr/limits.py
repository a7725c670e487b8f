"""Quake's load-time rules for sprites (``Mod_LoadSpriteModel`` in WinQuake's ``model.c``
and ``gl_model.c``, QuakeSpasm's ``gl_model.c``): what ``check`` reports and ``build``
enforces."""

from __future__ import annotations

MIN_FRAMES = 1
"""``Mod_LoadSpriteModel: Invalid # of frames``: a sprite has at least one frame."""
MAX_ORIENTATION = 4
"""SPR_VP_PARALLEL_ORIENTED; the software renderer's R_DrawSprite errors on another type."""
MAX_SYNC = 1
"""ST_RAND; synctype_t has two values."""
MAX_FRAME_SIDE = 4096
"""Past this a frame is no real picture (GLQuake resamples to gl_max_size, 1024 by default);
``build`` refuses larger frames and ``check`` warns."""
