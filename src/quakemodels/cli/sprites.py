"""What the verbs do with an image kind (sprites): render and export its frames, build one
from PNG/GIF frames or from another sprite. Formats are found through the registry by kind
and capability ("frames", "build"), never by name."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.atomic import write_bytes_atomic
from ..core.files import open_regular
from ..errors import UnsupportedError
from ..formats.contract import Format, Kind
from .options import plural
from .output import UsageError, refuse_existing, writing

DEFAULT_SIZE = (256, 256)
"""What a rendered picture fits into (a whole-number zoom, so pixels stay square)."""
SHEET_CELL = (96, 96)
"""What each picture of a contact sheet fits into."""
SPRITE_OUTPUTS = (".png", ".gif")
"""What ``export`` writes for a sprite: its frames as PNGs, or an animated GIF."""


def image_format(model: object) -> Format | None:
    """The registry format of a loaded ``model`` when it is of an image kind (a sprite);
    None for any other, whose verbs then ask for a mesh scene."""
    from ..registry import for_model, is_sprite

    return for_model(model) if is_sprite(model) else None


def sprite_frames(model: Any, fmt: Format, opts: dict[str, Any]) -> Any:
    """The model's :class:`~quakemodels.core.sprite.SpriteFrames` (its own pictures found
    through ``skin_dir`` and ``game_dir`` when they are files of their own)."""
    del fmt  # the registry finds it
    from ..registry import frames as frames_of

    return frames_of(
        model,
        palette=opts.get("palette"),
        skin_dir=opts.get("skin_dir"),
        game_dir=opts.get("game_dir"),
    )


def _scale(frames: Any, size: tuple[int, int] | None) -> int:
    """The whole-number zoom that fits the largest picture into ``size`` (at least 1)."""
    if size is None or not frames.frames:
        return 1
    w: int = max(f.size[0] for f in frames.frames)
    h: int = max(f.size[1] for f in frames.frames)
    return max(1, min(size[0] // max(w, 1), size[1] // max(h, 1)))


def render_sprite(path: str, model: Any, fmt: Format, opts: dict[str, Any]) -> list[str]:
    """``render`` of a sprite: a frame's picture fitted into ``--size`` (PNG keeps its
    alpha; the zoom is whole when the picture fits at least once), the contact sheet
    of every picture (``--sheet``) or a GIF of every picture at its intervals (``--clip
    all``, or ``--clip frameN`` for the pictures of stored frame N)."""
    from ..interchange import render as r
    from ..interchange import sprites as pictures

    frames = sprite_frames(model, fmt, opts)
    stem = opts["names"][path]
    folder = Path(opts["dir"])
    size = opts["size"] or DEFAULT_SIZE
    if opts["sheet"]:
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_sheet.png"
        refuse_existing([out], opts["no_clobber"])
        zoom = _scale(frames, opts["size"] or SHEET_CELL)
        sheet = pictures.contact_sheet(frames, scale=zoom)
        with writing(out):
            r.save_image(sheet, out)
        return [f"{path} -> {out} (contact sheet of {plural(len(frames), 'picture')})"]
    if opts["clip"] is not None:
        clip = str(opts["clip"])
        groups = sorted({f.group for f in frames.frames if f.interval is not None})
        if clip != "all":
            wanted = [g for g in groups if clip == f"frame{g}"]
            if not wanted:
                names = ", ".join(["all", *(f"frame{g}" for g in groups)])
                raise KeyError(f"no clip {clip!r}; a sprite's clips: {names}")
            frames = type(frames)(
                frames.name, tuple(f for f in frames.frames if f.group == wanted[0])
            )
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_{clip}.gif"
        refuse_existing([out], opts["no_clobber"])
        data = pictures.gif_bytes(frames, scale=_scale(frames, size))
        with writing(out):
            write_bytes_atomic(out, data)
        return [f"{path} -> {out} ({plural(len(frames), 'picture')} of {clip})"]
    frame = opts["frame"] or 0
    out = Path(opts["file"]) if opts["file"] else folder / f"{stem}.png"
    refuse_existing([out], opts["no_clobber"])
    background = None if out.suffix.lower() == ".png" else pictures.BACKGROUND
    picture = pictures.fitted(pictures.frame_image(frames, frame), size, background)
    with writing(out):
        r.save_image(picture, out)
    return [f"{path} -> {out} (picture {frame} of {len(frames)})"]


def export_sprite(path: str, model: Any, fmt: Format, opts: dict[str, Any]) -> list[str]:
    """``export`` of a sprite: ``-o x.gif`` an animated GIF, ``-o x.png`` its pictures as
    ``x_0.png``, ``x_1.png``... (``x.png`` alone for one), a folder both."""
    from ..interchange import sprites as pictures

    if opts["clip"] is not None:
        raise UsageError("--clip: a sprite exports every picture (render --clip makes a GIF)")
    suffix = Path(opts["file"]).suffix.lower() if opts["file"] else None
    if suffix is not None and suffix not in SPRITE_OUTPUTS:
        # refused before anything is written: it wrote x_0.png... for -o x.glb, exit 0
        raise UnsupportedError(
            f"-o {opts['file']}: a {fmt.title} is flat pictures with no mesh to write"
            f" as {suffix}; export writes its pictures as PNGs (-o x.png) or an animated GIF"
            " (-o x.gif)"
        )
    frames = sprite_frames(model, fmt, opts)
    if opts["frame"] is not None:
        index = opts["frame"]
        if not -len(frames) <= index < len(frames):
            raise IndexError(f"frame {index} out of range for {len(frames)} pictures")
        frames = type(frames)(frames.name, (frames.frames[index],))
    if opts["file"]:
        target = Path(opts["file"])
        gif = target.suffix.lower() == ".gif"
        folder, stem = target.parent, target.stem
    else:
        gif = None
        folder, stem = Path(opts["dir"]), opts["names"][path]
    pngs = [] if gif else [folder / f"{stem}_{i}.png" for i in range(len(frames))]
    if gif is False and len(pngs) == 1:
        pngs = [folder / f"{stem}.png"]
    outs = [*pngs, *([folder / f"{stem}.gif"] if gif is not False else [])]
    refuse_existing(outs, opts["no_clobber"])
    folder.mkdir(parents=True, exist_ok=True)
    for out, data in zip(pngs, pictures.png_frames(frames) if pngs else [], strict=True):
        with writing(out):
            write_bytes_atomic(out, data)
    if gif is not False:
        out = folder / f"{stem}.gif"
        data = pictures.gif_bytes(frames, background=None)
        with writing(out):
            write_bytes_atomic(out, data)
    what = ", ".join(str(o) for o in outs[:3]) + (" ..." if len(outs) > 3 else "")
    return [f"{path} -> {what} ({plural(len(frames), 'picture')})"]


def target_format(out: Path, to: str | None) -> Format:
    """The image format that builds ``out``: the one named ``to``, else the first image
    format with a ``build`` service whose suffix ``out`` has (``.spr`` is Quake's; pass
    ``--to`` for another); UsageError listing the choices otherwise."""
    from ..registry import builders as builders_of

    builders = [f for f in builders_of() if f.kind is Kind.IMAGE]
    if to is not None:
        for fmt in builders:
            if fmt.name == to:
                return fmt
        names = ", ".join(f.name for f in builders)
        raise UsageError(f"--to {to}: not a sprite format that can be built ({names})")
    for fmt in builders:
        if out.suffix.lower() in fmt.suffixes:
            return fmt
    suffixes = sorted({s for f in builders for s in f.suffixes})
    raise UsageError(f"{out}: a sprite is written as {', '.join(suffixes)}")


def is_sprite_output(out: Path, to: str | None) -> bool:
    """True when ``out`` (or ``--to``) names a sprite to build."""
    from ..registry import builders

    if to is not None:
        return True
    return any(f.kind is Kind.IMAGE and out.suffix.lower() in f.suffixes for f in builders())


def read_frames(inputs: Sequence[Path], opts: dict[str, Any]) -> Any:
    """SpriteFrames from one sprite file (any image format, by its magic) or from PNG/GIF
    pictures (each centred; a GIF's delays become a group's intervals; ``group`` makes
    all pictures one group shown ``interval`` seconds each)."""
    from ..interchange import sprites as pictures
    from ..registry import by_magic, load

    if len(inputs) == 1:
        with open_regular(inputs[0]) as f:
            head = f.read(16)
        fmt = by_magic(head)
        if fmt is not None:
            if fmt.kind is not Kind.IMAGE:
                raise UsageError(
                    f"{inputs[0]}: a {fmt.title} is no sprite; convert it to a model format"
                )
            return sprite_frames(load(inputs[0]), fmt, opts)
    return pictures.read_frames(
        inputs,
        name=opts["name"],
        group=bool(opts.get("group")),
        interval=float(opts.get("interval") or 0.1),
    )


def build_sprite(inputs: Sequence[Path], out: Path, opts: dict[str, Any]) -> list[str]:
    """Build the sprite ``out`` from ``inputs`` through the target format's ``build`` (a
    sprite option it has no field for is refused, exit 2), with the files it makes beside
    ``out`` (Quake II's frame images), all made before the first is written."""
    from ..interchange.convert import BuildOptions, Source

    fmt = target_format(out, opts.get("to"))
    given = opts.get("build", {})

    def framer(palette: str | None) -> Any:
        return read_frames(inputs, {**opts, "palette": palette, "name": out.stem})

    options = BuildOptions(
        out=out,
        palette=given.get("palette"),
        sprite_type=given.get("type"),
        sync_type=given.get("sync_type"),
        tex_format=given.get("tex_format"),
    )
    built = fmt.build(Source(tuple(inputs), framer=framer), options)
    # every byte made before the first file is written: a bad input leaves nothing behind
    data = built.model.to_bytes()
    written = [out.with_name(name) for name in built.files]
    refuse_existing([out, *written], bool(opts.get("no_clobber")))
    for path, image in zip(written, built.files.values(), strict=True):
        with writing(path):
            write_bytes_atomic(path, image)
    with writing(out):
        write_bytes_atomic(out, data)
    return [built.summary]
