#!/usr/bin/env python3
"""Render glTF exports in headless chromium with three.js, as a user's browser shows them.

    python tools/browser_render.py [--out DIR] [--size N] MODEL_OR_GLB ...   (make browser-shots)

Each argument is a ``.glb``/``.gltf`` or anything ``quakemodels export`` takes (a model file,
a Quake III player folder), exported to ``.glb`` first. One chromium process (Debian's
``chromium``, WebGL on SwiftShader, no GPU, no network) opens ``tools/browser/render.html``
from a server on 127.0.0.1 that serves the page, three.js from ``node_modules/three`` and the
models; the page draws every model from six axis views framed by its bounding sphere, three
times (:data:`PASSES`): the materials as GLTFLoader builds them, the same double-sided, and
front faces green / back faces red. It posts the pixels back; :class:`Render` holds them.

Two numbers come out of a render:

* :meth:`Render.front_share`: of the pixels the double-sided model covers, the share drawn by
  a front face (counter-clockwise on screen, three.js's and glTF's front). An inside-out export
  shows mostly back faces: about 0; a correct one about 1, open models included.
* :attr:`Render.mismatch`: the share of covered pixels whose colour differs (by more than
  :data:`CHANNEL_TOLERANCE` in a channel) between the as-loaded and the double-sided images.
  For a closed model (:func:`closure`) wound counter-clockwise the back faces are all hidden
  behind front faces, so the two images are the same; inside out, the loaded image shows the
  far inside of the model where the double-sided one shows its outside.

Prints a line per model (closed, mismatch, front share) and, with ``--out``, writes a sheet
per model (rows: the passes; columns: the views) as ``DIR/<name>.png``. Exit 1 on a failure
to export or render, 2 when chromium or node_modules/three is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import numpy as np
import numpy.typing as npt

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "tools" / "browser"
THREE = REPO / "node_modules" / "three"
CORPUS = REPO.parent / "shared" / "corpus"
CHROMIUM = "/usr/bin/chromium"
INSTALL = "sudo apt-get install chromium"

VIEWS = ("front", "back", "right", "left", "top", "bottom")
PASSES = ("loaded", "double", "facing")
SIZE = 256
CHANNEL_TOLERANCE = 16  # in 0..255: lighting of the same fragment is the same, bar rounding
# The largest mismatch a closed model may show: assimp_flag.md2's cloth is two layers a hair
# apart that z-fight where the loaded pass culls the far one (1.7 % of its pixels); other
# closed corpus models show at most 0.01 %, inside-out ones 10 % or more.
MISMATCH_TOLERANCE = 0.02
FRONT_SHARE_MIN = 0.9  # of covered pixels drawn by front faces: the bar for every export
TIMEOUT = 300.0  # seconds for one chromium run (SwiftShader on a loaded 2-core machine)

# chromium, headless, WebGL through ANGLE on SwiftShader (CPU), nothing that reaches out
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--disable-gpu-sandbox",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--mute-audio",
)

MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".glb": "model/gltf-binary",
    ".gltf": "model/gltf+json",
    ".bin": "application/octet-stream",
    ".png": "image/png",
    ".jpg": "image/jpeg",
}

ByteArray = npt.NDArray[np.uint8]


def find_chromium() -> str | None:
    """The chromium executable (``$CHROMIUM``, else Debian's ``/usr/bin/chromium``, else
    ``chromium`` on PATH), or None."""
    for candidate in (os.environ.get("CHROMIUM"), CHROMIUM, shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def missing() -> str | None:
    """Why renders cannot run here (with the install line), or None when they can."""
    if find_chromium() is None:
        return f"chromium is not installed ({INSTALL}, or make browser-deps)"
    if not (THREE / "build" / "three.module.js").is_file():
        return f"three.js is missing from {THREE} (make node)"
    return None


class RenderError(RuntimeError):
    """Chromium did not start, timed out, or the page failed."""


@dataclass
class Render:
    """One model's images: ``pixels`` (passes, views, size, size, 4) uint8 RGBA, top row
    first, indexed by :data:`PASSES` and :data:`VIEWS`."""

    name: str
    pixels: ByteArray

    def image(self, pass_name: str, view: str) -> ByteArray:
        """(size, size, 4) uint8 RGBA of one pass and view."""
        image: ByteArray = self.pixels[PASSES.index(pass_name), VIEWS.index(view)]
        return image

    def front_share(self, views: Sequence[str] = VIEWS) -> float:
        """Front-face pixels / covered pixels of the facing pass, over ``views``."""
        facing = self.pixels[PASSES.index("facing"), [VIEWS.index(v) for v in views]]
        facing = facing.astype(np.int16)
        covered = facing[..., 3] > 0
        front = covered & (facing[..., 1] > facing[..., 0])
        total = int(covered.sum())
        return int(front.sum()) / total if total else 0.0

    @property
    def mismatch(self) -> float:
        """Share of the pixels covered in either image whose RGBA differ by more than
        :data:`CHANNEL_TOLERANCE` between the loaded and the double-sided pass."""
        a = self.pixels[PASSES.index("loaded")].astype(np.int16)
        b = self.pixels[PASSES.index("double")].astype(np.int16)
        covered = (a[..., 3] > 0) | (b[..., 3] > 0)
        differ = (np.abs(a - b) > CHANNEL_TOLERANCE).any(axis=-1) & covered
        total = int(covered.sum())
        return int(differ.sum()) / total if total else 0.0

    def sheet(self) -> ByteArray:
        """(passes * size, views * size, 4) uint8: every image, a row per pass, on grey."""
        p, v, h, w, _ = self.pixels.shape
        tiles = self.pixels.transpose(0, 2, 1, 3, 4).reshape(p * h, v * w, 4).astype(np.float32)
        alpha = tiles[..., 3:] / 255.0
        grey = np.float32(96.0)
        rgb = tiles[..., :3] * alpha + grey * (1.0 - alpha)
        out = np.empty((p * h, v * w, 4), np.uint8)
        out[..., :3] = np.rint(rgb).astype(np.uint8)
        out[..., 3] = 255
        return out


@dataclass
class _Job:
    models: list[Path]
    size: int
    results: dict[int, bytes] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)


def _handler(job: _Job) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass  # the page's requests are not news

        def _send(self, status: int, body: bytes, mime: str = "text/plain") -> None:
            self.send_response(status)
            self.send_header("Content-Type", mime)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            # the page may close after its last post: nothing waits for the reply then
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def _file(self, root: Path, relative: str) -> None:
            path = (root / relative).resolve()
            # only files under the folder served: the page asks for nothing else
            if not path.is_relative_to(root.resolve()) or not path.is_file():
                self._not_found()
                return
            self._send(200, path.read_bytes(), MIME.get(path.suffix, "application/octet-stream"))

        def _not_found(self) -> None:
            job.not_found.append(self.path)
            self._send(404, b"not found")

        def do_GET(self) -> None:
            route = unquote(self.path.split("?", 1)[0])
            if route in ("/", "/render.html"):
                self._file(PAGE, "render.html")
            elif route == "/render.js":
                self._file(PAGE, "render.js")
            elif route == "/job.json":
                models = [{"url": f"/model/{i}/{quote(p.name)}"} for i, p in enumerate(job.models)]
                body = {"size": job.size, "views": list(VIEWS), "models": models}
                self._send(200, json.dumps(body).encode(), MIME[".json"])
            elif route.startswith("/three/"):
                self._file(THREE, route[len("/three/") :])
            elif route.startswith("/model/"):
                index, _, rest = route[len("/model/") :].partition("/")
                if not index.isdigit() or int(index) >= len(job.models):
                    self._not_found()
                    return
                # the model's folder, so a .gltf's external buffers and images load too
                self._file(job.models[int(index)].parent, rest)
            elif route == "/favicon.ico":
                self._send(204, b"")
            else:
                self._not_found()

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            route = self.path
            if route.startswith("/result/"):
                job.results[int(route[len("/result/") :])] = body
            elif route.startswith("/error/"):
                name = job.models[int(route[len("/error/") :])].name
                job.errors.append(f"{name}: {body.decode(errors='replace')}")
            elif route == "/error":
                # the page itself failed (render.js or three.js did not load, an uncaught
                # error): nothing more will come
                job.errors.append(body.decode(errors="replace"))
                job.done.set()
            elif route == "/done":
                job.done.set()
            self._send(200, b"")

    return Handler


def render(models: Sequence[Path], size: int = SIZE, timeout: float = TIMEOUT) -> list[Render]:
    """Render every ``.glb``/``.gltf`` in ``models`` in one chromium run; one :class:`Render`
    each, in order. Raises :class:`RenderError` when chromium is missing, fails or times out,
    or the page fails on a model (every model's message in one error)."""
    chromium = find_chromium()
    if chromium is None:
        raise RenderError(f"chromium is not installed ({INSTALL})")
    job = _Job([Path(m).resolve() for m in models], size)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(job))
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/render.html"
    try:
        with tempfile.TemporaryDirectory(prefix="qm-chromium-") as profile:
            command = [chromium, *FLAGS, f"--user-data-dir={profile}", url]
            with open(Path(profile) / "stderr.txt", "wb") as log:
                # its own session: the wrapper script and chromium's helper processes share
                # one process group, ended together below
                browser = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
                try:
                    finished = _wait(job, browser, timeout)
                finally:
                    _stop(browser)
            if not finished:
                tail = (Path(profile) / "stderr.txt").read_text(errors="replace")[-2000:]
                what = (
                    "exited" if browser.returncode not in (None, -signal.SIGTERM) else "timed out"
                )
                raise RenderError(
                    f"chromium {what} before the page finished"
                    f" ({len(job.results)}/{len(job.models)} rendered): {tail}"
                )
    finally:
        server.shutdown()
        server.server_close()
    if job.errors:
        missing = f" (not found: {', '.join(job.not_found)})" if job.not_found else ""
        raise RenderError("; ".join(job.errors) + missing)
    frame = len(PASSES) * len(VIEWS) * size * size * 4
    renders = []
    for i, path in enumerate(job.models):
        data = job.results.get(i, b"")
        if len(data) != frame:
            raise RenderError(f"{path.name}: {len(data)} bytes of pixels, not {frame}")
        pixels = np.frombuffer(data, np.uint8).reshape(len(PASSES), len(VIEWS), size, size, 4)
        # gl.readPixels gives the bottom row first
        renders.append(Render(path.name, np.ascontiguousarray(pixels[:, :, ::-1])))
    return renders


def _wait(job: _Job, browser: subprocess.Popen[bytes], timeout: float) -> str:
    """Wait for the page's /done ("done"), chromium's exit ("exited") or ``timeout`` seconds
    ("timed out")."""
    waited = 0.0
    while waited < timeout:
        if job.done.wait(0.2):
            return "done"
        if browser.poll() is not None:
            return "done" if job.done.is_set() else f"exited ({browser.returncode})"
        waited += 0.2
    return f"timed out ({timeout:.0f} s)"


def _stop(browser: subprocess.Popen[bytes]) -> None:
    """End the chromium we started: its process group (its session), then reap it."""
    if browser.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(browser.pid, signal.SIGTERM)
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, signal.SIGKILL)
            browser.wait(10)


def read_glb(path: Path) -> tuple[dict[str, Any], bytes]:
    """The JSON document and BIN chunk of a ``.glb``."""
    data = path.read_bytes()
    if data[:4] != b"glTF":
        raise ValueError(f"{path}: not a .glb")
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc: dict[str, Any] = json.loads(data[20 : 20 + json_len])
    rest = 20 + json_len
    return doc, data[rest + 8 :] if len(data) > rest else b""


COMPONENTS = {5121: np.uint8, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def accessor(doc: dict[str, Any], blob: bytes, index: int) -> npt.NDArray[Any]:
    """(count, width) array of accessor ``index`` (plain bufferView data, strides honoured)."""
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    dtype = np.dtype(COMPONENTS[acc["componentType"]])
    width = WIDTH[acc["type"]]
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride", dtype.itemsize * width)
    count = acc["count"]
    rows = np.ndarray(
        (count, width), dtype, buffer=blob, offset=start, strides=(stride, dtype.itemsize)
    )
    return rows.copy()


@dataclass(frozen=True)
class Closure:
    """How closed a model's primitives are: ``open_edges`` (edges not shared by exactly one
    triangle each way) over ``edges`` welded undirected edges, after ``degenerate`` triangles
    (two corners at one position) were dropped."""

    edges: int
    open_edges: int
    degenerate: int

    @property
    def closed(self) -> bool:
        """Every edge has exactly one triangle on each side, wound consistently."""
        return self.edges > 0 and self.open_edges == 0


def closure(path: Path) -> Closure:
    """Closedness of the ``.glb`` at ``path``, primitive by primitive (as drawn, frame 0).

    The rule: per primitive, corners are welded by exact position (exports split vertices at
    UV seams); triangles with two corners at one position are dropped; then every directed
    edge (a, b) must occur exactly once and its reverse (b, a) exactly once. That is a closed,
    consistently oriented surface: along any line of sight the first face hit is one where the
    ray enters it, so with the right winding no back face can be seen. A model is closed when
    all its primitives are (parts may overlap: the nearest hit is still some part's front).
    """
    doc, blob = read_glb(path)
    edges = open_edges = degenerate = 0
    for mesh in doc.get("meshes", []):
        for prim in mesh["primitives"]:
            if prim.get("mode", 4) != 4:
                raise ValueError(f"{path}: primitive mode {prim['mode']} is not triangles")
            positions = accessor(doc, blob, prim["attributes"]["POSITION"])
            if "indices" in prim:
                flat = accessor(doc, blob, prim["indices"])[:, 0].astype(np.int64)
            else:
                flat = np.arange(len(positions), dtype=np.int64)
            _, weld = np.unique(positions, axis=0, return_inverse=True)
            tris = weld.reshape(-1)[flat].reshape(-1, 3)
            keep = (
                (tris[:, 0] != tris[:, 1]) & (tris[:, 1] != tris[:, 2]) & (tris[:, 2] != tris[:, 0])
            )
            degenerate += int((~keep).sum())
            tris = tris[keep]
            directed = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
            keys, counts = np.unique(directed, axis=0, return_counts=True)
            lookup = {(int(a), int(b)): int(c) for (a, b), c in zip(keys, counts, strict=True)}
            undirected = {(min(a, b), max(a, b)) for a, b in lookup}
            edges += len(undirected)
            open_edges += sum(
                1 for a, b in undirected if lookup.get((a, b)) != 1 or lookup.get((b, a)) != 1
            )
    return Closure(edges, open_edges, degenerate)


def export(model: Path, glb: Path) -> None:
    """``quakemodels export MODEL -o GLB -q`` in a subprocess; RenderError when it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "quakemodels", "export", str(model), "-o", str(glb), "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RenderError(f"{model}: export failed ({done.returncode}): {done.stderr.strip()}")


def save_png(pixels: ByteArray, path: Path) -> None:
    """Write (h, w, 4) uint8 RGBA as a PNG."""
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels, "RGBA").save(path)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", type=Path, help=".glb/.gltf or model to export")
    parser.add_argument("--out", type=Path, help="write a sheet per model as OUT/<name>.png")
    parser.add_argument("--size", type=int, default=SIZE, help="pixels per view (square)")
    args = parser.parse_args(argv)
    why = missing()
    if why is not None:
        print(f"browser_render: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        glbs = []
        for model in args.models:
            if model.suffix.lower() in (".glb", ".gltf"):
                glbs.append(model)
                continue
            glb = Path(tmp) / f"{model.stem}.glb"
            try:
                export(model, glb)
            except RenderError as e:
                print(e, file=sys.stderr)
                return 1
            glbs.append(glb)
        try:
            renders = render(glbs, args.size)
        except RenderError as e:
            print(f"browser_render: {e}", file=sys.stderr)
            return 1
        print(f"{'model':32} {'closed':>14} {'mismatch':>9} {'front':>6}")
        for glb, shot in zip(glbs, renders, strict=True):
            c = closure(glb) if glb.suffix.lower() == ".glb" else None
            state = "-" if c is None else ("yes" if c.closed else f"{c.open_edges} open")
            print(f"{shot.name:32} {state:>14} {shot.mismatch:9.4f} {shot.front_share():6.3f}")
            if args.out is not None:
                target = args.out / f"{Path(shot.name).stem}.png"
                save_png(shot.sheet(), target)
                print(f"  wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
