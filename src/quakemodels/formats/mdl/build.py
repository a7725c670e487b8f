"""MDL as a convert target (the ``build`` service): from a glTF or OBJ frames (welded as for
MD2), from byte-compressed frames a source serves (an MD2's ``quantized``: normal indices
kept, on-seam pairs found), from a scene of merged surfaces (an MD3), or a copy of an MDL. The
skin image is resized to the skin size and quantized to the palette (``--palette``;
fullbright rows only with ``--fullbrights``)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.names import plural
from ...core.quantized import QuantizedMesh
from ...core.scene import ExportModel
from ...errors import LimitExceededError, QuakeModelsWarning
from ...interchange.convert import (
    BuildOptions,
    Built,
    OneMeshRoutes,
    OptionError,
    Source,
    build_one_mesh,
    merged_summary,
    skin_out,
)
from ...interchange.gltf_images import GltfTexture, first_texture, image_at, image_count
from .limits import FORMAT_LIMITS, VANILLA
from .model import Mdl


def skin_pixels(image: object, size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """A skin image (a Pillow image) as (H,W,3) uint8 of the model's skin ``size`` (W, H),
    resized bilinearly when the file's size differs."""
    from PIL import Image  # Pillow is heavy: only a conversion with a skin needs it

    assert isinstance(image, Image.Image)
    rgb = image.convert("RGB")
    if rgb.size != size:
        rgb = rgb.resize(size, Image.Resampling.BILINEAR)
    return np.asarray(rgb, dtype=np.uint8)


def build(source: Source, options: BuildOptions) -> Built:
    """``source`` as an MDL at ``options.out`` (see the module doc), routed as every
    one-mesh target routes (:func:`~quakemodels.interchange.convert.build_one_mesh`)."""
    return build_one_mesh(source, options, ROUTES)


def _from_one_mesh(source: Source, view: ExportModel, options: BuildOptions) -> Built:
    """Any other model's one-mesh scene on one grid for every pose, its skin embedded."""
    out = options.out
    result, found = _from_scene(view, options)
    if found is None:
        _blank(source, out, "no skin image was found for it")
    m = result.model
    merged, tags = merged_summary(view)
    summary = (
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}{merged}, {_skin_label(found)}; {tags};"
        f" largest error {result.errors.max():.6g} units (one grid for every pose)"
    )
    return Built(m, {}, summary)


def _from_quantized(source: Source, frames: QuantizedMesh, options: BuildOptions) -> Built:
    """Byte-compressed frames on one grid; the skin images they carry, else the skin the
    source's scene finds (``--skin``, ``--skin-dir``) resized to their skin size."""
    size = frames.skin_size
    found = None
    skins: list[npt.NDArray[np.uint8]] = list(frames.skin_images)
    if not skins:
        found = source.scene(options.skin, options.skin_dir).surfaces[0].skin
        skins = [] if found is None or min(size) <= 0 else [skin_pixels(found.image, size)]
        if not skins:
            _blank(source, options.out, "no skin image was found for it")
    result = Mdl.from_quantized(
        frames,
        skins=skins,
        palette=options.palette,
        fullbrights=options.fullbrights,
        limits=FORMAT_LIMITS if options.no_limits else VANILLA,
    )
    m = result.model
    seams = int((m.on_seam != 0).sum())
    label = _skin_label(found) if not len(frames.skin_images) else "its skin images"
    summary = (
        f"{options.out}: {plural(m.num_poses, 'pose')},"
        f" {plural(m.num_vertices, 'vertex', 'vertices')}"
        f" ({seams} on the seam, {m.num_vertices - frames.num_vertices} split),"
        f" {plural(m.num_triangles, 'triangle')}, {label};"
        f" largest error {result.errors.max():.6g} units"
    )
    return Built(m, {}, summary)


def _skin_label(found: Any) -> str:
    return f"skin from {found.path.name}" if found is not None else "a blank skin (none found)"


def _from_scene(view: ExportModel, options: BuildOptions) -> tuple[Any, Any]:
    """A scene's surfaces merged: the first surface's skin image, resized to --skin-size when
    given, quantized to the palette; returns the build result and the skin found."""
    size = options.skin_size
    found = view.surfaces[0].skin
    skins = []
    if found is not None:
        h, w = found.pixels.shape[:2]
        skins.append(skin_pixels(found.image, size or (w, h)))
    try:
        result = Mdl.from_scene(
            view,
            skins=skins,
            skin_size=size,
            palette=options.palette,
            fullbrights=options.fullbrights,
            limits=FORMAT_LIMITS if options.no_limits else VANILLA,
        )
    except LimitExceededError as e:
        if e.field != "skin_height":
            raise
        tall = size[1] if size else found.pixels.shape[0] if found is not None else 0
        raise LimitExceededError(
            f"the skin is {tall} pixels tall and Quake's MDL skins at most"
            f" {VANILLA.max_skin_height}: --skin-size WxH resizes it, --no-limits keeps it",
            field=e.field,
        ) from e
    return result, found


def _from_imported(source: Source, options: BuildOptions) -> Built:
    """A glTF with morph targets or OBJ frames (welded as for MD2); the skin is the image
    ``--skin`` names (a file, or a glTF's image number N), else the glTF's base colour
    texture, quantized to the palette; a blank skin, with one warning, without either."""
    mesh = source.imported(options)
    pixels, label = _imported_skin(source, options)
    size = options.skin_size or mesh.skin_size
    if pixels is not None:
        size = options.skin_size or (int(pixels.shape[1]), int(pixels.shape[0]))
        pixels = _resized(pixels, size)
    result = Mdl.from_imported(
        mesh,
        skins=[] if pixels is None else [pixels],
        skin_size=size,
        palette=options.palette,
        fullbrights=options.fullbrights,
        limits=FORMAT_LIMITS if options.no_limits else VANILLA,
    )
    m = result.model
    summary = (
        f"{options.out}: {plural(m.num_poses, 'pose')},"
        f" {plural(m.num_vertices, 'vertex', 'vertices')}"
        f" ({int((m.on_seam != 0).sum())} on the seam), {plural(m.num_triangles, 'triangle')},"
        f" {label}; largest error {result.errors.max():.6g} units"
    )
    return Built(m, {}, summary)


def _resized(pixels: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """(H,W,3) uint8 of an image's ``pixels`` at ``size`` (W, H)."""
    from PIL import Image  # Pillow is heavy: only a conversion with a skin needs it

    return skin_pixels(Image.fromarray(pixels), size)


def _imported_skin(
    source: Source, options: BuildOptions
) -> tuple[npt.NDArray[np.uint8] | None, str]:
    """(pixels or None, the summary's words) of a glTF's or OBJ frames' MDL skin: ``--skin``
    (an image file; for a glTF a number N not naming a file is its ``images[N]``), else the
    glTF's base colour texture; a warning when there is none."""
    from PIL import Image  # Pillow is heavy: only a skin needs it

    wanted = options.skin
    number = wanted is not None and wanted.isdigit() and not os.path.exists(wanted)
    if wanted is not None and not (number and source.is_gltf):
        # a missing or unreadable file is an OSError naming it (exit 1)
        with Image.open(wanted) as image:
            return np.asarray(image.convert("RGB"), dtype=np.uint8), f"skin from {wanted}"
    texture: GltfTexture | None
    if wanted is not None:
        count = image_count(source.path)
        if int(wanted) >= count:
            raise OptionError(
                f"--skin {wanted}: no such image file, and {source.path} has"
                f" {plural(count, 'image')}{f' (0..{count - 1})' if count else ''}: → MDL from"
                " a glTF, --skin is an image file or the glTF's image number N"
            )
        texture = image_at(source.path, int(wanted))
        where = f"image {wanted} of {source.path.name}"
    else:
        texture = first_texture(source.path) if source.is_gltf else None
        where = f"{source.path.name}'s texture"
    skin = skin_out(texture, options.out, options.out.stem)
    if skin.pixels is not None:
        assert texture is not None
        return skin.pixels[..., :3], f"skin from {where} ({texture.image})"
    _blank(
        source,
        options.out,
        f"it {skin.missing}" if source.is_gltf else "OBJ frames carry no texture",
    )
    return None, "a blank skin"


def _blank(source: Source, out: Path, why: str) -> None:
    """The one warning of an MDL built without a skin image."""
    warnings.warn(
        f"{source.path}: {why}: {out.name} gets a blank skin, which Quake draws black"
        " (give --skin IMAGE" + ("" if source.model is None else " or --skin-dir DIR") + ")",
        QuakeModelsWarning,
        stacklevel=4,
    )


__all__ = ["build", "skin_pixels"]


ROUTES = OneMeshRoutes(
    own=Mdl,
    title="MDL",
    imported=_from_imported,
    quantized=_from_quantized,
    scene=_from_one_mesh,
    scene_skin=lambda options: options.skin,
)
