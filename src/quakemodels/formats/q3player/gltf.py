"""glTF 2.0 export of a whole Quake III player: three parts, joined by tags, clips from the cfg.

The scene is one node tree, built on :class:`~quakemodels.interchange.gltf_write.GltfBuilder`
(each surface as a single model's, the same JSON form and writer)::

    <player>                      root
      lower                       the legs' surfaces (one mesh each)
      tag_torso                   the legs' tag, animated by the legs' frames
        upper                     the torso's surfaces
        tag_head                  the torso's tag, animated by the torso's frames
          head                    the head's surfaces
            tag_head@head         the head's own tag (an empty)
        tag_weapon                the torso's weapon tag: an empty node to parent weapons to
        tag_torso@upper, tag_flag ...   the torso's other tags (empties)
      animation.cfg               the cfg in its children's names: cfg 000 sex m ...

Every frame of a part is a morph target of each of the part's meshes (POSITION and NORMAL
deltas from frame 0, named ``frame<N>``). Every tag of every part is a node (:mod:`.carry`
names them: ``<tag>@<part>`` when another part has a tag of that name). A tag node's
translation is the tag's origin and its rotation the tag's axes (snapped to the nearest
rotation, as for single MD3s), so a child placed under it lands where
``CG_PositionRotatedEntityOnTag`` draws it. The rest pose stands: each mesh's default
``weights`` are one-hot on the standing frame (TORSO_STAND's first for the torso, LEGS_IDLE's
for the legs, :func:`~.carry.rest_frames`) and each tag node is at that frame.

One animation per clip of ``animation.cfg``, named as the clip, TORSO_STAND first (Blender
makes the first animation active: the player opens standing), then the others in the cfg's
order. A ``LEGS_*`` clip drives the legs' weights and ``tag_torso``; a ``TORSO_*`` clip the
torso's weights, ``tag_head`` and ``tag_weapon``; a ``BOTH_*`` clip all of them (the other
tags move in the ALL_FRAMES runs). So a legs clip and a torso clip can
play at once (three.js AnimationMixer, Blender NLA strips). Keys are ``frame_lerp`` ms apart
(the engine's ``1000 / fps``, truncated) with LINEAR interpolation, which for one-hot weights
is the engine's lerp between frames; a looping clip gets a closing key on the frame it loops
back to, so it repeats seamlessly. ``extras`` of each animation: ``part`` (legs, torso,
both), ``fps``, ``loop`` and ``loopFrames``, ``firstFrame`` and ``numFrames`` (after the legs
offset), ``reversed``, and ``row`` (its place in the cfg). Then the ``ALL_FRAMES_<first>``
runs: every tag of every part at every frame, on Blender's own 24 fps frames (:mod:`.carry`).

Nothing the way back needs is kept only in ``extras`` (Blender drops them): the cfg's rows
and keys ride in the ``animation.cfg`` node names, the tags in their nodes and the
ALL_FRAMES runs (:mod:`.carry`).

Textures come from the chosen skin (:meth:`PlayerFolder.skin_textures`), each file embedded once (a
JPEG or PNG as the file it is, anything else as PNG); a surface whose shader a script of the
game defines is drawn as the script says (:mod:`.materials`: ``doubleSided``, alpha test).
Axes are converted to glTF's Y-up as for single models (:func:`to_y_up`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.mesh import flip_winding
from ...core.scene import OPAQUE, Material, Surface, to_y_up
from ...core.skins import Skin
from ...errors import BadValueError
from ...interchange.gltf_write import (
    Doc,
    Encoder,
    GltfBuilder,
    Piece,
    json_floats,
    tag_quaternions,
    write_gltf,
)
from ..md3 import Md3
from .animcfg import Clip
from .carry import (
    ALL_FRAMES,
    ALL_FRAMES_FPS,
    CFG_NODE,
    all_frames_run,
    config_node_names,
    first_clip,
    rest_frames,
    tag_node_names,
)
from .materials import part_materials
from .player import PlayerFolder

# which tags each part's frames animate, and which part sits under which tag
PART_TAGS = {"lower": ("tag_torso",), "upper": ("tag_head", "tag_weapon")}
CHILD_OF_TAG = {"tag_torso": "upper", "tag_head": "head"}


class _Textures:
    """The decoded texture files of a skin, each opened once (None, warned about once, for
    one that cannot be decoded); the builder embeds each once, shared by its surfaces."""

    def __init__(self, player: PlayerFolder) -> None:
        self.player = player
        self.skins: dict[Path, Skin | None] = {}

    def skin(self, path: Path | None) -> Skin | None:
        if path is None:
            return None
        if path not in self.skins:
            self.skins[path] = self.player.texture(path)
        return self.skins[path]


def _part_meshes(
    b: GltfBuilder,
    part: str,
    model: Md3,
    textures: dict[str, Path],
    shared: _Textures,
    materials: dict[str, Material] | None = None,
) -> list[int]:
    """One node per surface of ``part`` (:meth:`GltfBuilder.surface`: every frame a morph
    target named ``frame<N>``, its skin texture as material, drawn as ``materials`` (by
    surface name: a shader script's sides and alpha test) says); their node indices."""
    names = [f"frame{f}" for f in range(model.num_frames)]
    nodes = []
    for s in model.surfaces:
        if not (np.isfinite(s.positions).all() and np.isfinite(s.texcoords).all()):
            raise BadValueError(f"{part}: surface {s.name!r} has non-finite positions or uvs")
        surface = Surface(
            name=s.name,
            positions=s.positions,
            normals=s.normals,
            uvs=s.texcoords,
            indices=flip_winding(np.asarray(s.triangles, dtype=np.uint32)),  # checked on load
            skin=shared.skin(textures.get(s.name)),
            material=(materials or {}).get(s.name, OPAQUE),
        )
        node = b.surface(surface, names)
        if node is not None:
            nodes.append(node)
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
    return to_y_up(origins), tag_quaternions(axes)


def _clip_keys(clip: Clip, num_frames: int) -> tuple[npt.NDArray[np.float32], list[int]]:
    """Key times (s) and the part's frame at each key, clamped to ``num_frames``."""
    steps = clip.num_frames + 1 if clip.looping else clip.num_frames
    frames = [min(max(clip.step(k), 0), num_frames - 1) for k in range(steps)]
    times = np.arange(steps, dtype=np.float64) * clip.frame_lerp / 1000.0
    return times.astype(np.float32), frames


def build_player_gltf(player: PlayerFolder, skin: str = "default") -> tuple[Doc, bytes]:
    """The glTF document and binary buffer of ``player`` with textures from ``skin``."""
    doc, pieces, _ = _build(player, skin)
    return doc, b"".join(pieces)


def gltf_parts(player: PlayerFolder, skin: str = "default") -> tuple[Doc, list[Piece], Encoder]:
    """:func:`build_player_gltf` as the document, the buffer's pieces (never joined) and the
    JSON writer of its builder: what the one road to glTF writes."""
    doc, pieces, builder = _build(player, skin)
    return doc, pieces, builder.json_bytes


def _build(player: PlayerFolder, skin: str) -> tuple[Doc, list[Piece], GltfBuilder]:
    """:func:`build_player_gltf` with the buffer's pieces, and the builder (whose
    ``json_bytes`` writes the JSON)."""
    b = GltfBuilder()
    shared = _Textures(player)
    textures = player.skin_textures(skin)
    materials = part_materials(player, skin)
    meshes = {
        part: _part_meshes(b, part, model, textures[part], shared, materials.get(part))
        for part, model in player.parts.items()
    }
    cfg = player.config
    counts = {part: model.num_frames for part, model in player.parts.items()}
    rest = rest_frames(cfg, counts)
    for part, nodes in meshes.items():
        # the rest pose shows the standing frame (glTF's default morph weights)
        for node in nodes:
            mesh = b.doc["meshes"][b.doc["nodes"][node]["mesh"]]
            weights = [0.0] * counts[part]
            weights[rest[part]] = 1.0
            mesh["weights"] = weights
    node_names = tag_node_names(
        {part: model.tags.names for part, model in player.parts.items()}, PART_TAGS
    )
    tracks: dict[str, list[tuple[int, Any, Any]]] = {}  # part → (node, origins, rotations)
    part_nodes: dict[str, int] = {}
    for part in ("head", "upper", "lower"):  # children first, so parents can list them
        children = list(meshes[part])
        tracks[part] = []
        for tag, node_name in node_names[part].items():
            origins, rotations = _tag_track(player.parts[part], tag)
            tag_node: dict[str, Any] = {
                "rotation": json_floats(rotations[rest[part]]),
                "translation": json_floats(origins[rest[part]]),
            }
            if tag in CHILD_OF_TAG and tag in PART_TAGS.get(part, ()):
                tag_node["children"] = [part_nodes[CHILD_OF_TAG[tag]]]
            tag_node["name"] = node_name
            node = b.add("nodes", tag_node)
            tracks[part].append((node, origins, rotations))
            children.append(node)
        part_nodes[part] = b.add("nodes", {"children": children, "name": part})

    rows = list(enumerate(cfg))
    first = first_clip(cfg)
    if first is not None:  # Blender shows the first animation on opening: a standing one
        rows.sort(key=lambda row: row[1] is not first)
    for row, clip in rows:
        samplers: list[dict[str, Any]] = []
        channels: list[dict[str, Any]] = []
        for part in player.clip_parts(clip):
            model = player.parts[part]
            times, frames = _clip_keys(clip, model.num_frames)
            # the tags that place a part move with the clips; every tag moves in ALL_FRAMES
            # (keying the others here too costs Blender's export 13% more)
            placing = [tracks[part][k] for k, tag in enumerate(node_names[part])
                       if tag in PART_TAGS.get(part, ())]  # fmt: skip
            b.clip_channels(
                samplers, channels, frames, times, model.num_frames, meshes[part], placing
            )
        b.add(
            "animations",
            {
                "extras": {
                    "part": clip.kind,
                    "fps": clip.fps,
                    "loop": clip.looping,
                    "loopFrames": clip.loop_frames,
                    "firstFrame": clip.first_frame,
                    "numFrames": clip.num_frames,
                    "reversed": clip.reversed,
                    "row": row,
                },
                "name": clip.name,
                "channels": channels,
                "samplers": samplers,
            },
        )
    _all_frames(b, player, tracks)
    cfg_node = b.add(
        "nodes",
        {
            "children": [b.add("nodes", {"name": n}) for n in config_node_names(cfg)],
            "name": CFG_NODE,
        },
    )
    doc, pieces = b.finish_pieces(player.name, [part_nodes["lower"], cfg_node])
    return doc, pieces, b


def _all_frames(
    b: GltfBuilder,
    player: PlayerFolder,
    tracks: dict[str, list[tuple[int, Any, Any]]],
) -> None:
    """The :data:`~.carry.ALL_FRAMES` animations: every tag node of every part at its frame f,
    in runs of ``n`` frames (:func:`~.carry.all_frames_run`), one animation
    ``ALL_FRAMES_<first>`` per run: frame ``first + k`` at k / 24 s, and a closing key at
    n / 24 s holding the run's last frame (so no resampling loses it). Tags only: keying every
    morph weight at every frame too costs Blender's import and export minutes."""
    counts = [model.num_frames for model in player.parts.values()]
    n = all_frames_run([c.duration for c in player.config])
    for first in range(0, max(counts, default=0), n):
        samplers: list[dict[str, Any]] = []
        channels: list[dict[str, Any]] = []
        for part, model in player.parts.items():
            last = min(first + n, model.num_frames)
            if last <= first or not tracks[part]:
                continue
            frames = [*range(first, last), last - 1]
            times = (np.arange(len(frames), dtype=np.float64) / ALL_FRAMES_FPS).astype(np.float32)
            b.clip_channels(samplers, channels, frames, times, model.num_frames, [], tracks[part])
        if channels:
            b.add(
                "animations",
                {
                    "extras": {"allFrames": True, "firstFrame": first, "fps": ALL_FRAMES_FPS},
                    "name": f"{ALL_FRAMES}_{first}",
                    "channels": channels,
                    "samplers": samplers,
                },
            )


def export_player_gltf(
    player: PlayerFolder,
    path: str | os.PathLike[str],
    *,
    skin: str = "default",
    binary: bool | None = None,
) -> None:
    """Write ``player`` to ``path`` (``.glb`` unless ``binary`` or a ``.gltf`` suffix says)."""
    doc, pieces, builder = _build(player, skin)
    write_gltf(path, doc, pieces, builder, binary=binary)
