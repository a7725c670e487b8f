"""Import a glTF in headless Blender, add meshes as a modder would, export with default settings.

    blender -b --factory-startup --python tools/blender_add_mesh.py -- IN.glb OUT.glb IMAGE.png

Adds two cubes beside what was imported: ``lid``, with a new material (Blender names it
``Material``) showing IMAGE through an Image Texture node, the image packed so the export
embeds it; and ``plain``, without a material. tests/test_textures.py converts the result to
MD3 and checks that ``lid`` gets a shader name and its image, and ``plain`` one warning.
Blender's own Python runs this file (Debian's Blender 3.4 needs ``np.bool`` set back for its
glTF add-on, as in tools/blender_roundtrip.py).
"""

import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)

source, target, picture = sys.argv[sys.argv.index("--") + 1 :]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source)

bpy.ops.mesh.primitive_cube_add(size=4.0, location=(0.0, 8.0, 0.0))
lid = bpy.context.active_object
lid.name = "lid"
material = bpy.data.materials.new("Material")
material.use_nodes = True
image = bpy.data.images.load(picture)
image.pack()
texture = material.node_tree.nodes.new("ShaderNodeTexImage")
texture.image = image
shader = material.node_tree.nodes["Principled BSDF"]
material.node_tree.links.new(texture.outputs["Color"], shader.inputs["Base Color"])
lid.data.materials.append(material)

bpy.ops.mesh.primitive_cube_add(size=4.0, location=(0.0, -8.0, 0.0))
bpy.context.active_object.name = "plain"

bpy.ops.export_scene.gltf(filepath=target)
