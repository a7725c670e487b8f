"""The ``build`` service (convert's target side): a Quake II sprite from a source's image frames
(PNG/GIF pictures or another sprite), with the options it takes."""

from __future__ import annotations

from ...interchange.convert import BuildOptions, Built, Source, sprite_built
from . import FORMAT
from .write import from_frames, image_files

TAKES: tuple[str, ...] = ()
"""The sprite options of :class:`BuildOptions` this format writes (others are refused)."""


def build(source: Source, options: BuildOptions) -> Built:
    """The sprite of ``source``'s frames, named after ``options.out``; an OptionError for a
    sprite option this format has no field for."""
    options.refuse_sprite_options(FORMAT.name, FORMAT.title, TAKES)
    frames = source.frames(options.palette)
    model = from_frames(frames, name=options.out.stem, limits=not options.no_limits)
    # Quake II reads each frame from an image of its own: PCX files beside the sprite
    files = image_files(model, options.out.stem)
    return sprite_built(options, FORMAT.title, len(frames), model, files)
