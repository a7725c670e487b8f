"""Find a model's skin image from its untrusted skin names, inside one folder tree only.

Skin names come from the model file (``PLAYERS/Hueteotl/weapon.pcx``, ``/usr/share/x.pcx``,
``../../etc/passwd``) and are never trusted. They are looked up only under one root: the
model's own folder (and its subfolders), or an explicit ``skin_dir``. A name that is absolute,
has a drive letter or a ``..`` component, or resolves (through a symlink) outside the root is
refused: a :class:`QuakeModelsWarning` is issued and the model gets no texture.

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
the root. Pillow reads PCX, BMP, TGA, JPEG and PNG; images are returned as RGB or RGBA.

When the model comes from a game folder or an archive, ``registry.scene`` first makes that
game's search path (a :class:`quakemodels.archive.GameFS`, seen here only as an
:class:`ImageSource`) the active one with :func:`game_images`: names are then looked up the way
the engine finds files, through its paks and pk3s, before the folder lookups above.
"""

from __future__ import annotations

import contextlib
import io
import os
import warnings
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from ..errors import QuakeModelsWarning

IMAGE_EXTENSIONS = (".pcx", ".tga", ".png", ".jpg", ".jpeg", ".bmp")


@dataclass(frozen=True)
class Skin:
    """A skin image found on disk: its path, and the decoded RGB(A) image (PIL.Image.Image)."""

    path: Path
    image: object  # PIL.Image.Image; typed loosely so importing this module needs no Pillow

    def png_bytes(self) -> bytes:
        """The image encoded as PNG."""
        import io

        from PIL import Image

        assert isinstance(self.image, Image.Image)
        buf = io.BytesIO()
        self.image.save(buf, format="PNG", optimize=False)
        return buf.getvalue()


def _unsafe_reason(name: str) -> str | None:
    """Why the untrusted skin name must not be used as a path, or None when it is relative."""
    text = name.replace("\\", "/")
    if not text.strip():
        return "is empty"
    if "\0" in text:
        return "contains a NUL byte"
    if text.startswith("/"):
        return "is an absolute path"
    if len(text) >= 2 and text[1] == ":" and text[0].isalpha():
        return "has a drive letter"
    if any(part == ".." for part in text.split("/")):
        return "has a '..' component that leaves the skin folder"
    return None


def _inside(path: Path, root: Path) -> bool:
    """True when ``path`` resolves (symlinks followed) to a file under ``root`` (resolved)."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return real.is_file() and (real == root or root in real.parents)


def _listdir(folder: Path) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _find_ci(root: Path, parts: Sequence[str]) -> Path | None:
    """``root/parts...`` matched one component at a time, exactly first, else ignoring case.

    Each step stays a child of the previous folder, so only symlinks can lead outside the
    root; callers check the resolved result with :func:`_inside`.
    """
    current = root
    for part in parts:
        if part in ("", "."):
            continue
        exact = current / part
        if exact.exists():
            current = exact
            continue
        lower = part.lower()
        matches = [e for e in _listdir(current) if e.lower() == lower]
        if not matches:
            return None
        current = current / matches[0]
    return current if current.is_file() else None


def _images(folder: Path) -> list[str]:
    return [e for e in _listdir(folder) if os.path.splitext(e)[1].lower() in IMAGE_EXTENSIONS]


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


def _open(path: Path, data: BinaryIO | None = None) -> Skin | None:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(data if data is not None else path) as img:
            img.load()
            mode = (
                "RGBA" if img.mode in ("RGBA", "LA", "PA") or "transparency" in img.info else "RGB"
            )
            rgb = img.convert(mode)
            # only pixels travel on: colour profiles, gamma and dpi would ride into PNGs
            rgb.info = {}
            return Skin(path=path, image=rgb)
    except (OSError, UnidentifiedImageError, ValueError) as e:
        warnings.warn(f"skin {path}: cannot read image: {e}", QuakeModelsWarning, stacklevel=3)
        return None


def candidates(
    skin_names: Sequence[str], model_path: str | os.PathLike[str] | None, root: Path
) -> list[tuple[Path, Path]]:
    """Existing (file, the root it must stay in), in order of preference; refused names skipped.

    Name lookups search ``root``; the beside-the-model fallbacks search the model's folder
    (none when ``model_path`` is None).
    """
    model = Path(model_path) if model_path is not None else None
    found: list[tuple[Path, Path]] = []
    for name in skin_names:
        if _unsafe_reason(name):
            continue
        parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
        if not parts:
            continue
        base, ext = os.path.splitext(parts[-1])
        alternatives = [parts[-1]] + [base + e for e in IMAGE_EXTENSIONS if e != ext.lower()]
        for start in range(len(parts)):
            for last in alternatives:
                hit = _find_ci(root, [*parts[start:-1], last])
                if hit is not None:
                    found.append((hit, root))
        if model is not None:
            for last in alternatives:
                hit = _find_ci(model.parent, [f"{model.stem}__{last}"])
                if hit is not None:
                    found.append((hit, model.parent))
    if model is None:
        return found
    folder = model.parent
    entries = _images(folder)
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
) -> Skin | None:
    """The model's skin image, or None (with a QuakeModelsWarning when a name was refused).

    ``skin_names`` are the names stored in the model; ``model_path`` is where the model was
    read from (None for a model from bytes: then only ``skin_dir`` is searched, by name).
    The root is ``skin_dir`` when given, else the model's folder.
    """
    game = _GAME.get()
    if game is not None and skin_dir is None:
        if _refused(skin_names):
            return None
        hit = game[0].image(skin_names, game[1])
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
        warnings.warn(f"skin folder {root} does not exist", QuakeModelsWarning, stacklevel=2)
        return None
    if _refused(skin_names):
        return None
    for path, within in candidates(skin_names, model_path, root):
        if not _inside(path, within.resolve()):
            warnings.warn(
                f"skin {path} leads outside {within} (symlink); refused, exporting without a"
                " texture",
                QuakeModelsWarning,
                stacklevel=2,
            )
            return None
        skin = _open(path)
        if skin is not None:
            return skin
    return None


def _refused(skin_names: Sequence[str]) -> bool:
    """True (with a warning) when a skin name is unsafe: the model then gets no texture."""
    for name in skin_names:
        reason = _unsafe_reason(name)
        if reason:
            warnings.warn(
                f"skin name {name!r} {reason}; refused, exporting without a texture",
                QuakeModelsWarning,
                stacklevel=3,
            )
            return True
    return False


SKIN_FILE_EXTENSIONS = (*IMAGE_EXTENSIONS, ".wal")
"""What a checker accepts as a skin file: the images above and Quake II's ``.wal``."""


def _exists_beside(folder: Path, model_stem: str, skin: str) -> bool:
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
    try:
        with os.scandir(folder) as it:
            return any(e.name.lower() in wanted and e.is_file() for e in it)
    except OSError:
        return False


def skin_exists(model_path: str | os.PathLike[str], skin: str) -> bool:
    """Whether ``skin`` names an image inside the model's folder tree: looked up by
    :func:`candidates` (case-insensitive, alternative extensions, unsafe names refused), then
    by its basename and ``<model>__<skin>`` beside the model."""
    path = Path(model_path)
    try:
        if candidates([skin], None, path.parent):
            return True
    except (OSError, ValueError):
        pass
    return _exists_beside(path.parent, path.stem, skin)
