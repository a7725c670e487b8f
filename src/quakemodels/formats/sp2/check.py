"""Engine-compatibility checks for Quake II sprites: findings, never an exception.

Errors for ``quake2``/``q2pro`` (warnings under ``any``): more than MAX_MD2SKINS (32) frames
(``Mod_LoadSpriteModel``: "has too many frames"), no frames, an image name with no NUL in
its 64 bytes (the engine's ``GL_FindImage`` reads past it). Warnings: negative or zero
sizes, names of images the engine cannot load (no ``.pcx``/``.wal``/``.tga``), images that
are not found beside the sprite (on disk only), bytes after the frames (other engines read
only the declared frames).
"""

from __future__ import annotations

import os
import warnings

from ...core.facade import Readable
from ...core.findings import Finding, Report
from ...core.sprite import check_sprite
from .layout import FRAME, FRAME_OFFSETS, HEADER_OFFSETS, HEADER_SIZE
from .limits import MAX_FRAMES, MIN_FRAMES
from .reader import ImageSearch, Sp2

ENGINES = ("quake2", "q2pro")
OTHER_ENGINES = {
    "quake": "Quake loads IDSP version 1 sprites",
    "quakespasm": "QuakeSpasm loads IDSP version 1 sprites",
    "halflife": "Half-Life loads IDSP version 2 sprites",
    "quake3": "Quake III loads no sprite files",
}
LOADABLE = (".pcx", ".wal", ".tga")  # what GL_FindImage loads


def check(source: Sp2 | Readable, engine: str = "any", *, name: str | None = None) -> list[Finding]:
    """Findings for one Quake II sprite (a loaded one, its bytes, a path or a binary file)
    for ``engine``; never raises on any input (an unknown ``engine`` is a ValueError)."""
    return check_sprite(
        source,
        engine,
        Sp2,
        name,
        _check,
        other_engines=OTHER_ENGINES,
        where=("ident", 0),
        what="SP2",
    )


def _check(r: Report, m: Sp2) -> None:
    count_at = HEADER_OFFSETS["num_frames"]
    if m.num_frames > MAX_FRAMES:
        r.limit(
            "frames",
            "num_frames",
            count_at,
            f"num_frames={m.num_frames} is above {MAX_FRAMES} (MAX_MD2SKINS)",
            engines=ENGINES,
        )
    if m.num_frames < MIN_FRAMES:
        r.limit("empty", "num_frames", count_at, "the sprite has no frames", engines=ENGINES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the names' escapes are reported below
        names = m.image_names
    search = ImageSearch(m.name)
    on_disk = m.name is not None and os.path.isfile(m.name)
    for i, rec in enumerate(m.records):
        at = HEADER_SIZE + i * FRAME.itemsize
        raw = bytes(rec["name"])
        name_at = at + FRAME_OFFSETS["name"]
        if b"\0" not in raw:
            r.limit(
                "name-unterminated",
                f"frames[{i}].name",
                name_at,
                f"frames[{i}].name has no NUL within its {len(raw)} bytes",
                engines=ENGINES,
            )
        elif not raw.partition(b"\0")[0].isascii():
            r.warning(
                "name-bytes",
                f"frames[{i}].name",
                name_at,
                f"frames[{i}].name has non-ASCII bytes {raw.partition(b'{chr(0)}')[0]!r}",
            )
        if int(rec["width"]) <= 0 or int(rec["height"]) <= 0:
            r.warning(
                "frame-size",
                f"frames[{i}].width",
                at,
                f"frames[{i}] is {int(rec['width'])}x{int(rec['height'])}: nothing to draw",
            )
        if not names[i].lower().endswith(LOADABLE):
            r.warning(
                "image-type",
                f"frames[{i}].name",
                name_at,
                f"frames[{i}].name {names[i]!r}: Quake II loads {', '.join(LOADABLE)} images",
            )
        if on_disk and search.find(names[i], i) is None:
            r.warning(
                "image-missing",
                f"frames[{i}].name",
                name_at,
                f"frames[{i}].name {names[i]!r} is not found beside the sprite",
            )
    if m.trailing:
        end = HEADER_SIZE + m.num_frames * FRAME.itemsize
        r.warning(
            "trailing",
            None,
            end,
            f"{len(m.trailing)} bytes after the {m.num_frames} declared frames, which the"
            " engine never reads",
        )
