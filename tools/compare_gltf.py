"""Compare two folders of glTF exports (``.glb``/``.gltf``) by content, file by file.

    python tools/compare_gltf.py [--defaults] OLD_DIR NEW_DIR

Two exports are equivalent when their JSON documents are equal once every bufferView is
replaced by what it holds: the bytes of vertex, index and animation data (exactly), and the
decoded pixels of an embedded image as RGBA (PNG encoder settings may differ, and a skin may
be a PNG in one and its JPEG file as it is in the other: the image's ``mimeType`` follows).
Offsets and lengths in the buffer may then differ; nothing else may. With ``--defaults`` a
property written at glTF 2.0's default value (an accessor's ``byteOffset`` 0, a material's
``alphaMode`` ``OPAQUE``...) counts as absent, as every reader takes it. Prints one line per
file and exits 1 on any difference or missing file. Used to check that a writer change keeps every
corpus export.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import struct
import sys
from pathlib import Path
from typing import Any


def read_gltf(path: Path) -> tuple[dict[str, Any], bytes]:
    """The JSON document and binary buffer 0 of a ``.glb`` or self-contained ``.gltf``."""
    data = path.read_bytes()
    if data[:4] == b"glTF":
        (json_len,) = struct.unpack_from("<I", data, 12)
        doc = json.loads(data[20 : 20 + json_len])
        rest = 20 + json_len
        blob = data[rest + 8 :] if len(data) > rest else b""
        return doc, blob
    doc = json.loads(data)
    buffers = doc.get("buffers") or [{}]
    uri = buffers[0].get("uri", "")
    blob = base64.b64decode(uri.split(",", 1)[1]) if uri.startswith("data:") else b""
    return doc, blob


# Where glTF 2.0's schema gives a property a default: the kinds of object (by the top-level
# array or the property holding them) and their defaults.
SPEC_DEFAULTS: dict[str, dict[str, Any]] = {
    "accessors": {"byteOffset": 0, "normalized": False},
    "bufferViews": {"byteOffset": 0},
    "materials": {
        "emissiveFactor": [0.0, 0.0, 0.0],
        "alphaMode": "OPAQUE",
        "alphaCutoff": 0.5,
        "doubleSided": False,
    },
    "pbrMetallicRoughness": {
        "baseColorFactor": [1.0, 1.0, 1.0, 1.0],
        "metallicFactor": 1.0,
        "roughnessFactor": 1.0,
    },
    "baseColorTexture": {"texCoord": 0},
    "primitives": {"mode": 4},
    "samplers": {"wrapS": 10497, "wrapT": 10497, "interpolation": "LINEAR"},
}


def without_defaults(item: Any, kind: str = "") -> Any:
    """``item`` (a document, or the object(s) under property ``kind``) without properties at
    their default value (:data:`SPEC_DEFAULTS`)."""
    if isinstance(item, list):
        return [without_defaults(x, kind) for x in item]
    if not isinstance(item, dict) or kind in ("extras", "extensions"):
        return item
    defaults = SPEC_DEFAULTS.get(kind, {})
    return {
        k: without_defaults(v, k)
        for k, v in item.items()
        if not (k in defaults and v == defaults[k])
    }


def normalized(doc: dict[str, Any], blob: bytes) -> dict[str, Any]:
    """``doc`` with bufferViews replaced by digests of their content (images by pixels)."""
    from PIL import Image

    image_views = {img.get("bufferView") for img in doc.get("images", [])}
    views = []
    for i, view in enumerate(doc.get("bufferViews", [])):
        start = view.get("byteOffset", 0)
        chunk = blob[start : start + view["byteLength"]]
        if i in image_views:
            with Image.open(io.BytesIO(chunk)) as im:
                rgba = im.convert("RGBA")
                content = f"{rgba.size} ".encode() + rgba.tobytes()
        else:
            content = chunk
        kept = {k: v for k, v in view.items() if k not in ("byteOffset", "byteLength")}
        views.append({**kept, "content": hashlib.sha256(content).hexdigest()})
    out = {k: v for k, v in doc.items() if k not in ("bufferViews", "buffers", "images")}
    out["images"] = [
        {k: v for k, v in img.items() if k != "mimeType"} for img in doc.get("images", [])
    ]
    out["bufferViews"] = views
    out["buffers"] = len(doc.get("buffers", []))
    return out


def compare(old: Path, new: Path, defaults: bool = False) -> list[str]:
    """Lines describing every difference between the exports in ``old`` and ``new``
    (``defaults``: properties at their default value count as absent)."""
    problems = []
    names = sorted(
        {p.relative_to(old) for p in old.rglob("*") if p.suffix in (".glb", ".gltf")}
        | {p.relative_to(new) for p in new.rglob("*") if p.suffix in (".glb", ".gltf")}
    )
    for name in names:
        a, b = old / name, new / name
        if not (a.is_file() and b.is_file()):
            problems.append(f"{name}: only in {'old' if a.is_file() else 'new'}")
            continue
        if a.read_bytes() == b.read_bytes():
            print(f"{name}: identical bytes")
            continue
        (doc_a, blob_a), (doc_b, blob_b) = read_gltf(a), read_gltf(b)
        if normalized(doc_a, blob_a) == normalized(doc_b, blob_b):
            print(f"{name}: same content (buffer layout or image encoding differs)")
            continue
        if defaults and normalized(without_defaults(doc_a), blob_a) == normalized(
            without_defaults(doc_b), blob_b
        ):
            print(f"{name}: same content once default values are left out")
            continue
        problems.append(f"{name}: content differs")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    defaults = "--defaults" in args
    args = [a for a in args if a != "--defaults"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = compare(Path(args[0]), Path(args[1]), defaults)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
