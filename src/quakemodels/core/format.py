"""What a format tells the registry: its magic, its model class and its per-format services.

Each ``formats/<name>/__init__.py`` defines one :class:`Format`; ``formats/__init__.py`` lists
them (one line each) and :mod:`quakemodels.registry` dispatches ``load``, ``check``, ``info``,
``dump``, ``export``, the cross-check and the fuzzers through that list.

A :class:`Format` is light: its name, magic, suffixes and spec id are plain values, and its
model class, checker, describer and scene builder (the reader and generated parser behind
them) are each imported the first time it is used. Start-up and the magic dispatch load no
format's modules, a command on an MD2 file loads only MD2's, and an export no checker or
describer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from .findings import Finding
from .scene import ExportModel

Checker = Callable[..., list[Finding]]
"""``check(source, engine, *, name=None) -> findings``; never raises on any input."""
Describer = Callable[[Any], str]
"""``describe(model) -> text`` for ``quakemodels info``."""
Scener = Callable[..., ExportModel]
"""``scene(model, *, skin_dir=None, frames=None) -> ExportModel`` for the exporters; ``frames``
(a sequence of frame indices) limits the scene to those frames, decoding only them."""


SERVICES = ("model", "check", "describe", "scene")
"""What serves a format: its model class, checker, describer and scene builder."""


@dataclass(frozen=True)
class Format:
    """One model format: how to recognise it (plain values) and what serves it (each of
    :attr:`model`, :attr:`check`, :attr:`describe` and :attr:`scene` imported on its first
    use)."""

    name: str
    """Short name, as on the command line (``md2``)."""
    title: str
    """What users call it (``Quake II MD2``)."""
    magic: bytes
    """The first bytes of every file."""
    suffixes: tuple[str, ...]
    """File name suffixes, lower case with the dot (``.md2``)."""
    spec_id: str
    """The generated parser's module in ``quakemodels.kaitai`` (``quake2_md2``)."""
    model_module: str
    """The module that defines the model class (``quakemodels.formats.md2.model``): while it
    is not imported, no object can be a model of this format (see :meth:`holds`)."""
    services: Callable[[str], Any] = field(repr=False, compare=False)
    """``services(name)`` imports the module of one of :data:`SERVICES` and returns it; called
    once per service, on its first use, so that an export loads no checker or describer."""
    _loaded: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _service(self, name: str) -> Any:
        if name not in self._loaded:
            self._loaded[name] = self.services(name)
        return self._loaded[name]

    @property
    def model(self) -> type[Any]:
        """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``)."""
        return cast("type[Any]", self._service("model"))

    @property
    def check(self) -> Checker:
        """``check(source, engine, *, name=None) -> findings``; never raises."""
        return cast(Checker, self._service("check"))

    @property
    def describe(self) -> Describer:
        """``describe(model) -> text`` for ``quakemodels info``."""
        return cast(Describer, self._service("describe"))

    @property
    def scene(self) -> Scener:
        """``scene(model, *, skin_dir=None, frames=None) -> ExportModel``."""
        return cast(Scener, self._service("scene"))

    def holds(self, obj: object) -> bool:
        """True when ``obj`` is a model of this format (an instance of :attr:`model` or a
        subclass); imports nothing when the model's module was never imported, as then no
        object can be one."""
        return self.model_module in sys.modules and isinstance(obj, self.model)

    def open(self, data: bytes, name: str | os.PathLike[str] | None = None) -> Any:
        """The model in ``data`` (ModelFormatError when it is not a valid one)."""
        return self.model.from_bytes(data, name=None if name is None else os.fspath(name))
