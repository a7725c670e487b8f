"""A Quake III player folder as a convert target (the ``build`` service): a player glTF (the one
``quakemodels export <player folder> -o x.glb`` writes) back to its three MD3 parts,
animation.cfg, .skin files and images (see :mod:`.fromgltf`)."""

from __future__ import annotations

from ...core.names import plural
from ...interchange.convert import BuildOptions, Built, OptionError, Source
from ..md3 import FORMAT_LIMITS, VANILLA
from .fromgltf import player_from_gltf


def build(source: Source, options: BuildOptions) -> Built:
    """The files of the player folder ``options.out`` (named after it) from a player glTF."""
    if not source.is_gltf:
        raise OptionError("→ a player folder takes one player .glb/.gltf")
    out = options.out
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    built = player_from_gltf(source.path, out.resolve().name, limits=limits)
    parts = ", ".join(
        f"{part}.md3 ({plural(m.num_frames, 'frame')}, {plural(m.num_surfaces, 'surface')},"
        f" {plural(m.num_tags, 'tag')})"
        for part, m in built.parts.items()
    )
    skins = sum(name.endswith(".skin") for name in built.files)
    images = len(built.files) - 3 - skins - (1 if built.clips else 0)
    summary = (
        f"{out}: {parts}; animation.cfg ({plural(len(built.clips), 'clip')}),"
        f" {plural(skins, 'skin file')}, {plural(images, 'image')};"
        f" largest error {max(built.errors.values()):.6g} units (step 1/64)"
    )
    return Built(None, dict(built.files), summary)


__all__ = ["build"]
