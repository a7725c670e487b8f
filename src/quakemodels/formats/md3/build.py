"""MD3 as a convert target (the ``build`` service): from a glTF's nodes (a surface each, tags
kept), from OBJ frames (welded into one surface), or from any model's scene (positions on
MD3's 1/64 grid). Shader names carried over from a source are untrusted: only game paths are
stored; ``--shader`` names fill in surfaces that have none.

A glTF surface's shader name is the game path its material carries (what our glTF export
names it, kept by Blender), else the game path of its base colour image, written beside the
MD3 (``<shader's last part>`` as TGA, or as the PNG/JPEG it is when the name says so; else
``<stem>.tga``). A model's surface with a skin image found gets it the same way, named by its
skin name when it has one (unless the image is in the MD3's folder already). Surfaces with
neither get one warning."""

from __future__ import annotations

import warnings
from pathlib import Path

from ...core.build import vertex_normals
from ...core.mesh import flip_winding
from ...core.names import plural
from ...core.png import encode_png
from ...core.records import replace
from ...core.scene import ExportModel, Surface
from ...errors import QuakeModelsWarning
from ...interchange.convert import (
    QUAKE3_ROOTS,
    BuildOptions,
    Built,
    SkinOut,
    Source,
    game_names,
    player_refusal,
    skin_out,
    stored_names,
)
from ...interchange.gltf_images import GltfTexture, surface_textures
from .limits import FORMAT_LIMITS, VANILLA
from .model import Md3
from .write import weld_corners


def source_scene(source: Source, options: BuildOptions) -> ExportModel:
    """The scene an MD3 is built from (see the module doc)."""
    limits = FORMAT_LIMITS if options.no_limits else VANILLA
    if source.model is None and source.is_gltf:
        return source.gltf_scene(options, limits.max_frames)
    if source.model is None:
        mesh = source.imported(options, limits.max_frames)
        positions, uvs, triangles = weld_corners(mesh.positions, mesh.uvs, mesh.indices)
        # OBJ winds counter-clockwise, as the scene does; vertex_normals takes Quake's order
        normals = vertex_normals(positions, flip_winding(triangles)).astype("float32")
        surface = Surface("mesh", positions, normals, uvs, triangles.astype("uint32"))
        return ExportModel(options.out.stem, [surface], {}, frame_names=list(mesh.frame_names))
    if source.folder_set:
        raise player_refusal(source.path, "MD3", options.out)
    view = source.scene()
    # names carried over from the model are untrusted: only game paths go into the MD3
    return replace(
        view, surfaces=[replace(s, skin_names=game_names(s.skin_names)) for s in view.surfaces]
    )


def _textured(
    source: Source, view: ExportModel, out: Path, shaders: tuple[str, ...]
) -> tuple[ExportModel, SkinOut]:
    """A glTF scene's surfaces with the shader names their materials carry and their images
    written beside ``out`` (named by the shader name's last part, else ``<stem>.tga`` or
    ``<stem>_<surface>.tga``); a model's surfaces without a shader name but with a skin image
    found get that image the same way. ``shaders`` (``--shader``) name the surfaces that
    carry no name (their image under the first one's last part). Returns the scene and what
    to write (``files``; ``missing``: the surfaces with neither a name nor an image, for one
    warning)."""
    textures = surface_textures(source.path) if source.model is None and source.is_gltf else {}
    files: dict[str, bytes] = {}
    notes: list[str] = []
    bare: list[str] = []
    surfaces = []
    for s in view.surfaces:
        stem = out.stem if len(view.surfaces) == 1 else f"{out.stem}_{s.name}"
        if source.model is not None:
            if s.skin is None or (any(s.skin_names) and _beside(s.skin.path, out)):
                surfaces.append(s)
                bare += [] if any(s.skin_names) else [s.name]
                continue
            # the image found goes beside the MD3, named as its shader name says (the last
            # part; a .pcx name gets a .tga, which the engine and our reader try for it)
            names = tuple(n for n in s.skin_names if n)
            texture = GltfTexture(names, None, s.skin.path.name, encode_png(s.skin.pixels))
        else:
            texture = textures.get(s.name, GltfTexture())
        given = () if texture.names else shaders
        skin = skin_out(texture, out, stem, given=given, roots=QUAKE3_ROOTS, raw=True)
        for file, data in skin.files.items():
            if files.setdefault(file, data) != data:
                warnings.warn(
                    f"{out.parent / file}: two surfaces' images have this name; the one of"
                    f" {s.name!r} is not written",
                    QuakeModelsWarning,
                    stacklevel=3,
                )
        notes += [skin.note] if skin.note else []
        bare += [] if skin.names else [s.name]
        surfaces.append(replace(s, skin_names=skin.names))
    many = len(bare) > 1
    said = f"surface{'s' if many else ''} {', '.join(bare)} {'have' if many else 'has'}"
    missing = said if bare else None
    return replace(view, surfaces=surfaces), SkinOut((), files, None, "; ".join(notes), missing)


def _beside(image: Path, out: Path) -> bool:
    """Whether ``image`` (a skin found for the source) is in ``out``'s folder already: the
    MD3 finds it there by its name, and it is never written over."""
    try:
        return image.parent.resolve(strict=True) == out.parent.resolve()
    except OSError:  # inside an archive, or gone
        return False


def build(source: Source, options: BuildOptions) -> Built:
    """``source`` as an MD3 at ``options.out`` (see the module doc)."""
    view = source_scene(source, options)
    stored_names(options.shaders, "--shader")
    view, skins = _textured(source, view, options.out, options.shaders)
    if options.shaders:
        view = replace(
            view,
            surfaces=[s if any(s.skin_names) else replace(s, skin_names=options.shaders)
                      for s in view.surfaces],
        )  # fmt: skip
    if skins.missing is not None and not options.shaders:
        warnings.warn(
            f"{source.path}: {skins.missing} no base-colour texture and no shader name:"
            f" {options.out.name} gets an empty shader there, which the engine draws with its"
            " default (give --shader NAME)",
            QuakeModelsWarning,
            stacklevel=2,
        )
    result = Md3.from_scene(view, limits=FORMAT_LIMITS if options.no_limits else VANILLA)
    m = result.model
    vertices = sum(s.num_vertices for s in m.surfaces)
    summary = (
        f"{options.out}: {plural(m.num_frames, 'frame')}, {plural(m.num_surfaces, 'surface')},"
        f" {plural(vertices, 'vertex', 'vertices')}, {plural(m.num_tags, 'tag')};"
        f" largest error {result.errors.max():.6g} units (step 1/64)"
        + (f"; {skins.note}" if skins.note else "")
    )
    return Built(m, skins.files, summary)


__all__ = ["build", "source_scene"]
