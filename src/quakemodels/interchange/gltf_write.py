"""glTF 2.0 export (``.glb`` binary or ``.gltf`` with the buffer embedded), built with pygltflib.

Layout, per surface (MD2 has one, MD3 one per surface), one mesh with one primitive:

* frame 0 is the base geometry (POSITION with min/max, NORMAL, TEXCOORD_0, uint16/uint32
  indices); every frame ``f`` is morph target ``f`` holding POSITION and NORMAL deltas from
  frame 0 (target 0 is all zeros), named by ``mesh.extras.targetNames`` (frame names), which
  three.js turns into ``morphTargetDictionary`` and Blender into shape key names.
* one animation per clip, named as the clip, at 10 frames per second: key ``k`` at ``k / 10`` s
  (or at the clip's ``ExportModel.clip_times``, from an MDL frame group's intervals) with
  weight 1 on the clip's ``k``-th frame and 0 elsewhere, a ``weights`` channel with a
  LINEAR sampler. LINEAR blending of two one-hot weight vectors is exactly Quake's
  ``lerp(frame a, frame b, t)``; three.js (GLTFLoader → NumberKeyframeTrack on
  ``morphTargetInfluences``) and Blender (shape key value F-curves) both play it as such, while
  STEP would show Quake's 10 fps judder. A clip of n frames lasts (n - 1) / 10 s and ends on its
  last frame; one-frame clips have one key.
* MD3 tags are nodes whose translation and rotation are animated per frame (LINEAR; glTF
  slerps rotations) in the same animations, so attached models can be parented to them.
* the skin, when :mod:`quakemodels.skins` finds one, is embedded as a PNG texture.

Quake's Z-up space becomes glTF's Y-up by the rotation (x, y, z) → (y, z, x) (see
:func:`quakemodels.export.to_y_up`): a Quake model faces +X, a glTF asset faces +Z.
Texcoords need no flip: MD2 stores (s / w, t / h) with t growing downwards, which is glTF's
convention (UV (0, 0) is the image's top-left corner).
"""

from __future__ import annotations

import base64
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pygltflib as g

from ..core.atomic import write_bytes_atomic
from ..core.scene import ExportModel, Tag, to_y_up
from ..errors import BadValueError

FLOAT = 5126
UNSIGNED_SHORT = 5123
UNSIGNED_INT = 5125
ARRAY_BUFFER = 34962
ELEMENT_ARRAY_BUFFER = 34963


@dataclass
class _Blob:
    """The binary buffer being built: 4-byte aligned pieces, and the bufferViews over them."""

    pieces: list[bytes] = field(default_factory=list)
    size: int = 0
    views: list[g.BufferView] = field(default_factory=list)

    def add(self, data: bytes, *, target: int | None = None, stride: int | None = None) -> int:
        """Append ``data`` as a new bufferView; returns its index."""
        self.views.append(
            g.BufferView(
                buffer=0,
                byteOffset=self.size,
                byteLength=len(data),
                target=target,
                byteStride=stride,
            )
        )
        pad = -len(data) % 4
        self.pieces.append(data + b"\0" * pad)
        self.size += len(data) + pad
        return len(self.views) - 1

    def bytes(self) -> bytes:
        return b"".join(self.pieces)


def _floats(values: npt.NDArray[Any]) -> list[float]:
    # float32 → Python float is exact, so the JSON min/max equal the stored values bit for bit
    return [float(v) for v in np.asarray(values, dtype=np.float32).reshape(-1)]


class _Builder:
    def __init__(self) -> None:
        self.blob = _Blob()
        self.accessors: list[g.Accessor] = []

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
        acc = g.Accessor(
            bufferView=view,
            byteOffset=offset or None,
            componentType=component,
            count=count,
            type=kind,
        )
        if minmax is not None:
            if component == FLOAT:
                acc.min, acc.max = _floats(minmax[0]), _floats(minmax[1])
            else:
                acc.min = [int(v) for v in np.asarray(minmax[0]).reshape(-1)]
                acc.max = [int(v) for v in np.asarray(minmax[1]).reshape(-1)]
        self.accessors.append(acc)
        return len(self.accessors) - 1

    def data(
        self, array: npt.NDArray[Any], kind: str, *, target: int | None = None, minmax: bool = False
    ) -> int:
        """One bufferView + accessor for a float32 (count, k) array."""
        a = np.ascontiguousarray(array, dtype=np.float32)
        view = self.blob.add(a.tobytes(), target=target)
        mm = (a.min(axis=0), a.max(axis=0)) if minmax else None
        return self.accessor(view, int(a.shape[0]), kind, minmax=mm)


def _quaternions(axes: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """(F,3,3) MD3 tag axes (rows: forward, left, up, Quake space) → (F,4) glTF xyzw unit.

    The tag's local-to-model matrix has the axes as columns; it is conjugated into Y-up and
    snapped to the nearest rotation (files store slightly non-orthonormal axes).
    """
    p = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=np.float64)
    m = p @ np.swapaxes(np.asarray(axes, np.float64), -1, -2) @ p.T
    u, _, vt = np.linalg.svd(m)
    r = u @ vt
    flip = np.linalg.det(r) < 0
    u[flip, :, 2] *= -1
    r = u @ vt
    out = np.empty((r.shape[0], 4))
    for i, mat in enumerate(r):
        out[i] = _quat(mat)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    # neighbouring keys in the same hemisphere so LINEAR (slerp) takes the short way
    for i in range(1, len(out)):
        if np.dot(out[i], out[i - 1]) < 0:
            out[i] = -out[i]
    return out.astype(np.float32)


def _quat(m: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Rotation matrix → quaternion (x, y, z, w)."""
    t = m[0, 0] + m[1, 1] + m[2, 2]
    if t > 0:
        s = np.sqrt(t + 1.0) * 2
        return np.array(
            [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
        )
    i = int(np.argmax(np.diag(m)))
    j, k = (i + 1) % 3, (i + 2) % 3
    s = np.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k]) * 2
    q = np.empty(4)
    q[i] = s / 4
    q[j] = (m[j, i] + m[i, j]) / s
    q[k] = (m[k, i] + m[i, k]) / s
    q[3] = (m[k, j] - m[j, k]) / s
    return q


def _require_finite(model: ExportModel) -> None:
    """glTF's JSON cannot hold NaN or infinity (bounds, tag transforms): refuse such models.

    Found by fuzzing (a frame scale of NaN made ``json.dumps`` raise ValueError).
    """
    for s in model.surfaces:
        for what, values in (("positions", s.positions), ("normals", s.normals), ("uvs", s.uvs)):
            if values.size and not np.isfinite(values).all():
                raise BadValueError(
                    f"surface {s.name!r} has non-finite {what} (NaN or infinite frame scale,"
                    " translate or texcoords): glTF cannot store them"
                )
    for t in model.tags:
        if not (np.isfinite(t.origins).all() and np.isfinite(t.axes).all()):
            raise BadValueError(f"tag {t.name!r} has a non-finite origin or axis")


def build_gltf(model: ExportModel) -> tuple[g.GLTF2, bytes]:
    """The glTF document and its binary buffer for ``model`` (buffer 0 has no uri yet)."""
    _require_finite(model)
    b = _Builder()
    num_frames = model.num_frames
    names = list(model.frame_names)
    if len(names) != num_frames or len(set(names)) != num_frames:
        # three.js keys morphTargetDictionary by name: names must be unique (MD3 frame names
        # are usually the exporting tool's name, the same for every frame)
        names = [f"frame{f}" for f in range(num_frames)]
    nodes: list[g.Node] = []
    meshes: list[g.Mesh] = []
    materials: list[g.Material] = []
    textures: list[g.Texture] = []
    images: list[g.Image] = []
    samplers: list[g.Sampler] = []
    mesh_nodes: list[int] = []
    children: list[int] = []

    for surface in model.surfaces:
        if surface.indices.size == 0 or surface.positions.shape[1] == 0:
            continue  # glTF accessors cannot be empty; a surface without triangles has nothing
        pos = to_y_up(surface.positions)  # (F,N,3)
        nrm = to_y_up(surface.normals)
        n = pos.shape[1]
        attributes = g.Attributes(
            POSITION=b.data(pos[0], "VEC3", target=ARRAY_BUFFER, minmax=True),
            NORMAL=b.data(nrm[0], "VEC3", target=ARRAY_BUFFER),
        )
        if surface.uvs.shape[0] == n:
            attributes.TEXCOORD_0 = b.data(surface.uvs, "VEC2", target=ARRAY_BUFFER)
        idx = surface.indices.reshape(-1)
        wide = int(idx.max()) >= 65535  # 65535 is the uint16 primitive-restart value
        idx_bytes = idx.astype(np.uint32 if wide else np.uint16).tobytes()
        idx_view = b.blob.add(idx_bytes, target=ELEMENT_ARRAY_BUFFER)
        indices = b.accessor(
            idx_view,
            int(idx.size),
            "SCALAR",
            UNSIGNED_INT if wide else UNSIGNED_SHORT,
        )
        dpos = pos - pos[0]
        dnrm = nrm - nrm[0]
        # All targets of one attribute share a bufferView (so it needs byteStride).
        pos_view = b.blob.add(dpos.tobytes(), target=ARRAY_BUFFER, stride=12)
        nrm_view = b.blob.add(dnrm.tobytes(), target=ARRAY_BUFFER, stride=12)
        lo, hi = dpos.min(axis=1), dpos.max(axis=1)
        targets = []
        for f in range(num_frames):
            targets.append(
                {
                    "POSITION": b.accessor(
                        pos_view, n, "VEC3", offset=f * n * 12, minmax=(lo[f], hi[f])
                    ),
                    "NORMAL": b.accessor(nrm_view, n, "VEC3", offset=f * n * 12),
                }
            )
        material = None
        if surface.skin is not None:
            image_view = b.blob.add(surface.skin.png_bytes())
            images.append(
                g.Image(bufferView=image_view, mimeType="image/png", name=surface.skin.path.name)
            )
            if not samplers:
                samplers.append(g.Sampler(magFilter=9729, minFilter=9987, wrapS=10497, wrapT=10497))
            textures.append(g.Texture(sampler=0, source=len(images) - 1))
            has_alpha = getattr(surface.skin.image, "mode", "RGB") == "RGBA"
            materials.append(
                g.Material(
                    name=surface.skin.path.stem,
                    pbrMetallicRoughness=g.PbrMetallicRoughness(
                        baseColorTexture=g.TextureInfo(index=len(textures) - 1),
                        metallicFactor=0.0,
                        roughnessFactor=1.0,
                    ),
                    alphaMode="MASK" if has_alpha else None,
                )
            )
            material = len(materials) - 1
        prim = g.Primitive(
            attributes=attributes, indices=indices, targets=targets, material=material
        )
        meshes.append(
            g.Mesh(
                name=surface.name,
                primitives=[prim],
                weights=[0.0] * num_frames,
                extras={"targetNames": names},
            )
        )
        nodes.append(g.Node(name=surface.name, mesh=len(meshes) - 1))
        mesh_nodes.append(len(nodes) - 1)
        children.append(len(nodes) - 1)

    tag_nodes: list[tuple[int, Tag, npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
    for tag in model.tags:
        origins = to_y_up(tag.origins)
        rotations = _quaternions(tag.axes)
        nodes.append(
            g.Node(name=tag.name, translation=_floats(origins[0]), rotation=_floats(rotations[0]))
        )
        tag_nodes.append((len(nodes) - 1, tag, origins, rotations))
        children.append(len(nodes) - 1)

    animations: list[g.Animation] = []
    for clip_name, clip_range in model.clips.items():
        frames = [f for f in clip_range if 0 <= f < num_frames]
        if not frames or (not mesh_nodes and not tag_nodes):
            continue
        k = len(frames)
        times = model.key_times(clip_name, k)
        time_view = b.blob.add(times.tobytes())
        t_acc = b.accessor(time_view, k, "SCALAR", minmax=(times[:1], times[-1:]))
        samplers_a: list[g.AnimationSampler] = []
        channels: list[g.AnimationChannel] = []
        if mesh_nodes:
            weights = np.zeros((k, num_frames), dtype=np.float32)
            weights[np.arange(k), frames] = 1.0
            w_view = b.blob.add(weights.tobytes())
            w_acc = b.accessor(w_view, k * num_frames, "SCALAR")
            samplers_a.append(g.AnimationSampler(input=t_acc, output=w_acc, interpolation="LINEAR"))
            for node in mesh_nodes:
                channels.append(
                    g.AnimationChannel(
                        sampler=0, target=g.AnimationChannelTarget(node=node, path="weights")
                    )
                )
        for node, _tag, origins, rotations in tag_nodes:
            for path, values, kind in (
                ("translation", origins[frames], "VEC3"),
                ("rotation", rotations[frames], "VEC4"),
            ):
                view = b.blob.add(np.ascontiguousarray(values).tobytes())
                acc = b.accessor(view, k, kind)
                samplers_a.append(
                    g.AnimationSampler(input=t_acc, output=acc, interpolation="LINEAR")
                )
                channels.append(
                    g.AnimationChannel(
                        sampler=len(samplers_a) - 1,
                        target=g.AnimationChannelTarget(node=node, path=path),
                    )
                )
        animations.append(g.Animation(name=clip_name, samplers=samplers_a, channels=channels))

    nodes.append(g.Node(name=model.name, children=children))
    blob = b.blob.bytes()
    doc = g.GLTF2(
        asset=g.Asset(version="2.0", generator="quakemodels"),
        scene=0,
        scenes=[g.Scene(name=model.name, nodes=[len(nodes) - 1])],
        nodes=nodes,
        meshes=meshes,
        materials=materials,
        textures=textures,
        images=images,
        samplers=samplers,
        animations=animations,
        accessors=b.accessors,
        bufferViews=b.blob.views,
        buffers=[g.Buffer(byteLength=len(blob))] if blob else [],
    )
    return doc, blob


def _json_bytes(doc: g.GLTF2) -> bytes:
    text = doc.gltf_to_json(separators=(",", ":"), indent=None)
    # pygltflib drops None fields but keeps empty lists; glTF requires arrays to be non-empty
    data = json.loads(text)
    for key in [k for k, v in data.items() if v == [] or v == {}]:
        del data[key]
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def glb_bytes(doc: g.GLTF2, blob: bytes) -> bytes:
    """The GLB container: 12-byte header, JSON chunk (space padded), BIN chunk (zero padded)."""
    js = _json_bytes(doc)
    js += b" " * (-len(js) % 4)
    out = [struct.pack("<4sII", b"glTF", 2, 0), struct.pack("<I4s", len(js), b"JSON"), js]
    if blob:
        blob += b"\0" * (-len(blob) % 4)
        out += [struct.pack("<I4s", len(blob), b"BIN\0"), blob]
    data = b"".join(out)
    return data[:8] + struct.pack("<I", len(data)) + data[12:]


def gltf_bytes(doc: g.GLTF2, blob: bytes) -> bytes:
    """A self-contained ``.gltf``: the buffer embedded as a base64 data URI."""
    if doc.buffers:
        doc.buffers[0].uri = "data:application/octet-stream;base64," + base64.b64encode(
            blob
        ).decode("ascii")
    return _json_bytes(doc)


def export_gltf(
    model: ExportModel,
    path: str | os.PathLike[str],
    *,
    binary: bool | None = None,
) -> None:
    """Write ``model`` to ``path`` (``.glb`` binary unless ``binary`` or the suffix says so)."""
    if binary is None:
        binary = not os.fspath(path).lower().endswith(".gltf")
    doc, blob = build_gltf(model)
    data = glb_bytes(doc, blob) if binary else gltf_bytes(doc, blob)
    write_bytes_atomic(path, data)


Format = Literal["glb", "gltf"]
