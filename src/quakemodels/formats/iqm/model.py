"""The :class:`Iqm` users get: the reader plus its scene, description, checks and writer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.facade import decoded
from ...core.scene import ExportModel
from ...core.skeletal import SkeletalScene
from ...interchange.export import export_scene
from .reader import IqmReader
from .scene import clip_table, scene

if TYPE_CHECKING:
    from ...core.findings import Finding


class Iqm(IqmReader):
    """An Inter-Quake Model (IQM version 2): see :class:`IqmReader` for its arrays and
    :meth:`skeletal` for the neutral skeletal scene."""

    def __init__(self, data: bytes, name: str | None = None) -> None:
        super().__init__(data, name)
        self.validate()  # a broken file fails at load, as every format's does

    @decoded
    def _table(self) -> tuple[dict[str, range], list[str]]:
        return clip_table(self.skeletal())

    @property
    def animations(self) -> dict[str, range]:
        """Clip name → range of the scene's frames (anims one after another)."""
        return self._table[0]

    @property
    def frame_names(self) -> list[str]:
        """One name per frame of the scene (``idle001``...)."""
        return self._table[1]

    def scene(self, *, skin_dir: str | os.PathLike[str] | None = None) -> ExportModel:
        """The exporters' scene (every frame posed; see :func:`.scene.scene`)."""
        return scene(self, skin_dir=skin_dir)

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings; never raises."""
        from .check import check

        return check(self, engine)

    def to_bytes(self) -> bytes:
        """The model's bytes as loaded."""
        return self.data

    @classmethod
    def from_skeletal(cls, scene: SkeletalScene, **kwargs: Any) -> Iqm:
        """A new IQM from any skeletal scene (see :func:`.write.write`)."""
        from .write import write

        return cls(write(scene, **kwargs))

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        frame: int | None = None,
        clip: str | None = None,
        skin_dir: str | os.PathLike[str] | None = None,
    ) -> list[Path]:
        """Write the model as glTF 2.0 or OBJ by ``path``'s suffix (every frame posed)."""
        return export_scene(scene(self, skin_dir=skin_dir), path, frame=frame, clip=clip)



def skeletal_of(model: IqmReader) -> SkeletalScene:
    """The "skeletal" service: the model's :class:`SkeletalScene`."""
    return model.skeletal()


__all__ = ["Iqm", "skeletal_of"]
