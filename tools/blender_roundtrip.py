"""Import a glTF in headless Blender and export it again with Blender's default settings.

    blender -b --factory-startup --python tools/blender_roundtrip.py -- IN.glb OUT.glb

What a modder does to a player glTF before converting it back (tests/test_blender_roundtrip.py
runs it when Blender is installed). Blender's own Python runs this file: Debian's Blender 3.4
needs ``python3-numpy`` for its glTF add-on, and ``np.bool`` set back (numpy >= 1.24 removed
it; the add-on still uses it).

Before exporting, it prints what Blender shows on opening the file, as one line
``OPENED {json}``: per mesh object, the shape keys whose value is above 0.5 at the scene's
current frame (the frames a player shows).
"""

import json
import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)

source, target = sys.argv[sys.argv.index("--") + 1 :]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source)
scene = bpy.context.scene
scene.frame_set(scene.frame_current)
shown = {}
for ob in bpy.data.objects:
    keys = ob.data.shape_keys if ob.type == "MESH" else None
    if keys is not None:
        shown[ob.name] = [k.name for k in keys.key_blocks if k.value > 0.5]
print("OPENED " + json.dumps(shown, sort_keys=True))
bpy.ops.export_scene.gltf(filepath=target)
