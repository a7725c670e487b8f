"""Import a glTF in headless Blender and export it again with Blender's default settings.

    blender -b --factory-startup --python tools/blender_roundtrip.py -- IN.glb OUT.glb

What a modder does to a player glTF before converting it back (tests/test_blender_roundtrip.py
runs it when Blender is installed). Blender's own Python runs this file: Debian's Blender 3.4
needs ``python3-numpy`` for its glTF add-on, and ``np.bool`` set back (numpy >= 1.24 removed
it; the add-on still uses it).
"""

import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)

source, target = sys.argv[sys.argv.index("--") + 1 :]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source)
bpy.ops.export_scene.gltf(filepath=target)
