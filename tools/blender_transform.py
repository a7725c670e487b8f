"""Import a glTF in headless Blender, scale and move every top-level object, export it again.

    blender -b --factory-startup --python tools/blender_transform.py -- IN.glb OUT.glb \
        SCALE DX DY DZ

What a modder does to a model before converting it back: the object's scale and location
change (not applied to the mesh), so the glTF carries them on the node. Blender's own Python
runs this file (see tools/blender_roundtrip.py for the np.bool note).
"""

import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)

source, target, scale, dx, dy, dz = sys.argv[sys.argv.index("--") + 1 :]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source)
for obj in bpy.context.scene.objects:
    if obj.parent is None:
        obj.scale = [float(scale) * s for s in obj.scale]
        obj.location = [
            obj.location[0] + float(dx),
            obj.location[1] + float(dy),
            obj.location[2] + float(dz),
        ]
bpy.ops.export_scene.gltf(filepath=target)
