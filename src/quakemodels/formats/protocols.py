"""The protocols of the format services (what :class:`~.contract.Format`'s typed accessors
return): each the call every format's service of that name must take. For type checkers and
the contract's tests only: :mod:`.contract` imports this module when type checking, so that the
formats' declarations stay light (typing's Protocol costs a light command a fifth of its
start-up)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..core.quantized import QuantizedMesh
    from ..core.scene import ExportModel
    from ..core.sprite import SpriteFrames
    from ..interchange.convert import BuildOptions, Built, Source
    from ..interchange.gltf_write import Doc, Encoder, Piece


class Describer(Protocol):
    """``describe(model) -> text`` for ``quakemodels info``."""

    def __call__(self, model: Any, /) -> str: ...


class Facts(Protocol):
    """``facts(model, name, shared) -> dict``: what ``info --json`` prints for a model whose
    format says more than the facts every model shares (a folder set: its parts, each given
    by ``shared(part, name)``)."""

    def __call__(
        self, model: Any, name: str, shared: Callable[[Any, str], dict[str, Any]], /
    ) -> dict[str, Any]: ...


class ClipLines(Protocol):
    """``clip_lines(model, name) -> lines``: ``info --clips`` for a format whose clips say
    more than a name and a frame range (a player's: their part and rate)."""

    def __call__(self, model: Any, name: str, /) -> list[str]: ...


class Framer(Protocol):
    """``frames(model, *, palette=None, skin_dir=None, game_dir=None) -> SpriteFrames``: an
    image kind's pictures (``palette`` for 8-bit ones, ``skin_dir`` and ``game_dir`` where
    the pictures are files of their own)."""

    def __call__(
        self,
        model: Any,
        /,
        *,
        palette: Any = None,
        skin_dir: str | os.PathLike[str] | None = None,
        game_dir: str | os.PathLike[str] | None = None,
    ) -> SpriteFrames: ...


class Quantizer(Protocol):
    """``quantized(model, *, palette=None) -> QuantizedMesh``: byte-compressed frames as
    stored (MD2, MDL), the neutral source of an exact conversion between such formats."""

    def __call__(self, model: Any, /, *, palette: Any = None) -> QuantizedMesh: ...


class Builder(Protocol):
    """``build(source, options) -> Built``: the target side of convert, for every kind (a
    mesh from a model's scene or a glTF, a sprite from image frames, a folder set from a
    glTF)."""

    def __call__(self, source: Source, options: BuildOptions, /) -> Built: ...


class OwnGltf(Protocol):
    """``gltf(model, skin, game_dir) -> (document, buffer pieces, JSON writer)``: a format
    whose models are placed by their own nodes (a player's parts on their tags) builds its
    glTF itself; reached only through ``registry.own_gltf`` by the one road to glTF."""

    def __call__(
        self, model: Any, skin: str, game_dir: str | os.PathLike[str] | None, /
    ) -> tuple[Doc, list[Piece], Encoder]: ...


class Poser(Protocol):
    """``pose(model, clips, time, skin, game_dir) -> (scene, fps, label)``: a model whose
    parts play clips at once (a player's legs and torso), ``clips`` by channel: one frame
    ``time`` seconds in, or every step of the longest (None)."""

    def __call__(
        self,
        model: Any,
        clips: Mapping[str, str | None],
        time: float | None,
        skin: str,
        game_dir: str | os.PathLike[str] | None,
        /,
    ) -> tuple[ExportModel, float, str]: ...


class Detector(Protocol):
    """``detect(path, game_dir) -> bool``: a folder format takes ``path``; never raises."""

    def __call__(
        self, path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None, /
    ) -> bool: ...


class Opener(Protocol):
    """``open(path, game_dir) -> model | None``: the folder set at ``path`` (None: nothing
    is there); ModelFormatError when it is broken."""

    def __call__(
        self, path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None, /
    ) -> Any: ...


class FolderLister(Protocol):
    """``folders(names) -> {folder: {member: name}}``: the folder sets among archive or
    search-path names."""

    def __call__(self, names: Sequence[str], /) -> dict[str, dict[str, str]]: ...


class Members(Protocol):
    """``members(path) -> {member: path} | None``: the files a folder set is made of (one
    dump each); None when ``path`` is no such folder."""

    def __call__(self, path: str | os.PathLike[str], /) -> Mapping[str, Any] | None: ...


class ClipTable(Protocol):
    """``clips(model) -> (table, count)``: the clip table and frame count of a folder set's
    scene, decoding no frame."""

    def __call__(self, model: Any, /) -> tuple[dict[str, range], int]: ...
