"""What a format tells the registry: its magic, its model class and its per-format services.

Each ``formats/<name>/__init__.py`` defines one :class:`Format`; ``formats/__init__.py`` lists
them (one line each) and :mod:`quakemodels.registry` dispatches ``load``, ``check``, ``info``,
``dump``, ``export``, the cross-check and the fuzzers through that list.

A :class:`Format` is light: its name, magic, suffixes and spec id are plain values, and its
model class, checker, describer and scene builder (the reader, writer and generated parser
behind them) are imported the first time one of them is used. Start-up and the magic dispatch
load no format's modules, and a command on an MD2 file loads only MD2's.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .findings import Finding
from .scene import ExportModel

Checker = Callable[..., list[Finding]]
"""``check(source, engine, *, name=None) -> findings``; never raises on any input."""
Describer = Callable[[Any], str]
"""``describe(model) -> text`` for ``quakemodels info``."""
Scener = Callable[..., ExportModel]
"""``scene(model, *, skin_dir=None, frames=None) -> ExportModel`` for the exporters; ``frames``
(a sequence of frame indices) limits the scene to those frames, decoding only them."""


@dataclass(frozen=True)
class Services:
    """What serves one format, imported on first use (see :attr:`Format.services`)."""

    model: type[Any]
    """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``)."""
    check: Checker
    describe: Describer
    scene: Scener


@dataclass(frozen=True)
class Format:
    """One model format: how to recognise it (plain values) and what serves it (imported the
    first time :attr:`model`, :attr:`check`, :attr:`describe` or :attr:`scene` is used)."""

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
    services: Callable[[], Services] = field(repr=False, compare=False)
    """Imports the format's modules and returns what serves it; called on first use only."""
    _loaded: list[Services] = field(default_factory=list, init=False, repr=False, compare=False)

    def _services(self) -> Services:
        if not self._loaded:
            self._loaded.append(self.services())
        return self._loaded[0]

    @property
    def model(self) -> type[Any]:
        """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``)."""
        return self._services().model

    @property
    def check(self) -> Checker:
        """``check(source, engine, *, name=None) -> findings``; never raises."""
        return self._services().check

    @property
    def describe(self) -> Describer:
        """``describe(model) -> text`` for ``quakemodels info``."""
        return self._services().describe

    @property
    def scene(self) -> Scener:
        """``scene(model, *, skin_dir=None, frames=None) -> ExportModel``."""
        return self._services().scene

    def holds(self, obj: object) -> bool:
        """True when ``obj`` is a model of this format (an instance of :attr:`model` or a
        subclass); imports nothing when the model's module was never imported, as then no
        object can be one."""
        return self.model_module in sys.modules and isinstance(obj, self.model)

    def open(self, data: bytes, name: str | os.PathLike[str] | None = None) -> Any:
        """The model in ``data`` (ModelFormatError when it is not a valid one)."""
        return self.model.from_bytes(data, name=None if name is None else os.fspath(name))
