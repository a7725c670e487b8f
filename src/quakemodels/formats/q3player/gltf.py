"""glTF 2.0 export of a whole Quake III player: three parts, joined by tags, clips from the cfg.

The scene is one node tree, built as plain glTF JSON (dicts and lists)::

    <player>                      root
      lower                       the legs' surfaces (one mesh each)
      tag_torso                   the legs' tag, animated by the legs' frames
        upper                     the torso's surfaces
        tag_head                  the torso's tag, animated by the torso's frames
          head                    the head's surfaces
        tag_weapon                the torso's weapon tag: an empty node to parent weapons to

Every frame of a part is a morph target of each of the part's meshes (POSITION and NORMAL
deltas from frame 0, named ``frame<N>``). With no animation applied (the rest pose) every part
shows frame 0 and every tag its frame-0 transform. A tag node's translation is the tag's
origin and its rotation the tag's axes (snapped to the nearest rotation, as for single MD3s),
so a child placed under it lands where ``CG_PositionRotatedEntityOnTag`` draws it.

One animation per clip of ``animation.cfg``, named as the clip. A ``LEGS_*`` clip drives the
legs' weights and ``tag_torso``; a ``TORSO_*`` clip the torso's weights, ``tag_head`` and
``tag_weapon``; a ``BOTH_*`` clip all of them. So a legs clip and a torso clip can play at
once (three.js AnimationMixer, Blender NLA strips). Keys are ``frame_lerp`` ms apart (the
engine's ``1000 / fps``, truncated) with LINEAR interpolation, which for one-hot weights is the
engine's lerp between frames; a looping clip gets a closing key on the frame it loops back to,
so it repeats seamlessly. ``extras`` of each animation: ``part`` (legs, torso, both), ``fps``,
``loop`` and ``loopFrames``, ``firstFrame`` and ``numFrames`` (after the legs offset),
``reversed``.

Every tag node's ``extras.frames`` holds its translation and rotation at every frame of its
part (``translation`` (F,3), ``rotation`` (F,4)), a part node's ``extras.tags`` the same for
the part's tags that place nothing (upper's own ``tag_torso``, head's ``tag_head``), and the
scene's ``extras.animationKeys`` the cfg's keys before the table (``sex``, ``footsteps``...):
what converting back to a player folder needs that the clips do not key.

Textures come from the chosen skin (:meth:`Player.skin_textures`), each file embedded once (a
JPEG or PNG as the file it is, anything else as PNG). Axes are converted to glTF's Y-up as for
single models (:func:`to_y_up`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.atomic import write_bytes_atomic
from ...core.scene import to_y_up
from ...core.skins import Skin
from ...errors import BadValueError
from ...interchange.gltf_write import Doc, _quaternions, glb_bytes, gltf_bytes, image_bytes
from ..md3 import Md3
from .animcfg import Clip
from .player import Player

FLOAT, UNSIGNED_SHORT, UNSIGNED_INT = 5126, 5123, 5125
ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER = 34962, 34963
# which tags each part's frames animate, and which part sits under which tag
PART_TAGS = {"lower": ("tag_torso",), "upper": ("tag_head", "tag_weapon")}
CHILD_OF_TAG = {"tag_torso": "upper", "tag_head": "head"}


class _Doc:
    """The glTF JSON being built and its binary buffer."""

    def __init__(self) -> None:
        self.json: dict[str, Any] = {
            "asset": {"version": "2.0", "generator": "quakemodels"},
            "scene": 0,
            "scenes": [],
            "nodes": [],
            "meshes": [],
            "materials": [],
            "textures": [],
            "images": [],
            "samplers": [],
            "animations": [],
            "accessors": [],
            "bufferViews": [],
            "buffers": [],
        }
        self.pieces: list[bytes] = []
        self.size = 0

    def add(self, key: str, item: dict[str, Any]) -> int:
        self.json[key].append(item)
        return len(self.json[key]) - 1

    def view(self, data: bytes, *, target: int | None = None, stride: int | None = None) -> int:
        view: dict[str, Any] = {"buffer": 0, "byteOffset": self.size, "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        if stride is not None:
            view["byteStride"] = stride
        pad = -len(data) % 4
        self.pieces.append(data + b"\0" * pad)
        self.size += len(data) + pad
        return self.add("bufferViews", view)

    def accessor(
        self,
        view: int,
        count: int,
        kind: str,
        component: int = FLOAT,
        *,
        offset: int = 0,
        minmax: tuple[npt.NDArray[Any], npt.NDArray[Any]] | None = None,
    ) -> int:
        acc: dict[str, Any] = {
            "bufferView": view,
            "componentType": component,
            "count": count,
            "type": kind,
        }
        if offset:
            acc["byteOffset"] = offset
        if minmax is not None:
            acc["min"] = [float(v) for v in np.asarray(minmax[0], np.float32).reshape(-1)]
            acc["max"] = [float(v) for v in np.asarray(minmax[1], np.float32).reshape(-1)]
        return self.add("accessors", acc)

    def floats(self, array: npt.NDArray[Any], kind: str, *, minmax: bool = False) -> int:
        a = np.ascontiguousarray(array, dtype=np.float32)
        mm = (a.min(axis=0), a.max(axis=0)) if minmax else None
        target = ARRAY_BUFFER if kind in ("VEC2", "VEC3") else None
        return self.accessor(self.view(a.tobytes(), target=target), len(a), kind, minmax=mm)

    def finish(self) -> tuple[Doc, bytes]:
        """The document as plain JSON data (in :func:`_gltf_form`) and the binary buffer."""
        blob = b"".join(self.pieces)
        if blob:
            self.json["buffers"] = [{"byteLength": len(blob)}]
        # (a top-level dict emptied by _without_empty goes too, as it always has)
        doc: Doc = {
            k: v for k, v in _without_empty(_gltf_form("gltf", self.json)).items() if v != {}
        }
        return doc, blob


# The form player exports have always had, which they first got from a pass through
# pygltflib's object model: every object's properties in that library's order, its defaults
# filled in (an accessor's ``byteOffset`` and ``normalized``, a primitive's ``mode``, a
# material's factors...), then every None and empty value dropped. Built here as plain data,
# it costs a few milliseconds where the object model took most of a second.
# kind -> (property, default, kind of its object(s) or None), in order; _NONE: no default.
_NONE: Any = None
_Form = tuple[tuple[str, Any, str | None], ...]
_COMMON: _Form = (("extensions", {}, None), ("extras", {}, None))
_FORMS: dict[str, _Form] = {
    "gltf": (
        ("accessors", [], "accessor"),
        ("animations", [], "animation"),
        ("asset", _NONE, "asset"),
        ("bufferViews", [], "bufferView"),
        ("buffers", [], "buffer"),
        ("cameras", [], None),
        ("extensionsUsed", [], None),
        ("extensionsRequired", [], None),
        ("images", [], "image"),
        ("materials", [], "material"),
        ("meshes", [], "mesh"),
        ("nodes", [], "node"),
        ("samplers", [], "sampler"),
        ("scene", _NONE, None),
        ("scenes", [], "scene"),
        ("skins", [], None),
        ("textures", [], "texture"),
    ),
    "accessor": (
        ("bufferView", _NONE, None),
        ("byteOffset", 0, None),
        ("componentType", _NONE, None),
        ("normalized", False, None),
        ("count", _NONE, None),
        ("type", _NONE, None),
        ("sparse", _NONE, None),
        ("max", [], None),
        ("min", [], None),
        ("name", _NONE, None),
    ),
    "animation": (
        ("name", _NONE, None),
        ("channels", [], "channel"),
        ("samplers", [], "animationSampler"),
    ),
    "channel": (("sampler", _NONE, None), ("target", _NONE, "target")),
    "target": (("node", _NONE, None), ("path", _NONE, None)),
    "animationSampler": (
        ("input", _NONE, None),
        ("interpolation", "LINEAR", None),
        ("output", _NONE, None),
    ),
    "asset": (
        ("generator", "pygltflib@v1.16.5", None),
        ("copyright", _NONE, None),
        ("version", "2.0", None),
        ("minVersion", _NONE, None),
    ),
    "bufferView": (
        ("buffer", _NONE, None),
        ("byteOffset", 0, None),
        ("byteLength", _NONE, None),
        ("byteStride", _NONE, None),
        ("target", _NONE, None),
        ("name", _NONE, None),
    ),
    "buffer": (("uri", _NONE, None), ("byteLength", _NONE, None)),
    "image": (
        ("uri", _NONE, None),
        ("mimeType", _NONE, None),
        ("bufferView", _NONE, None),
        ("name", _NONE, None),
    ),
    "material": (
        ("pbrMetallicRoughness", _NONE, "pbr"),
        ("normalTexture", _NONE, None),
        ("occlusionTexture", _NONE, None),
        ("emissiveFactor", [0.0, 0.0, 0.0], None),
        ("emissiveTexture", _NONE, None),
        ("alphaMode", "OPAQUE", None),
        ("alphaCutoff", _NONE, None),
        ("doubleSided", False, None),
        ("name", _NONE, None),
    ),
    "pbr": (
        ("baseColorFactor", [1.0, 1.0, 1.0, 1.0], None),
        ("metallicFactor", 1.0, None),
        ("roughnessFactor", 1.0, None),
        ("baseColorTexture", _NONE, "textureInfo"),
        ("metallicRoughnessTexture", _NONE, "textureInfo"),
    ),
    "textureInfo": (("index", _NONE, None), ("texCoord", 0, None)),
    "mesh": (("primitives", [], "primitive"), ("weights", [], None), ("name", _NONE, None)),
    "primitive": (
        ("attributes", {}, "attributes"),
        ("indices", _NONE, None),
        ("mode", 4, None),
        ("material", _NONE, None),
        ("targets", [], "attributes"),
    ),
    "node": (
        ("mesh", _NONE, None),
        ("skin", _NONE, None),
        ("rotation", _NONE, None),
        ("translation", _NONE, None),
        ("scale", _NONE, None),
        ("children", [], None),
        ("matrix", _NONE, None),
        ("camera", _NONE, None),
        ("name", _NONE, None),
    ),
    "sampler": (
        ("input", _NONE, None),
        ("interpolation", _NONE, None),
        ("output", _NONE, None),
        ("magFilter", _NONE, None),
        ("minFilter", _NONE, None),
        ("wrapS", 10497, None),
        ("wrapT", 10497, None),
    ),
    "scene": (("name", _NONE, None), ("nodes", [], None)),
    "texture": (("sampler", _NONE, None), ("source", _NONE, None), ("name", _NONE, None)),
}
_ATTRIBUTES = (
    *("POSITION", "NORMAL", "TANGENT", "TEXCOORD_0", "TEXCOORD_1"),
    *("COLOR_0", "JOINTS_0", "WEIGHTS_0"),
)


def _gltf_form(kind: str, item: Any) -> Any:
    """``item`` (an object of glTF's ``kind``, or a list of them) in the form described above,
    before the empty values are dropped. A property this exporter never writes is an error."""
    if isinstance(item, list):
        return [_gltf_form(kind, x) for x in item]
    if kind == "attributes":  # the named attributes first, then any others as given
        named = {k: item.get(k) for k in _ATTRIBUTES}
        return named | {k: v for k, v in item.items() if k not in named}
    form = _FORMS[kind] if kind == "gltf" else _COMMON + _FORMS[kind]
    unknown = set(item) - {key for key, _, _ in form}
    if unknown:
        raise ValueError(f"glTF {kind} has properties the export does not know: {unknown}")
    out = {}
    for key, default, child in form:
        value = item.get(key, default)
        out[key] = value if child is None or value is None else _gltf_form(child, value)
    return out


def _without_empty(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without None and empty values (strings, lists, dicts), recursively through
    dicts and the dicts in lists; a dict emptied by this stays (it was not empty when looked
    at), and an ``extensions`` dict is kept as it is."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if value is None or (isinstance(value, str | list | dict | tuple) and not value):
            continue
        if isinstance(value, dict) and key != "extensions":
            value = _without_empty(value)
        elif isinstance(value, list):
            value = [_without_empty(x) if isinstance(x, dict) else x for x in value]
        out[key] = value
    return out


class _Textures:
    """One image, texture and material per texture file, shared by the surfaces using it."""

    def __init__(self, doc: _Doc, player: Player) -> None:
        self.doc = doc
        self.player = player
        self.materials: dict[Path, int | None] = {}

    def material(self, path: Path) -> int | None:
        if path in self.materials:
            return self.materials[path]
        skin: Skin | None = self.player.texture(path)
        material = None
        if skin is not None:
            doc = self.doc
            mime, data = image_bytes(skin)
            image = doc.add(
                "images",
                {"bufferView": doc.view(data), "mimeType": mime, "name": path.name},
            )
            if not doc.json["samplers"]:
                doc.add(
                    "samplers",
                    {"magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497},
                )
            texture = doc.add("textures", {"sampler": 0, "source": image})
            mat: dict[str, Any] = {
                "name": path.stem,
                "pbrMetallicRoughness": {
                    "baseColorTexture": {"index": texture},
                    "metallicFactor": 0.0,
                    "roughnessFactor": 1.0,
                },
            }
            if skin.mode == "RGBA":
                mat["alphaMode"] = "MASK"
            material = doc.add("materials", mat)
        self.materials[path] = material
        return material


def _part_meshes(
    doc: _Doc, part: str, model: Md3, textures: dict[str, Path], shared: _Textures
) -> list[int]:
    """One node per surface of ``part``, every frame a morph target; their node indices."""
    names = [f"frame{f}" for f in range(model.num_frames)]
    nodes = []
    for s in model.surfaces:
        pos = to_y_up(s.positions)
        nrm = to_y_up(s.normals)
        if not (np.isfinite(pos).all() and np.isfinite(s.texcoords).all()):
            raise BadValueError(f"{part}: surface {s.name!r} has non-finite positions or uvs")
        n = pos.shape[1]
        attributes = {
            "POSITION": doc.floats(pos[0], "VEC3", minmax=True),
            "NORMAL": doc.floats(nrm[0], "VEC3"),
            "TEXCOORD_0": doc.floats(s.texcoords, "VEC2"),
        }
        idx = s.triangles.reshape(-1)
        wide = int(idx.max()) >= 65535
        indices = doc.accessor(
            doc.view(
                idx.astype(np.uint32 if wide else np.uint16).tobytes(), target=ELEMENT_ARRAY_BUFFER
            ),
            int(idx.size),
            "SCALAR",
            UNSIGNED_INT if wide else UNSIGNED_SHORT,
        )
        dpos, dnrm = pos - pos[0], nrm - nrm[0]
        pos_view = doc.view(dpos.tobytes(), target=ARRAY_BUFFER, stride=12)
        nrm_view = doc.view(dnrm.tobytes(), target=ARRAY_BUFFER, stride=12)
        lo, hi = dpos.min(axis=1), dpos.max(axis=1)
        targets = [
            {
                "POSITION": doc.accessor(
                    pos_view, n, "VEC3", offset=f * n * 12, minmax=(lo[f], hi[f])
                ),
                "NORMAL": doc.accessor(nrm_view, n, "VEC3", offset=f * n * 12),
            }
            for f in range(model.num_frames)
        ]
        primitive: dict[str, Any] = {
            "attributes": attributes,
            "indices": indices,
            "targets": targets,
        }
        if s.name in textures:
            material = shared.material(textures[s.name])
            if material is not None:
                primitive["material"] = material
        mesh = doc.add(
            "meshes",
            {
                "name": s.name,
                "primitives": [primitive],
                "weights": [0.0] * model.num_frames,
                "extras": {"targetNames": names},
            },
        )
        nodes.append(doc.add("nodes", {"name": s.name, "mesh": mesh}))
    return nodes


def _tag_track(model: Md3, name: str) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """(F,3) Y-up translations and (F,4) rotations of tag ``name`` (identity when absent)."""
    f = model.num_frames
    origins = np.zeros((f, 3), np.float32)
    axes = np.broadcast_to(np.eye(3, dtype=np.float32), (f, 3, 3)).copy()
    for i, names in enumerate(model.tags.names_per_frame):
        if name in names:
            k = names.index(name)
            origins[i], axes[i] = model.tags.origins[i, k], model.tags.axes[i, k]
    if not (np.isfinite(origins).all() and np.isfinite(axes).all()):
        raise BadValueError(f"tag {name!r} has a non-finite origin or axis")
    return to_y_up(origins), _quaternions(axes)


def _track_json(origins: npt.NDArray[np.float32], rotations: npt.NDArray[np.float32]) -> Any:
    """A tag's (F,3) Y-up translations and (F,4) rotations of every frame as JSON lists (the
    clips key only the frames they play; converting back to MD3 needs all of them)."""
    return {
        "translation": np.asarray(origins, np.float64).tolist(),
        "rotation": np.asarray(rotations, np.float64).tolist(),
    }


def _clip_keys(clip: Clip, num_frames: int) -> tuple[npt.NDArray[np.float32], list[int]]:
    """Key times (s) and the part's frame at each key, clamped to ``num_frames``."""
    steps = clip.num_frames + 1 if clip.looping else clip.num_frames
    frames = [min(max(clip.step(k), 0), num_frames - 1) for k in range(steps)]
    times = np.arange(steps, dtype=np.float64) * clip.frame_lerp / 1000.0
    return times.astype(np.float32), frames


def build_player_gltf(player: Player, skin: str = "default") -> tuple[Doc, bytes]:
    """The glTF document and binary buffer of ``player`` with textures from ``skin``."""
    doc = _Doc()
    shared = _Textures(doc, player)
    textures = player.skin_textures(skin)
    meshes = {
        part: _part_meshes(doc, part, model, textures[part], shared)
        for part, model in player.parts.items()
    }
    tracks: dict[str, tuple[str, int, Any, Any]] = {}  # tag → (part, node, origins, rotations)
    part_nodes: dict[str, int] = {}
    for part in ("head", "upper", "lower"):  # children first, so parents can list them
        children = list(meshes[part])
        for tag in PART_TAGS.get(part, ()):
            origins, rotations = _tag_track(player.parts[part], tag)
            tag_node: dict[str, Any] = {
                "name": tag,
                "translation": [float(v) for v in origins[0]],
                "rotation": [float(v) for v in rotations[0]],
                "extras": {"frames": _track_json(origins, rotations)},
            }
            if tag in CHILD_OF_TAG:
                tag_node["children"] = [part_nodes[CHILD_OF_TAG[tag]]]
            node = doc.add("nodes", tag_node)
            tracks[tag] = (part, node, origins, rotations)
            children.append(node)
        part_node: dict[str, Any] = {"name": part, "children": children}
        # the part's other tags (upper's own tag_torso, head's tag_head...): no node places
        # anything by them, so they ride along as extras for the way back to MD3
        others = [t for t in player.parts[part].tags.names if t not in PART_TAGS.get(part, ())]
        if others:
            part_node["extras"] = {
                "tags": {t: _track_json(*_tag_track(player.parts[part], t)) for t in others}
            }
        part_nodes[part] = doc.add("nodes", part_node)
    root = doc.add("nodes", {"name": player.name, "children": [part_nodes["lower"]]})
    scene: dict[str, Any] = {"name": player.name, "nodes": [root]}
    if player.animations.keys:
        scene["extras"] = {"animationKeys": dict(player.animations.keys)}
    doc.add("scenes", scene)

    for clip in player.animations:
        parts = player.clip_parts(clip)
        samplers: list[dict[str, Any]] = []
        channels: list[dict[str, Any]] = []
        for part in parts:
            model = player.parts[part]
            times, frames = _clip_keys(clip, model.num_frames)
            t_acc = doc.accessor(
                doc.view(times.tobytes()), len(times), "SCALAR", minmax=(times[:1], times[-1:])
            )
            if meshes[part]:
                weights = np.zeros((len(frames), model.num_frames), np.float32)
                weights[np.arange(len(frames)), frames] = 1.0
                w_acc = doc.accessor(doc.view(weights.tobytes()), weights.size, "SCALAR")
                samplers.append({"input": t_acc, "output": w_acc, "interpolation": "LINEAR"})
                channels += [
                    {"sampler": len(samplers) - 1, "target": {"node": node, "path": "weights"}}
                    for node in meshes[part]
                ]
            for tag in PART_TAGS[part]:
                _, node, origins, rotations = tracks[tag]
                for path, values, kind in (
                    ("translation", origins[frames], "VEC3"),
                    ("rotation", rotations[frames], "VEC4"),
                ):
                    acc = doc.accessor(
                        doc.view(np.ascontiguousarray(values).tobytes()), len(frames), kind
                    )
                    samplers.append({"input": t_acc, "output": acc, "interpolation": "LINEAR"})
                    channels.append(
                        {"sampler": len(samplers) - 1, "target": {"node": node, "path": path}}
                    )
        doc.add(
            "animations",
            {
                "name": clip.name,
                "samplers": samplers,
                "channels": channels,
                "extras": {
                    "part": clip.kind,
                    "fps": clip.fps,
                    "loop": clip.looping,
                    "loopFrames": clip.loop_frames,
                    "firstFrame": clip.first_frame,
                    "numFrames": clip.num_frames,
                    "reversed": clip.reversed,
                },
            },
        )
    return doc.finish()


def export_player_gltf(
    player: Player,
    path: str | os.PathLike[str],
    *,
    skin: str = "default",
    binary: bool | None = None,
) -> None:
    """Write ``player`` to ``path`` (``.glb`` unless ``binary`` or a ``.gltf`` suffix says)."""
    if binary is None:
        binary = not os.fspath(path).lower().endswith(".gltf")
    doc, blob = build_player_gltf(player, skin)
    data = glb_bytes(doc, blob) if binary else gltf_bytes(doc, blob)
    write_bytes_atomic(path, data)
