"""The ``build`` service (convert's target side): a Half-Life sprite from a source's image frames
(PNG/GIF pictures or another sprite), with the options it takes."""

from __future__ import annotations

from ...interchange.convert import BuildOptions, Built, Source, sprite_built
from . import FORMAT
from .write import from_frames

TAKES: tuple[str, ...] = ("palette", "sprite_type", "sync_type", "tex_format")
"""The sprite options of :class:`BuildOptions` this format writes (others are refused)."""


def build(source: Source, options: BuildOptions) -> Built:
    """The sprite of ``source``'s frames, named after ``options.out``; an OptionError for a
    sprite option this format has no field for."""
    options.refuse_sprite_options(FORMAT.name, FORMAT.title, TAKES)
    frames = source.frames(options.palette)
    model = from_frames(
        frames,
        name=options.out.stem,
        palette=options.palette,
        **options.sprite_fields(TAKES),
    )
    return sprite_built(options, FORMAT.title, len(frames), model, {})
