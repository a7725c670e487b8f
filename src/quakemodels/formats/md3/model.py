"""The :class:`Md3` users get: the reader plus checking and writing, where users look for them.

The reader (``reader.py``) knows nothing of the checker or the writer; this subclass, at the top
of the format's layers, joins them, so no module imports upwards.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.scene import ExportModel
from ...interchange.export import export_scene
from .limits import VANILLA, Limits
from .reader import Md3Reader
from .scene import scene
from .scene import skin_images as _skin_images

if TYPE_CHECKING:
    from ...core.build import BuildResult
    from ...core.findings import Finding
    from ...core.skins import SkinImage
    from .write import SurfaceData, TagData

# The checker and the writer are imported by the methods that use them: loading and exporting
# a model, the common case, skip them (as MD2's model does).


class Md3(Md3Reader):
    """A Quake III MD3 model (IDP3 version 15): see :class:`Md3Reader` for its arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake2', 'q2pro', 'quake3' or 'any'); never raises."""
        from .check import check_md3

        return check_md3(self, engine=engine)

    @cached_property
    def skin_images(self) -> list[SkinImage | None]:
        """One picture per surface, in the order of :attr:`surfaces` (and of
        ``mesh(frame).surfaces``): (H,W,4) uint8 RGBA, top row first, or None where none is
        found. A surface is drawn with its first shader (Quake III's skinNum 0): its picture is
        the texture of the shader script defining that name, when the game root above the model
        has one, else the first of its shader names that names a file (a ``.skin`` file's
        choices belong to a player: :class:`quakemodels.Player`). Looked up as :meth:`export`
        does: under the model's folder, names matched case-insensitively and with the other
        image extensions (``.pcx``, ``.tga``, ``.png``, ``.jpg``, ``.bmp``), then beside the
        model (``<stem>__<name>``, ``<stem>.<ext>``, the folder's only image); unsafe names
        (``..``, absolute) are refused with a warning
        (:func:`quakemodels.core.skins.find_skin`). A model inside a pak or pk3, or in a game
        folder, has its names looked up through that game first, as the engine finds files
        (:func:`quakemodels.archive.vpath.model_game`). Computed on first access and cached; a
        model from bytes, with no path, finds none."""
        return _skin_images(self)

    def to_bytes(self) -> bytes:
        """The model re-encoded from its parsed content: byte-exact for a loaded file."""
        from .write import to_bytes

        return to_bytes(self)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model to ``path`` atomically (see :meth:`to_bytes`)."""
        from .write import save

        save(self, path)

    @classmethod
    def build(
        cls,
        surfaces: Sequence[SurfaceData],
        *,
        tags: Sequence[TagData] = (),
        frame_names: Sequence[str | bytes] | None = None,
        name: str | bytes = "",
        limits: Limits = VANILLA,
    ) -> BuildResult[Md3]:
        """Encode a new model from arrays (see :func:`quakemodels.formats.md3.write.build`):
        per surface (F,N,3) positions, (T,3) triangles, (N,2) texcoords, optional normals and
        shaders; tags with (F,3) origins and (F,3,3) axes."""
        from .write import build

        return build(
            surfaces,
            tags=tags,
            frame_names=frame_names,
            name=name,
            limits=limits,
            model_class=cls,
        )

    @classmethod
    def from_scene(
        cls, scene: ExportModel, *, name: str | bytes = "", limits: Limits = VANILLA
    ) -> BuildResult[Md3]:
        """Encode a format-neutral scene (any model's :func:`quakemodels.registry.scene`, or a
        glTF read by :func:`quakemodels.interchange.gltf_read.read_gltf_scene`) as MD3."""
        from .write import from_scene

        return from_scene(scene, name=name, limits=limits, model_class=cls)

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        frame: int | None = None,
        clip: str | None = None,
        skin_dir: str | os.PathLike[str] | None = None,
    ) -> list[Path]:
        """Write the model as glTF 2.0 (``.glb``/``.gltf``: every frame a morph target, every
        clip an animation) or OBJ + MTL (``.obj``: one frame), by ``path``'s suffix, atomically;
        ``frame`` or ``clip`` keeps only that part. Skins are looked up beside the model or
        under ``skin_dir``. Returns the files written."""
        return export_scene(scene(self, skin_dir=skin_dir), path, frame=frame, clip=clip)
