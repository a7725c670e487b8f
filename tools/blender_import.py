"""Import glTF files in headless Blender, print what a user would find and draw what they see.

    blender -b --factory-startup --python tools/blender_import.py -- OUT.jsonl [--render DIR] \
        a.glb b.glb ...

Run by tools/blender_check.py (``make blender-check``), which compares the lines with the
glTF documents and the pictures with each other. For each file, one JSON line: mesh objects,
their vertex count, shape keys (morph targets) per mesh, actions (animations), images and
empties (tag nodes). With ``--render DIR``, each file is also drawn by the Workbench engine
(solid, studio lighting, each material's colour) from a few fixed orthographic views framed on
the bounds of what it shows, once with ``show_backface_culling`` on (what Blender's viewport
shows for the importer's single-sided materials, and what the Quake engines draw) and once with
it off; the line lists the PNGs (``DIR/<file stem>_<view>_{cull,both}.png``).

Blender's own Python runs this file, so it uses nothing from quakemodels. Debian's Blender 3.4
needs ``python3-numpy`` for its glTF add-on, and that add-on still uses ``np.bool``, which
numpy >= 1.24 removed: it is set back before the add-on loads.
"""

import json
import os
import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)
from mathutils import Vector  # noqa: E402

# name → direction the camera looks from (Blender's Z-up world after the glTF importer's
# Y-up conversion: the model's front faces -Y)
VIEWS = {
    "front": (0.0, -1.0, 0.0),
    "right": (1.0, 0.0, 0.0),
    "back": (0.0, 1.0, 0.0),
    "above": (-1.0, -1.0, 1.0),
}
SIZE = 256


def _import(path: str) -> dict[str, object]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=path)
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    return {
        "file": path,
        "result": sorted(result),
        "meshes": len(meshes),
        "vertices": sum(len(o.data.vertices) for o in meshes),
        "shape_keys": sorted(
            len(o.data.shape_keys.key_blocks) - 1 if o.data.shape_keys else 0 for o in meshes
        ),
        "actions": len(bpy.data.actions),
        "images": len([i for i in bpy.data.images if i.size[0] > 0]),
        "empties": sorted(o.name for o in bpy.data.objects if o.type == "EMPTY"),
    }


def _bounds() -> tuple[Vector, float]:
    """Centre and radius of every mesh vertex as drawn now (shape keys and parents applied)."""
    graph = bpy.context.evaluated_depsgraph_get()
    points = []
    for obj in bpy.data.objects:
        if obj.type != "MESH":
            continue
        evaluated = obj.evaluated_get(graph)
        mesh = evaluated.to_mesh()
        co = np.empty(len(mesh.vertices) * 3, np.float64)
        mesh.vertices.foreach_get("co", co)
        evaluated.to_mesh_clear()
        m = np.array(evaluated.matrix_world, np.float64)
        co = co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]
        points.append(co)
    every = np.concatenate(points) if points else np.zeros((1, 3))
    low, high = every.min(axis=0), every.max(axis=0)
    centre = (low + high) / 2
    radius = float(np.linalg.norm(high - low)) / 2 or 1.0
    return Vector(centre.tolist()), radius


def _render(path: str, folder: str) -> list[str]:
    """Draw the imported scene from every view with culling on and off; the PNG paths."""
    scene = bpy.context.scene
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_x = scene.render.resolution_y = SIZE
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = True  # the silhouette is compared too
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGBA"
    scene.display.render_aa = "OFF"  # the same pixels every run
    shading = scene.display.shading
    shading.light = "STUDIO"
    shading.color_type = "MATERIAL"
    shading.show_shadows = False
    shading.show_cavity = False
    shading.show_object_outline = False
    shading.show_specular_highlight = False
    centre, radius = _bounds()
    data = bpy.data.cameras.new("check")
    data.type = "ORTHO"
    data.ortho_scale = radius * 2.1
    data.clip_start = radius * 0.01
    data.clip_end = radius * 8
    camera = bpy.data.objects.new("check", data)
    scene.collection.objects.link(camera)
    scene.camera = camera
    stem = os.path.splitext(os.path.basename(path))[0]
    written = []
    for view, direction in VIEWS.items():
        d = Vector(direction).normalized()
        camera.location = centre + d * radius * 3
        camera.rotation_euler = (-d).to_track_quat("-Z", "Y").to_euler()
        for label, cull in (("cull", True), ("both", False)):
            shading.show_backface_culling = cull
            out = os.path.join(folder, f"{stem}_{view}_{label}.png")
            scene.render.filepath = out
            bpy.ops.render.render(write_still=True)
            written.append(out)
    return written


def main() -> None:
    args = sys.argv[sys.argv.index("--") + 1 :]
    out, files = args[0], args[1:]
    folder = None
    if files[:1] == ["--render"]:
        folder, files = files[1], files[2:]
    lines = []
    for path in files:
        try:
            line = _import(path)
            if folder is not None:
                line["pictures"] = _render(path, folder)
            lines.append(line)
        except Exception as e:  # reported, compared and failed by the caller
            lines.append({"file": path, "error": f"{type(e).__name__}: {e}"})
    with open(out, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


main()
