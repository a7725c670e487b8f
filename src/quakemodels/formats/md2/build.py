"""MD2 as a convert target (the ``build`` service): from a glTF or OBJ frames (welded), from a
scene of one mesh or merged surfaces (an MD3), from byte-compressed frames a source serves
(an MDL's ``quantized``: frame groups flattened, vertex bytes, grids and normal indices kept),
or a copy of an MD2.

Skins an MD2 cannot hold inside go beside it as TGA files (24 or 32-bit, uncompressed):
Quake II's GL renderer loads TGA skins (``GL_FindImage``: ``.pcx``, ``.wal``, ``.tga``), as
Yamagi Quake II and Q2PRO do. An 8-bit PCX would need Quake II's own palette (the engine maps a
skin's indices through its palette, not the file's), which the project does not have; the
software renderer reads only PCX and WAL.
"""

from __future__ import annotations

import re
import warnings

from ...core.names import plural
from ...core.quantized import QuantizedMesh
from ...core.rasters import encode_tga
from ...core.scene import ExportModel
from ...errors import QuakeModelsWarning
from ...interchange.convert import (
    QUAKE2_ROOTS,
    BuildOptions,
    Built,
    OneMeshRoutes,
    Source,
    build_one_mesh,
    game_names,
    merged_summary,
    skin_file_name,
    skin_out,
    stored_names,
)
from ...interchange.gltf_images import first_texture
from .limits import FORMAT_LIMITS, VANILLA
from .model import Md2


def build(source: Source, options: BuildOptions) -> Built:
    """``source`` as an MD2 at ``options.out`` (see the module doc), routed as every
    one-mesh target routes (:func:`~quakemodels.interchange.convert.build_one_mesh`)."""
    return build_one_mesh(source, options, ROUTES)


def _from_scene(source: Source, view: ExportModel, options: BuildOptions) -> Built:
    """Any other model's one-mesh scene, quantized on each frame's own grid."""
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    out = options.out
    # the source's shader names are untrusted: only game paths ([A-Za-z0-9_./-], at most 63
    # bytes: what an MD2 skin field holds) are carried over; they are stored, never opened
    stored_names(options.skins, "--skin")
    shaders = game_names(view.surfaces[0].skin_names)
    names = options.skins or [n for n in shaders if re.fullmatch(r"[A-Za-z0-9_./-]{1,63}", n)]
    result = Md2.from_scene(view, skins=names, skin_size=options.skin_size, limits=limits)
    m = result.model
    step = (result.errors / result.steps.clip(min=1e-30)).max()
    skin = ", ".join(s for s in m.skins) or "no skin name"
    merged, tags = merged_summary(view)
    summary = (
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}{merged},"
        f" {skin} ({m.skin_width}x{m.skin_height}); {tags};"
        f" largest error {result.errors.max():.6g} units ({min(step, 0.5):.3f} of a step)"
    )
    return Built(m, {}, summary)


def _from_imported(source: Source, options: BuildOptions) -> Built:
    """A glTF's morph targets or OBJ frames, welded; a glTF's base colour texture beside it as
    TGA, named by the game paths the glTF carries (its material's name, ``skin<k>:`` nodes:
    see :mod:`~quakemodels.interchange.gltf_images`), else by ``--skin``, else by the game
    path of the file written; one warning when there is no image to write."""
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    out = options.out
    mesh = source.imported(options, limits.max_frames)
    stored_names(options.skins, "--skin")
    texture = first_texture(source.path) if source.is_gltf else None
    skin = skin_out(texture, out, out.stem, given=options.skins, roots=QUAKE2_ROOTS)
    names = [n for n in skin.names if re.fullmatch(r"[ -~]{1,63}", n)]
    if skin.pixels is None:
        what = "its skin names are stored" if names else "give --skin NAME and put the image there"
        why = f"it {skin.missing}" if source.is_gltf else "OBJ frames carry no texture"
        warnings.warn(
            f"{source.path}: {why}: {out.name} gets no skin image ({what})",
            QuakeModelsWarning,
            stacklevel=2,
        )
    size = options.skin_size
    if size is None and skin.pixels is not None:
        size = (int(skin.pixels.shape[1]), int(skin.pixels.shape[0]))
    result = Md2.from_imported(mesh, skins=names, skin_size=size or mesh.skin_size, limits=limits)
    worst = (result.errors / result.steps.clip(min=1e-30)).max()
    m = result.model
    summary = (
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}, {plural(len(m.gl_commands), 'GL command')};"
        f" largest error {result.errors.max():.6g} units"
        f" ({min(worst, 0.5):.3f} of a step)" + (f"; {skin.note}" if skin.note else "")
    )
    return Built(m, skin.files, summary)


def _from_quantized(source: Source, frames: QuantizedMesh, options: BuildOptions) -> Built:
    """Byte-compressed frames stored as they are; each skin image beside the MD2 as
    ``<stem>_skin<k>.tga``, named in the MD2 by its game path."""
    out = options.out
    files = [f"{out.stem}_skin{k}.tga" for k in range(len(frames.skin_images))]
    names = [skin_file_name(out, f) for f in files]
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    result = Md2.from_quantized(frames, skins=names, limits=limits)
    m = result.model
    grouped = frames.source_frames != m.num_frames
    flattened = f" (groups flattened: {frames.source_frames} in the source)" if grouped else ""
    summary = (
        f"{out}: {plural(m.num_frames, 'frame')}{flattened},"
        f" {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}, {plural(len(names), 'skin')};"
        " positions exact (vertex bytes, grids and normal indices as stored)"
    )
    images = {f: encode_tga(frames.skin_images[k]) for k, f in enumerate(files)}
    return Built(m, images, summary)


__all__ = ["build", "skin_file_name"]


ROUTES = OneMeshRoutes(
    own=Md2,
    title="MD2",
    imported=_from_imported,
    quantized=_from_quantized,
    scene=_from_scene,
)
