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
from collections.abc import Callable, Mapping
from enum import Enum
from types import ModuleType

from ..errors import UnsupportedError

# The formats' declarations are read by every command, `ls` and `--help` included: this module
# imports neither typing nor dataclasses (with inspect, a light command's start-up again).
# Type checkers take any name TYPE_CHECKING as true; the protocols live in .protocols.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..core.findings import Finding
    from ..core.scene import ExportModel
    from .protocols import (
        Builder,
        ClipLines,
        ClipTable,
        Describer,
        Detector,
        Facts,
        FolderLister,
        Framer,
        Members,
        Opener,
        OwnGltf,
        Poser,
        Quantizer,
    )

Checker = Callable[..., "list[Finding]"]
"""``check(source, engine, *, name=None) -> findings`` (a folder format's: ``game_dir=``
instead of ``name=``); never raises on any input."""
Scener = Callable[..., "ExportModel"]
"""``scene(model, *, skin_dir=None, frames=None) -> ExportModel`` (a folder format's:
``skin=``, ``game_dir=`` instead of ``skin_dir=``); ``frames`` (frame indices) limits the scene
to those frames, decoding only them."""


class Kind(str, Enum):
    """What a format holds, which decides the verbs that fit it."""

    MESH = "animated mesh"
    """MD2, MD3, MDL, MD5, IQM: ``scene`` gives a :class:`~quakemodels.core.scene.ExportModel`."""
    IMAGE = "image/sprite"
    """Sprites: ``frames`` gives the neutral image sequence."""
    FOLDER = "folder set"
    """The Quake III player: opened from a folder (``detect``/``open``), not from bytes."""


class Services:
    """Where a format's services live: ``"module:attr"`` relative to its package (a bare
    ``"module"`` is the module itself), None for a service it does not offer. Imported on
    first use (:class:`Format`). Each is a protocol of :mod:`.protocols`:

    - ``model``: the class :func:`quakemodels.load` returns (``from_bytes(data, name=...)``,
      ``to_bytes()``); ``check``: a :data:`Checker`; ``describe``: a ``Describer``;
    - ``scene``: a :data:`Scener`, the exporters' view, a convert's source (mesh and folder
      kinds); ``frames``: a ``Framer`` (image kinds); ``quantized``: a ``Quantizer`` (formats
      storing byte-compressed frames: MD2, MDL); ``build``: a ``Builder`` (what convert
      writes); ``limits``: the module of the engine limits (``MAX_FILE_SIZE``, what ``check``
      cites);
    - ``facts``: a ``Facts``, when ``info --json`` says more than the shared facts;
      ``clip_lines``: a ``ClipLines``, when ``info --clips`` says more than names and ranges;
      ``gltf``: an ``OwnGltf``, when a model is placed by its own nodes (a player); ``pose``:
      a ``Poser``, when parts of a model play clips at once (a player);
    - folder kinds: ``detect`` (a ``Detector``), ``open`` (an ``Opener``), ``folders`` (a
      ``FolderLister``), ``members`` (a ``Members``), ``clips`` (a ``ClipTable``).

    A plain class with slots (see TYPE_CHECKING above); :attr:`NAMES` lists the services.
    """

    NAMES = (
        "model",
        "check",
        "describe",
        "scene",
        "frames",
        "quantized",
        "build",
        "limits",
        "facts",
        "clip_lines",
        "gltf",
        "pose",
        "detect",
        "open",
        "folders",
        "members",
        "clips",
    )
    __slots__ = NAMES

    def __init__(
        self,
        model: str,
        *,
        check: str | None = None,
        describe: str | None = None,
        scene: str | None = None,
        frames: str | None = None,
        quantized: str | None = None,
        build: str | None = None,
        limits: str | None = None,
        facts: str | None = None,
        clip_lines: str | None = None,
        gltf: str | None = None,
        pose: str | None = None,
        detect: str | None = None,
        open: str | None = None,
        folders: str | None = None,
        members: str | None = None,
        clips: str | None = None,
    ) -> None:
        self.model = model
        self.check = check
        self.describe = describe
        self.scene = scene
        self.frames = frames
        self.quantized = quantized
        self.build = build
        self.limits = limits
        self.facts = facts
        self.clip_lines = clip_lines
        self.gltf = gltf
        self.pose = pose
        self.detect = detect
        self.open = open
        self.folders = folders
        self.members = members
        self.clips = clips

    def __repr__(self) -> str:
        given = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.NAMES if getattr(self, n))
        return f"Services({given})"


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
assert set(_WHAT) == set(Services.NAMES)


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


class Format:
    """One format: how to recognise it (plain values) and the services it offers (each
    ``"module:attr"`` relative to :attr:`package`, imported on first use).

    - ``name``: short name, as on the command line (``md2``); ``title``: what users call it
      (``Quake II MD2``); ``kind``: what it holds (mesh, image, folder set); ``package``: the
      format's package (``quakemodels.formats.md2``), services resolve relative to it;
    - ``magic``: the first bytes of every file (empty for folder formats); ``version``:
      ``(offset, size, value)``, the little-endian unsigned int of ``size`` bytes at
      ``offset`` must equal ``value`` (two formats may share a magic, IDSP v1 and v2);
    - ``suffixes``: file name suffixes, lower case with the dot (``.md2``); ``spec_id``: the
      generated parser's module in ``quakemodels.kaitai`` (``quake2_md2``), for dump;
    - ``services``: where each service lives (:class:`Services`); ``exports``: public names
      of the format's package that the package root serves too (``quakemodels.Md2``), each
      imported on first use.

    A plain class with slots, compared by identity (see TYPE_CHECKING above).
    """

    __slots__ = (
        "_loaded",
        "exports",
        "kind",
        "magic",
        "name",
        "package",
        "services",
        "spec_id",
        "suffixes",
        "title",
        "version",
    )

    def __init__(
        self,
        name: str,
        title: str,
        kind: Kind,
        package: str,
        magic: bytes = b"",
        version: tuple[int, int, int] | None = None,
        suffixes: tuple[str, ...] = (),
        spec_id: str | None = None,
        services: Services | None = None,
        exports: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.title = title
        self.kind = kind
        self.package = package
        self.magic = magic
        self.version = version
        self.suffixes = suffixes
        self.spec_id = spec_id
        self.services = services if services is not None else Services(model="")
        self.exports = exports
        # the services imported so far, by name, and the worked-out max_file_size
        self._loaded: dict[str, Any] = {}

    def __repr__(self) -> str:
        return (
            f"Format(name={self.name!r}, title={self.title!r}, kind={self.kind!r},"
            f" package={self.package!r}, magic={self.magic!r}, version={self.version!r},"
            f" suffixes={self.suffixes!r}, spec_id={self.spec_id!r}, exports={self.exports!r})"
        )

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
        found: type[Any] = self._service("model")
        return found

    @property
    def check(self) -> Checker:
        """The :data:`Checker`."""
        found: Checker = self._service("check")
        return found

    @property
    def describe(self) -> Describer:
        """The :class:`Describer`."""
        found: Describer = self._service("describe")
        return found

    @property
    def scene(self) -> Scener:
        """The :data:`Scener`."""
        found: Scener = self._service("scene")
        return found

    @property
    def frames(self) -> Framer:
        """The :class:`Framer` (image kinds)."""
        found: Framer = self._service("frames")
        return found

    @property
    def quantized(self) -> Quantizer:
        """The :class:`Quantizer` (MD2, MDL)."""
        found: Quantizer = self._service("quantized")
        return found

    @property
    def build(self) -> Builder:
        """The :class:`Builder` (the formats convert writes)."""
        found: Builder = self._service("build")
        return found

    @property
    def limits(self) -> ModuleType | None:
        """The engine limits module, None when the format states none."""
        if self.services.limits is None:
            return None
        found: ModuleType | None = self._service("limits")
        return found

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
        if self.services.facts is None:
            return None
        found: Facts | None = self._service("facts")
        return found

    @property
    def clip_lines(self) -> ClipLines | None:
        """The format's own :class:`ClipLines`, None when names and ranges say it all."""
        if self.services.clip_lines is None:
            return None
        found: ClipLines | None = self._service("clip_lines")
        return found

    @property
    def gltf(self) -> OwnGltf | None:
        """The format's own :class:`OwnGltf`, None for a model the shared road writes."""
        if self.services.gltf is None:
            return None
        found: OwnGltf | None = self._service("gltf")
        return found

    @property
    def pose(self) -> Poser:
        """The :class:`Poser` (a player)."""
        found: Poser = self._service("pose")
        return found

    @property
    def detect(self) -> Detector:
        """Folder kinds: the :class:`Detector`."""
        found: Detector = self._service("detect")
        return found

    @property
    def open_folder(self) -> Opener:
        """Folder kinds: the :class:`Opener`."""
        found: Opener = self._service("open")
        return found

    @property
    def folders(self) -> FolderLister | None:
        """Folder kinds: the :class:`FolderLister`, None when archives cannot hold one."""
        if self.services.folders is None:
            return None
        found: FolderLister | None = self._service("folders")
        return found

    @property
    def members(self) -> Members:
        """Folder kinds: the :class:`Members`."""
        found: Members = self._service("members")
        return found

    @property
    def clips(self) -> ClipTable | None:
        """Folder kinds: the :class:`ClipTable`, None when the model's ``animations`` and
        ``frame_names`` are its scene's clips and frames."""
        if self.services.clips is None:
            return None
        found: ClipTable | None = self._service("clips")
        return found

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
