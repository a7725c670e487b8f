"""Software previews: a numpy + Pillow rasterizer with a z-buffer; no GPU and no display.

The camera is orthographic, looking at the model's front (Quake models face +X) from
``yaw`` degrees to its side and ``pitch`` degrees above, framed on the bounds of every frame
shown so an animation does not jump. Shading is Lambert from the model's own vertex normals
(interpolated per pixel) plus ambient light, times the skin's texel (nearest) when a skin was
found, else a flat grey. Images are rendered at 2× and downsampled for smooth edges.

Faces are culled as the engines cull them: a surface's triangles (counter-clockwise seen from
outside, as the scene holds them) are drawn only when they face the camera, unless its
:class:`~quakemodels.core.scene.Material` draws both sides (Quake III ``cull none``) or only
the back (``cull back``); an inside-out model looks inside out. A surface's alpha test (Quake
III ``alphaFunc``, Quake II's alpha test) removes the fragments whose texel fails it before
the depth test, so what lies behind shows through, as in the engine.

Rasterization is vectorized over all triangles at once: every triangle's bounding box is
expanded into candidate pixels, edge functions keep those inside, and the nearest fragment
per pixel wins (one lexsort on (pixel, depth)), which is the z-buffer test.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw

from ..core.atomic import write_bytes_atomic
from ..core.scene import FPS, ExportModel, require_finite

BACKGROUND = (64, 68, 80)
BASE_COLOR = (190, 190, 190)
AMBIENT = 0.35
SUPERSAMPLE = 2
_CHUNK = 4_000_000  # candidate pixels per batch, bounds memory on large images

MEMORY_BUDGET = 2 << 30
"""The most memory a render may ask for (bytes, by :func:`render_bytes`): above it a picture
is refused in one line naming its size, where numpy's MemoryError at 4 GB said nothing."""
_BATCH_BYTES = 400 << 20  # the rasterizer's batches of _CHUNK candidate pixels
_PIXEL_BYTES = 80  # per supersampled pixel: the z-buffer, coverage, shading of one frame
_KEPT_BYTES = 4  # per output pixel of each picture kept: RGB, and its GIF palette copy


def render_bytes(size: tuple[int, int], kept: int = 1, sheet: tuple[int, int] | None = None) -> int:
    """About how many bytes rendering pictures of ``size`` (W, H) takes while ``kept`` of
    them are held (a clip's frames), plus a contact sheet of ``sheet`` (W, H) pixels.

    Measured on the sample MD2 (peak RSS): 1024² 0.75 GB, 2048² 1.43 GB, 3072² 3.0 GB,
    against 0.74, 1.74 and 3.4 GB estimated."""
    w, h = size
    work = _BATCH_BYTES + w * h * SUPERSAMPLE * SUPERSAMPLE * _PIXEL_BYTES
    sheet_bytes = 0 if sheet is None else sheet[0] * sheet[1] * 3
    return work + kept * w * h * _KEPT_BYTES + sheet_bytes


def refuse_over_budget(
    size: tuple[int, int], kept: int = 1, sheet: tuple[int, int] | None = None
) -> None:
    """ValueError naming the size when :func:`render_bytes` is over :data:`MEMORY_BUDGET`."""
    need = render_bytes(size, kept, sheet)
    if need > MEMORY_BUDGET:
        what = (
            f"a {sheet[0]}x{sheet[1]} contact sheet of {size[0]}x{size[1]} cells"
            if sheet is not None
            else f"{kept} pictures of {size[0]}x{size[1]}"
            if kept > 1
            else f"a {size[0]}x{size[1]} picture"
        )
        raise ValueError(
            f"{what} would need about {need / (1 << 30):.1f} GiB, over the"
            f" {MEMORY_BUDGET / (1 << 30):g} GiB a render may use: ask for a smaller size"
        )


Discard = Callable[
    [npt.NDArray[np.intp], npt.NDArray[np.float64], npt.NDArray[np.float64]],
    npt.NDArray[np.bool_],
]
"""``discard(t, l0, l1)``: which fragments (triangle ``t``, barycentric weights ``l0``, ``l1``
of its first two corners) an alpha test removes."""


def rasterize(
    screen: npt.NDArray[np.floating],
    triangles: npt.NDArray[np.integer],
    width: int,
    height: int,
    *,
    sides: npt.NDArray[np.int8] | None = None,
    discard: Discard | None = None,
    tested: npt.NDArray[np.bool_] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32]]:
    """Z-buffered coverage of triangles on a ``width`` × ``height`` grid.

    ``screen`` (N,3): pixel x (right), pixel y (down), depth (smaller is nearer);
    ``triangles`` (T,3) indices into it. Returns ``triangle`` (H,W) int32, the nearest triangle
    covering each pixel centre or -1, and ``bary`` (H,W,3) float32, its barycentric weights there.

    ``sides`` (T,) int8 culls as the engines do: 1 draws a triangle only when it faces the
    camera (counter-clockwise on a y-up screen, so clockwise in these y-down pixels), -1 only
    when it faces away, 0 always (double-sided); None draws every triangle. ``discard``
    removes fragments of the triangles ``tested`` (T,) bool marks before the depth test (an
    alpha test: what lies behind a discarded texel shows through).
    """
    tri_id = np.full(height * width, -1, dtype=np.int32)
    bary = np.zeros((height * width, 3), dtype=np.float32)
    depth_buf = np.full(height * width, np.inf, dtype=np.float64)
    if len(triangles) == 0:
        return tri_id.reshape(height, width), bary.reshape(height, width, 3)
    v = np.asarray(screen, dtype=np.float64)[np.asarray(triangles)]  # (T,3,3)
    x0 = np.clip(np.ceil(v[:, :, 0].min(axis=1) - 0.5), 0, width).astype(np.int64)
    x1 = np.clip(np.floor(v[:, :, 0].max(axis=1) - 0.5), -1, width - 1).astype(np.int64)
    y0 = np.clip(np.ceil(v[:, :, 1].min(axis=1) - 0.5), 0, height).astype(np.int64)
    y1 = np.clip(np.floor(v[:, :, 1].max(axis=1) - 0.5), -1, height - 1).astype(np.int64)
    a, b, c = v[:, 0, :2], v[:, 1, :2], v[:, 2, :2]
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    w = np.maximum(x1 - x0 + 1, 0)
    h = np.maximum(y1 - y0 + 1, 0)
    visible = (w > 0) & (h > 0) & (np.abs(area) > 1e-12)
    if sides is not None:
        # y is down: a triangle counter-clockwise seen from the camera has area < 0 here
        visible &= (sides == 0) | (np.sign(area) == -sides)
    keep = np.flatnonzero(visible)
    counts = w[keep] * h[keep]
    # batches of whole triangles, each with about _CHUNK candidate pixels (at least one triangle)
    cum = np.cumsum(counts)
    start = 0
    while start < len(keep):
        done = int(cum[start - 1]) if start else 0
        stop = max(int(np.searchsorted(cum, done + _CHUNK, side="right")), start + 1)
        _raster_batch(
            keep[start:stop],
            counts[start:stop],
            x0,
            y0,
            w,
            v,
            area,
            width,
            tri_id,
            bary,
            depth_buf,
            discard,
            tested,
        )
        start = stop
    return tri_id.reshape(height, width), bary.reshape(height, width, 3)


def _raster_batch(
    tris: npt.NDArray[np.intp],
    counts: npt.NDArray[np.int64],
    x0: npt.NDArray[np.int64],
    y0: npt.NDArray[np.int64],
    w: npt.NDArray[np.int64],
    v: npt.NDArray[np.float64],
    area: npt.NDArray[np.float64],
    width: int,
    tri_id: npt.NDArray[np.int32],
    bary: npt.NDArray[np.float32],
    depth_buf: npt.NDArray[np.float64],
    discard: Discard | None = None,
    tested: npt.NDArray[np.bool_] | None = None,
) -> None:
    t = np.repeat(tris, counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    off = np.arange(t.size, dtype=np.int64) - first
    px = x0[t] + off % w[t]
    py = y0[t] + off // w[t]
    cx, cy = px + 0.5, py + 0.5
    tv = v[t]
    inv = 1.0 / area[t]
    # edge functions: weight of each corner = signed area of the opposite sub-triangle
    l0 = ((tv[:, 1, 0] - cx) * (tv[:, 2, 1] - cy) - (tv[:, 1, 1] - cy) * (tv[:, 2, 0] - cx)) * inv
    l1 = ((tv[:, 2, 0] - cx) * (tv[:, 0, 1] - cy) - (tv[:, 2, 1] - cy) * (tv[:, 0, 0] - cx)) * inv
    l2 = 1.0 - l0 - l1
    eps = -1e-9
    inside = (l0 >= eps) & (l1 >= eps) & (l2 >= eps)
    if discard is not None and tested is not None:
        check = np.flatnonzero(inside)
        check = check[tested[t[check]]]
        if check.size:
            inside[check[discard(t[check], l0[check], l1[check])]] = False
    if not inside.any():
        return
    t, px, py, l0, l1, l2, tv = (
        t[inside],
        px[inside],
        py[inside],
        l0[inside],
        l1[inside],
        l2[inside],
        tv[inside],
    )
    depth = l0 * tv[:, 0, 2] + l1 * tv[:, 1, 2] + l2 * tv[:, 2, 2]
    pix = py * width + px
    order = np.lexsort((depth, pix))
    ps = pix[order]
    win = order[np.r_[True, ps[1:] != ps[:-1]]]
    pix_w = pix[win]
    nearer = depth[win] < depth_buf[pix_w]
    win, pix_w = win[nearer], pix_w[nearer]
    depth_buf[pix_w] = depth[win]
    tri_id[pix_w] = t[win]
    bary[pix_w] = np.column_stack([l0[win], l1[win], l2[win]])


def _rotation(yaw: float, pitch: float) -> npt.NDArray[np.float64]:
    """Quake model space → view space (x toward the camera, y screen right, z screen up)."""
    cy, sy = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    cp, sp = math.cos(math.radians(pitch)), math.sin(math.radians(pitch))
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])  # tilt the camera down onto the model
    rot: npt.NDArray[np.float64] = ry @ rz
    return rot


class Renderer:
    """Renders frames of one model with fixed framing (the bounds of ``frames``)."""

    def __init__(
        self,
        model: ExportModel,
        size: tuple[int, int] = (256, 256),
        *,
        frames: Sequence[int] | None = None,
        yaw: float = 30.0,
        pitch: float = 15.0,
        background: tuple[int, int, int] = BACKGROUND,
        kept: int | None = None,
    ) -> None:
        """``kept``: how many pictures the caller holds at once (default: one per frame of
        ``frames``), for the memory budget (:func:`refuse_over_budget`)."""
        frames = list(range(model.num_frames)) if frames is None else list(frames)
        refuse_over_budget(size, len(frames) if kept is None else kept)
        self.model = model
        self.size = size
        self.background = background
        self.rot = _rotation(yaw, pitch)
        require_finite(model.select(frames, {}), "a picture")  # NaN would reach int casts
        pts = [s.positions[frames].reshape(-1, 3) for s in model.surfaces if s.positions.size]
        allp = np.concatenate(pts) if pts else np.zeros((1, 3))
        view = allp.astype(np.float64) @ self.rot.T
        lo, hi = view.min(axis=0), view.max(axis=0)
        w, h = size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE
        extent = max((hi[1] - lo[1]) / (w * 0.9), (hi[2] - lo[2]) / (h * 0.9), 1e-9)
        self.scale = 1.0 / extent
        self.center = (lo + hi) / 2
        self.light = np.array([0.75, -0.35, 0.55])
        self.light /= np.linalg.norm(self.light)
        self.textures: list[npt.NDArray[np.float32] | None] = []
        # per surface: the texels its alpha test keeps ((H,W) bool; None: no test or no alpha
        # channel), the sides drawn (1 front, -1 back, 0 both), whether it shows at all
        self.passing: list[npt.NDArray[np.bool_] | None] = []
        self.sides: list[int] = []
        self.shown: list[bool] = []
        for s in model.surfaces:
            tex = None
            alpha = None
            if s.skin is not None and s.skin.mode in ("RGB", "RGBA"):
                tex = s.skin.pixels[:, :, :3].astype(np.float32)
                if s.skin.mode == "RGBA":
                    alpha = s.skin.pixels[:, :, 3]
            elif s.skin is not None and isinstance(s.skin.image, Image.Image):
                tex = np.asarray(s.skin.image.convert("RGB"), dtype=np.float32)
            self.textures.append(tex)
            test = s.material.alpha_test
            keep = None if test is None or alpha is None else test.passes(alpha)
            self.passing.append(None if keep is None or keep.all() else keep)
            # without an alpha channel alpha is 1 everywhere: the test keeps all or nothing
            opaque_passes = test is None or bool(test.passes(np.array([255], np.uint8))[0])
            self.shown.append(bool(keep.any()) if keep is not None else opaque_passes)
            self.sides.append({"front": 1, "back": -1, "both": 0}[s.material.sides])

    def frame(self, frame: int) -> Image.Image:
        """The picture of ``frame`` as an RGB image of ``size``."""
        w, h = self.size[0] * SUPERSAMPLE, self.size[1] * SUPERSAMPLE
        screens, tris, surf_of_tri, normals, uvs = [], [], [], [], []
        base = 0
        for i, s in enumerate(self.model.surfaces):
            if s.positions.shape[1] == 0 or s.indices.size == 0 or not self.shown[i]:
                continue
            p = s.positions[frame].astype(np.float64) @ self.rot.T - self.center
            scr = np.column_stack(
                [w / 2 + p[:, 1] * self.scale, h / 2 - p[:, 2] * self.scale, -p[:, 0]]
            )
            screens.append(scr)
            tris.append(s.indices.astype(np.int64) + base)
            surf_of_tri.append(np.full(len(s.indices), i))
            normals.append(s.normals[frame].astype(np.float64) @ self.rot.T)
            uvs.append(s.uvs.astype(np.float64) if len(s.uvs) == len(p) else np.zeros((len(p), 2)))
            base += len(p)
        out = np.empty((h, w, 3), dtype=np.float32)
        out[:] = self.background
        if screens:
            tri = np.concatenate(tris)
            surf_tri = np.concatenate(surf_of_tri)
            all_uvs = np.concatenate(uvs)
            sides = np.asarray(self.sides, dtype=np.int8)[surf_tri]
            tested_surfaces = [i for i, keep in enumerate(self.passing) if keep is not None]
            tested = np.isin(surf_tri, tested_surfaces) if tested_surfaces else None
            discard = self._discard(tri, surf_tri, all_uvs) if tested is not None else None
            tri_id, bary = rasterize(
                np.concatenate(screens), tri, w, h, sides=sides, discard=discard, tested=tested
            )
            mask = tri_id >= 0
            t = tri_id[mask]
            bw = bary[mask].astype(np.float64)[:, :, None]  # (P,3,1)
            corners = tri[t]  # (P,3)
            nrm = (np.concatenate(normals)[corners] * bw).sum(axis=1)
            nrm /= np.maximum(np.linalg.norm(nrm, axis=1, keepdims=True), 1e-12)
            # Lambert; MD2 winding varies between tools, so light both sides of a face
            shade = AMBIENT + (1 - AMBIENT) * np.abs(nrm @ self.light)
            color = np.empty((t.size, 3))
            color[:] = BASE_COLOR
            uv = (all_uvs[corners] * bw).sum(axis=1)
            surf = surf_tri[t]
            for i, tex in enumerate(self.textures):
                if tex is None:
                    continue
                sel = surf == i
                ty, tx = _texels(uv[sel], tex.shape[:2])
                color[sel] = tex[ty, tx]
            out[mask] = np.clip(color * shade[:, None], 0, 255)
        img = Image.fromarray(out.astype(np.uint8), "RGB")
        return img.resize(self.size, Image.Resampling.BOX) if SUPERSAMPLE > 1 else img

    def _discard(
        self,
        tri: npt.NDArray[np.int64],
        surf_tri: npt.NDArray[np.intp],
        all_uvs: npt.NDArray[np.float64],
    ) -> Discard:
        """The alpha test of one frame's triangles (``tri`` (T,3) into ``all_uvs`` (N,2),
        ``surf_tri`` (T,) their surfaces): a fragment is discarded when the texel it shows (the
        same nearest texel the colour is taken from) fails its surface's test."""

        def discard(
            t: npt.NDArray[np.intp], l0: npt.NDArray[np.float64], l1: npt.NDArray[np.float64]
        ) -> npt.NDArray[np.bool_]:
            c = tri[t]
            l2 = 1.0 - l0 - l1
            uv = (
                all_uvs[c[:, 0]] * l0[:, None]
                + all_uvs[c[:, 1]] * l1[:, None]
                + all_uvs[c[:, 2]] * l2[:, None]
            )
            out = np.zeros(t.size, dtype=bool)
            surf = surf_tri[t]
            for i, keep in enumerate(self.passing):
                if keep is None:
                    continue
                sel = surf == i
                ty, tx = _texels(uv[sel], keep.shape)
                out[sel] = ~keep[ty, tx]
            return out

        return discard


def _texels(
    uv: npt.NDArray[np.float64], shape: tuple[int, ...]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(row, column) of the nearest texel (repeating) at each of ``uv`` (P,2) in an image of
    ``shape`` (H, W, ...)."""
    th, tw = shape[:2]
    tx = np.floor(np.mod(uv[:, 0], 1.0) * tw).astype(np.int64).clip(0, tw - 1)
    ty = np.floor(np.mod(uv[:, 1], 1.0) * th).astype(np.int64).clip(0, th - 1)
    return ty, tx


def render_frame(
    model: ExportModel, frame: int = 0, size: tuple[int, int] = (256, 256)
) -> Image.Image:
    """One frame, framed on that frame's bounds."""
    num = model.num_frames
    if not -num <= frame < num:
        raise IndexError(f"frame {frame} out of range for {num} frames")
    frame %= num
    return Renderer(model, size, frames=[frame]).frame(frame)


def render_clip(
    model: ExportModel, clip: str, size: tuple[int, int] = (256, 256)
) -> list[Image.Image]:
    """Every frame of ``clip``, framed on the clip's bounds."""
    try:
        frames = list(model.clips[clip])
    except KeyError:
        raise KeyError(f"no clip {clip!r}; clips: {', '.join(model.clips)}") from None
    r = Renderer(model, size, frames=frames)
    return [r.frame(f) for f in frames]


def contact_sheet(model: ExportModel, cell: tuple[int, int] = (160, 160)) -> Image.Image:
    """A grid with the middle frame of every clip, labelled with the clip's name and length."""
    clips = list(model.clips.items()) or [("frame0", range(min(1, model.num_frames)))]
    cols = max(1, math.ceil(math.sqrt(len(clips))))
    rows = math.ceil(len(clips) / cols)
    label_h = 14
    refuse_over_budget(cell, 1, (cols * cell[0], rows * (cell[1] + label_h)))
    sheet = Image.new("RGB", (cols * cell[0], rows * (cell[1] + label_h)), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    r = Renderer(model, cell, kept=1)  # one framing for every clip, so sizes compare
    for k, (name, frames) in enumerate(clips):
        x, y = (k % cols) * cell[0], (k // cols) * (cell[1] + label_h)
        if len(frames):
            sheet.paste(r.frame(frames[len(frames) // 2]), (x, y))
        draw.text((x + 4, y + cell[1]), f"{name} ({len(frames)})", fill=(230, 230, 230))
    return sheet


def png_bytes(img: Image.Image) -> bytes:
    """``img`` encoded as PNG."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


GIF_MAX_SIDE = 0xFFFF
"""The widest and tallest GIF canvas: its header stores each as 16 bits."""


def gif_bytes(
    frames: Sequence[Image.Image], fps: float = FPS, *, durations: Sequence[int] | None = None
) -> bytes:
    """An endlessly looping animated GIF of ``frames`` at ``fps``, or each shown for its
    own milliseconds in ``durations`` (a sprite's group intervals)."""
    buf = io.BytesIO()
    first, *rest = [f.convert("P", palette=Image.Palette.ADAPTIVE, colors=255) for f in frames]
    first.save(
        buf,
        format="GIF",
        save_all=True,
        append_images=rest,
        loop=0,
        duration=round(1000 / fps) if durations is None else list(durations),
        disposal=1,
    )
    return buf.getvalue()


def save_png(img: Image.Image, path: str | os.PathLike[str]) -> None:
    """Write ``img`` as a PNG, atomically."""
    write_bytes_atomic(path, png_bytes(img))


def save_gif(frames: Sequence[Image.Image], path: str | os.PathLike[str], fps: float = FPS) -> None:
    """Write an animated GIF, atomically."""
    write_bytes_atomic(path, gif_bytes(frames, fps))


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
"""Still pictures :func:`save_image` writes (clips are GIFs: :func:`save_gif`)."""


def save_image(img: Image.Image, path: str | os.PathLike[str]) -> None:
    """Write ``img`` as PNG or JPEG (quality 92), by ``path``'s suffix, atomically."""
    suffix = os.fspath(path).lower().rsplit(".", 1)[-1]
    if suffix == "png":
        write_bytes_atomic(path, png_bytes(img))
        return
    if suffix not in ("jpg", "jpeg"):
        raise ValueError(f"cannot write .{suffix} pictures: use {', '.join(IMAGE_SUFFIXES)}")
    buf = io.BytesIO()
    img.convert("RGB").save(buf, format="JPEG", quality=92)
    write_bytes_atomic(path, buf.getvalue())
