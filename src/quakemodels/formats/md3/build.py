"""MD3 as a convert target (the ``build`` service): from a glTF's nodes (a surface each, tags
kept), from OBJ frames (welded into one surface), or from any model's scene (positions on
MD3's 1/64 grid). Shader names carried over from a source are untrusted: only game paths are
stored; ``--shader`` names fill in surfaces that have none."""

from __future__ import annotations

from dataclasses import replace

from ...core.build import vertex_normals
from ...core.format import Kind
from ...core.mesh import flip_winding
from ...core.names import plural
from ...core.scene import ExportModel, Surface
from ...interchange.convert import (
    BuildOptions,
    Built,
    Source,
    game_names,
    player_refusal,
    stored_names,
)
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
    if source.kind is Kind.FOLDER:
        raise player_refusal(source.path, "MD3", options.out)
    view = source.scene()
    # names carried over from the model are untrusted: only game paths go into the MD3
    return replace(
        view, surfaces=[replace(s, skin_names=game_names(s.skin_names)) for s in view.surfaces]
    )


def build(source: Source, options: BuildOptions) -> Built:
    """``source`` as an MD3 at ``options.out`` (see the module doc)."""
    view = source_scene(source, options)
    stored_names(options.shaders, "--shader")
    if options.shaders:
        view = replace(
            view,
            surfaces=[s if any(s.skin_names) else replace(s, skin_names=options.shaders)
                      for s in view.surfaces],
        )  # fmt: skip
    result = Md3.from_scene(view, limits=FORMAT_LIMITS if options.no_limits else VANILLA)
    m = result.model
    vertices = sum(s.num_vertices for s in m.surfaces)
    summary = (
        f"{options.out}: {plural(m.num_frames, 'frame')}, {plural(m.num_surfaces, 'surface')},"
        f" {plural(vertices, 'vertex', 'vertices')}, {plural(m.num_tags, 'tag')};"
        f" largest error {result.errors.max():.6g} units (step 1/64)"
    )
    return Built(m, {}, summary)


__all__ = ["build", "source_scene"]
