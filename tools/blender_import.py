"""Import glTF files in headless Blender and print what a user would find, one JSON line each.

    blender -b --factory-startup --python tools/blender_import.py -- OUT.json a.glb b.glb ...

Run by tools/blender_check.py (``make blender-check``), which compares the lines with the
glTF documents. For each file: mesh objects, their vertex count, shape keys (morph targets)
per mesh, actions (animations), images and empties (tag nodes). Blender's own Python runs
this file, so it uses nothing from quakemodels.
"""

import json
import sys

import numpy as np

# Blender 3.4's glTF add-on still uses np.bool, which numpy >= 1.24 removed.
np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)


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


def main() -> None:
    args = sys.argv[sys.argv.index("--") + 1 :]
    out, files = args[0], args[1:]
    lines = []
    for path in files:
        try:
            lines.append(_import(path))
        except Exception as e:  # reported, compared and failed by the caller
            lines.append({"file": path, "error": f"{type(e).__name__}: {e}"})
    with open(out, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


main()
