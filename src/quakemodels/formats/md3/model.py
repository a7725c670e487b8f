"""The :class:`Md3` users get: the reader plus checking (writing joins here too)."""

from __future__ import annotations

import os
from pathlib import Path

from ...core.findings import Finding
from ...interchange.export import export_scene
from .check import check_md3
from .reader import Md3Reader
from .scene import scene


class Md3(Md3Reader):
    """A Quake III MD3 model (IDP3 version 15): see :class:`Md3Reader` for its arrays."""

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake2', 'q2pro', 'quake3' or 'any'); never raises."""
        return check_md3(self, engine=engine)

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
