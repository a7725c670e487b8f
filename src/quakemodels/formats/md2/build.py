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

import io
import os
import re
import warnings
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...core.names import plural
from ...core.quantized import QuantizedMesh
from ...core.rasters import encode_tga
from ...errors import QuakeModelsWarning
from ...interchange.convert import (
    BuildOptions,
    Built,
    Source,
    game_names,
    merged_summary,
    one_mesh_scene,
    stored_names,
)
from ...interchange.gltf_read import embedded_image
from .limits import FORMAT_LIMITS, VANILLA
from .model import Md2


def skin_file_name(out: Path, file: str) -> str:
    """The name a model stores for the image ``file`` written beside ``out``: its path from
    the game folder above (the parent of the nearest folder named ``models`` or ``players``,
    where Quake II keeps models), else the file name alone (the engine finds it once the model
    is moved into its game folder and the name fixed; our tools find it beside the model)."""
    folder = Path(os.path.abspath(out.parent))
    for k, parent in enumerate((folder, *folder.parents)):
        if parent.name.lower() in ("models", "players") and parent.parent != parent:
            parts = [*folder.parts[len(folder.parts) - k - 1 :], file]
            name = "/".join(parts)
            return name if len(name.encode()) <= 63 else file
    return file


def build(source: Source, options: BuildOptions) -> Built:
    """``source`` as an MD2 at ``options.out`` (see the module doc)."""
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    out = options.out
    model = source.model
    if model is None:
        return _from_imported(source, options)
    if isinstance(model, Md2):  # the same format: an exact copy
        summary = f"{out}: a copy of {source.path} ({plural(model.num_frames, 'frame')})"
        return Built(model, {}, summary)
    frames = source.quantized(options.palette)
    if frames is not None:
        return _from_quantized(frames, options)
    view = one_mesh_scene(source, options, "MD2", None)
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
    """A glTF's morph targets or OBJ frames, welded; a glTF's embedded skin beside it."""
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    out = options.out
    mesh = source.imported(options, limits.max_frames)
    stored_names(options.skins, "--skin")
    skin = _gltf_skin(source.path, out) if not options.skins and source.is_gltf else None
    names = list(options.skins) or ([skin[0]] if skin else [])
    size = options.skin_size or mesh.skin_size
    if size is None and skin is not None:
        size = (int(skin[2].shape[1]), int(skin[2].shape[0]))
    result = Md2.from_imported(mesh, skins=names, skin_size=size, limits=limits)
    files = {f"{out.stem}.tga": encode_tga(skin[2])} if skin else {}
    worst = (result.errors / result.steps.clip(min=1e-30)).max()
    m = result.model
    summary = (
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}, {plural(len(m.gl_commands), 'GL command')};"
        f" largest error {result.errors.max():.6g} units"
        f" ({min(worst, 0.5):.3f} of a step)"
        + (f"; skin {skin[1]} written as {out.stem}.tga, named {skin[0]}" if skin else "")
    )
    return Built(m, files, summary)


def _from_quantized(frames: QuantizedMesh, options: BuildOptions) -> Built:
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


def _gltf_skin(source: Path, out: Path) -> tuple[str, str, npt.NDArray[np.uint8]] | None:
    """The glTF's embedded skin for an MD2 at ``out``: (the game path the MD2 stores, the
    image's name in the glTF, its (H,W,3|4) uint8 pixels), or None, with a warning saying
    why when the glTF has an image that cannot be carried over."""
    found = embedded_image(source)
    if found is None:
        return None
    label, data = found
    if data is None:
        warnings.warn(
            f"{source}: its image {label!r} is a file beside the glTF, not embedded: the MD2"
            " gets no skin (give --skin NAME and put the image there as PCX or TGA)",
            QuakeModelsWarning,
            stacklevel=2,
        )
        return None
    pixels = _decoded_image(data)
    if pixels is None:
        warnings.warn(
            f"{source}: images[0] ({label}) cannot be decoded: the MD2 gets no skin",
            QuakeModelsWarning,
            stacklevel=2,
        )
        return None
    return skin_file_name(out, f"{out.stem}.tga"), label, pixels


def _decoded_image(data: bytes) -> npt.NDArray[np.uint8] | None:
    """An image file's pixels, (H,W,3) or (H,W,4) when it has transparency; None when Pillow
    cannot decode it (or it is over Pillow's decompression-bomb limit)."""
    from PIL import Image, UnidentifiedImageError  # Pillow is heavy: only a glTF skin needs it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
                rgb = image.convert("RGBA" if alpha else "RGB")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning):  # fmt: skip
        return None
    return np.asarray(rgb, dtype=np.uint8)


__all__ = ["build", "skin_file_name"]
