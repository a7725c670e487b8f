"""The format contract: what a format is, and the typed services it offers.

Each ``formats/<name>/__init__.py`` defines one :class:`Format`; ``formats/__init__.py`` lists
them (one line each) and :mod:`quakemodels.registry` dispatches every verb through that list by
kind and by the services a format declares, never by a format's name.

A :class:`Format` is light: its name, magic, version test, suffixes and spec id are plain
values, and its :class:`Services` say where each service lives (``"module:attr"`` relative to
the format's package), imported the first time it is asked for (then cached). Start-up and the
magic dispatch load no format's modules, a command on an MD2 file loads only MD2's, and an
export no checker or describer.

Each service is a field of :class:`Services` and a typed accessor of :class:`Format` (mypy
checks both sides): :attr:`Format.checker`, :attr:`Format.describer`, ... ; a service a format
does not offer raises :class:`~quakemodels.errors.UnsupportedError` (one line for the CLI), and
``fmt.services.<name> is not None`` asks whether it is there. The CLI never names a service:
it calls the registry (``registry.scene``, ``registry.facts``...), :mod:`.interchange.export`
(the one road to glTF) and the model protocols of :mod:`quakemodels.core.mesh`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast

from ..errors import UnsupportedError

if TYPE_CHECKING:
    from ..core.findings import Finding
    from ..core.quantized import QuantizedMesh
    from ..core.scene import ExportModel
    from ..core.sprite import SpriteFrames
    from ..interchange.convert import BuildOptions, Built, Source
    from ..interchange.gltf_write import Doc, Encoder, Piece

Checker = Callable[..., "list[Finding]"]
"""``check(source, engine, *, name=None) -> findings`` (a folder format's: ``game_dir=``
instead of ``name=``); never raises on any input."""
Scener = Callable[..., "ExportModel"]
"""``scene(model, *, skin_dir=None, frames=None) -> ExportModel`` (a folder format's:
``skin=``, ``game_dir=`` instead of ``skin_dir=``); ``frames`` (frame indices) limits the scene
to those frames, decoding only them."""


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


class Kind(str, Enum):
    """What a format holds, which decides the verbs that fit it."""

    MESH = "animated mesh"
    """MD2, MD3, MDL, MD5, IQM: ``scene`` gives a :class:`~quakemodels.core.scene.ExportModel`."""
    IMAGE = "image/sprite"
    """Sprites: ``frames`` gives the neutral image sequence."""
    FOLDER = "folder set"
    """The Quake III player: opened from a folder (``detect``/``open``), not from bytes."""


@dataclass(frozen=True)
class Services:
    """Where a format's services live: ``"module:attr"`` relative to its package (a bare
    ``"module"`` is the module itself), None for a service it does not offer. Imported on
    first use (:class:`Format`)."""

    model: str
    """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``,
    ``to_bytes()``)."""
    check: str | None = None
    """A :data:`Checker`."""
    describe: str | None = None
    """A :class:`Describer`."""
    scene: str | None = None
    """A :data:`Scener`: the exporters' view, a convert's source (mesh and folder kinds)."""
    frames: str | None = None
    """A :class:`Framer` (image kinds)."""
    quantized: str | None = None
    """A :class:`Quantizer` (formats storing byte-compressed frames: MD2, MDL)."""
    build: str | None = None
    """A :class:`Builder`: the formats convert writes."""
    limits: str | None = None
    """The module of the engine limits (``MAX_FILE_SIZE``, what ``check`` cites)."""
    facts: str | None = None
    """A :class:`Facts`, when ``info --json`` says more than the shared facts."""
    clip_lines: str | None = None
    """A :class:`ClipLines`, when ``info --clips`` says more than names and ranges."""
    gltf: str | None = None
    """An :class:`OwnGltf`, when a model is placed by its own nodes (a player)."""
    pose: str | None = None
    """A :class:`Poser`, when parts of a model play clips at once (a player)."""
    detect: str | None = None
    """Folder kinds: a :class:`Detector`."""
    open: str | None = None
    """Folder kinds: an :class:`Opener`."""
    folders: str | None = None
    """Folder kinds: a :class:`FolderLister`."""
    members: str | None = None
    """Folder kinds: a :class:`Members`."""
    clips: str | None = None
    """Folder kinds: a :class:`ClipTable`."""


# What a verb says when a format lacks a service ("md5 (Doom 3 MD5) cannot be written by convert").
_WHAT = {
    "model": "be loaded",
    "check": "be checked",
    "describe": "be described",
    "scene": "give a mesh scene",
    "frames": "give image frames",
    "quantized": "give byte-compressed frames",
    "build": "be written by convert",
    "limits": "state engine limits",
    "facts": "give its own facts",
    "clip_lines": "list its own clips",
    "gltf": "build its own glTF",
    "pose": "play clips on its parts at once",
    "detect": "be found in a folder",
    "open": "be opened from a folder",
    "folders": "be found in an archive listing",
    "members": "list its member files",
    "clips": "list its clips",
}
assert set(_WHAT) == {f.name for f in fields(Services)}


def _resolve(package: str, target: str) -> Any:
    """The object ``"module:attr"`` names (module relative to ``package``; no ``:attr`` gives
    the module itself)."""
    module, _, attr = target.partition(":")
    full = f"{package}.{module}"
    # The import statement's machinery (builtin __import__), not importlib.import_module: the
    # same import, but `python -X importtime` (make importtime, tests/test_startup.py) sees it.
    __import__(full)
    loaded = sys.modules[full]
    return loaded if not attr else getattr(loaded, attr)


def declared(package: str, *names: str) -> tuple[Format, ...]:
    """The :data:`FORMAT` of each subpackage ``names`` of ``package``, in that order: the one
    line per format of :mod:`quakemodels.formats` (importing a format package is light: its
    ``__init__`` declares data only)."""
    return tuple(_resolve(package, f"{name}:FORMAT") for name in names)


@dataclass(frozen=True, eq=False)
class Format:
    """One format: how to recognise it (plain values) and the services it offers (each
    ``"module:attr"`` relative to :attr:`package`, imported on first use)."""

    name: str
    """Short name, as on the command line (``md2``)."""
    title: str
    """What users call it (``Quake II MD2``)."""
    kind: Kind
    """What it holds (mesh, image, folder set)."""
    package: str
    """The format's package (``quakemodels.formats.md2``); services resolve relative to it."""
    magic: bytes = b""
    """The first bytes of every file (empty for folder formats)."""
    version: tuple[int, int, int] | None = None
    """``(offset, size, value)``: the little-endian unsigned int of ``size`` bytes at
    ``offset`` must equal ``value`` (two formats may share a magic, IDSP v1 and v2)."""
    suffixes: tuple[str, ...] = ()
    """File name suffixes, lower case with the dot (``.md2``)."""
    spec_id: str | None = None
    """The generated parser's module in ``quakemodels.kaitai`` (``quake2_md2``), for dump."""
    services: Services = field(default_factory=lambda: Services(model=""), repr=False)
    """Where each service lives (:class:`Services`)."""
    exports: tuple[str, ...] = ()
    """Public names of the format's package that the package root serves too
    (``quakemodels.Md2``), each imported on first use."""
    _loaded: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    """The services imported so far, by name, and the worked-out ``max_file_size``."""

    def accepts(self, data: bytes) -> bool:
        """True when ``data`` starts with :attr:`magic` and passes the :attr:`version` test;
        always False for a format without a magic (a folder set)."""
        if not self.magic or data[: len(self.magic)] != self.magic:
            return False
        if self.version is None:
            return True
        offset, size, value = self.version
        raw = data[offset : offset + size]
        return len(raw) == size and int.from_bytes(raw, "little") == value

    @property
    def magic_text(self) -> str:
        """:attr:`magic` as text to show: a byte a character, a NUL as ``\\0``
        (``INTERQUAKEMODEL\\0``)."""
        return self.magic.decode("latin-1").replace("\0", "\\0")

    def _service(self, name: str) -> Any:
        """The object serving ``name`` (a field of :class:`Services`), imported on the first
        ask and cached; :class:`UnsupportedError` (one line for the CLI) when there is none."""
        if name not in self._loaded:
            target = getattr(self.services, name)
            if not target:
                raise UnsupportedError(f"{self.name} ({self.title}) cannot {_WHAT[name]}")
            self._loaded[name] = _resolve(self.package, target)
        return self._loaded[name]

    @property
    def model_module(self) -> str | None:
        """The module defining the model class: while it is not imported, no object can be a
        model of this format (see :meth:`holds`)."""
        target = self.services.model
        return None if not target else f"{self.package}.{target.partition(':')[0]}"

    @property
    def model(self) -> type[Any]:
        """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``)."""
        return cast("type[Any]", self._service("model"))

    @property
    def check(self) -> Checker:
        """The :data:`Checker`."""
        return cast(Checker, self._service("check"))

    @property
    def describe(self) -> Describer:
        """The :class:`Describer`."""
        return cast(Describer, self._service("describe"))

    @property
    def scene(self) -> Scener:
        """The :data:`Scener`."""
        return cast(Scener, self._service("scene"))

    @property
    def frames(self) -> Framer:
        """The :class:`Framer` (image kinds)."""
        return cast(Framer, self._service("frames"))

    @property
    def quantized(self) -> Quantizer:
        """The :class:`Quantizer` (MD2, MDL)."""
        return cast(Quantizer, self._service("quantized"))

    @property
    def build(self) -> Builder:
        """The :class:`Builder` (the formats convert writes)."""
        return cast(Builder, self._service("build"))

    @property
    def limits(self) -> ModuleType | None:
        """The engine limits module, None when the format states none."""
        return None if self.services.limits is None else cast(ModuleType, self._service("limits"))

    @property
    def max_file_size(self) -> int:
        """The largest file this format reads, in bytes: its ``limits.MAX_FILE_SIZE``, else
        the cap engines put on any file (:data:`~quakemodels.core.files.MAX_LOADFILE`).
        Worked out once: every load asks for it (the size refusal)."""
        size: int | None = self._loaded.get("max_file_size")
        if size is None:
            from ..core.files import MAX_LOADFILE

            size = self._loaded["max_file_size"] = int(
                getattr(self.limits, "MAX_FILE_SIZE", MAX_LOADFILE)
            )
        return size

    @property
    def facts(self) -> Facts | None:
        """The format's own :class:`Facts`, None when the shared ones say it all."""
        return None if self.services.facts is None else cast(Facts, self._service("facts"))

    @property
    def clip_lines(self) -> ClipLines | None:
        """The format's own :class:`ClipLines`, None when names and ranges say it all."""
        if self.services.clip_lines is None:
            return None
        return cast(ClipLines, self._service("clip_lines"))

    @property
    def gltf(self) -> OwnGltf | None:
        """The format's own :class:`OwnGltf`, None for a model the shared road writes."""
        return None if self.services.gltf is None else cast(OwnGltf, self._service("gltf"))

    @property
    def pose(self) -> Poser:
        """The :class:`Poser` (a player)."""
        return cast(Poser, self._service("pose"))

    @property
    def detect(self) -> Detector:
        """Folder kinds: the :class:`Detector`."""
        return cast(Detector, self._service("detect"))

    @property
    def open_folder(self) -> Opener:
        """Folder kinds: the :class:`Opener`."""
        return cast(Opener, self._service("open"))

    @property
    def folders(self) -> FolderLister | None:
        """Folder kinds: the :class:`FolderLister`, None when archives cannot hold one."""
        if self.services.folders is None:
            return None
        return cast(FolderLister, self._service("folders"))

    @property
    def members(self) -> Members:
        """Folder kinds: the :class:`Members`."""
        return cast(Members, self._service("members"))

    @property
    def clips(self) -> ClipTable | None:
        """Folder kinds: the :class:`ClipTable`, None when the model's ``animations`` and
        ``frame_names`` are its scene's clips and frames."""
        return None if self.services.clips is None else cast(ClipTable, self._service("clips"))

    def holds(self, obj: object) -> bool:
        """True when ``obj`` is a model of this format (an instance of :attr:`model` or a
        subclass); imports nothing when the model's module was never imported, as then no
        object can be one."""
        module = self.model_module
        return module is not None and module in sys.modules and isinstance(obj, self.model)

    def holds_class(self, cls: object) -> bool:
        """True when ``cls`` is this format's model class or a subclass; imports nothing
        (as :meth:`holds`)."""
        module = self.model_module
        return (
            module is not None
            and module in sys.modules
            and isinstance(cls, type)
            and issubclass(cls, self.model)
        )

    def open(self, data: bytes, name: str | os.PathLike[str] | None = None) -> Any:
        """The model in ``data`` (ModelFormatError when it is not a valid one)."""
        return self.model.from_bytes(data, name=None if name is None else os.fspath(name))


def spec_magic(facts: ModuleType, const: str, name: str) -> bytes:
    """The ``contents:`` bytes of field ``name`` of type ``const`` in a spec's facts module
    (``quakemodels.kaitai.<id>_facts``, numpy-free: the registry stays light)."""
    magic: bytes = facts.CONTENTS[const][name]
    return magic


def version_test(facts: ModuleType, const: str, name: str) -> tuple[int, int, int]:
    """``(offset, size, value)`` of :attr:`Format.version` for field ``name`` of type
    ``const``: its place in the spec's facts module and the value its ``valid:`` requires."""
    offset, size = facts.FIELDS[const][name]
    return offset, size, int(facts.VALID[const][name])


def lazy_names(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving ``names`` (public name -> module relative to
    ``package``, or ``"module:attr"`` when the attribute is named otherwise), each imported on
    first use: a format's public names without hand-written lazy-import branches."""

    def __getattr__(name: str) -> Any:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = target.partition(":")
        return _resolve(package, f"{module}:{attr or name}")

    return __getattr__
