"""``quakemodels.Mdl``: the MDL reader plus its engine checks and writing.

MDL ↔ MD2 goes through the neutral byte-compressed frames both store
(:class:`~quakemodels.core.quantized.QuantizedMesh`): :meth:`Mdl.quantized` gives an MDL's,
:meth:`Mdl.from_quantized` builds an MDL of anyone's (``Md2.quantized()``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ...core.scene import ExportModel
from ...interchange.export import export_scene
from .limits import VANILLA, Limits
from .reader import MdlReader
from .scene import scene

if TYPE_CHECKING:
    from ...core.findings import Finding
    from ...core.quantized import QuantizedMesh
    from ...interchange.imported import ImportedMesh
    from .palette import PaletteLike
    from .write import BuildResult

# The checker, the writer and the welding (conversions) are imported by the methods that use
# them: loading and exporting a model, the common case, skip them all.


def _given_skin_size(
    skin_size: tuple[int, int] | None, skins: Sequence[npt.ArrayLike]
) -> tuple[int, int] | None:
    """The skin size a conversion's caller gave: ``skin_size``, else the (width, height) of
    the first of ``skins`` ((H,W) or (H,W,3) images), else None (the source's size then)."""
    first = np.asarray(skins[0]) if len(skins) else None  # an unreadable skin raises even so
    if skin_size is not None or first is None or first.ndim < 2:
        return skin_size  # (no image: the build names what is wrong with it)
    return int(first.shape[1]), int(first.shape[0])


class Mdl(MdlReader):
    """A Quake 1 MDL model (IDPO version 6); see :class:`MdlReader` for the arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake', 'quakespasm' or 'any'); never raises."""
        from .check import check_mdl

        return check_mdl(self, engine=engine)

    def to_bytes(self) -> bytes:
        """The model re-encoded from its parsed content: byte-exact for a loaded file (skin
        and frame groups, intervals, raw names and the trailer included)."""
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
        """Write the model as glTF 2.0 or OBJ + MTL by ``path``'s suffix (see
        ``Md2.export``); frame groups become clips timed by their intervals. ``skin_dir`` is
        unused (an MDL's skins are in the file): it is there for the one signature every
        model's ``export`` has."""
        return export_scene(scene(self), path, frame=frame, clip=clip)

    @classmethod
    def build(
        cls,
        positions: npt.ArrayLike,
        triangles: npt.ArrayLike,
        texcoords_px: npt.ArrayLike,
        triangle_texcoords: npt.ArrayLike,
        frame_names: Sequence[str | bytes],
        *,
        skins: Sequence[npt.ArrayLike] = (),
        skin_size: tuple[int, int] | None = None,
        skin_groups: Sequence[Sequence[float] | None] | None = None,
        frame_groups: Sequence[Sequence[float] | None] | None = None,
        normals: npt.ArrayLike | None = None,
        palette: PaletteLike | None = None,
        fullbrights: bool = False,
        eye_position: tuple[float, float, float] = (0.0, 0.0, 0.0),
        flags: int = 0,
        synctype: int = 0,
        limits: Limits = VANILLA,
    ) -> BuildResult[Mdl]:
        """Encode a new model from arrays (see :func:`quakemodels.formats.mdl.write.build`):
        ``positions`` (P,V,3), ``triangles`` (T,3), ``texcoords_px`` (S,2),
        ``triangle_texcoords`` (T,3) and P ``frame_names``, as ``Md2.build`` takes them."""
        from .write import build

        return build(
            positions,
            triangles,
            texcoords_px,
            triangle_texcoords,
            frame_names,
            skins=skins,
            skin_size=skin_size,
            skin_groups=skin_groups,
            frame_groups=frame_groups,
            normals=normals,
            palette=palette,
            fullbrights=fullbrights,
            eye_position=eye_position,
            flags=flags,
            synctype=synctype,
            limits=limits,
            model_class=cls,
        )

    def quantized(self, palette: PaletteLike | None = None) -> QuantizedMesh:
        """The poses as stored (:func:`.quantized.quantized`: frame groups flattened, the one grid
        in every frame, the texcoord rows the triangles use, names for every pose, the skin
        images through ``palette``): what ``Md2.from_quantized`` stores exactly."""
        from .quantized import quantized  # only conversions need it: not at start-up

        return quantized(self, palette=palette)

    @classmethod
    def from_quantized(
        cls,
        mesh: QuantizedMesh,
        *,
        skins: Sequence[npt.ArrayLike] | None = None,
        palette: PaletteLike | None = None,
        fullbrights: bool = False,
        limits: Limits = VANILLA,
    ) -> BuildResult[Mdl]:
        """An MDL of byte-compressed frames (``Md2.quantized()``): every frame a pose (single
        frames) on one grid for all (the decoded positions requantized), its normal indices
        kept, its texcoords per vertex with on-seam pairs found and other vertices split;
        ``skins`` images (RGB quantized through ``palette``) of the mesh's skin size, default
        ``mesh.skin_images``; with none, one blank skin."""
        return cls.build(
            mesh.positions,
            mesh.triangles,
            mesh.texcoords_px,
            mesh.triangle_texcoords,
            mesh.frame_names,
            skins=list(mesh.skin_images) if skins is None else skins,
            skin_size=mesh.skin_size,
            normals=mesh.normal_indices,
            palette=palette,
            fullbrights=fullbrights,
            limits=limits,
        )

    @classmethod
    def from_imported(
        cls,
        mesh: ImportedMesh,
        *,
        skins: Sequence[npt.ArrayLike] = (),
        skin_size: tuple[int, int] | None = None,
        palette: PaletteLike | None = None,
        fullbrights: bool = False,
        limits: Limits = VANILLA,
    ) -> BuildResult[Mdl]:
        """An MDL of a mesh read from glTF or OBJ (:mod:`quakemodels.interchange`): corners
        welded as ``Md2.from_imported`` welds them (equal positions in every frame, equal
        texcoord pixels), then :meth:`build`. Skin size from the argument, the first skin, the
        file's embedded image, or 256 × 256."""
        from ...core.build import first_size, skin_dimensions
        from ...core.trivertx_write import weld

        size = skin_dimensions(
            first_size(_given_skin_size(skin_size, skins), mesh.skin_size), "skin_width"
        )
        positions, triangles, texcoords_px, triangle_texcoords = weld(mesh, size)
        return cls.build(
            positions,
            triangles,
            texcoords_px,
            triangle_texcoords,
            mesh.frame_names,
            skins=skins,
            skin_size=size,
            palette=palette,
            fullbrights=fullbrights,
            limits=limits,
        )

    @classmethod
    def from_scene(
        cls,
        scene: ExportModel,
        *,
        skins: Sequence[npt.ArrayLike] = (),
        skin_size: tuple[int, int] | None = None,
        palette: PaletteLike | None = None,
        fullbrights: bool = False,
        limits: Limits = VANILLA,
    ) -> BuildResult[Mdl]:
        """An MDL of any model's scene (:func:`quakemodels.registry.scene`: an MD3): every
        surface merged into one mesh (texcoords as they are, one skin), normals snapped to the
        nearest anorm, tags dropped, every frame a single pose, then :meth:`build`. Skin size
        from the argument, the first skin, the first surface's skin image, or 256 × 256."""
        from ...core.build import first_size, skin_dimensions
        from ...core.trivertx_write import scene_arrays, scene_skin_size

        size = skin_dimensions(
            first_size(_given_skin_size(skin_size, skins), scene_skin_size(scene)), "skin_width"
        )
        a = scene_arrays(scene, size)
        return cls.build(
            a.positions,
            a.triangles,
            a.texcoords_px,
            a.triangle_texcoords,
            a.frame_names,
            skins=skins,
            skin_size=size,
            normals=a.normals,
            palette=palette,
            fullbrights=fullbrights,
            limits=limits,
        )
