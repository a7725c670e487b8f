"""``quakemodels.Mdl``: the MDL reader plus its engine checks, writing and conversion to MD2.

MDL → MD2 and MD2 → MDL both go through a format's ``build`` (``Md2.build`` and
:func:`.write.build`) with the arrays every single-surface reader has: positions, triangles,
pixel texcoords and per-corner texcoord rows, frame names and normal indices.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from ...core.scene import ExportModel
from ...interchange.export import export_scene
from .limits import VANILLA, Limits
from .reader import MdlReader
from .scene import scene

if TYPE_CHECKING:
    from ...core.findings import Finding
    from ...interchange.imported import ImportedMesh
    from .palette import PaletteLike
    from .write import BuildResult

# The checker, the writer and MD2's model and welding (conversions) are imported by the
# methods that use them: loading and exporting a model, the common case, skip them all.


class SingleSurfaceArrays(Protocol):
    """What :meth:`Mdl.from_model` reads from a model (an :class:`~quakemodels.Md2`, an
    :class:`Mdl`): (F,V,3) ``positions``, (T,3) ``triangles``, (S,2) ``texcoords_px``, (T,3)
    ``triangle_texcoords``, (F,V) ``normal_indices``, F ``frame_names``, the skin size."""

    @property
    def positions(self) -> npt.NDArray[np.float32]: ...
    @property
    def triangles(self) -> npt.NDArray[Any]: ...
    @property
    def texcoords_px(self) -> npt.NDArray[Any]: ...
    @property
    def triangle_texcoords(self) -> npt.NDArray[Any]: ...
    @property
    def normal_indices(self) -> npt.NDArray[np.uint8]: ...
    @property
    def frame_names(self) -> list[str]: ...
    @property
    def skin_width(self) -> int: ...
    @property
    def skin_height(self) -> int: ...


def _md2_names(m: MdlReader) -> list[bytes]:
    """One MD2 frame name per pose: the stored name up to its NUL (at most 15 bytes); an empty
    one becomes its clip's name and the pose's place in the clip (``flame3``)."""
    clip_of = {p: (name, k) for name, r in m.animations.items() for k, p in enumerate(r)}
    out = []
    for p, raw in enumerate(m.frame_names_raw):
        name = raw.split(b"\0", 1)[0][:15]
        if not name:
            clip, k = clip_of.get(p, ("frame", p))
            label = clip.encode("ascii", "replace")
            number = str(k + 1).encode()
            name = label[: 15 - len(number)] + number
        out.append(name)
    return out


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
    ) -> list[Path]:
        """Write the model as glTF 2.0 or OBJ + MTL by ``path``'s suffix (see
        ``Md2.export``); frame groups become clips timed by their intervals."""
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

    @classmethod
    def from_model(
        cls,
        model: SingleSurfaceArrays,
        *,
        skins: Sequence[npt.ArrayLike] = (),
        palette: PaletteLike | None = None,
        fullbrights: bool = False,
        limits: Limits = VANILLA,
    ) -> BuildResult[Mdl]:
        """An MDL of a single-surface model (an MD2): every frame a pose (single frames),
        its normal indices kept, its texcoords per vertex with on-seam pairs found and other
        vertices split, ``skins`` images (RGB quantized through ``palette``) of the model's
        skin size; with none, one blank skin."""
        return cls.build(
            model.positions,
            model.triangles,
            model.texcoords_px,
            model.triangle_texcoords,
            model.frame_names,
            skins=skins,
            skin_size=(model.skin_width, model.skin_height),
            normals=model.normal_indices,
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

    def to_md2(self, *, skins: Sequence[str] | None = None, **build_options: Any) -> Any:
        """This model as MD2 through ``Md2.build``: every pose a frame (frame groups flattened
        in order, names kept up to 15 bytes, empty ones named after their clip), normal
        indices kept, the texcoord rows the triangles use (seam copies included), the skin
        size. ``skins`` are the MD2's skin names (default ``<stem>_skin<k>.png`` per skin
        image, which the caller writes); ``build_options`` go to ``Md2.build`` (``limits``).
        Returns its ``BuildResult``."""
        from ..md2 import Md2

        used, rows = np.unique(self.triangle_texcoords, return_inverse=True)
        if skins is None:
            stem = Path(self.name).stem if self.name else "model"
            skins = [f"{stem}_skin{k}.png" for k in range(self.num_skin_images)]
        return Md2.build(
            self.positions,
            self.triangles,
            self.texcoords_px[used],
            rows.reshape(self.triangle_texcoords.shape),
            _md2_names(self),
            skins=skins,
            skin_size=(self.skin_width, self.skin_height),
            normals=self.normal_indices,
            **build_options,
        )
