"""Evaluate a glTF's animations the way Blender shows them after its own glTF import.

    blender -b --factory-startup --python tools/blender_pose.py -- FILE.glb FPS OUT.json

Writes one JSON object, in glTF's Y-up world space (Blender's (x, y, z) is glTF's (x, -z, y);
this undoes it):

    {"objects": [{"name", "vertices"}],            # mesh objects, sorted by name
     "rest": [[x, y, z], ...], "rest_tags": {name: [16]},   # no action: the file's rest
     "animations": {name: {"times": [...], "frames": [F x [[x, y, z], ...]],
                           "tags": {name: [F x [16 numbers, row-major]]}}}}

Time: Blender's importer puts a key of time t at frame t · scene.render.fps (no offset; the NLA
strips start at frame_start but the active action is evaluated in action time). FPS sets
render.fps before the import when it is an integer, so frame k/FPS lands on whole frames; the
file is imported anew for each clip, and each clip is evaluated with every object's and
shape-key block's action set to that clip's (as the add-on's restore_animation does) and the
pose bones it does not animate at rest. Blender's fcurves interpolate quaternions component by
component and ignore CUBICSPLINE tangents, so between keys it agrees with glTF's slerp/Hermite
only where those coincide (e.g. the midpoint of a slerp).

Blender's own Python runs this file, so it uses nothing from quakemodels.
"""

import json
import math
import sys

import numpy as np

np.bool = bool  # type: ignore[attr-defined]  # Debian's add-on still uses it

import bpy  # noqa: E402  (only inside Blender)

# glTF (x, y, z) = TO_GLTF @ Blender (x, y, z)
TO_GLTF = np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], np.float64)


def _import(path: str, fps: float) -> list[tuple[object, tuple[float, ...], ...]]:
    """Import ``path`` into an empty scene; the rest values of every object and pose bone.

    The importer writes each joint node's rest TRS into its pose bone relative to an edit bone
    it may have placed elsewhere (from the inverse bind matrices), so rest is not the identity
    pose: it is what the importer left, read before any frame is evaluated.
    """
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if float(fps).is_integer():
        bpy.context.scene.render.fps = int(fps)
        bpy.context.scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=path)
    rest: list[tuple[object, tuple[float, ...], ...]] = []
    for obj in bpy.data.objects:
        holders = [obj] + (list(obj.pose.bones) if obj.pose is not None else [])
        for holder in holders:
            rest.append((holder, tuple(holder.location), tuple(holder.rotation_quaternion),
                         tuple(holder.rotation_euler), tuple(holder.scale)))  # fmt: skip
    return rest


def _meshes() -> list[bpy.types.Object]:
    return sorted((o for o in bpy.data.objects if o.type == "MESH"), key=lambda o: o.name)


def _world(co: np.ndarray, matrix: object) -> np.ndarray:
    m = np.array(matrix, np.float64)
    return (co @ m[:3, :3].T + m[:3, 3]) @ TO_GLTF.T


def _positions() -> list[list[float]]:
    graph = bpy.context.evaluated_depsgraph_get()
    out = []
    for obj in _meshes():
        evaluated = obj.evaluated_get(graph)
        mesh = evaluated.to_mesh()
        co = np.empty(len(mesh.vertices) * 3, np.float64)
        mesh.vertices.foreach_get("co", co)
        evaluated.to_mesh_clear()
        out.extend(_world(co.reshape(-1, 3), evaluated.matrix_world).tolist())
    return out


def _tags() -> dict[str, list[float]]:
    graph = bpy.context.evaluated_depsgraph_get()
    change = np.eye(4)
    change[:3, :3] = TO_GLTF
    tags = {}
    for obj in bpy.data.objects:
        if obj.name.startswith("tag_"):
            m = np.array(obj.evaluated_get(graph).matrix_world, np.float64)
            tags[obj.name] = (change @ m @ np.linalg.inv(change)).reshape(-1).tolist()
    return tags


def _set_clip(name: str, rest: list[tuple[object, tuple[float, ...], ...]]) -> None:
    """Every action of the clip ``name`` active, every other property at rest."""
    for holder, location, quaternion, euler, scale in rest:
        holder.location = location
        holder.rotation_quaternion = quaternion
        holder.rotation_euler = euler
        holder.scale = scale
    for obj in bpy.data.objects:
        holders = [obj]
        if obj.type == "MESH" and obj.data.shape_keys is not None:
            holders.append(obj.data.shape_keys)
        for holder in holders:
            data = holder.animation_data
            if data is None:
                continue
            data.action = None
            for track in data.nla_tracks:
                if track.name == name and track.strips:
                    data.action = track.strips[0].action


def _clip_times() -> dict[str, tuple[float, float]]:
    """Each NLA track name → (first, last) key frame of its actions."""
    spans: dict[str, tuple[float, float]] = {}
    holders = list(bpy.data.objects) + [k for k in bpy.data.shape_keys]
    for holder in holders:
        data = holder.animation_data
        if data is None:
            continue
        for track in data.nla_tracks:
            for strip in track.strips:
                low, high = strip.action.frame_range
                old = spans.get(track.name, (math.inf, -math.inf))
                spans[track.name] = (min(old[0], low), max(old[1], high))
    return spans


def main() -> None:
    argv = sys.argv[sys.argv.index("--") + 1 :]
    path, fps, out = argv[0], float(argv[1]), argv[2]
    rest = _import(path, fps)
    scene_fps = bpy.context.scene.render.fps
    spans = _clip_times()
    _set_clip("", rest)  # no action anywhere: the scene as the file describes it
    bpy.context.view_layer.update()
    result: dict[str, object] = {
        "objects": [{"name": o.name, "vertices": len(o.data.vertices)} for o in _meshes()],
        "rest": _positions(),
        "rest_tags": _tags(),
        "animations": {},
    }
    for name, (low, high) in sorted(spans.items()):
        _set_clip(name, _import(path, fps))
        t0, t1 = low / scene_fps, high / scene_fps
        count = round((t1 - t0) * fps) + 1
        times, frames, tags = [], [], {}
        for k in range(count):
            t = t0 + k / fps
            frame = t * scene_fps
            if abs(frame - round(frame)) < 1e-4:
                frame = round(frame)
            whole = math.floor(frame)
            bpy.context.scene.frame_set(whole, subframe=frame - whole)
            times.append(t)
            frames.append(_positions())
            for tag, matrix in _tags().items():
                tags.setdefault(tag, []).append(matrix)
        result["animations"][name] = {"times": times, "frames": frames, "tags": tags}
    with open(out, "w") as stream:
        json.dump(result, stream)


main()
