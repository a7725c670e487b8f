"""What a format tells the registry: its magic, its model class and its per-format services.

Each ``formats/<name>/__init__.py`` defines one :class:`Format`; ``formats/__init__.py`` lists
them (one line each) and :mod:`quakemodels.registry` dispatches ``load``, ``check``, ``info``,
``dump``, ``export``, the cross-check and the fuzzers through that list.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
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
class Format:
    """One model format: how to recognise it and what serves it."""

    name: str
    """Short name, as on the command line (``md2``)."""
    title: str
    """What users call it (``Quake II MD2``)."""
    magic: bytes
    """The first bytes of every file."""
    suffixes: tuple[str, ...]
    """File name suffixes, lower case with the dot (``.md2``)."""
    model: type[Any]
    """The class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``)."""
    spec_id: str
    """The generated parser's module in ``quakemodels.kaitai`` (``quake2_md2``)."""
    check: Checker
    describe: Describer
    scene: Scener

    def open(self, data: bytes, name: str | os.PathLike[str] | None = None) -> Any:
        """The model in ``data`` (ModelFormatError when it is not a valid one)."""
        return self.model.from_bytes(data, name=None if name is None else os.fspath(name))
