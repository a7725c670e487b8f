"""The format contract: what a format is and what it serves, declared as data.

Each ``formats/<name>/__init__.py`` defines one :class:`Format`; ``formats/__init__.py`` lists
them (one line each) and :mod:`quakemodels.registry` dispatches every verb through that list by
kind and capability, never by a format's name.

A :class:`Format` is light: its name, magic, version test, suffixes and spec id are plain
values, and each service is a ``"module:attr"`` string imported the first time it is asked
for (then cached). Start-up and the magic dispatch load no format's modules, a command on an
MD2 file loads only MD2's, and an export no checker or describer.

Capabilities (the keys of :attr:`Format.services`; a format declares only what it serves):

- ``model``: the class ``load`` returns (``from_bytes(data, name=...)``, ``to_bytes()``).
- ``check``: ``check(source, engine, *, name=None) -> list[Finding]``; never raises.
- ``describe``: ``describe(model) -> str`` (``quakemodels info``).
- ``scene``: ``scene(model, *, skin_dir=None, frames=None) -> ExportModel`` (export, render,
  a convert's source).
- ``frames``: image kinds: ``frames(model, *, palette=None) -> SpriteFrames``.
- ``quantized``: formats storing byte-compressed frames (MD2, MDL): ``quantized(model, *,
  palette=None) -> QuantizedMesh`` (:mod:`.quantized`), the neutral source of an exact
  conversion between them.
- ``build``: ``build(scene_or_frames, *, name, ...) -> model``: the target side of convert.
- ``limits``: the format's engine limits module.
- ``skeletal``: skeletal formats (IQM, MD5): ``skeletal(model) -> SkeletalScene``
  (:mod:`.skeletal`), what a skeletal target (IQM) is built from.
- folder kinds: ``detect`` (``path, game_dir -> bool``, never raises), ``open`` (``path,
  game_dir -> model``, None when nothing is at the path) and ``clips`` (``model -> (table,
  count)``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, cast

from ..errors import UnsupportedError
from .findings import Finding
from .scene import ExportModel

Checker = Callable[..., list[Finding]]
"""``check(source, engine, *, name=None) -> findings``; never raises on any input."""
Describer = Callable[[Any], str]
"""``describe(model) -> text`` for ``quakemodels info``."""
Scener = Callable[..., ExportModel]
"""``scene(model, *, skin_dir=None, frames=None) -> ExportModel`` for the exporters; ``frames``
(a sequence of frame indices) limits the scene to those frames, decoding only them."""


class Kind(str, Enum):
    """What a format holds, which decides the verbs that fit it."""

    MESH = "animated mesh"
    """MD2, MD3, MDL: ``scene`` gives a :class:`~quakemodels.core.scene.ExportModel`."""
    IMAGE = "image/sprite"
    """Sprites: ``frames`` gives the neutral image sequence."""
    FOLDER = "folder set"
    """The Quake III player: opened from a folder (``detect``/``open``), not from bytes."""


# What a verb says when a format lacks a capability ("sp2 cannot build from a scene").
_WHAT = {
    "model": "be loaded",
    "check": "be checked",
    "describe": "be described",
    "scene": "give a mesh scene",
    "frames": "give image frames",
    "quantized": "give byte-compressed frames",
    "build": "be built from a scene",
    "limits": "state engine limits",
    "detect": "be found in a folder",
    "open": "be opened from a folder",
    "clips": "list its clips",
}


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


# Every format declared() has listed, in order: what format_of searches. The package of the
# formats declares them on import, so a model (its class imported from a format's package)
# always finds its own here.
_DECLARED: list[Format] = []


def declared(package: str, *names: str) -> tuple[Format, ...]:
    """The :data:`FORMAT` of each subpackage ``names`` of ``package``, in that order: the one
    line per format of :mod:`quakemodels.formats` (importing a format package is light: its
    ``__init__`` declares data only)."""
    formats = tuple(_resolve(package, f"{name}:FORMAT") for name in names)
    _DECLARED.extend(f for f in formats if f not in _DECLARED)
    return formats


def format_of(obj: object) -> Format | None:
    """The declared format whose model ``obj`` is (see :meth:`Format.holds`), or None: what
    a layer below the registry (``interchange.convert.Source``) asks a model's services by."""
    return next((f for f in _DECLARED if f.holds(obj)), None)


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
    services: Mapping[str, str] = field(default_factory=dict, repr=False)
    """Capability -> ``"module:attr"`` (see the module docstring for the capabilities)."""
    exports: tuple[str, ...] = ()
    """Public names of the format's package that the package root serves too
    (``quakemodels.Md2``), each imported on first use."""
    _loaded: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

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

    def has(self, capability: str) -> bool:
        """True when the format serves ``capability``."""
        return capability in self.services

    def service(self, capability: str) -> Any:
        """The object serving ``capability``, imported on the first ask and cached;
        :class:`UnsupportedError` (one line for the CLI) when the format has none."""
        if capability not in self._loaded:
            target = self.services.get(capability)
            if target is None:
                what = _WHAT.get(capability, f"serve {capability!r}")
                raise UnsupportedError(f"{self.name} ({self.title}) cannot {what}")
            self._loaded[capability] = _resolve(self.package, target)
        return self._loaded[capability]

    @property
    def model_module(self) -> str | None:
        """The module defining the model class: while it is not imported, no object can be a
        model of this format (see :meth:`holds`)."""
        target = self.services.get("model")
        return None if target is None else f"{self.package}.{target.partition(':')[0]}"

    @property
    def model(self) -> type[Any]:
        """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``)."""
        return cast("type[Any]", self.service("model"))

    @property
    def check(self) -> Checker:
        """``check(source, engine, *, name=None) -> findings``; never raises."""
        return cast(Checker, self.service("check"))

    @property
    def describe(self) -> Describer:
        """``describe(model) -> text`` for ``quakemodels info``."""
        return cast(Describer, self.service("describe"))

    @property
    def scene(self) -> Scener:
        """``scene(model, *, skin_dir=None, frames=None) -> ExportModel``."""
        return cast(Scener, self.service("scene"))

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
