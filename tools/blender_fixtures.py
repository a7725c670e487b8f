"""Build the authoring fixtures in headless Blender and write Blender's own evaluated positions.

    blender -b --factory-startup --python tools/blender_fixtures.py -- OUTDIR [NAME ...]

Each fixture is made from nothing by this script (scene at 10 fps, keys on integer frames) and
exported by Blender's glTF exporter at its default settings (``zup`` unchecks "+Y Up"):

- ``rigged``: a column of 13 rings (158 vertices, each at its own position) skinned to an
  armature root -> spine -> arm, with vertices blended between two bones at both joints; two
  actions ``wave`` (frames 1-12, bone rotations) and ``bend`` (frames 1-8, rotations and a root
  translation), each on its own NLA track; a packed 32x32 image texture; an empty ``tag_weapon``
  parented to the ``arm`` bone.
- ``shapekeys``: a mesh with shape keys ``Squash`` and ``Spike`` and an action ``pulse``
  (frames 1-10) on their values; the object is scaled 1.1 and moved 16 up (not applied).
- ``zup``: a standing figure 56 tall, 32 wide, 24 deep, feet on z = 0, exported Z-up.
- ``hierarchy``: an empty (rotated, moved, scaled 1.5/1.2/0.8) over three meshes, one a
  grandchild; the child ``arm`` turns by object keys (action ``spin``, frames 1-10).

Beside each ``<name>.glb``, ``<name>.blender.npz`` (the oracle, see tests/oracles.py):
``clips`` (the glTF animation names, read back from the glb), per clip ``pos:<clip>`` (F, N, 3)
float32 depsgraph-evaluated world positions of every mesh object (sorted by name,
concatenated), ``times:<clip>`` (F,) float64 glTF key times, ``tag:<clip>:<name>`` (F, 4, 4)
float64 world matrices of every ``tag_*`` empty; ``rest`` (N, 3) float32 with no action,
``tagrest:<name>`` (4, 4) likewise, ``objects`` and ``counts``. Everything is in glTF
coordinates: Blender's (x, y, z) becomes (x, z, -y), except in ``zup`` whose glb keeps Blender's
axes (so its oracle does too). Blender's exporter writes frame f at time f / fps: frame 1 is at
0.1 s, so every clip here starts at t0 = 0.1, not 0.

Every clip is checked against the glb before anything is written: its samplers' key times are
exactly frames first..last of the action over fps (the contract's F = round((t1-t0)*fps) + 1),
and the static pose the glb describes (node transforms times POSITION, or the bind pose for the
skinned mesh) lands on ``rest``. The npz is written with fixed zip dates, so two runs give the
same bytes; so does the exporter.

Blender's own Python runs this file (nothing from quakemodels). Debian's Blender 3.4 needs
``python3-numpy`` for its glTF add-on, and ``np.bool`` set back (numpy >= 1.24 removed it).
"""

import io
import json
import math
import os
import struct
import sys
import traceback
import zipfile

import numpy as np

np.bool = bool  # type: ignore[attr-defined]

import bpy  # noqa: E402  (only inside Blender)
from mathutils import Euler, Matrix, Vector  # noqa: E402

FPS = 10
NAMES = ("rigged", "shapekeys", "zup", "hierarchy")
# Blender's Z-up world to glTF's Y-up one: (x, y, z) -> (x, z, -y)
TO_Y_UP = np.array([[1.0, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]])


# -- scene building --------------------------------------------------------------------------


def _new_scene() -> bpy.types.Scene:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.render.fps_base = 1.0
    scene.frame_start = 1
    scene.frame_end = 40
    scene.frame_set(1)
    return scene


def _link(obj: bpy.types.Object) -> bpy.types.Object:
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _column(name: str, rings: list[tuple[float, float, float]], segments: int) -> bpy.types.Mesh:
    """A closed column: one ring of ``segments`` vertices per (z, rx, ry) in ``rings`` (an
    ellipse, turned a little from ring to ring so no two vertices share a position), a centre
    vertex under the first ring and over the last; smooth-shaded, with a cylindrical uv map."""
    verts = []
    for i, (z, rx, ry) in enumerate(rings):
        for j in range(segments):
            a = 2 * math.pi * j / segments + 0.05 * i
            verts.append((rx * math.cos(a), ry * math.sin(a), z))
    bottom, top = len(verts), len(verts) + 1
    verts.append((0.0, 0.0, rings[0][0] - 1.0))
    verts.append((0.0, 0.0, rings[-1][0] + 1.0))
    faces = []
    for i in range(len(rings) - 1):
        for j in range(segments):
            k = (j + 1) % segments
            faces.append((i * segments + j, i * segments + k, (i + 1) * segments + k,
                          (i + 1) * segments + j))  # fmt: skip
    last = (len(rings) - 1) * segments
    for j in range(segments):
        k = (j + 1) % segments
        faces.append((bottom, k, j))
        faces.append((top, last + j, last + k))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))
    uv = mesh.uv_layers.new(name="UVMap")
    for poly in mesh.polygons:
        seam = any(mesh.loops[li].vertex_index % segments == 0 for li in poly.loop_indices) and any(
            mesh.loops[li].vertex_index % segments == segments - 1 for li in poly.loop_indices
        )
        for li in poly.loop_indices:
            v = mesh.loops[li].vertex_index
            if v >= bottom:
                uv.data[li].uv = (0.5, 0.0 if v == bottom else 1.0)
                continue
            ring, j = divmod(v, segments)
            u = 1.0 if (seam and j == 0) else j / segments
            uv.data[li].uv = (u, ring / (len(rings) - 1))
    mesh.update()
    return mesh


def _textured_material(name: str) -> bpy.types.Material:
    """A material whose base colour is a packed 32x32 image: four coloured quadrants crossed
    by a checker (a picture any uv mix-up would show)."""
    size = 32
    image = bpy.data.images.new(name, size, size, alpha=False)
    y, x = np.mgrid[0:size, 0:size]
    rgba = np.ones((size, size, 4), np.float32)
    rgba[..., 0] = np.where(x < size // 2, 0.9, 0.2)
    rgba[..., 1] = np.where(y < size // 2, 0.7, 0.15)
    rgba[..., 2] = np.where((x // 4 + y // 4) % 2 == 0, 0.8, 0.1)
    image.pixels.foreach_set(rgba.reshape(-1))
    image.file_format = "PNG"
    image.pack()
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    bsdf = nodes["Principled BSDF"]
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = image
    material.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    return material


def _key_bones(arm: bpy.types.Object, action: bpy.types.Action, keys: dict) -> None:
    """Key pose bones into ``action``: ``keys`` maps frame -> {bone: (euler xyz radians,
    location or None)}; rotations go in as quaternions (the pose bones' default mode)."""
    arm.animation_data.action = action
    for frame, bones in keys.items():
        for bone, (rot, loc) in bones.items():
            pb = arm.pose.bones[bone]
            pb.rotation_quaternion = Euler(rot, "XYZ").to_quaternion()
            pb.keyframe_insert("rotation_quaternion", frame=frame, group=bone)
            if loc is not None:
                pb.location = loc
                pb.keyframe_insert("location", frame=frame, group=bone)
    arm.animation_data.action = None


def _reset_pose(arm: bpy.types.Object) -> None:
    for pb in arm.pose.bones:
        pb.matrix_basis = Matrix()


def build_rigged() -> dict:
    """Armature root -> spine -> arm over a 158-vertex column, two actions, texture, tag."""
    rings = [(4.0 * i, 6.0 + 1.5 * math.sin(i * 0.7), 4.5 + 0.1 * i) for i in range(13)]
    mesh = _column("body", rings, 12)
    mesh.materials.append(_textured_material("skin"))
    body = _link(bpy.data.objects.new("body", mesh))

    armature = bpy.data.armatures.new("rig")
    arm = _link(bpy.data.objects.new("rig", armature))
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    chain = [("root", None, (0, 0, 0), (0, 0, 12)), ("spine", "root", (0, 0, 12), (0, 0, 30)),
             ("arm", "spine", (0, 0, 30), (0, 0, 48))]  # fmt: skip
    for name, parent, head, tail in chain:
        bone = armature.edit_bones.new(name)
        bone.head, bone.tail = head, tail
        if parent is not None:
            bone.parent = armature.edit_bones[parent]
            bone.use_connect = True
    bpy.ops.object.mode_set(mode="OBJECT")

    # weights by height: root below 8, root/spine blended over 8..16, spine/arm over 26..34
    groups = {name: body.vertex_groups.new(name=name) for name, *_ in chain}
    for v in mesh.vertices:
        z = v.co.z
        up = min(max((z - 8.0) / 8.0, 0.0), 1.0)
        out = min(max((z - 26.0) / 8.0, 0.0), 1.0)
        weights = {"root": 1.0 - up, "spine": up * (1.0 - out), "arm": out}
        for name, w in weights.items():
            if w > 0.0:
                groups[name].add([v.index], w, "REPLACE")
    body.parent = arm
    body.modifiers.new("rig", "ARMATURE").object = arm

    tag = _link(bpy.data.objects.new("tag_weapon", None))
    tag.empty_display_type = "ARROWS"
    tag.parent = arm
    tag.parent_type = "BONE"
    tag.parent_bone = "arm"
    tag.location = (4.0, -2.0, 1.0)  # from the bone's tail, in the bone's axes
    tag.rotation_euler = (0.0, 0.0, 0.4)

    arm.animation_data_create()
    wave = bpy.data.actions.new("wave")
    _key_bones(arm, wave, {
        1: {"root": ((0, 0, 0), None), "spine": ((0, 0, 0), None), "arm": ((0, 0, 0), None)},
        4: {"root": ((0, 0.1, 0), None), "spine": ((0.3, 0, 0), None), "arm": ((0, 0, 0.8), None)},
        7: {"root": ((0, 0, 0), None), "spine": ((-0.2, 0, 0.1), None), "arm": ((0.9, 0, 0), None)},
        10: {"root": ((0, -0.1, 0), None), "spine": ((0.1, 0.2, 0), None),
             "arm": ((0, 0.5, -0.6), None)},
        12: {"root": ((0, 0, 0), None), "spine": ((0, 0, 0), None), "arm": ((0.2, 0, 0), None)},
    })  # fmt: skip
    _reset_pose(arm)
    bend = bpy.data.actions.new("bend")
    _key_bones(arm, bend, {
        1: {"root": ((0, 0, 0), (0, 0, 0)), "spine": ((0, 0, 0), None), "arm": ((0, 0, 0), None)},
        3: {"root": ((0, 0, 0.2), (1.5, 2.0, 0)), "spine": ((0.5, 0, 0), None),
            "arm": ((0.6, 0, 0), None)},
        5: {"root": ((0, 0, 0.4), (3.0, 3.0, -1.0)), "spine": ((0.9, 0, 0.1), None),
            "arm": ((1.1, 0.2, 0), None)},
        8: {"root": ((0, 0, 0.1), (0.5, 1.0, 0)), "spine": ((0.2, 0, 0), None),
            "arm": ((0.3, 0, 0), None)},
    })  # fmt: skip
    _reset_pose(arm)
    # Blender 3.4 exports an armature's actions when they are on NLA tracks (or, with one
    # armature, all its actions: export_anim_single_armature); tracks named after their actions
    # keep each a glTF animation of its own name.
    for action in (wave, bend):
        track = arm.animation_data.nla_tracks.new()
        track.name = action.name
        track.strips.new(action.name, int(action.frame_range[0]), action)
    return {"clips": {"wave": (arm.animation_data, wave), "bend": (arm.animation_data, bend)},
            "rest": lambda: _reset_pose(arm)}  # fmt: skip


def build_shapekeys() -> dict:
    """A round body with shape keys Squash and Spike played by the action ``pulse``."""
    rings = [
        (-9.0 + 2.0 * i, 0.5 + 9.0 * math.sin(math.pi * (i + 0.5) / 10), 0.0) for i in range(10)
    ]
    rings = [(z, r, r * 0.9) for z, r, _ in rings]
    mesh = _column("ball", rings, 16)
    obj = _link(bpy.data.objects.new("ball", mesh))
    obj.scale = (1.1, 1.1, 1.1)
    obj.location = (0.0, 0.0, 16.0)
    obj.shape_key_add(name="Basis", from_mix=False)
    squash = obj.shape_key_add(name="Squash", from_mix=False)
    spike = obj.shape_key_add(name="Spike", from_mix=False)
    for i, v in enumerate(mesh.vertices):
        x, y, z = v.co
        squash.data[i].co = (x * 1.3, y * 1.3, z * 0.55)
        # every fourth column of vertices (and the top) pushed out along its radius
        k = 1.6 if (i % 4 == 0 or z > 9.0) else 1.0
        spike.data[i].co = (x * k, y * k, z * (1.4 if z > 9.0 else 1.0))
    keys = mesh.shape_keys
    keys.animation_data_create()
    pulse = bpy.data.actions.new("pulse")
    keys.animation_data.action = pulse
    for frame, (sq, sp) in {1: (0, 0), 4: (1, 0), 7: (0.3, 0.8), 10: (0, 0)}.items():
        squash.value, spike.value = sq, sp
        squash.keyframe_insert("value", frame=frame)
        spike.keyframe_insert("value", frame=frame)

    def rest() -> None:
        squash.value = spike.value = 0.0

    rest()
    return {"clips": {"pulse": (keys.animation_data, pulse)}, "rest": rest}


def build_zup() -> dict:
    """A standing figure, feet on z = 0: 56 tall, 32 wide (x), 24 deep (y)."""
    profile = [(0.0, 7), (4, 8), (14, 9), (24, 12), (26, 14), (34, 15), (42, 16), (45, 8), (47, 6),
               (50, 7), (53, 6), (56, 2.5)]  # fmt: skip
    rings = [(z, r, r * 0.75) for z, r in profile]
    # the centre vertices stand 1 outside the end rings: start at 1, end at 55
    rings = [(z * 54.0 / 56.0 + 1.0, rx, ry) for z, rx, ry in rings]
    _link(bpy.data.objects.new("figure", _column("figure", rings, 16)))
    return {"clips": {}}


def build_hierarchy() -> dict:
    """An empty over three meshes (``arm`` over ``hand``); ``arm`` turns (action ``spin``)."""
    pivot = _link(bpy.data.objects.new("pivot", None))
    pivot.location = (4.0, -6.0, 10.0)
    pivot.rotation_euler = (0.2, 0.0, math.radians(30))
    pivot.scale = (1.5, 1.2, 0.8)

    def child(name: str, parent: bpy.types.Object, size: float, segments: int) -> bpy.types.Object:
        rings = [
            (0.0, size, size * 0.6),
            (size, size * 0.8, size * 0.5),
            (size * 2, size * 0.4, size * 0.3),
        ]
        obj = _link(bpy.data.objects.new(name, _column(name, rings, segments)))
        obj.parent = parent
        return obj

    base = child("base", pivot, 5.0, 8)
    base.location = (-3.0, 2.0, 0.0)
    base.rotation_euler = (0.0, 0.3, 0.0)
    arm = child("arm", pivot, 3.0, 6)
    arm.location = (6.0, 0.0, 4.0)
    arm.rotation_euler = (0.0, math.radians(-40), 0.0)
    hand = child("hand", arm, 2.0, 5)
    hand.location = (0.0, 0.0, 7.0)
    hand.rotation_euler = (math.radians(25), 0.0, 0.0)
    hand.scale = (0.5, 0.5, 0.5)

    arm.animation_data_create()
    spin = bpy.data.actions.new("spin")
    arm.animation_data.action = spin
    start = (arm.location.copy(), arm.rotation_euler.copy(), arm.scale.copy())
    for frame, (dz, turn, grow) in {1: (0, 0, 1), 5: (2, 150, 1.2), 10: (0, 300, 0.9)}.items():
        arm.location = start[0] + Vector((0.0, 0.0, dz))
        arm.rotation_euler = (start[1].x, start[1].y, math.radians(turn))
        arm.scale = (grow, grow, grow)
        for path in ("location", "rotation_euler", "scale"):
            arm.keyframe_insert(path, frame=frame)

    def rest() -> None:
        # with no action the object keeps whatever was last evaluated: its frame-1 transform
        arm.location, arm.rotation_euler, arm.scale = start

    rest()
    return {"clips": {"spin": (arm.animation_data, spin)}, "rest": rest}


BUILDERS = {"rigged": build_rigged, "shapekeys": build_shapekeys, "zup": build_zup,
            "hierarchy": build_hierarchy}  # fmt: skip


# -- evaluation ------------------------------------------------------------------------------


def _mesh_objects() -> list[bpy.types.Object]:
    return sorted((o for o in bpy.context.scene.objects if o.type == "MESH"), key=lambda o: o.name)


def _tags() -> list[bpy.types.Object]:
    return sorted(
        (o for o in bpy.context.scene.objects if o.type == "EMPTY" and o.name.startswith("tag_")),
        key=lambda o: o.name,
    )


def _evaluate(frame: int, axes: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """World positions (N, 3) float64 of every mesh object at ``frame`` and the world matrices
    (4, 4) of the tags, in the axes ``axes`` (4x4, applied on the left)."""
    scene = bpy.context.scene
    scene.frame_set(frame)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    out = []
    for obj in _mesh_objects():
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        co = np.empty(len(mesh.vertices) * 3, np.float64)
        mesh.vertices.foreach_get("co", co)
        evaluated.to_mesh_clear()
        world = axes @ np.array(evaluated.matrix_world, np.float64)
        co = co.reshape(-1, 3)
        out.append(co @ world[:3, :3].T + world[:3, 3])
    tags = {}
    for tag in _tags():
        matrix = np.array(tag.evaluated_get(depsgraph).matrix_world, np.float64)
        tags[tag.name] = axes @ matrix @ np.linalg.inv(axes)
    return np.concatenate(out), tags


# -- reading the glb back --------------------------------------------------------------------

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def read_glb(path: str) -> tuple[dict, bytes]:
    """The JSON document and the BIN chunk of a glb."""
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + length])
    blob = data[20 + length + 8 :]
    return doc, blob


def accessor(doc: dict, blob: bytes, index: int) -> np.ndarray:
    """A float accessor's values, (count,) or (count, components) float64."""
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    n = COMPONENTS[acc["type"]]
    assert acc["componentType"] == 5126 and "byteStride" not in view, acc
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    values = np.frombuffer(blob, "<f4", acc["count"] * n, start).astype(np.float64)
    return values if n == 1 else values.reshape(acc["count"], n)


def _local(node: dict) -> np.ndarray:
    if "matrix" in node:
        return np.array(node["matrix"], np.float64).reshape(4, 4).T
    x, y, z, w = node.get("rotation", (0.0, 0.0, 0.0, 1.0))
    rot = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])  # fmt: skip
    m = np.eye(4)
    m[:3, :3] = rot * np.array(node.get("scale", (1.0, 1.0, 1.0)))
    m[:3, 3] = node.get("translation", (0.0, 0.0, 0.0))
    return m


def static_worlds(doc: dict) -> dict[int, np.ndarray]:
    """Every node's world matrix from the node TRS alone (no animation)."""
    parents = {c: i for i, n in enumerate(doc["nodes"]) for c in n.get("children", [])}
    worlds: dict[int, np.ndarray] = {}

    def world(i: int) -> np.ndarray:
        if i not in worlds:
            local = _local(doc["nodes"][i])
            worlds[i] = local if i not in parents else world(parents[i]) @ local
        return worlds[i]

    for i in range(len(doc["nodes"])):
        world(i)
    return worlds


def static_positions(doc: dict, blob: bytes) -> dict[str, np.ndarray]:
    """Each mesh node's POSITION in world space with no animation; a skinned mesh's as stored
    (its bind pose: glTF ignores a skinned mesh node's own transform)."""
    worlds = static_worlds(doc)
    out = {}
    for i, node in enumerate(doc["nodes"]):
        if "mesh" not in node:
            continue
        pts = np.concatenate([
            accessor(doc, blob, p["attributes"]["POSITION"])
            for p in doc["meshes"][node["mesh"]]["primitives"]
        ])  # fmt: skip
        if "skin" not in node:
            pts = pts @ worlds[i][:3, :3].T + worlds[i][:3, 3]
        out[node["name"]] = pts
    return out


def set_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Symmetric Hausdorff distance between point sets (N, 3) and (M, 3)."""
    d = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))
    return float(max(d.min(0).max(), d.min(1).max()))


# -- the fixture -----------------------------------------------------------------------------


def _write_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    """np.savez, with fixed zip dates so the same arrays give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for key, value in arrays.items():
            info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            data = io.BytesIO()
            np.lib.format.write_array(data, np.asarray(value), allow_pickle=False)
            zf.writestr(info, data.getvalue())
    with open(path, "wb") as f:
        f.write(buffer.getvalue())


def make(name: str, outdir: str) -> None:
    """Build fixture ``name``, export ``outdir/<name>.glb`` and write its oracle npz."""
    _new_scene()
    built = BUILDERS[name]()
    scene = bpy.context.scene
    scene.frame_set(1)
    glb = os.path.join(outdir, name + ".glb")
    zup = name == "zup"
    if zup:
        bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB", export_yup=False)
    else:
        bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB")
    axes = np.eye(4) if zup else TO_Y_UP
    doc, blob = read_glb(glb)

    clips = built["clips"]
    names = [a["name"] for a in doc.get("animations", [])]
    if sorted(names) != sorted(clips):
        raise RuntimeError(f"{name}: glb animations {names}, actions {sorted(clips)}")

    objects = _mesh_objects()
    arrays: dict[str, np.ndarray] = {
        "clips": np.array(names, dtype=str),
        "objects": np.array([o.name for o in objects], dtype=str),
        "counts": np.array([len(o.data.vertices) for o in objects], np.int64),
    }
    # each action alone, NLA off, every bone back at rest first (as the exporter does)
    holders = {id(ad): ad for ad, _ in clips.values()}
    for ad in holders.values():
        ad.use_nla = False
        ad.action = None
    rest_pose = built.get("rest", lambda: None)
    for animation in doc.get("animations", []):
        clip = animation["name"]
        holder, action = clips[clip]
        rest_pose()
        holder.action = action
        inputs = {s["input"] for s in animation["samplers"]}
        keys = [accessor(doc, blob, i) for i in sorted(inputs)]
        t0, t1 = min(k.min() for k in keys), max(k.max() for k in keys)
        first, last = (round(f) for f in action.frame_range)
        frames = round((t1 - t0) * FPS) + 1
        times = np.float64(np.float32(first / FPS)) + np.arange(frames) / FPS
        # the exporter samples each frame first..last and writes frame f at f / fps
        if frames != last - first + 1 or abs(t0 - first / FPS) > 1e-6:
            raise RuntimeError(f"{name}/{clip}: keys {t0}..{t1}, action frames {first}..{last}")
        for k in keys:
            if len(k) != frames or np.abs(k - times).max() > 1e-6:
                raise RuntimeError(f"{name}/{clip}: a sampler's keys are not every frame")
        evaluated = [_evaluate(f, axes) for f in range(first, last + 1)]
        arrays[f"pos:{clip}"] = np.stack([p for p, _ in evaluated]).astype(np.float32)
        arrays[f"times:{clip}"] = times
        for tag in _tags():
            arrays[f"tag:{clip}:{tag.name}"] = np.stack([t[tag.name] for _, t in evaluated])
        holder.action = None
    rest_pose()
    rest, tags = _evaluate(1, axes)
    arrays["rest"] = rest.astype(np.float32)
    for tag_name, matrix in tags.items():
        arrays[f"tagrest:{tag_name}"] = matrix

    # the glb's own static pose must be the rest pose, mesh by mesh (positions as sets: the
    # exporter splits vertices at uv seams)
    stored = static_positions(doc, blob)
    start = 0
    for obj, count in zip(objects, arrays["counts"], strict=True):
        ours = rest[start : start + count]
        start += count
        gap = set_distance(ours, stored[obj.name])
        if gap > 1e-4:
            raise RuntimeError(f"{name}: glb static {obj.name} is {gap} from Blender's rest")
    worlds = static_worlds(doc)
    for i, node in enumerate(doc["nodes"]):
        if node.get("name") in tags and np.abs(worlds[i] - tags[node["name"]]).max() > 1e-4:
            raise RuntimeError(f"{name}: glb static {node['name']} is not Blender's")
    _write_npz(os.path.join(outdir, name + ".blender.npz"), arrays)
    summary = {k: list(v.shape) for k, v in arrays.items()}
    print(f"blender_fixtures: {glb} {os.path.getsize(glb)} bytes {json.dumps(summary)}")


def main(argv: list[str]) -> None:
    args = argv[argv.index("--") + 1 :] if "--" in argv else []
    if not args:
        raise SystemExit(
            "usage: blender -b --factory-startup --python " + __file__ + " -- OUTDIR [NAME...]"
        )
    outdir, names = args[0], args[1:] or list(NAMES)
    unknown = [n for n in names if n not in BUILDERS]
    if unknown:
        raise SystemExit(f"unknown fixture(s) {unknown}; known: {', '.join(NAMES)}")
    os.makedirs(outdir, exist_ok=True)
    for name in names:
        make(name, outdir)


try:
    main(sys.argv)
except BaseException:
    # Blender would print the traceback and still exit 0: make the failure the exit code
    traceback.print_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1)
