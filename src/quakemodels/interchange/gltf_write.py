"""glTF 2.0 export (``.glb`` binary or ``.gltf`` with the buffer embedded), built as plain data.

Layout, per surface (MD2 has one, MD3 one per surface), one mesh with one primitive:

* frame 0 is the base geometry (POSITION with min/max, NORMAL, TEXCOORD_0, uint16/uint32
  indices); every frame ``f`` is morph target ``f`` holding POSITION and NORMAL deltas from
  frame 0 (target 0 is all zeros), named by ``mesh.extras.targetNames`` (frame names), which
  three.js turns into ``morphTargetDictionary`` and Blender into shape key names.
* one animation per clip, named as the clip, at the model's ``fps`` (10 frames per second
  unless ``--fps`` says): key ``k`` at ``k / fps`` s (or at the clip's
  ``ExportModel.clip_times``, from an MDL frame group's intervals) with weight 1 on the
  clip's ``k``-th frame and 0 elsewhere, a ``weights`` channel with a
  LINEAR sampler. LINEAR blending of two one-hot weight vectors is exactly Quake's
  ``lerp(frame a, frame b, t)``; three.js (GLTFLoader → NumberKeyframeTrack on
  ``morphTargetInfluences``) and Blender (shape key value F-curves) both play it as such, while
  STEP would show Quake's 10 fps judder. A clip of n frames lasts (n - 1) / fps s and ends on its
  last frame; one-frame clips have one key.
* MD3 tags are nodes whose translation and rotation are animated per frame (LINEAR; glTF
  slerps rotations) in the same animations, so attached models can be parented to them.
* the skin, when :mod:`quakemodels.core.skins` finds one, is embedded as a PNG texture; the
  surface's :class:`~quakemodels.core.scene.Material` (a Quake III shader script's ``cull``
  and ``alphaFunc``, Quake II's alpha test) gives ``doubleSided`` and ``alphaMode: MASK``
  with its ``alphaCutoff`` (see :meth:`GltfBuilder.material`).
* the game paths the model stores for a surface (MD2 skin names, MD3 shader names) in what
  Blender keeps at its default settings: the material is named after the first (a material
  without a texture when the skin was not found) and each further name is an empty child
  node ``skin<k>:<name>`` of the surface's node
  (read back by :mod:`quakemodels.interchange.gltf_images`).

Quake's Z-up space becomes glTF's Y-up by the rotation (x, y, z) → (y, z, x) (see
:func:`quakemodels.core.scene.to_y_up`): a Quake model faces +X, a glTF asset faces +Z.
Texcoords need no flip: MD2 stores (s / w, t / h) with t growing downwards, which is glTF's
convention (UV (0, 0) is the image's top-left corner).

The document is plain dicts and lists (no glTF object model): writing the JSON of a 198-frame
model costs a millisecond or two, well below copying its binary chunk. Keys are emitted in the
order pygltflib used to write them, so the JSON is unchanged from the pygltflib-built exports.

Building blocks (also used by other writers, e.g. a player export; keep them stable):

* :class:`GltfBuilder` accumulates one document and its binary buffer: ``view(bytes)`` adds a
  bufferView, ``accessor(...)``/``data(array, kind)`` add accessors, ``add(kind, item)``
  appends to any top-level array (``"nodes"``, ``"meshes"``, ``"animations"``...) and returns
  its index, ``material(skin)`` embeds a skin once per image, ``surface(...)``, ``tag(...)``
  and ``clip(...)`` add the pieces described above (``clip_channels`` the keys of one model,
  for an animation driving several, as a Quake III player's do), ``finish(name, children)``
  returns ``(doc, blob)`` (``finish_pieces`` the blob's pieces, not joined); its
  ``json_bytes(doc)`` is :func:`json_bytes` of the finished document, faster (each surface's
  morph-target accessors written as one text, from what ``surface`` made them of).
* :func:`build_gltf` is those steps for one :class:`ExportModel`; :func:`glb_bytes` and
  :func:`gltf_bytes` serialize ``(doc, blob)``; :func:`export_gltf` writes a file atomically
  (:func:`write_gltf`, for any builder's document).
  A ``.glb`` file is written piece by piece from the arrays themselves (:func:`glb_pieces`):
  the binary chunk, most of the file, is never copied into one ``bytes``.
"""

from __future__ import annotations

import json
import os
import struct
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..core.atomic import atomic_output, write_bytes_atomic
from ..core.gamepaths import game_path
from ..core.png import encode_png
from ..core.scene import (
    FPS,
    OPAQUE,
    Y_UP,
    Y_UP_AXES,
    ExportModel,
    Material,
    Surface,
    Tag,
    require_finite,
    safe_name,
    to_y_up,
)
from ..core.skins import Skin
from ..errors import QuakeModelsWarning

FLOAT = 5126
UNSIGNED_SHORT = 5123
UNSIGNED_INT = 5125
ARRAY_BUFFER = 34962
ELEMENT_ARRAY_BUFFER = 34963
LINEAR = 9729
LINEAR_MIPMAP_LINEAR = 9987
REPEAT = 10497

# The top-level arrays and values in the order they are written (pygltflib's field order).
_TOP_LEVEL = (
    "accessors",
    "animations",
    "asset",
    "bufferViews",
    "buffers",
    "images",
    "materials",
    "meshes",
    "nodes",
    "samplers",
    "scene",
    "scenes",
    "textures",
)

_GLB_HEADER = struct.Struct("<4sII")
_CHUNK_HEADER = struct.Struct("<I4s")

Doc = dict[str, Any]
"""A glTF document as plain JSON data."""

Piece = bytes | memoryview
"""A piece of the binary buffer: bytes, or the bytes of a C-contiguous array (``memoryview``
cast to bytes, so that ``len`` is its size in bytes)."""

Encoder = Callable[[Doc], bytes]
"""What writes a document's JSON: a builder's ``json_bytes`` (the same bytes as
:func:`json_bytes`, faster for its own document)."""

FloatArray = npt.NDArray[np.float32]

# A surface's morph-target accessors as _targets_json writes them: the POSITION and NORMAL
# bufferViews, the vertex count and each frame's bounds (highs, lows).
_TargetRun = tuple[int, int, int, list[list[float]], list[list[float]]]

# Recently embedded skins: (mode, size, hash of pixels) → (pixels, PNG bytes). A batch worker
# exporting several models that share a skin encodes it once; the pixels are compared on a hit.
_PNG_CACHE: dict[tuple[str, tuple[int, int], int], tuple[bytes, bytes]] = {}
_PNG_CACHE_SIZE = 16


def json_floats(values: npt.NDArray[Any]) -> list[float]:
    """float32 values as Python floats (exact), so the JSON holds the stored values bit for bit."""
    out: list[float] = np.asarray(values, dtype=np.float32).astype(np.float64).ravel().tolist()
    return out


def image_bytes(skin: Skin) -> tuple[str, bytes]:
    """The skin's image as a glTF holds it: (MIME type, bytes). A JPEG or PNG file that can
    go in as it is does (:mod:`quakemodels.core.embed`); anything else is encoded as PNG."""
    if skin.embedded is not None:
        return skin.embedded.mime, skin.embedded.data
    return "image/png", png_bytes(skin)


def png_bytes(skin: Skin) -> bytes:
    """The skin's image as PNG, encoded once per distinct image (see ``_PNG_CACHE``) by
    :func:`~quakemodels.core.png.encode_png` (RGB and RGBA; Pillow for other modes)."""
    mode = skin.mode
    if mode not in ("RGB", "RGBA"):
        return skin.png_bytes()
    array = np.ascontiguousarray(skin.pixels)
    pixels = array.tobytes()
    key = (mode, (int(array.shape[1]), int(array.shape[0])), hash(pixels))
    hit = _PNG_CACHE.get(key)
    if hit is not None and hit[0] == pixels:
        return hit[1]
    data = encode_png(array)
    if len(_PNG_CACHE) >= _PNG_CACHE_SIZE:
        del _PNG_CACHE[next(iter(_PNG_CACHE))]
    _PNG_CACHE[key] = (pixels, data)
    return data


class GltfBuilder:
    """One glTF document being built: top-level arrays of plain dicts, and the binary buffer
    (4-byte aligned pieces) their bufferViews point into."""

    def __init__(self) -> None:
        self.doc: Doc = {}
        self._pieces: list[Piece] = []
        self._size = 0
        self._materials: dict[tuple[str | None, Material, str | None], int] = {}
        self._textures: dict[str, int] = {}
        # Runs of morph-target accessors whose JSON text json_bytes writes in one go: first
        # index → (count, the arguments of _targets_json). Rendered only when written: a
        # caller of build_gltf that serializes the document itself never pays for it.
        self._rendered: dict[int, tuple[int, _TargetRun]] = {}

    def add(self, kind: str, item: dict[str, Any]) -> int:
        """Append ``item`` to the top-level array ``kind`` (``"nodes"``...); returns its index."""
        items: list[dict[str, Any]] = self.doc.setdefault(kind, [])
        items.append(item)
        return len(items) - 1

    def view(
        self,
        data: bytes | npt.NDArray[Any],
        *,
        target: int | None = None,
        stride: int | None = None,
    ) -> int:
        """Append ``data`` (bytes, or a C-contiguous array's bytes: the array itself is kept,
        not copied, so it must not change afterwards) to the buffer as a new bufferView;
        returns its index."""
        piece: Piece = data if isinstance(data, bytes) else data.data.cast("B")  # C-contiguous
        view: dict[str, Any] = {"buffer": 0, "byteOffset": self._size, "byteLength": len(piece)}
        if stride is not None:
            view["byteStride"] = stride
        if target is not None:
            view["target"] = target
        pad = -len(piece) % 4
        self._pieces.append(piece)
        if pad:
            self._pieces.append(b"\0" * pad)
        self._size += len(piece) + pad
        return self.add("bufferViews", view)

    def accessor(
        self,
        view: int,
        count: int,
        kind: str,
        component: int = FLOAT,
        *,
        offset: int = 0,
        minmax: tuple[list[Any], list[Any]] | None = None,
    ) -> int:
        """An accessor of ``count`` ``kind`` items (``"VEC3"``...) in bufferView ``view`` from
        byte ``offset``; ``minmax`` the (min, max) lists, JSON-ready. Returns its index."""
        acc: dict[str, Any] = {"bufferView": view}
        if offset:
            acc["byteOffset"] = offset
        acc["componentType"] = component
        acc["normalized"] = False
        acc["count"] = count
        acc["type"] = kind
        if minmax is not None:
            acc["max"] = minmax[1]
            acc["min"] = minmax[0]
        return self.add("accessors", acc)

    def data(
        self,
        array: npt.NDArray[Any],
        kind: str,
        *,
        target: int | None = None,
        minmax: bool = False,
    ) -> int:
        """One bufferView and accessor for a (count, k) float32 array; returns the accessor."""
        a = np.ascontiguousarray(array, dtype=np.float32)
        view = self.view(a, target=target)
        mm = (json_floats(a.min(axis=0)), json_floats(a.max(axis=0))) if minmax else None
        return self.accessor(view, int(a.shape[0]), kind, minmax=mm)

    def material(
        self, skin: Skin | None, material: Material = OPAQUE, name: str | None = None
    ) -> int | None:
        """The glTF material showing ``skin`` as ``material`` says (image, texture and
        material added once per skin file, material and name; the PNG encoded once per
        image); returns its index, or None for no skin, no name and one side drawn (glTF's
        default material: single-sided, opaque; with no texture an alpha test has nothing to
        test).

        ``name``, the game path the model stores for the surface (an MD2 skin, an MD3 shader),
        names the material, with or without a texture: Blender keeps material names (and
        drops ``extras``), so the name survives a modder's round trip (read back by
        :mod:`quakemodels.interchange.gltf_images`). Without one the material is named after
        the skin file.

        ``doubleSided`` is the material's sides; its alpha test becomes ``alphaMode: MASK``
        with the ``alphaCutoff`` that keeps the same 8-bit alphas, when the skin has an alpha
        channel (without one every texel passes: OPAQUE draws the same). A test glTF cannot
        state (``LT128``, which keeps low alphas) stays OPAQUE, the closest (it draws every
        texel the engine draws), and only the back side (``cull back``) becomes double-sided:
        each warns once per material.
        """
        key = (os.fspath(skin.path) if skin is not None else None, material, name)
        if key in self._materials:
            return self._materials[key]
        if skin is None and not material.double_sided and name is None:
            return None  # without a texture there is no alpha to test: the default draws it
        pbr: dict[str, Any] = {
            "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
            "metallicFactor": 0.0,
            "roughnessFactor": 1.0,
        }
        if skin is not None:
            pbr["baseColorTexture"] = {"index": self._texture(skin), "texCoord": 0}
        out: dict[str, Any] = {"pbrMetallicRoughness": pbr, "emissiveFactor": [0.0, 0.0, 0.0]}
        test = material.alpha_test
        what = material.shader or (skin.path.name if skin is not None else "material")
        if test is not None and skin is not None and skin.mode == "RGBA":
            if test.cutoff is None:
                warnings.warn(
                    f"{what}: alpha test {test.name or test.op} draws the texels with alpha"
                    f" {'<' if test.op == 'lt' else test.op} {test.ref:g}, which glTF cannot"
                    " state; exported opaque",
                    QuakeModelsWarning,
                    stacklevel=3,
                )
            else:
                out["alphaMode"] = "MASK"
                out["alphaCutoff"] = test.cutoff
        if material.sides == "back":
            warnings.warn(
                f"{what}: only the back side is drawn (cull back), which glTF cannot state;"
                " exported double-sided",
                QuakeModelsWarning,
                stacklevel=3,
            )
        out["doubleSided"] = material.double_sided
        if name is not None:
            out["name"] = name
        else:
            out["name"] = skin.path.stem if skin is not None else safe_name(what, "material")
        index = self.add("materials", out)
        self._materials[key] = index
        return index

    def _texture(self, skin: Skin) -> int:
        """The texture of ``skin`` (its image added once per skin file)."""
        key = os.fspath(skin.path)
        if key in self._textures:
            return self._textures[key]
        mime, data = image_bytes(skin)
        image = self.add(
            "images",
            {"mimeType": mime, "bufferView": self.view(data), "name": skin.path.name},
        )
        if "samplers" not in self.doc:
            self.add(
                "samplers",
                {
                    "magFilter": LINEAR,
                    "minFilter": LINEAR_MIPMAP_LINEAR,
                    "wrapS": REPEAT,
                    "wrapT": REPEAT,
                },
            )
        texture = self.add("textures", {"sampler": 0, "source": image})
        self._textures[key] = texture
        return texture

    def surface(self, surface: Surface, target_names: Sequence[str]) -> int | None:
        """A mesh and its node for ``surface``: frame 0 as the base, every frame a morph target
        (deltas from frame 0), its skin as material. Returns the node, or None for a surface
        with no triangles or vertices (glTF accessors cannot be empty)."""
        if surface.indices.size == 0 or surface.positions.shape[1] == 0:
            return None
        pos = np.asarray(surface.positions, dtype=np.float32)  # (F,N,3), any layout
        nrm = np.asarray(surface.normals, dtype=np.float32)
        num_frames, n = pos.shape[:2]
        attributes = {
            "POSITION": self.data(to_y_up(pos[0]), "VEC3", target=ARRAY_BUFFER, minmax=True),
            "NORMAL": self.data(to_y_up(nrm[0]), "VEC3", target=ARRAY_BUFFER),
        }
        if surface.uvs.shape[0] == n:
            attributes["TEXCOORD_0"] = self.data(surface.uvs, "VEC2", target=ARRAY_BUFFER)
        idx = surface.indices.reshape(-1)
        wide = int(idx.max()) >= 65535  # 65535 is the uint16 primitive-restart value
        idx_view = self.view(
            idx.astype(np.uint32 if wide else np.uint16), target=ELEMENT_ARRAY_BUFFER
        )
        indices = self.accessor(
            idx_view, int(idx.size), "SCALAR", UNSIGNED_INT if wide else UNSIGNED_SHORT
        )
        # Position deltas from frame 0 (F,3,N), one row per axis: each pass runs along N, and
        # reducing N with a long inner loop is ~8x faster than reducing the middle axis of
        # (F,N,3) three values at a time. MD2 frames come in this layout (no copy).
        deltas, lows, highs = _position_deltas(np.ascontiguousarray(pos.transpose(0, 2, 1)))
        # All targets of one attribute share a bufferView (so it needs byteStride).
        pos_view = self.view(deltas, target=ARRAY_BUFFER, stride=12)
        nrm_view = self.view(_y_up_deltas(nrm), target=ARRAY_BUFFER, stride=12)
        accessors: list[dict[str, Any]] = self.doc["accessors"]
        first = len(accessors)
        size = n * 12
        # Two accessors per frame, written out here rather than one accessor() call each
        # (thousands per model): the same dicts, keys in the same order.
        accessors += [
            item
            for f in range(num_frames)
            for item in (
                {
                    "bufferView": pos_view,
                    "byteOffset": f * size,
                    "componentType": FLOAT,
                    "normalized": False,
                    "count": n,
                    "type": "VEC3",
                    "max": highs[f],
                    "min": lows[f],
                },
                {
                    "bufferView": nrm_view,
                    "byteOffset": f * size,
                    "componentType": FLOAT,
                    "normalized": False,
                    "count": n,
                    "type": "VEC3",
                },
            )
        ]
        del accessors[first]["byteOffset"], accessors[first + 1]["byteOffset"]  # 0: omitted
        self._rendered[first] = (2 * num_frames, (pos_view, nrm_view, n, highs, lows))
        targets = [
            {"POSITION": first + 2 * f, "NORMAL": first + 2 * f + 1} for f in range(num_frames)
        ]
        primitive: dict[str, Any] = {"attributes": attributes, "indices": indices, "mode": 4}
        stored = [g for n in surface.skin_names if n and (g := game_path(n)) is not None]
        material = self.material(surface.skin, surface.material, stored[0] if stored else None)
        if material is not None:
            primitive["material"] = material
        primitive["targets"] = targets
        mesh = self.add(
            "meshes",
            {
                "extras": {"targetNames": list(target_names)},
                "primitives": [primitive],
                "weights": [0.0] * num_frames,
                "name": surface.name,
            },
        )
        node: dict[str, Any] = {"mesh": mesh, "name": surface.name}
        if len(stored) > 1:
            # the further stored names (an MD2's other skins) as empty children, which
            # Blender keeps with their names; the first is the material's name
            node["children"] = [
                self.add("nodes", {"name": f"skin{k}:{n}"}) for k, n in enumerate(stored[1:], 1)
            ]
        return self.add("nodes", node)

    def tag(self, tag: Tag) -> tuple[int, FloatArray, FloatArray]:
        """A node for ``tag`` posed as in frame 0; returns it with the (F,3) Y-up origins and
        (F,4) rotations its animation channels key."""
        origins = to_y_up(tag.origins)
        rotations = tag_quaternions(tag.axes)
        node = self.add(
            "nodes",
            {
                "rotation": json_floats(rotations[0]),
                "translation": json_floats(origins[0]),
                "name": tag.name,
            },
        )
        return node, origins, rotations

    def clip(
        self,
        name: str,
        frames: Sequence[int],
        num_frames: int,
        mesh_nodes: Sequence[int],
        tag_tracks: Sequence[tuple[int, FloatArray, FloatArray]],
        fps: float = FPS,
        times: FloatArray | None = None,
    ) -> int:
        """One animation playing ``frames`` at ``fps``, or keyed at ``times`` (k,) float32
        seconds when given (see :meth:`clip_channels`). Returns the animation's index."""
        k = len(frames)
        if times is None or len(times) != k:
            times = np.arange(k, dtype=np.float32) / np.float32(fps)
        samplers: list[dict[str, Any]] = []
        channels: list[dict[str, Any]] = []
        self.clip_channels(samplers, channels, frames, times, num_frames, mesh_nodes, tag_tracks)
        return self.add("animations", {"name": name, "channels": channels, "samplers": samplers})

    def clip_channels(
        self,
        samplers: list[dict[str, Any]],
        channels: list[dict[str, Any]],
        frames: Sequence[int],
        times: FloatArray,
        num_frames: int,
        mesh_nodes: Sequence[int],
        tag_tracks: Sequence[tuple[int, FloatArray, FloatArray]],
    ) -> None:
        """Append to an animation's ``samplers`` and ``channels`` the keys of one model
        playing ``frames`` at ``times`` (k,) float32 seconds: a one-hot morph weight per key on
        every node of ``mesh_nodes`` (one shared sampler), and for each (node, origins,
        rotations) of ``tag_tracks`` translation and rotation keys (one key accessor for
        all of them)."""
        k = len(frames)
        t_acc = self.accessor(
            self.view(np.ascontiguousarray(times, dtype=np.float32)),
            k,
            "SCALAR",
            minmax=(json_floats(times[:1]), json_floats(times[-1:])),
        )
        if mesh_nodes:
            weights = np.zeros((k, num_frames), dtype=np.float32)
            weights[np.arange(k), frames] = 1.0
            w_acc = self.accessor(self.view(weights), k * num_frames, "SCALAR")
            samplers.append({"input": t_acc, "interpolation": "LINEAR", "output": w_acc})
            channels.extend(
                {"sampler": len(samplers) - 1, "target": {"node": node, "path": "weights"}}
                for node in mesh_nodes
            )
        for node, origins, rotations in tag_tracks:
            for path, values, kind in (
                ("translation", origins[frames], "VEC3"),
                ("rotation", rotations[frames], "VEC4"),
            ):
                acc = self.accessor(self.view(np.ascontiguousarray(values)), k, kind)
                samplers.append({"input": t_acc, "interpolation": "LINEAR", "output": acc})
                channels.append(
                    {"sampler": len(samplers) - 1, "target": {"node": node, "path": path}}
                )

    def json_bytes(self, doc: Doc) -> bytes:
        """:func:`json_bytes` of ``doc``, a document this builder finished (``.gltf``'s with
        its buffer's uri too), the same bytes faster: the morph-target accessors of each
        surface are written as one text from what :meth:`surface` made them of (valid as long
        as those accessors are unchanged, as in :func:`export_gltf`)."""
        accessors: list[dict[str, Any]] = doc.get("accessors", [])
        if not self._rendered or accessors is not self.doc.get("accessors"):
            return json_bytes(doc)
        parts = []
        done = 0
        for first, (count, run) in sorted(self._rendered.items()):
            if first > done:
                parts.append(_dumps(accessors[done:first])[1:-1])
            parts.append(_targets_json(*run))
            done = first + count
        if done > len(accessors):  # pragma: no cover - the runs were built into this list
            return json_bytes(doc)
        if done < len(accessors):
            parts.append(_dumps(accessors[done:])[1:-1])
        listed = "[" + ",".join(parts) + "]"
        members = ",".join(
            f"{_dumps(key)}:{listed if key == 'accessors' else _dumps(value)}"
            for key, value in doc.items()
        )
        return ("{" + members + "}").encode("utf-8")

    def finish(
        self,
        name: str,
        children: Sequence[int],
        extras: dict[str, Any] | None = None,
        *,
        roots: Sequence[int] = (),
    ) -> tuple[Doc, bytes]:
        """The document, with a root node ``name`` over ``children`` as its one scene (with
        ``extras`` when given; ``roots`` more nodes at the scene's top, beside that root: a
        skinned mesh's node must be one), and the binary buffer (buffer 0, no uri yet)."""
        doc, pieces = self.finish_pieces(name, children, extras, roots=roots)
        return doc, b"".join(pieces)

    def finish_pieces(
        self,
        name: str,
        children: Sequence[int],
        extras: dict[str, Any] | None = None,
        *,
        roots: Sequence[int] = (),
    ) -> tuple[Doc, list[Piece]]:
        """:meth:`finish` with the binary buffer as the pieces that make it up, in order."""
        root: dict[str, Any] = {"children": list(children)} if children else {}
        root["name"] = name
        root_node = self.add("nodes", root)
        doc = self.doc
        doc["asset"] = {"generator": "quakemodels", "version": "2.0"}
        if self._size:
            doc["buffers"] = [{"byteLength": self._size}]
        doc["scene"] = 0
        scene: dict[str, Any] = {"extras": extras} if extras else {}
        doc["scenes"] = [scene | {"name": name, "nodes": [root_node, *roots]}]
        ordered = {key: doc[key] for key in _TOP_LEVEL if key in doc}
        ordered.update((key, value) for key, value in doc.items() if key not in ordered)
        return ordered, self._pieces


def _position_deltas(planar: FloatArray) -> tuple[FloatArray, list[list[float]], list[list[float]]]:
    """(F,3,N) C-contiguous Quake-space positions → the (F,N,3) C-contiguous Y-up deltas from
    frame 0, and each frame's (min, max) of them per Y-up axis as lists of (3,) floats.

    The deltas are taken as (F,3,N) rows and reduced along N (~8x faster than reducing the
    middle axis of (F,N,3)), then copied into the output one strided axis at a time (~2.5x
    faster than copying the transposed array whole; the Y-up order costs nothing there).
    """
    deltas = planar - planar[0]
    lows = deltas.min(axis=2)[:, Y_UP_AXES].astype(np.float64).tolist()
    highs = deltas.max(axis=2)[:, Y_UP_AXES].astype(np.float64).tolist()
    out = np.empty((planar.shape[0], planar.shape[2], 3), dtype=np.float32)
    for axis, quake in enumerate(Y_UP_AXES):
        out[:, :, axis] = deltas[:, quake]
    return out, lows, highs


def _targets_json(
    pos_view: int, nrm_view: int, n: int, highs: list[list[float]], lows: list[list[float]]
) -> str:
    """The JSON text (as :func:`json_bytes` writes it, without brackets) of the accessors
    :meth:`GltfBuilder.surface` adds for its morph targets: per frame ``f`` a POSITION
    accessor with bounds ``highs[f]``, ``lows[f]`` and a NORMAL one, at byte ``f × n × 12``
    of bufferViews ``pos_view`` and ``nrm_view``. The floats are the encoder's own text
    (one call for all of them); the rest is one format per frame."""
    maxs = _dumps(highs)[2:-2].split("],[")  # "[[x,y,z],[x,y,z]]": "]" and "[" are no digits
    mins = _dumps(lows)[2:-2].split("],[")
    tail = f',"componentType":{FLOAT},"normalized":false,"count":{n},"type":"VEC3"'
    pos = f'{{"bufferView":{pos_view},"byteOffset":%d{tail},"max":[%s],"min":[%s]}}'
    nrm = f'{{"bufferView":{nrm_view},"byteOffset":%d{tail}}}'
    size = n * 12
    frame = pos + "," + nrm
    items = [frame % (f * size, maxs[f], mins[f], f * size) for f in range(1, len(maxs))]
    first = (
        f'{{"bufferView":{pos_view}{tail},"max":[{maxs[0]}],"min":[{mins[0]}]}},'
        f'{{"bufferView":{nrm_view}{tail}}}'
    )
    return ",".join([first, *items])


def _y_up_deltas(frames: FloatArray) -> FloatArray:
    """(F,N,3) Quake-space vectors → (F,N,3) C-contiguous Y-up differences from frame 0:
    ``to_y_up(frames) - to_y_up(frames[0])`` in one pass, without the permuted copy."""
    out = np.empty(frames.shape, dtype=np.float32)
    for axis, quake in enumerate(Y_UP_AXES):
        np.subtract(frames[:, :, quake], frames[0, :, quake], out=out[:, :, axis])
    return out


def tag_quaternions(axes: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """(F,3,3) MD3 tag axes (rows: forward, left, up, Quake space) → (F,4) glTF xyzw unit.

    The tag's local-to-model matrix has the axes as columns; it is conjugated into Y-up and
    snapped to the nearest rotation (files store slightly non-orthonormal axes).
    """
    p = Y_UP.astype(np.float64)
    m = p @ np.swapaxes(np.asarray(axes, np.float64), -1, -2) @ p.T
    u, _, vt = np.linalg.svd(m)
    r = u @ vt
    flip = np.linalg.det(r) < 0
    u[flip, :, 2] *= -1
    r = u @ vt
    out = _quats(r)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    # neighbouring keys in the same hemisphere so LINEAR (slerp) takes the short way
    out[1:][_hemisphere_flips(out)] *= -1
    return out.astype(np.float32)


def _quats(r: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """(F,3,3) rotation matrices → (F,4) quaternions (x, y, z, w), each row computed with the
    operations, in the order, of the classic one-matrix conversion (bit for bit)."""
    out = np.empty((r.shape[0], 4))
    t = r[:, 0, 0] + r[:, 1, 1] + r[:, 2, 2]
    positive = t > 0
    m = r[positive]
    s = np.sqrt(t[positive] + 1.0) * 2
    out[positive] = np.stack(
        [
            (m[:, 2, 1] - m[:, 1, 2]) / s,
            (m[:, 0, 2] - m[:, 2, 0]) / s,
            (m[:, 1, 0] - m[:, 0, 1]) / s,
            s / 4,
        ],
        axis=1,
    )
    rest = np.flatnonzero(~positive)
    if rest.size:
        # the largest diagonal entry i (the first of equals) and the next two, cyclically
        m = r[rest]
        row = np.arange(rest.size)
        i = np.argmax(np.diagonal(m, axis1=1, axis2=2), axis=1)
        j, k = (i + 1) % 3, (i + 2) % 3
        s = np.sqrt(1.0 + m[row, i, i] - m[row, j, j] - m[row, k, k]) * 2
        q = np.empty((rest.size, 4))
        q[row, i] = s / 4
        q[row, j] = (m[row, j, i] + m[row, i, j]) / s
        q[row, k] = (m[row, k, i] + m[row, i, k]) / s
        q[:, 3] = (m[row, k, j] - m[row, j, k]) / s
        out[rest] = q
    return out


def _hemisphere_flips(quats: npt.NDArray[np.float64]) -> list[bool]:
    """Which of quaternions 1..F-1 to negate so that each has a non-negative dot product with
    the one before it (as negated already): ``np.dot(q[i], q[i - 1]) < 0`` tested in turn.

    Negating a vector negates its dot products exactly, so the sign of each stored pair's
    dot decides: a sign taken from the row-wise products where they are far from 0, from
    ``np.dot`` itself (the very value the sequential test computes) where they are not.
    """
    dots = np.einsum("ij,ij->i", quats[1:], quats[:-1])
    near = np.flatnonzero(~(np.abs(dots) > 1e-6))  # NaN included
    for i in near.tolist():
        dots[i] = np.dot(quats[i + 1], quats[i])
    flips: list[bool] = []
    flipped = False
    for negative, positive in zip((dots < 0).tolist(), (dots > 0).tolist(), strict=True):
        flipped = (negative and not flipped) or (positive and flipped)
        flips.append(flipped)
    return flips


def target_names(model: ExportModel) -> list[str]:
    """Morph target names: the frame names, or ``frame0``, ``frame1``... when they are not
    unique (three.js keys ``morphTargetDictionary`` by name; MD3 frame names are usually the
    exporting tool's name, the same for every frame)."""
    names = list(model.frame_names)
    if len(names) != model.num_frames or len(set(names)) != model.num_frames:
        names = [f"frame{f}" for f in range(model.num_frames)]
    return names


def build_gltf(model: ExportModel) -> tuple[Doc, bytes]:
    """The glTF document (plain data) and its binary buffer for ``model`` (buffer 0 has no uri
    yet)."""
    doc, pieces = build_gltf_pieces(model)
    return doc, b"".join(pieces)


def build_gltf_pieces(model: ExportModel) -> tuple[Doc, list[Piece]]:
    """:func:`build_gltf` with the binary buffer as its pieces (see :data:`Piece`)."""
    doc, pieces, _ = _build(model)
    return doc, pieces


def build_gltf_parts(model: ExportModel) -> tuple[Doc, list[Piece], Encoder]:
    """:func:`build_gltf_pieces` and the JSON writer of its builder: what the one road to
    glTF (``quakemodels.cli.gltf``) writes."""
    doc, pieces, builder = _build(model)
    return doc, pieces, builder.json_bytes


def _build(model: ExportModel) -> tuple[Doc, list[Piece], GltfBuilder]:
    """:func:`build_gltf_pieces`, and the builder (whose ``json_bytes`` writes the JSON)."""
    # glTF's JSON cannot hold NaN or infinity (bounds, tag transforms); found by fuzzing: a
    # frame scale of NaN made json.dumps raise ValueError
    require_finite(model, "glTF")
    b = GltfBuilder()
    num_frames = model.num_frames
    names = target_names(model)
    mesh_nodes = [node for s in model.surfaces if (node := b.surface(s, names)) is not None]
    tag_tracks = [b.tag(tag) for tag in model.tags]
    for clip_name, clip_range in model.clips.items():
        frames = [f for f in clip_range if 0 <= f < num_frames]
        if frames and (mesh_nodes or tag_tracks):
            times = model.key_times(clip_name, len(frames))
            b.clip(clip_name, frames, num_frames, mesh_nodes, tag_tracks, model.fps, times)
    doc, pieces = b.finish_pieces(model.name, [*mesh_nodes, *(node for node, _, _ in tag_tracks)])
    return doc, pieces, b


# Compact JSON, non-ASCII escaped, NaN refused; no check for cycles: the document is a tree
# of fresh dicts and lists.
_dumps = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False).encode


def json_bytes(doc: Doc) -> bytes:
    """The document as compact JSON (UTF-8, non-ASCII escaped; NaN refused)."""
    return _dumps(doc).encode("utf-8")


def glb_bytes(doc: Doc, blob: bytes) -> bytes:
    """The GLB container: 12-byte header, JSON chunk (space padded), BIN chunk (zero padded)."""
    return b"".join(glb_pieces(doc, [blob] if blob else []))


def glb_pieces(
    doc: Doc, pieces: Sequence[Piece], encode: Callable[[Doc], bytes] = json_bytes
) -> list[Piece]:
    """:func:`glb_bytes` as the pieces to write one after the other: the binary chunk holds
    ``pieces`` themselves (see :data:`Piece`), not a copy. ``encode`` writes the JSON (the
    builder's :meth:`GltfBuilder.json_bytes`, the same bytes, for its own document)."""
    js = encode(doc)
    js += b" " * (-len(js) % 4)
    size = sum(len(p) for p in pieces)
    pad = b"\0" * (-size % 4)
    total = _GLB_HEADER.size + _CHUNK_HEADER.size + len(js)
    if size:
        total += _CHUNK_HEADER.size + size + len(pad)
    out: list[Piece] = [
        _GLB_HEADER.pack(b"glTF", 2, total),
        _CHUNK_HEADER.pack(len(js), b"JSON"),
        js,
    ]
    if size:
        out += [_CHUNK_HEADER.pack(size + len(pad), b"BIN\0"), *pieces, pad]
    return out


def gltf_bytes(doc: Doc, blob: bytes, encode: Callable[[Doc], bytes] = json_bytes) -> bytes:
    """A self-contained ``.gltf``: the buffer embedded as a base64 data URI (``encode`` as in
    :func:`glb_pieces`)."""
    import base64  # here: half a millisecond of start-up that a .glb export never needs

    if "buffers" in doc:
        uri = "data:application/octet-stream;base64," + base64.b64encode(blob).decode("ascii")
        doc = {**doc, "buffers": [{"uri": uri, **doc["buffers"][0]}, *doc["buffers"][1:]]}
    return encode(doc)


def export_gltf(
    model: ExportModel,
    path: str | os.PathLike[str],
    *,
    binary: bool | None = None,
) -> None:
    """Write ``model`` to ``path`` (``.glb`` binary unless ``binary`` or the suffix says so)."""
    doc, pieces, builder = _build(model)
    write_gltf(path, doc, pieces, builder, binary=binary)


def write_gltf(
    path: str | os.PathLike[str],
    doc: Doc,
    pieces: Sequence[Piece],
    builder: GltfBuilder,
    *,
    binary: bool | None = None,
) -> None:
    """Write the document ``builder`` finished and its buffer's ``pieces`` to ``path``
    atomically: ``.glb`` unless ``binary`` or a ``.gltf`` suffix says otherwise (a ``.glb``
    straight from the pieces, never joined)."""
    write_gltf_parts(path, doc, pieces, builder.json_bytes, binary=binary)


def write_gltf_parts(
    path: str | os.PathLike[str],
    doc: Doc,
    pieces: Sequence[Piece],
    encode: Encoder = json_bytes,
    *,
    binary: bool | None = None,
) -> None:
    """:func:`write_gltf` with the JSON writer ``encode`` in place of a builder (see
    :data:`Encoder`)."""
    if binary is None:
        binary = not os.fspath(path).lower().endswith(".gltf")
    if not binary:
        write_bytes_atomic(path, gltf_bytes(doc, b"".join(pieces), encode))
        return
    with atomic_output(path) as f:
        for piece in glb_pieces(doc, pieces, encode):
            f.write(piece)


Format = Literal["glb", "gltf"]
