"""A glTF's textures and stored names as a convert target reads them.

What a modder's glTF carries for a Quake model's skins and shaders, read per surface:

* the base colour image of each primitive's material: embedded in a buffer view, a ``data:``
  URI, or a file named by a relative ``uri`` inside the glTF's folder (never outside it, never
  a FIFO or device), as the file's bytes;
* the game paths the model stores (MD2 skin names, MD3 shader names). Blender drops every
  ``extras`` but keeps material names and object names, so the exporter
  (:mod:`quakemodels.interchange.gltf_write`) names a surface's material after its first
  stored name and adds one empty child node ``skin<k>:<name>`` per further name; they are read
  back here. Blender makes a repeated name unique with ``.001``: that suffix is dropped. A
  material name is taken as a stored name when it is a game path with a ``/`` or an image
  extension (``Material`` and ``Material.001``, Blender's own names, are not).

Surfaces are keyed by the name :func:`~quakemodels.interchange.gltf_read.read_gltf_scene`
gives them (the node's name, else the mesh's, ``_01``... per primitive when a mesh has
several). Everything here is untrusted and validated as gltf_read validates it; a broken
image is a reason (``problem``), not an error, so that the geometry still converts.
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import re
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.gamepaths import game_path
from ..core.skins import IMAGE_EXTENSIONS
from ..errors import ModelFormatError
from .gltf_doc import _Document, _external, _mesh_primitives, _nodes, _open
from .gltf_read import _embedded

SKIN_NODE = re.compile(r"skin(\d{1,2}):(.+)")
"""An empty child of a surface's node that carries the surface's further stored name k ≥ 1."""
_BLENDER_COPY = re.compile(r"\.\d{3}$")
_MAX_NAME = 63  # what an MD2 skin or MD3 shader field holds (64 bytes with the NUL)


@dataclass(frozen=True)
class GltfTexture:
    """One surface's material as a build reads it.

    ``names``: the stored game paths it carries (first the material's, then ``skin1:``...,
    possibly empty); ``material``: the material's name (None: no material); ``image``: the
    base colour image's label (its name or uri; None: no image); ``data``: the image file's
    bytes (None when it has none or it cannot be read); ``problem``: why an image that is
    there cannot be used."""

    names: tuple[str, ...] = ()
    material: str | None = None
    image: str | None = None
    data: bytes | None = None
    problem: str | None = None


def stored_name(text: Any) -> str | None:
    """The game path a material or skin node name carries (Blender's ``.001`` dropped), or
    None when it is none (empty, too long, absolute, ``..``, no ``/`` and no image
    extension)."""
    if not isinstance(text, str):
        return None
    name = _BLENDER_COPY.sub("", text)
    path = game_path(name) if name else None
    if path is None or len(path.encode()) > _MAX_NAME:
        return None
    if "/" not in path and not path.lower().endswith(IMAGE_EXTENSIONS):
        return None
    return path


def _image_bytes(
    g: _Document, i: int, image: dict[str, Any]
) -> tuple[str, bytes | None, str | None]:
    """(label, bytes or None, problem) of ``images[i]``."""
    name = image.get("name")
    uri = image.get("uri")
    label = name if isinstance(name, str) else uri if isinstance(uri, str) else f"images[{i}]"
    label = label[:200]
    try:
        found = _embedded(g, i, image)
        if found is not None:
            return label, found[1], None
        if not isinstance(uri, str):
            return label, None, f"images[{i}] has neither a bufferView nor a uri"
        if uri.startswith("data:"):
            head, _, payload = uri.partition(",")
            if not head.endswith(";base64"):
                return label, None, f"images[{i}].uri is a data URI without ;base64"
            return label, base64.b64decode(payload, validate=True), None
        return label, _external(g, f"images[{i}].uri", uri), None
    except ModelFormatError as e:
        return label, None, str(e)
    except (binascii.Error, ValueError) as e:
        return label, None, f"images[{i}].uri is a bad data URI: {e}"


def _texture(g: _Document, material: Any, names: tuple[str, ...]) -> GltfTexture:
    """The texture of a primitive's ``material`` (an index or None)."""
    if material is None:
        return GltfTexture(names)
    m, mat = g.item("materials", material, "material")
    label = mat.get("name") if isinstance(mat.get("name"), str) else f"materials[{m}]"
    first = stored_name(mat.get("name"))
    names = ((first,) if first is not None else ()) + names
    pbr = mat.get("pbrMetallicRoughness")
    color = pbr.get("baseColorTexture") if isinstance(pbr, dict) else None
    if not isinstance(color, dict) or color.get("index") is None:
        return GltfTexture(names, label)
    t, texture = g.item("textures", color["index"], f"materials[{m}].baseColorTexture.index")
    if texture.get("source") is None:
        return GltfTexture(names, label, problem=f"textures[{t}] has no source image")
    i, image = g.item("images", texture["source"], f"textures[{t}].source")
    image_label, data, problem = _image_bytes(g, i, image)
    return GltfTexture(names, label, image_label, data, problem)


def _skin_nodes(g: _Document, node: dict[str, Any], nodes: list[Any]) -> tuple[str, ...]:
    """The names of a surface node's ``skin<k>:`` children, in k's order."""
    found: dict[int, str] = {}
    children = node.get("children")
    for c in children if isinstance(children, list) else []:
        if type(c) is not int or not 0 <= c < len(nodes):
            continue
        child = nodes[c].node
        match = SKIN_NODE.fullmatch(_BLENDER_COPY.sub("", nodes[c].name))
        if child.get("mesh") is None and match is not None:
            name = stored_name(match.group(2))
            if name is not None:
                found.setdefault(int(match.group(1)), name)
    return tuple(found[k] for k in sorted(found))


def _surface_textures(g: _Document) -> list[tuple[str, GltfTexture]]:
    """(surface name, texture) of every triangle primitive of every node with a mesh, in
    read_gltf_scene's order; when no node has a mesh, of every mesh's primitives."""
    nodes = _nodes(g)
    out: list[tuple[str, GltfTexture]] = []
    for n in nodes:
        if n.node.get("mesh") is None:
            continue
        m, mesh = g.item("meshes", n.node["mesh"], f"nodes[{n.index}].mesh")
        prims = _mesh_primitives(g, m, mesh)
        mesh_name = mesh.get("name")
        label = n.name or (mesh_name if isinstance(mesh_name, str) else "") or f"surface{m}"
        extra = _skin_nodes(g, n.node, nodes)
        for j, prim in enumerate(prims):
            name = label if len(prims) == 1 else f"{label}_{j + 1:02d}"
            out.append((name, _texture(g, prim.material, extra)))
    if not out:
        for m, value in enumerate(g.array(g.doc.get("meshes", []), "meshes")):
            for j, prim in enumerate(_mesh_primitives(g, m, value)):
                out.append((f"surface{m}_{j + 1:02d}", _texture(g, prim.material, ())))
    return out


def surface_textures(path: str | os.PathLike[str]) -> dict[str, GltfTexture]:
    """Every surface's texture by the name read_gltf_scene gives the surface (see the module
    doc); a ModelFormatError when the document's materials, textures or images are broken."""
    g, _ = _open(path)
    return dict(_surface_textures(g))


def first_texture(path: str | os.PathLike[str]) -> GltfTexture | None:
    """The texture of a glTF converted to one mesh (MD2, MDL): the first surface's that has an
    image, else the first with stored names, else the first with a material; None when no
    surface has a material."""
    g, _ = _open(path)
    found = [t for _, t in _surface_textures(g)]
    ranked = [t for t in found if t.image is not None] + [t for t in found if t.names]
    ranked += [t for t in found if t.material is not None]
    return ranked[0] if ranked else None


def image_count(path: str | os.PathLike[str]) -> int:
    """How many images the glTF lists."""
    g, _ = _open(path)
    images = g.doc.get("images")
    return len(images) if isinstance(images, list) else 0


def image_at(path: str | os.PathLike[str], index: int) -> GltfTexture:
    """``images[index]`` of the glTF (the caller checks ``index`` against
    :func:`image_count`) as a texture without names."""
    g, _ = _open(path)
    i, image = g.item("images", index, "images")
    label, data, problem = _image_bytes(g, i, image)
    return GltfTexture((), None, label, data, problem)


def decode_image(data: bytes) -> npt.NDArray[np.uint8] | None:
    """An image file's pixels, (H,W,3) uint8, or (H,W,4) when it has transparency; None when
    Pillow cannot decode it (or it is over Pillow's decompression-bomb limit)."""
    from PIL import Image, UnidentifiedImageError  # Pillow is heavy: only a skin needs it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
                rgb = image.convert("RGBA" if alpha else "RGB")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning):  # fmt: skip
        return None
    return np.asarray(rgb, dtype=np.uint8)


__all__ = [
    "SKIN_NODE",
    "GltfTexture",
    "decode_image",
    "first_texture",
    "image_at",
    "image_count",
    "stored_name",
    "surface_textures",
]
