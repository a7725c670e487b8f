"""The one road to glTF for every verb that writes one (``export``, ``convert``, ``view``, the
html page): a loaded model → its glTF document and buffer, whatever its kind.

- a format that places its model by its own nodes (a Quake III player: parts on their tags)
  builds the document itself (:func:`quakemodels.registry.own_gltf`);
- a model that animates by joints (MD5, IQM) is a real skin: joints, inverse binds, each clip
  an animation of joint TRS (:mod:`quakemodels.interchange.gltf_skin_write`), unless one frame
  is asked for;
- every other model is its scene (:func:`.options.load_scene`): every frame a morph target,
  every clip an animation (:mod:`quakemodels.interchange.gltf_write`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.atomic import atomic_output, write_bytes_atomic
from ..core.names import plural
from ..core.records import Frozen
from ..core.scene import Y_UP, Material, model_stem
from ..core.skins import Skin
from .options import load_scene, skin_label

if TYPE_CHECKING:
    from ..core.skeletal import SkeletalScene
    from ..interchange.gltf_write import Doc, Piece


class GltfOut(Frozen):
    """A model's glTF, built and not yet written: ``doc`` (plain data), the binary buffer as
    ``pieces`` (never joined for a .glb), ``encode`` (the builder's JSON writer) and ``what``
    (the words a verb prints after the file name: ``20 morph targets, 3 clips, skin: x.png``)."""

    doc: Doc
    pieces: list[Piece]
    encode: Callable[[Doc], bytes]
    what: str

    def to_bytes(self, binary: bool) -> bytes:
        """The ``.glb`` (``binary``) or self-contained ``.gltf`` bytes."""
        from ..interchange.gltf_write import glb_pieces, gltf_bytes

        if binary:
            return b"".join(glb_pieces(self.doc, self.pieces, self.encode))
        return gltf_bytes(self.doc, b"".join(self.pieces), self.encode)

    def write(self, path: Path, binary: bool) -> None:
        """Write atomically (a ``.glb`` straight from the pieces)."""
        from ..interchange.gltf_write import glb_pieces

        if not binary:
            write_bytes_atomic(path, self.to_bytes(False))
            return
        with atomic_output(path) as f:
            for piece in glb_pieces(self.doc, self.pieces, self.encode):
                f.write(piece)


def gltf_out(path: str | Path, model: Any, opts: dict[str, Any]) -> GltfOut:
    """The glTF of ``model`` (read from ``path``) as ``opts`` say: ``skin`` (a skin number or
    image; a player's ``.skin`` set), ``skin_dir``, ``game_dir``, ``scale``, ``frame`` and
    ``clip`` (only that frame or clip), ``fps``."""
    from ..registry import own_gltf, skeletal

    frame, clip = opts.get("frame"), opts.get("clip")
    scale = float(opts.get("scale", 1.0))
    skin = opts.get("skin")
    own = own_gltf(model, skin or "default", opts.get("game_dir"))
    if own is not None:
        if clip is not None or frame is not None:
            raise ValueError(
                "a player's glTF holds every clip of its animation.cfg; --clip and --frame"
                " apply to OBJ output"
            )
        if scale != 1.0:
            raise ValueError("--scale applies to single models and a player's OBJ output")
        doc, pieces, encode = own
        clips = plural(len(doc.get("animations", [])), "clip")
        return GltfOut(
            doc, pieces, encode, f"{clips}, parts on their tags, skin: {skin or 'default'}"
        )
    scene = skeletal(model) if frame is None else None
    if scene is not None:  # joints: a real skin, not baked morph targets
        return _skinned(path, model, scene, opts)
    from ..interchange.gltf_write import build_gltf_parts

    em = load_scene(path, opts, model, frame=frame, clip=clip)
    doc, pieces, encode = build_gltf_parts(em)
    targets = plural(em.num_frames, "morph target")
    return GltfOut(
        doc, pieces, encode, f"{targets}, {plural(len(em.clips), 'clip')}, skin: {skin_label(em)}"
    )


def skeletal_skins(
    path: str | Path, model: Any, scene: SkeletalScene, opts: dict[str, Any]
) -> tuple[list[Skin | None], list[Material]]:
    """Each mesh's skin and material as the model's format finds them for its (baked) scene:
    its frame 0, one surface per mesh in order (as ``core.skeletal.baked_model`` makes them);
    none when the surfaces do not match the meshes."""
    em = load_scene(path, {**opts, "scale": 1.0}, model, frame=0)
    if len(em.surfaces) != len(scene.meshes):
        return [], []
    return [s.skin for s in em.surfaces], [s.material for s in em.surfaces]


def _skinned(path: str | Path, model: Any, scene: SkeletalScene, opts: dict[str, Any]) -> GltfOut:
    """A model that animates by joints as a real skin (only ``opts['clip']`` when given)."""
    from ..interchange.export import skeletal_clip
    from ..interchange.gltf_skin_write import build_skinned_gltf, skin_summary

    skins, materials = skeletal_skins(path, model, scene, opts)
    shown = skeletal_clip(scene, opts.get("clip"))
    doc, pieces, builder = build_skinned_gltf(
        shown,
        skins=skins,
        materials=materials,
        name=model_stem(getattr(model, "name", None)),
        axes=Y_UP,
        scale=float(opts.get("scale", 1.0)),
    )
    skin = next((s.path.name for s in skins if s is not None), "none")
    return GltfOut(
        doc, pieces, builder.json_bytes, f"real skin: {skin_summary(shown)}, skin: {skin}"
    )


def scene_gltf(scene: SkeletalScene, opts: dict[str, Any], **kwargs: Any) -> GltfOut:
    """A skeletal scene read from elsewhere (a glTF) as a real skin; ``kwargs`` go to
    :func:`~quakemodels.interchange.gltf_skin_write.build_skinned_gltf` (skins, materials,
    name, axes)."""
    from ..interchange.gltf_skin_write import build_skinned_gltf, skin_summary

    doc, pieces, builder = build_skinned_gltf(scene, scale=float(opts.get("scale", 1.0)), **kwargs)
    return GltfOut(doc, pieces, builder.json_bytes, skin_summary(scene))
