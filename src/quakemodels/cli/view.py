"""``quakemodels view PATH``: a model, a player or a folder's models in the browser.

The page (:mod:`quakemodels.viewer`: three.js bundled in the package, no network access) is
served from 127.0.0.1 on a free port under a random token, by the standard library's server,
which serves only what it made (the page, its scripts, glTF of the models, thumbnails); the
default browser opens it (``--no-browser``: only the URL is printed). A model file, a path
inside a .pak/.pk3 or game folder, or a Quake III player folder opens the viewer; a folder,
archive or game folder opens a gallery of thumbnails (drawn by the software renderer), each a
link to the viewer of its model. Ctrl-C stops the server: the command ends with exit code 0
(stopping the server is how it ends) and says so on stderr.

``export_html`` is ``export --format html``: the same page as one self-contained file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from ..core.records import replace
from .batch import _call, add_game_dir_arg, expand_tree, is_game_input
from .options import add_skin_dir_arg
from .output import EXIT_BAD_INPUT, EXIT_OK, UsageError

GLB = "model/gltf-binary"
HTML = "text/html; charset=utf-8"
PNG = "image/png"
JS = "text/javascript; charset=utf-8"
JSON = "application/json"

# what a model's page needs: label and bytes of each skin's .glb (made when first asked)
Variant = tuple[str, Callable[[], bytes]]


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path",
        metavar="PATH",
        help="a model, a player folder, a path in a .pak/.pk3 or game folder, or a folder or"
        " archive (a gallery)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="print the URL; do not open a browser"
    )
    parser.add_argument(
        "--weapon", default=None, metavar="MD3", help="a weapon model to attach on tag_weapon"
    )
    add_skin_dir_arg(parser)
    add_game_dir_arg(parser)


# --- what the page shows of one model --------------------------------------------------------


def model_parts(path: str, opts: dict[str, Any]) -> tuple[dict[str, Any], list[Variant]]:
    """The page entry of the model at ``path`` (its ``skins`` URLs left to the caller) and its
    skin variants: (label, producer of the .glb) each, the first the default skin."""
    from ..interchange.gltf_write import build_gltf, glb_bytes
    from ..registry import describe, load, own_gltf, scene
    from ..viewer.page import bounds, clip_entries, model_entry, player_clip_entries

    model = load(path, game_dir=opts.get("game_dir"))
    name = Path(path).name or path
    # the kind and size (`info` has the rest), named by the file's name, not the whole path
    info = describe(model).splitlines()[0].replace(str(path), name, 1)
    # a model its format places by its own nodes (a player): one glTF per skin set
    sets = [str(n) for n in getattr(model, "skins", []) or []] or ["default"]
    own = own_gltf(model, sets[0], opts.get("game_dir"))
    if own is not None:
        first = glb_bytes(own[0], b"".join(own[1]))
        variants: list[Variant] = [(sets[0], lambda: first)]
        variants += [(s, partial(_own_glb, model, s, opts.get("game_dir"))) for s in sets[1:]]
        nodes = own[0].get("nodes", [])
        tags = sorted({n["name"].partition("@")[0] for n in nodes if _is_tag(n)})
        entry = model_entry(name, "player", info, [], player_clip_entries(own[0]), tags)
        return entry, variants
    em = scene(model, skin_dir=opts.get("skin_dir"), game_dir=opts.get("game_dir"))
    first = glb_bytes(*build_gltf(em))
    label = next((s.skin.path.name for s in em.surfaces if s.skin is not None), "no skin")
    variants = [(label, lambda: first)]
    variants += _other_skins(model, em, label, opts)
    tags = [t.name for t in em.tags]
    entry = model_entry(name, "model", info, [], clip_entries(em), tags, box=bounds(em))
    return entry, variants


def _is_tag(node: dict[str, Any]) -> bool:
    """A glTF node that is a tag (``tag_weapon``, or ``tag_weapon@upper`` in a player's)."""
    return str(node.get("name", "")).startswith("tag_")


def _own_glb(model: Any, skin: str, game_dir: str | None) -> bytes:
    """The .glb of a model its format builds itself, with the skin set ``skin``."""
    from ..interchange.gltf_write import glb_bytes
    from ..registry import own_gltf

    doc, pieces, _ = own_gltf(model, skin, game_dir) or ({}, [], None)
    return glb_bytes(doc, b"".join(pieces))


def _other_skins(model: Any, em: Any, shown: str, opts: dict[str, Any]) -> list[Variant]:
    """The model's other skins: an MDL's images, an MD2's or MD3's named skins that are
    found (beside the model, under ``--skin-dir``)."""
    import numpy as np

    from ..core.scene import model_stem
    from ..core.skins import Skin, find_skin
    from ..interchange.gltf_write import build_gltf, glb_bytes
    from ..registry import skin_search

    def with_skin(skin: Any) -> Callable[[], bytes]:
        return lambda: glb_bytes(
            *build_gltf(replace(em, surfaces=[replace(s, skin=skin) for s in em.surfaces]))
        )

    out: list[Variant] = []
    if int(getattr(model, "num_skin_images", 0) or 0) > 1:  # skins held in the file (MDL)
        stem = model_stem(model.name)
        for k, pixels in enumerate(model.skin_images[1:], start=1):
            if pixels is not None and pixels.size:
                held = Skin(Path(f"{stem}_skin{k}.png"), pixels=np.ascontiguousarray(pixels))
                out.append((f"skin {k}", with_skin(held)))
        return out
    names = [n for n in getattr(model, "skins", []) or [] if isinstance(n, str)]
    seen = {shown}
    with skin_search(model.name, opts.get("skin_dir"), opts.get("game_dir")) as where:
        for n in names:
            skin = find_skin([n], model.name, where)
            if skin is not None and skin.path.name not in seen:
                seen.add(skin.path.name)
                out.append((skin.path.name, with_skin(skin)))
    return out


def weapon_glb(path: str, opts: dict[str, Any]) -> bytes:
    """The .glb of the weapon model at ``path`` (its first frame: a weapon on a tag is still)."""
    from ..interchange.gltf_write import build_gltf, glb_bytes
    from ..registry import is_folder_set_model, load, scene

    model = load(path, game_dir=opts.get("game_dir"))
    if is_folder_set_model(model):
        raise ValueError(f"--weapon {path}: a player folder, not a weapon model")
    return glb_bytes(*build_gltf(scene(model, frame=0, game_dir=opts.get("game_dir"))))


def thumbnail(path: str, opts: dict[str, Any]) -> bytes:
    """A PNG of the model's first frame, drawn by the software renderer."""
    from ..interchange import render as r
    from ..registry import load, scene
    from ..viewer.page import THUMB_SIZE

    model = load(path, game_dir=opts.get("game_dir"))
    em = scene(model, frame=0, game_dir=opts.get("game_dir"))
    return r.png_bytes(r.render_frame(em, 0, (THUMB_SIZE, THUMB_SIZE)))


# --- the served viewer ------------------------------------------------------------------------


class Site:
    """What ``view`` serves: pages of models (and a gallery) on a :class:`ViewServer`."""

    def __init__(self, opts: dict[str, Any], drops: Path) -> None:
        from ..viewer import page
        from ..viewer.server import ViewServer

        self.opts = opts
        self.drops = drops
        self.server = ViewServer(self.open_dropped)
        for name, data in page.served_files().items():
            self.server.add(name, data, JS)
        self._count = 0  # models registered (their routes' keys)
        self._drops = 0  # files dropped on the page (their folders)
        self._lock = threading.Lock()

    def entry(self, path: str) -> dict[str, Any]:
        """Register the model at ``path``'s .glb files; returns its page entry."""
        with self._lock:
            key = f"m{self._count}"
            self._count += 1
        entry, variants = model_parts(path, self.opts)
        entry["skins"] = [
            {"name": label, "url": self.server.add(f"{key}/skin{i}.glb", make, GLB)}
            for i, (label, make) in enumerate(variants)
        ]
        weapon = self.opts.get("weapon")
        if weapon is not None:
            if entry["kind"] != "player":
                raise UsageError("--weapon goes with a Quake III player folder")
            data = weapon_glb(weapon, self.opts)
            url = self.server.add(f"{key}/weapon.glb", data, GLB)
            entry["weapon"] = {"name": Path(weapon).name, "url": url}
        return entry

    def model_page(self, path: str, prefix: str = "") -> bytes:
        """The viewer page of the model at ``path``; its entry is served at ``prefix +
        "entry.json"``, built on the first request (or by :meth:`prebuild`), so the browser
        loads three.js while the model is read."""
        from ..viewer.page import served_html

        url = self.server.add(f"{prefix}entry.json", partial(self._entry_json, path), JSON)
        meta = {"mode": "model", "model": None, "entry": url, "upload": self.server.base + "open"}
        return served_html(f"{Path(path).name} - quakemodels view", meta, self.server.base)

    def _entry_json(self, path: str) -> bytes:
        return json.dumps(self.entry(path)).encode()

    def prebuild(self, name: str) -> bool:
        """Build route ``name`` now; a failure is printed (the page shows it when it asks)
        and False returned."""
        route = self.server.route(name)
        if route is None:
            return True
        try:
            route.get()
        except Exception as e:  # the page asks again and shows the message
            print(f"quakemodels view: error: {e}", file=sys.stderr, flush=True)
            return False
        return True

    def gallery(self, title: str, files: list[str], places: dict[str, str]) -> bytes:
        from ..viewer.page import gallery_meta, served_html

        items = []
        for i, f in enumerate(files):
            thumb = self.server.add(f"g{i}/thumb.png", partial(thumbnail, f, self.opts), PNG)
            href = self.server.add(f"g{i}/", partial(self.model_page, f, f"g{i}/"), HTML)
            items.append((places.get(f, Path(f).name), thumb, href))
        return served_html(
            f"{title} - quakemodels view", gallery_meta(title, items), self.server.base
        )

    def open_dropped(self, filename: str, data: bytes) -> dict[str, Any]:
        """The entry of a file dropped on the page, kept in the session's temporary folder."""
        from ..core.scene import safe_name

        stem, dot, suffix = Path(filename).name.rpartition(".")
        name = f"{safe_name(stem)}.{safe_name(suffix)}" if dot else safe_name(filename)
        with self._lock:
            self._drops += 1
            folder = self.drops / str(self._drops)
        folder.mkdir(parents=True)
        target = folder / name
        target.write_bytes(data)
        entry = self.entry(str(target))
        entry["name"] = filename
        return entry


def is_gallery(path: str) -> bool:
    """A folder that is not a player, an archive or a game folder: many models."""
    from ..registry import is_folder_set

    if os.path.isdir(path):
        return not is_folder_set(path)
    return os.path.isfile(path) and is_game_input(path)


def _opens(path: str, opts: dict[str, Any]) -> None:
    """Load the model at ``path`` (its header: the model is read lazily); raises as load does."""
    from ..registry import load

    load(path, game_dir=opts.get("game_dir"))


def run(args: argparse.Namespace) -> int:
    opts = {
        "skin_dir": args.skin_dir,
        "game_dir": args.game_dir,
        "weapon": args.weapon,
    }
    if not is_gallery(args.path):
        # A model that cannot be opened ends the command before anything is served: it
        # printed its error, then served a page that could only repeat it until killed.
        opened = _call(_opens, args.path, opts)
        if not opened.ok:
            print(f"{args.path}: error: {opened.error}", file=sys.stderr)
            return EXIT_BAD_INPUT
    import tempfile  # here: a command that does not view needs neither
    import webbrowser

    from ..registry import is_folder_set

    with tempfile.TemporaryDirectory(prefix="quakemodels-view-") as drops:
        site = Site(opts, Path(drops))
        first = None
        if is_gallery(args.path):
            if args.weapon is not None:
                raise UsageError("--weapon goes with a Quake III player folder")
            files, _, places = expand_tree([args.path])
            if not files:
                raise UsageError(f"{args.path}: no models found")
            page = site.gallery(Path(args.path).name or args.path, files, places)
            what = f"a gallery of {len(files)} models"
        else:
            if args.weapon is not None and not is_folder_set(args.path, args.game_dir):
                raise UsageError("--weapon goes with a Quake III player folder")
            page = site.model_page(args.path)
            first = "entry.json"
            what = Path(args.path).name
        site.server.add("", page, HTML)
        url = site.server.url
        serving = threading.Thread(target=site.server.serve_forever, daemon=True)
        serving.start()
        print(f"quakemodels view: {what} at {url}  (Ctrl-C stops)", flush=True)
        if not args.no_browser:
            webbrowser.open(url)
        try:
            # while the browser starts and loads three.js; a model that cannot be built ends
            # the command (exit 1), as one that cannot be opened does
            if first is not None and not site.prebuild(first):
                return EXIT_BAD_INPUT
            while serving.is_alive():
                serving.join(0.5)
        except KeyboardInterrupt:
            print("\nquakemodels view: stopped", file=sys.stderr)
        finally:
            site.server.shutdown()
            site.server.close()
    return EXIT_OK


# --- export --format html ------------------------------------------------------------------------


def standalone_page(path: str, opts: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
    """The self-contained viewer page of the model at ``path`` (three.js and every skin's .glb
    inline as ``data:`` URLs) and its entry."""
    from ..viewer.page import GLB_MIME, data_url, standalone_html

    entry, variants = model_parts(path, opts)
    entry["skins"] = [
        {"name": label, "url": data_url(make(), GLB_MIME)} for label, make in variants
    ]
    weapon = opts.get("weapon")
    if weapon is not None and entry["kind"] == "player":
        entry["weapon"] = {
            "name": Path(weapon).name,
            "url": data_url(weapon_glb(weapon, opts), GLB_MIME),
        }
    meta = {"mode": "model", "model": entry, "upload": None}
    return standalone_html(f"{entry['name']} - quakemodels", meta), entry
