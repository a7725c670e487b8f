"""Find a model's skin image from its untrusted skin names, inside one folder tree only.

Skin names come from the model file (``PLAYERS/Hueteotl/weapon.pcx``, ``/usr/share/x.pcx``,
``../../etc/passwd``) and are never trusted. They are looked up only under one root: the
model's own folder (and its subfolders), or an explicit ``skin_dir``. One leading slash is
dropped first (``/models/x.pcx`` is the game path ``models/x.pcx``: ioquake3's
``FS_FOpenFileRead`` does the same). A name that is then absolute (``//x``), has a drive letter
or a ``..`` component is refused with a :class:`QuakeModelsWarning` and
skipped (the other names are still looked up; when every name is refused the model gets no
texture). A file that resolves (through a symlink) outside the root, or is not a regular file
(a FIFO, a device), is refused the same way. Names are deduplicated and at most
:data:`MAX_NAMES` are looked up; each folder is listed once per model (:class:`Listings`), so
the work is bounded by the names and folders, not their product with the folder's size.

Otherwise the first of these that exists is used (every match case-insensitive, as Quake II
clients do on case-sensitive file systems):

1. the skin name's path under the root, then each shorter tail of it (``Hueteotl/weapon.pcx``,
   ``weapon.pcx``): a model in ``baseq2/players/Hueteotl/`` names its skin from ``baseq2``;
   the same path with another image extension (``.tga`` or ``.png`` for ``.pcx``);
2. ``<model stem>__<basename of the skin name>`` beside the model (the corpus' naming);
3. ``<model stem>.<image extension>`` beside the model;
4. the single ``<model stem>__*`` image beside the model;
5. the single image in the model's folder.

Symlinks found by the fallbacks are held to the same rule: the resolved file must lie inside
the root. Quake II's PCX skins (8-bit, RLE, with a palette) are decoded with numpy
(:mod:`quakemodels.core.pcx`), and so are uncompressed 8, 24 and 32-bit BMPs and 8-bit
colour-mapped or grey and 24 or 32-bit true-colour TGAs, raw or RLE
(:mod:`quakemodels.core.rasters`), to the pixels Pillow would give; a sequential JPEG or plain
8-bit PNG stays as its file, which a glTF holds as it is (:mod:`quakemodels.core.embed`), and
is decoded only when pixels are asked for; Pillow reads any other PCX, BMP, TGA, JPEG or PNG
(and any file over 16 MiB). Images are RGB or RGBA. An image over Pillow's decompression-bomb
limit is a warning, and the export goes on without it.

When the model comes from a game folder or an archive, ``registry.scene`` first makes that
game's search path (a :class:`quakemodels.archive.GameFS`, seen here only as an
:class:`ImageSource`) the active one with :func:`game_images`: names are then looked up the way
the engine finds files, through its paks and pk3s, before the folder lookups above.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import numpy as np
import numpy.typing as npt

from ..errors import ModelFormatError, QuakeModelsWarning
from .embed import Embeddable, embeddable
from .files import is_regular, open_regular
from .gamepaths import Listings, _find_ci, _unsafe_reason, _where
from .pcx import decode_pcx
from .png import encode_png
from .rasters import decode_bmp, decode_tga

IMAGE_EXTENSIONS = (".pcx", ".tga", ".png", ".jpg", ".jpeg", ".bmp")


class Skin:
    """A skin image found on disk: its ``path`` and its decoded picture, RGB or RGBA.

    ``pixels`` (H,W,3|4) uint8 and ``mode`` (``"RGB"``, ``"RGBA"``) are what the writers read;
    ``image`` is the same picture as a PIL.Image.Image, made on first use: a PCX, BMP or TGA
    skin decodes without Pillow (:mod:`quakemodels.core.pcx`, :mod:`quakemodels.core.rasters`),
    so a glTF export of it never imports Pillow.
    ``embedded`` is set for a JPEG or PNG file a glTF holds as it is
    (:mod:`quakemodels.core.embed`): its picture is decoded only if something asks for it.
    """

    def __init__(
        self,
        path: Path,
        image: object = None,
        *,
        pixels: npt.NDArray[np.uint8] | None = None,
        embedded: Embeddable | None = None,
    ) -> None:
        if image is None and pixels is None and embedded is None:
            raise TypeError("a Skin needs an image, pixels or an embeddable file")
        self.path = path
        self._image = image  # PIL.Image.Image; typed loosely: this module needs no Pillow
        self._pixels = pixels
        self.embedded = embedded

    @property
    def image(self) -> object:
        """The picture as a PIL.Image.Image (RGB or RGBA)."""
        if self._image is None:
            if self._pixels is None and self.embedded is not None:
                self._image = _decoded(self.path, self.embedded.data)
            else:
                from PIL import Image

                self._image = Image.fromarray(self.pixels)
        return self._image

    @property
    def pixels(self) -> npt.NDArray[np.uint8]:
        """(H,W,3) or (H,W,4) uint8, top row first."""
        if self._pixels is None:
            self._pixels = np.asarray(self.image, dtype=np.uint8)
        return self._pixels

    @property
    def mode(self) -> str:
        """``"RGB"`` or ``"RGBA"`` (a PIL image's own mode otherwise)."""
        if self._pixels is not None:
            return "RGBA" if self._pixels.shape[-1] == 4 else "RGB"
        if self._image is None and self.embedded is not None:
            return "RGBA" if self.embedded.alpha else "RGB"
        return str(getattr(self._image, "mode", "RGB"))

    def png_bytes(self) -> bytes:
        """The image encoded as PNG (:func:`~quakemodels.core.png.encode_png`; Pillow for a
        mode other than RGB and RGBA)."""
        if self.mode in ("RGB", "RGBA"):
            return encode_png(np.ascontiguousarray(self.pixels))
        from PIL import Image

        assert isinstance(self._image, Image.Image)
        buf = io.BytesIO()
        self._image.save(buf, format="PNG", optimize=False)
        return buf.getvalue()

    def __repr__(self) -> str:
        return f"<Skin {self.path}: {self.mode}>"


SkinImage = npt.NDArray[np.uint8]
"""A skin picture as a model's ``skin_images`` gives it: (H,W,4) uint8 RGBA, top row first."""


def rgba(pixels: npt.NDArray[np.uint8]) -> SkinImage:
    """(H,W,4) uint8 RGBA of (H,W,3) RGB, (H,W,4) RGBA, (H,W) grey or (H,W,2) grey-alpha
    pixels (alpha 255 where the picture has none), read-only: a model's cached skin images
    are shared by every access."""
    p = np.asarray(pixels, np.uint8)
    if p.ndim == 2:
        p = p[:, :, None]
    channels = p.shape[2]
    colour = p[:, :, :3] if channels >= 3 else np.repeat(p[:, :, :1], 3, axis=2)
    out = np.empty((*p.shape[:2], 4), np.uint8)
    out[:, :, :3] = colour
    out[:, :, 3] = p[:, :, 3] if channels == 4 else p[:, :, 1] if channels == 2 else 255
    out.setflags(write=False)
    return out


def skin_rgba(skin: Skin | None) -> SkinImage | None:
    """A found skin's picture as :func:`rgba` gives it; None for no skin, or for a file that
    turns out not to decode (a warning says so: a model's ``skin_images`` never raises for
    a picture beside it)."""
    if skin is None:
        return None
    try:
        return rgba(skin.pixels)
    except (OSError, ValueError) as e:  # ModelFormatError among the ValueErrors
        warnings.warn(f"skin {skin.path} cannot be decoded: {e}", QuakeModelsWarning, stacklevel=2)
        return None


MAX_NAMES = 64
"""Distinct skin names looked up per model (or surface): Quake II stores at most 32, MD3
surfaces a handful; a file naming thousands gets the first 64, with a warning."""


def _images(folder: Path, listings: Listings) -> list[str]:
    return [e for e in listings.names(folder) if os.path.splitext(e)[1].lower() in IMAGE_EXTENSIONS]


class ImageSource(Protocol):
    """Images found through a game's search path (``quakemodels.archive.GameFS`` is one)."""

    def image(self, names: Sequence[str], model_name: str | None) -> tuple[str, bytes] | None:
        """(a label such as ``baseq2/pak0.pak/models/x/skin.pcx``, the file's bytes), or None."""
        ...


# The search path of the game the model being exported came from (set by registry.scene).
_GAME: ContextVar[tuple[ImageSource, str | None] | None] = ContextVar("game", default=None)


@contextlib.contextmanager
def game_images(source: ImageSource, model_name: str | None) -> Iterator[None]:
    """Within the block, :func:`find_skin` looks names up through ``source`` first;
    ``model_name`` is the model's name inside it (for the beside-the-model fallbacks)."""
    token = _GAME.set((source, model_name))
    try:
        yield
    finally:
        _GAME.reset(token)


# Pillow's reader of each skin extension. Importing it first lets Image.open identify the
# file among the common plugins; otherwise a PCX (no common plugin reads it) makes Pillow
# import every plugin it has, a sixth of a one-file export's start-up.
_PLUGINS = {
    ".pcx": "PcxImagePlugin",
    ".tga": "TgaImagePlugin",
    ".png": "PngImagePlugin",
    ".jpg": "JpegImagePlugin",
    ".jpeg": "JpegImagePlugin",
    ".bmp": "BmpImagePlugin",
}


def _register_plugin(suffix: str) -> None:
    """Import Pillow's plugin for ``suffix`` (when there is one: any other file is still
    identified by its content, among every plugin)."""
    plugin = _PLUGINS.get(suffix.lower())
    if plugin is not None:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"PIL.{plugin}")


def _open(path: Path, data: BinaryIO | None = None) -> Skin | None:
    """The decoded image (from ``data`` when given, else the file), or None with a warning:
    unreadable, not a regular file, or a decompression bomb (Pillow's pixel limit: the export
    goes on without that texture). A JPEG or PNG a glTF can hold as it is stays undecoded
    (:mod:`quakemodels.core.embed`)."""
    decoder = _DECODERS.get(path.suffix.lower())
    if decoder is not None:
        skin = _open_raster(path, data, decoder)
        if skin is not None:
            return skin
    elif path.suffix.lower() in (".jpg", ".jpeg", ".png"):
        raw = _read_head(path, data, MAX_EMBED_BYTES)
        found = None if raw is None or len(raw) > MAX_EMBED_BYTES else embeddable(raw)
        if found is not None:
            return Skin(path, embedded=found)
    from PIL import Image, UnidentifiedImageError

    _register_plugin(path.suffix)
    try:
        source = contextlib.nullcontext(data) if data is not None else open_regular(path, "skin")
        with source as f:
            return Skin(path=path, image=_pil_rgb(f))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        reason = f"too large to decode safely ({e})"
    except UnidentifiedImageError:  # its message names the file object, not the file
        reason = "not an image Pillow can read"
    except (OSError, ValueError) as e:
        reason = f"cannot read image: {e}"
    warnings.warn(f"skin {path}: {reason}; not used", QuakeModelsWarning, stacklevel=3)
    return None


def _pil_rgb(f: BinaryIO) -> Any:
    """The image in ``f`` decoded by Pillow (:func:`_rgb`), its decompression-bomb warning
    raised as an error: Pillow only warns between its limit and twice it, then decodes anyway."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with Image.open(f) as img:
            return _rgb(img)


def _rgb(img: Any) -> Any:
    """An opened PIL image decoded to RGB, or RGBA when it has any transparency; only the
    pixels travel on (colour profiles, gamma and dpi would ride into PNGs)."""
    img.load()
    transparent = img.mode in ("RGBA", "LA", "PA") or "transparency" in img.info
    rgb = img.convert("RGBA" if transparent else "RGB")
    rgb.info = {}
    return rgb


def _decoded(path: Path, data: bytes) -> object:
    """The picture of an embeddable JPEG or PNG (checked already) as a PIL image, as
    :func:`_open` decodes any other skin. Its structure was checked when it was found, not its
    compressed data: a file Pillow then cannot decode is a :class:`ModelFormatError` naming
    the skin (the embedding writers never get here; the decoding ones cannot go on)."""
    from PIL import Image

    try:
        return _pil_rgb(io.BytesIO(data))
    except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        raise ModelFormatError(f"skin {path}: cannot decode image: {e}", field="skin") from e


MAX_RASTER_BYTES = 16 * 2**20
"""PCX, BMP and TGA files up to this size are decoded here; larger ones go to Pillow and its
checks."""
_DECODERS: dict[str, Callable[[bytes], npt.NDArray[np.uint8] | None]] = {
    ".pcx": decode_pcx,
    ".bmp": decode_bmp,
    ".tga": decode_tga,
}
MAX_EMBED_BYTES = 64 * 2**20
"""JPEG and PNG files up to this size may be embedded as they are; larger ones are decoded."""


def _read_head(path: Path, data: BinaryIO | None, limit: int) -> bytes | None:
    """Up to ``limit`` + 1 bytes of the skin (``data`` is left where it was), or None when
    it cannot be read (the decoding path then reports it)."""
    try:
        if data is not None:
            start = data.tell()
            raw = data.read(limit + 1)
            data.seek(start)
            return raw
        with open_regular(path, "skin") as f:
            return f.read(limit + 1)
    except (OSError, ValueError):
        return None


def _open_raster(
    path: Path, data: BinaryIO | None, decode: Callable[[bytes], npt.NDArray[np.uint8] | None]
) -> Skin | None:
    """A PCX, BMP or TGA skin decoded without Pillow (:mod:`quakemodels.core.pcx`,
    :mod:`quakemodels.core.rasters`), or None to let Pillow read it (another kind, a large or
    unreadable file: Pillow then decides, and warns)."""
    raw = _read_head(path, data, MAX_RASTER_BYTES)
    pixels = decode(raw) if raw is not None and len(raw) <= MAX_RASTER_BYTES else None
    return None if pixels is None else Skin(path, pixels=pixels)


def _usable(skin_names: Sequence[str], warn: bool) -> list[str]:
    """The safe names, first occurrence of each (ignoring case), at most :data:`MAX_NAMES`;
    a refused name is skipped with a warning when ``warn``, and the others are still used."""
    out: list[str] = []
    seen: set[str] = set()
    for name in skin_names:
        reason = _unsafe_reason(name)
        if reason:
            if warn:
                warnings.warn(
                    f"skin name {name!r} {reason}; refused", QuakeModelsWarning, stacklevel=4
                )
            continue
        key = name.replace("\\", "/").lower()
        if key in seen:
            continue
        if len(out) == MAX_NAMES:
            if warn:
                warnings.warn(
                    f"{len(skin_names)} skin names: only the first {MAX_NAMES} distinct ones"
                    " are looked up",
                    QuakeModelsWarning,
                    stacklevel=4,
                )
            break
        seen.add(key)
        out.append(name)
    return out


def candidates(
    skin_names: Sequence[str],
    model_path: str | os.PathLike[str] | None,
    root: Path,
    listings: Listings | None = None,
) -> list[tuple[Path, Path]]:
    """Existing (file, the root it must stay in), in order of preference; refused names
    skipped, repeated names looked up once, at most :data:`MAX_NAMES` of them.

    Name lookups search ``root``; the beside-the-model fallbacks search the model's folder
    (none when ``model_path`` is None). ``listings`` (one listing per folder) may be shared
    between calls for one model.
    """
    listings = listings or Listings()
    model = Path(model_path) if model_path is not None else None
    found: list[tuple[Path, Path]] = []
    for name in _usable(skin_names, warn=False):
        parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
        if not parts:
            continue
        base, ext = os.path.splitext(parts[-1])
        alternatives = [parts[-1]] + [base + e for e in IMAGE_EXTENSIONS if e != ext.lower()]
        for start in range(len(parts)):
            for last in alternatives:
                hit = _find_ci(root, [*parts[start:-1], last], listings)
                if hit is not None:
                    found.append((hit, root))
        if model is not None:
            for last in alternatives:
                hit = _find_ci(model.parent, [f"{model.stem}__{last}"], listings)
                if hit is not None:
                    found.append((hit, model.parent))
    if model is None:
        return found
    folder = model.parent
    entries = _images(folder, listings)
    lower_stem = model.stem.lower()
    found += [(folder / e, folder) for e in entries if os.path.splitext(e)[0].lower() == lower_stem]
    prefixed = [e for e in entries if e.lower().startswith(lower_stem + "__")]
    if len(prefixed) == 1:
        found.append((folder / prefixed[0], folder))
    if len(entries) == 1:
        found.append((folder / entries[0], folder))
    return found


def find_skin(
    skin_names: Sequence[str],
    model_path: str | os.PathLike[str] | None,
    skin_dir: str | os.PathLike[str] | None = None,
    listings: Listings | None = None,
) -> Skin | None:
    """The model's skin image, or None (with a QuakeModelsWarning when a name or a file was
    refused).

    ``skin_names`` are the names stored in the model; ``model_path`` is where the model was
    read from (None for a model from bytes: then only ``skin_dir`` is searched, by name).
    The root is ``skin_dir`` when given, else the model's folder. A refused name is skipped
    and the others are still looked up; when every name is refused nothing is guessed.
    A candidate that leads outside its root or is not a regular file is skipped with a
    warning. ``listings`` may be shared by the lookups of one model.
    """
    game = _GAME.get()
    if game is not None and skin_dir is None:
        names = _usable(skin_names, warn=True)
        if skin_names and not names:
            return None
        hit = game[0].image(names, game[1])
        if hit is not None and (skin := _open(Path(hit[0]), io.BytesIO(hit[1]))) is not None:
            return skin
        if model_path is None or not Path(model_path).parent.is_dir():
            return None  # the model is inside an archive: no folder to search besides
    if model_path is None and skin_dir is None:
        return None
    if skin_dir is not None:
        root = Path(skin_dir)
    else:
        assert model_path is not None
        root = Path(model_path).parent
    if not root.is_dir():
        what = "is not a folder" if root.exists() else "does not exist"
        warnings.warn(f"skin folder {root} {what}", QuakeModelsWarning, stacklevel=2)
        return None
    usable = _usable(skin_names, warn=True)
    if skin_names and not usable:
        warnings.warn(
            "every skin name was refused; no texture",
            QuakeModelsWarning,
            stacklevel=2,
        )
        return None
    seen: set[Path] = set()
    for path, within in candidates(usable, model_path, root, listings):
        if path in seen:
            continue
        seen.add(path)
        reason = _where(path, within.resolve())
        if reason is not None:
            warnings.warn(f"skin {path} {reason}; refused", QuakeModelsWarning, stacklevel=2)
            continue
        skin = _open(path)
        if skin is not None:
            return skin
    return None


SKIN_FILE_EXTENSIONS = (*IMAGE_EXTENSIONS, ".wal")
"""What a checker accepts as a skin file: the images above and Quake II's ``.wal``."""


def _exists_beside(folder: Path, model_stem: str, skin: str, listings: Listings) -> bool:
    """Whether a file for ``skin`` exists inside ``folder`` (never outside it).

    Only the skin name's last path component is used, matched case-insensitively, with the
    engines' alternative image extensions and the ``<model>__<skin>`` naming of collections.
    """
    base = skin.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base in (".", ".."):
        return False
    stem = base.rsplit(".", 1)[0] if "." in base else base
    wanted = {base.lower()}
    wanted.update((stem + ext).lower() for ext in SKIN_FILE_EXTENSIONS)
    wanted.update(f"{model_stem}__{w}".lower() for w in list(wanted))
    entries = listings.entries(folder)
    return any(e in entries and is_regular(folder / entries[e][0]) for e in wanted)


def skin_exists(
    model_path: str | os.PathLike[str], skin: str, listings: Listings | None = None
) -> bool:
    """Whether ``skin`` names an image: through the game's search path when one is active
    (:func:`game_images`; by name, as :func:`find_skin` looks it up for render and export),
    then inside the model's folder tree: by :func:`candidates` (case-insensitive,
    alternative extensions, unsafe names refused), then by its basename and
    ``<model>__<skin>`` beside the model. ``listings`` may be shared by the lookups of one
    model (one directory listing per folder)."""
    path = Path(model_path)
    listings = listings or Listings()
    game = _GAME.get()
    if game is not None:
        # the game's search path first, by name, as find_skin looks it up for render
        try:
            if game[0].image([skin], None) is not None:
                return True
        except (OSError, ValueError):
            pass
    try:
        if candidates([skin], None, path.parent, listings):
            return True
    except (OSError, ValueError):
        pass
    return _exists_beside(path.parent, path.stem, skin, listings)
