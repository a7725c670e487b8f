"""The :class:`Md2` users get: the reader plus checking and writing, where users look for them.

The reader (``reader.py``) knows nothing of the checker or the writer; this subclass, at the top
of the format's layers, joins them (numpy-stl's ``BaseMesh`` → ``Mesh`` layering), so no module
imports upwards.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy.typing as npt

from ...core.scene import ExportModel
from ...interchange.export import export_scene
from .limits import VANILLA, Limits
from .reader import GlCommand, Md2Reader
from .scene import scene
from .scene import skin_images as _skin_images

if TYPE_CHECKING:
    from ...core.build import BuildResult
    from ...core.findings import Finding
    from ...core.quantized import QuantizedMesh
    from ...core.skins import SkinImage
    from ...interchange.imported import ImportedMesh

# The checker, the writer (and the importers' mesh type) are imported by the methods that use
# them: loading and exporting a model, the common case, skips a tenth of a one-file export's
# start-up.


class Md2(Md2Reader):
    """A Quake II MD2 model (IDP2 version 8): see :class:`Md2Reader` for its arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake2', 'q2pro', 'quake3' or 'any'); never raises."""
        from .check import check_md2

        return check_md2(self, engine=engine)

    @cached_property
    def skin_images(self) -> list[SkinImage | None]:
        """One picture per name in :attr:`skins`, in that order: (H,W,4) uint8 RGBA, top row
        first (alpha 255 for a PCX), or None where no file is found. Each name is looked up as
        :meth:`export` looks up the skin: under the model's folder, names matched
        case-insensitively and with the other image extensions (``.pcx``, ``.tga``, ``.png``,
        ``.jpg``, ``.bmp``), then beside the model (``<stem>__<name>``, ``<stem>.<ext>``, the
        folder's only image); unsafe names (``..``, absolute) are refused with a warning
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

    @classmethod
    def build(
        cls,
        positions: npt.ArrayLike,
        triangles: npt.ArrayLike,
        texcoords_px: npt.ArrayLike,
        triangle_texcoords: npt.ArrayLike,
        frame_names: Sequence[str | bytes],
        *,
        skins: Sequence[str | bytes] = (),
        skin_size: tuple[int, int] = (256, 256),
        normals: npt.ArrayLike | None = None,
        gl_commands: Sequence[GlCommand] | npt.ArrayLike | None = None,
        limits: Limits = VANILLA,
    ) -> BuildResult[Md2]:
        """Encode a new model from arrays (see :func:`quakemodels.formats.md2.write.build`):
        ``positions`` (F,V,3), ``triangles`` (T,3), ``texcoords_px`` (S,2),
        ``triangle_texcoords`` (T,3) and F ``frame_names``."""
        from .write import build

        return build(
            positions,
            triangles,
            texcoords_px,
            triangle_texcoords,
            frame_names,
            skins=skins,
            skin_size=skin_size,
            normals=normals,
            gl_commands=gl_commands,
            limits=limits,
            model_class=cls,
        )

    def quantized(self) -> QuantizedMesh:
        """The frames as stored (vertex bytes, per-frame scale and translate, normal indices,
        triangles, texcoords, frame names, skin size): what ``Mdl.from_quantized`` converts."""
        from .quantized import quantized  # only conversions need it: not at start-up

        return quantized(self)

    @classmethod
    def from_quantized(
        cls,
        mesh: QuantizedMesh,
        *,
        skins: Sequence[str | bytes] = (),
        limits: Limits = VANILLA,
    ) -> BuildResult[Md2]:
        """Encode byte-compressed frames exactly (``Mdl.quantized()``: every pose a frame, its
        vertex bytes on the MDL's grid and normal indices kept, positions bit-identical);
        ``skins`` the skin names to store (write the images, ``mesh.skin_images``, there)."""
        from .write import from_quantized

        return from_quantized(mesh, skins=skins, limits=limits, model_class=cls)

    @classmethod
    def from_imported(
        cls,
        mesh: ImportedMesh,
        *,
        skins: Sequence[str] = (),
        skin_size: tuple[int, int] | None = None,
        limits: Limits = VANILLA,
    ) -> BuildResult[Md2]:
        """Weld a mesh read from glTF or OBJ (:mod:`quakemodels.interchange`) into MD2
        vertices and texcoords and encode it; skin size from the argument, the file's
        embedded image, or 256 × 256."""
        from .write import from_imported

        return from_imported(mesh, skins=skins, skin_size=skin_size, limits=limits, model_class=cls)

    @classmethod
    def from_scene(
        cls,
        scene: ExportModel,
        *,
        skins: Sequence[str] = (),
        skin_size: tuple[int, int] | None = None,
        limits: Limits = VANILLA,
    ) -> BuildResult[Md2]:
        """Encode any model's scene (:func:`quakemodels.registry.scene`: an MD3) as MD2: every
        surface merged into the one mesh MD2 has (texcoords as they are, one skin), normals
        snapped to the nearest anorm, tags dropped; skin size from the argument, the first
        surface's skin image, or 256 × 256 (see :func:`.write.scene_arrays`)."""
        from .write import from_scene

        return from_scene(scene, skins=skins, skin_size=skin_size, limits=limits, model_class=cls)
