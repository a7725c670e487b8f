"""A Quake II sprite (``.sp2``, IDS2 version 2): frame records naming external images,
read from and written back to the same bytes (records past the declared count and any
other trailing bytes kept), and the frame images found as the engine finds them.

Where a Quake II sprite's frame images are and what they look like.

The engine finds ``sprites/x.pcx`` through the game's search path (``GL_FindImage``); a
sprite read from a game folder or a pak looks its images up the same way
(:class:`quakemodels.archive.GameFS`). A sprite on disk looks, in its own folder (or
``skin_dir``): first ``<sprite stem>__<frame index>.<ext>`` (the corpus' naming, what
``build`` writes), then the stored name and each shorter tail of it, case-insensitively
(:func:`quakemodels.core.skins.candidates`: unsafe names refused, nothing outside the root).

8-bit PCX images keep index 255 transparent, as the engine's sprite images do; other
images (a TGA) keep their own alpha.
"""

from __future__ import annotations

import functools
import io
import os
import stat
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...archive.vpath import folder_entries, game_context
from ...core.atomic import write_bytes_atomic
from ...core.facade import Readable, read_source
from ...core.files import NO_FOLLOW, read_regular
from ...core.gamepaths import Listings
from ...core.names import lenient_names
from ...core.pcx import decode_pcx_indexed
from ...core.skins import IMAGE_EXTENSIONS, candidates
from ...core.sprite import file_stem, indexed_rgba, read_header, transparent_index
from ...errors import ModelFormatError, QuakeModelsWarning, TruncatedError
from .layout import FRAME, FRAME_OFFSETS, HEADER, HEADER_SIZE, MAGIC, TRANSPARENT, VERSION

if TYPE_CHECKING:
    from ...archive.gamefs import GameFS


class Sp2:
    """A Quake II sprite: ``header`` (the stored (1,) record), ``records`` ((F,) of the
    spec's ``dsprframe_t``: width, height, origin_x, origin_y, 64-byte name), ``trailing``
    bytes (some tools write an extra blank record after the declared frames).

    ``pictures`` optionally holds (H,W,4) uint8 RGBA images for the frames (set by
    ``build``; what ``image_files`` writes beside the sprite)."""

    def __init__(
        self,
        header: npt.NDArray[Any],
        records: npt.NDArray[Any],
        trailing: bytes = b"",
        name: str | None = None,
        pictures: Sequence[npt.NDArray[np.uint8]] | None = None,
    ) -> None:
        self.header = header
        self.records = records
        self.trailing = trailing
        self.name = name
        self.pictures = None if pictures is None else list(pictures)

    @classmethod
    def from_bytes(cls, data: bytes, name: str | None = None) -> Sp2:
        """The sprite in ``data``; ModelFormatError naming the field and offset else."""
        data = bytes(data)
        header = read_header(data, MAGIC, VERSION, HEADER)
        count = int(header["num_frames"][0])
        available = (len(data) - HEADER_SIZE) // FRAME.itemsize
        if count > available:
            at = HEADER_SIZE + available * FRAME.itemsize
            raise TruncatedError(
                f"frames[{available}].width at offset {at}: {count} frames need"
                f" {count * FRAME.itemsize} bytes after the header, the file ends at {len(data)}",
                field=f"frames[{available}].width",
                offset=at + FRAME_OFFSETS["width"],
            )
        records = np.frombuffer(data, FRAME, count, HEADER_SIZE).copy()
        end = HEADER_SIZE + count * FRAME.itemsize
        return cls(header, records, data[end:], name)

    @classmethod
    def from_file(cls, source: Readable) -> Sp2:
        """The sprite in a path, bytes or binary file."""
        data, name = read_source(source)
        return cls.from_bytes(data, name)

    def to_bytes(self) -> bytes:
        """The file's bytes: header (its count from :attr:`records`), records, trailing."""
        header = self.header.copy()
        header["num_frames"] = len(self.records)
        return header.tobytes() + np.ascontiguousarray(self.records).tobytes() + self.trailing

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_bytes` to ``path`` atomically."""
        write_bytes_atomic(path, self.to_bytes())

    @property
    def num_frames(self) -> int:
        """Frames, one image each (the rows of :attr:`records`)."""
        return len(self.records)

    @property
    def image_names(self) -> list[str]:
        """Each frame's image name, up to its first NUL (non-ASCII bytes kept as escapes,
        with a warning)."""
        raws = self.records["name"].tolist()  # the 64 bytes of each, as bytes(record) gives
        start = HEADER_SIZE + FRAME_OFFSETS["name"]
        return lenient_names(raws, "frames.name", lambda i: start + i * FRAME.itemsize)

    @property
    def sizes(self) -> list[tuple[int, int]]:
        """(width, height) per frame."""
        return [(int(r["width"]), int(r["height"])) for r in self.records]

    @property
    def origins(self) -> list[tuple[int, int]]:
        """(origin_x, origin_y) per frame: the point inside the picture (pixels from its
        top-left, y down) placed at the sprite's position."""
        return [(int(r["origin_x"]), int(r["origin_y"])) for r in self.records]

    @property
    def animations(self) -> dict[str, range]:
        """``all``: every frame (the engine steps through them by the entity's frame)."""
        return {"all": range(self.num_frames)}

    def load_all(self) -> None:
        """Nothing to do: a sprite is decoded whole when it is read."""

    def summary(self) -> dict[str, Any]:
        """What ``info --json`` prints: sizes, header, frames (size, origin, image name)."""
        return {
            "bytes": len(self.to_bytes()),
            "header": {
                "ident": MAGIC.decode("latin-1"),
                "version": VERSION,
                "num_frames": self.num_frames,
            },
            "frames": self.num_frames,
            "pictures": [
                {"frame": i, "width": w, "height": h, "origin": [ox, oy], "image": name}
                for i, (name, (w, h), (ox, oy)) in enumerate(
                    zip(self.image_names, self.sizes, self.origins, strict=True)
                )
            ],
            "clips": {"all": [0, self.num_frames]},
            "trailing": len(self.trailing),
        }

    def __repr__(self) -> str:
        return f"<Sp2 {self.name or '<bytes>'}: {self.num_frames} frames>"


# -- the frame images ----------------------------------------------------------------------


_ALPHA = transparent_index(TRANSPARENT)  # made once: every frame's image takes it
_ALPHA.setflags(write=False)


def decode_image(data: bytes, label: str) -> npt.NDArray[np.uint8] | None:
    """(H,W,4) uint8 RGBA of an image file's bytes, or None (with a warning) when it is no
    image Pillow or our PCX decoder reads."""
    indexed = decode_pcx_indexed(data)
    if indexed is not None:
        return indexed_rgba(indexed[0], indexed[1], _ALPHA)
    from PIL import Image, UnidentifiedImageError  # Pillow only for other kinds

    try:
        with Image.open(io.BytesIO(data)) as img:
            return np.array(img.convert("RGBA"), np.uint8)
    except (OSError, UnidentifiedImageError, Image.DecompressionBombError, ValueError) as e:
        warnings.warn(f"frame image {label} cannot be read: {e}", QuakeModelsWarning, stacklevel=3)
        return None


def _inside(path: str, root: Path, real_root: list[Path]) -> bool:
    """True when ``path`` resolves inside ``root`` (``real_root``: root resolved, kept
    there by the first call of a search)."""
    try:
        if not real_root:
            real_root.append(root.resolve())
        return Path(path).resolve().is_relative_to(real_root[0])
    except (OSError, ValueError):
        return False


def _child_inside(path: str, root: Path, real_root: list[Path]) -> bool:
    """:func:`_inside` for an entry of ``root``'s own listing: one that is no symbolic link is
    a child of ``root`` by construction (one lstat, where resolving both walks every folder
    above them: most of a small sprite's frames); a link is resolved."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return True
    except OSError:
        return False
    return _inside(path, root, real_root)


@functools.lru_cache(maxsize=256)
def _folder(where: str) -> tuple[Path, str]:
    """``where`` as a Path and as the text Path gives it ("" for the working folder, as
    ``Path(".") / name`` is ``name``): parsed once per folder, not once per call."""
    root = Path(where or ".")
    return root, str(root) if where else ""


@functools.lru_cache(maxsize=256)
def _beside(sprite_path: str) -> tuple[str, str]:
    """The folder and the stem of ``sprite_path``: string work, done once per sprite."""
    return os.path.dirname(sprite_path), file_stem(sprite_path)


class ImageSearch:
    """Where one sprite's frame images are looked up, set up once for all its frames: the
    game's search path the sprite belongs to, probed at the first lookup, and the folder
    beside it (or ``skin_dir``)."""

    def __init__(
        self,
        sprite_path: str | None,
        *,
        skin_dir: str | os.PathLike[str] | None = None,
        game_dir: str | os.PathLike[str] | None = None,
        listings: Listings | None = None,
    ) -> None:
        self.sprite_path = sprite_path
        self.skin_dir = skin_dir
        self.game_dir = game_dir
        self.listings = listings  # made when a name is looked up (most frames need none)
        self._ready = False
        self._game: tuple[GameFS, str | None] | None = None
        self._where: str | None = None  # the folder searched, None when there is none
        self._stem: str | None = None  # the sprite's, None without a sprite path

    def _prepare(self) -> None:
        if self.skin_dir is None:
            try:
                self._game = game_context(self.sprite_path, self.game_dir)
            except (OSError, ModelFormatError):
                self._game = None
        if self.sprite_path is not None:
            self._where, self._stem = _beside(self.sprite_path)
        if self.skin_dir is not None:
            self._where = os.fspath(self.skin_dir)
        self._ready = True

    def find(self, image_name: str, index: int) -> tuple[str, bytes] | None:
        """(where, bytes) of frame ``index``'s image named ``image_name``, or None: through
        the game's search path, else ``<sprite>__<index>.<ext>`` beside the sprite (or in
        ``skin_dir``), else the name looked up there; an image leading outside that folder is
        refused with a warning."""
        if not self._ready:
            self._prepare()
        if self._game is not None:
            found = self._game[0].find_image([image_name], None)
            if found is not None:
                return found.name, self._game[0].read_found(found)
        if self._where is None:
            return None
        root, text = _folder(self._where)
        # the folder's listing kept from call to call while the folder is unchanged (a batch
        # of sprites, or one drawn again, lists it once); None: the folder is none, and no
        # lookup under it can find anything
        entries = folder_entries(text or ".")
        if entries is None:
            return None
        real_root: list[Path] = []  # root resolved once, at the first file that needs it
        if self._stem is not None:
            for ext in IMAGE_EXTENSIONS:
                for entry in entries.get(f"{self._stem}__{index}{ext}".lower(), ()):
                    hit = _read(os.path.join(text, entry), True, root, real_root)
                    if hit is not None:
                        return hit
        # the lookups by name only when no file beside the sprite reads: they walk the name's
        # folders case-insensitively with every image extension, most of a frame's search
        self.listings = self.listings or Listings()
        for path, _ in candidates([image_name], None, root, self.listings):
            hit = _read(os.fspath(path), False, root, real_root)
            if hit is not None:
                return hit
        return None


def _read(path: str, child: bool, root: Path, real_root: list[Path]) -> tuple[str, bytes] | None:
    """(path, bytes) of a frame image found under ``root`` (``child``: an entry of its own
    listing), or None when it cannot be read or leads outside ``root`` (with a warning)."""
    if child and NO_FOLLOW:
        # one open that refuses a link, for the lstat and the open below: an entry of the
        # folder's own listing that is no link is inside the folder
        try:
            return path, read_regular(path, "frame image", follow=False)
        except ModelFormatError:
            return None
        except OSError:
            pass  # a link (or an entry gone since): checked and read as any other
    inside = _child_inside(path, root, real_root) if child else _inside(path, root, real_root)
    if not inside:
        warnings.warn(
            f"frame image {path} leads outside {root}; refused", QuakeModelsWarning, stacklevel=3
        )
        return None
    try:
        return path, read_regular(path, "frame image")
    except (OSError, ModelFormatError):
        return None
