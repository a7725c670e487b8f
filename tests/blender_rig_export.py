"""Made in Blender: a rigged, shape-keyed model, exported with Blender's glTF exporter at its
defaults, and the positions Blender itself shows at every frame of the action.

    blender -b --factory-startup --python tests/blender_rig_export.py -- OUT.glb OUT.json

The scene runs at 10 fps; the action ``wave`` keys frames 1..9 (Bézier, Blender's default), so
the export's key times are frame / 10 s (Blender's exporter writes frame / render.fps, with no
shift to 0: t0 = 0.1 s). OUT.json: ``{"fps", "frames": [f, ...], "positions": [per frame
[[x, y, z], ...] over the mesh objects sorted by name, glTF Y-up world space]}``. The armature
is moved, turned and scaled so that the export must carry the node hierarchy too, and a shape
key held at 0.5 becomes the mesh's default morph weight.

Blender's own Python runs this file, so it uses nothing from quakemodels or the tests.
"""

import json
import math
import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]  # Debian's glTF add-on still uses it

import bpy  # noqa: E402  (only inside Blender)

FPS = 10
TO_GLTF = np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], np.float64)


def _rig() -> tuple[bpy.types.Object, bpy.types.Object]:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps, scene.render.fps_base = FPS, 1.0
    scene.frame_start, scene.frame_end = 1, 9
    # a column of 3 × 5 vertices along Blender's Z (glTF's Y), two bones up the column
    mesh = bpy.data.meshes.new("column")
    verts = [(x, y, z * 0.5) for z in range(5) for x, y in ((0.3, 0), (-0.3, 0.2), (0, -0.3))]
    faces = [(r * 3 + a, r * 3 + b, r * 3 + 3 + b, r * 3 + 3 + a)
             for r in range(4) for a, b in ((0, 1), (1, 2), (2, 0))]  # fmt: skip
    mesh.from_pydata(verts, [], faces)
    for polygon in mesh.polygons:  # smooth: the export keeps one vertex per Blender vertex
        polygon.use_smooth = True
    body = bpy.data.objects.new("column", mesh)
    scene.collection.objects.link(body)
    arm_data = bpy.data.armatures.new("rig")
    rig = bpy.data.objects.new("rig", arm_data)
    scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    lower = arm_data.edit_bones.new("lower")
    lower.head, lower.tail = (0, 0, 0), (0, 0, 1)
    upper = arm_data.edit_bones.new("upper")
    upper.head, upper.tail, upper.parent = (0, 0, 1), (0, 0, 2), lower
    bpy.ops.object.mode_set(mode="OBJECT")
    body.parent = rig
    modifier = body.modifiers.new("rig", "ARMATURE")
    modifier.object = rig
    groups = {name: body.vertex_groups.new(name=name) for name in ("lower", "upper")}
    for index, vertex in enumerate(mesh.vertices):
        share = min(max(vertex.co.z - 0.5, 0.0), 1.0)  # blend between z = 0.5 and 1.5
        groups["lower"].add([index], 1 - share, "REPLACE")
        groups["upper"].add([index], share, "REPLACE")
    # a shape key
    body.shape_key_add(name="Basis")
    bulge = body.shape_key_add(name="bulge")
    for point in bulge.data:
        point.co.x *= 1.5
    # held at 0.5, not animated: the export's default morph weights (an action of its own
    # would become a second glTF animation, and three.js plays one clip at a time)
    bulge.value = 0.5
    # the rig sits moved, turned and scaled
    rig.location = (0.5, -1.0, 0.25)
    rig.rotation_euler = (0, 0, math.radians(30))
    rig.scale = (1.25, 1.25, 1.25)
    return rig, body


def _animate(rig: bpy.types.Object, body: bpy.types.Object) -> None:
    rig.animation_data_create()
    rig.animation_data.action = bpy.data.actions.new("wave")
    upper = rig.pose.bones["upper"]
    lower = rig.pose.bones["lower"]
    for bone in (upper, lower):
        bone.rotation_mode = "QUATERNION"
    for frame, bend, lean in ((1, 0, 0), (5, 60, 20), (9, -30, 0)):
        upper.rotation_quaternion = _about_x(bend)
        upper.keyframe_insert("rotation_quaternion", frame=frame)
        lower.rotation_quaternion = _about_x(lean)
        lower.keyframe_insert("rotation_quaternion", frame=frame)


def _about_x(degrees: float) -> tuple[float, float, float, float]:
    half = math.radians(degrees) / 2
    return (math.cos(half), math.sin(half), 0.0, 0.0)


def _positions() -> list[list[float]]:
    graph = bpy.context.evaluated_depsgraph_get()
    out: list[list[float]] = []
    for obj in sorted((o for o in bpy.data.objects if o.type == "MESH"), key=lambda o: o.name):
        evaluated = obj.evaluated_get(graph)
        mesh = evaluated.to_mesh()
        co = np.empty(len(mesh.vertices) * 3, np.float64)
        mesh.vertices.foreach_get("co", co)
        evaluated.to_mesh_clear()
        m = np.array(evaluated.matrix_world, np.float64)
        world = co.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]
        out.extend((world @ TO_GLTF.T).tolist())
    return out


def main() -> None:
    glb, out = sys.argv[sys.argv.index("--") + 1 :][:2]
    rig, body = _rig()
    _animate(rig, body)
    frames = list(range(1, 10))
    positions = []
    for frame in frames:
        bpy.context.scene.frame_set(frame)
        positions.append(_positions())
    bpy.context.scene.frame_set(1)
    bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB")
    with open(out, "w") as stream:
        json.dump({"fps": FPS, "frames": frames, "positions": positions}, stream)


main()
