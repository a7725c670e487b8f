"""The viewer page: its HTML, the JSON that says what it shows, and its assets.

The page is ``page.html`` + ``viewer.css`` and one script, :data:`SCRIPT`: ``viewer.js`` and
the parts of three.js it uses, bundled and minified by tools/bundle_viewer.py (``bundle/``,
with three.js's licence and a SOURCE note). :func:`served_html` loads it from the server;
:func:`standalone_html` inlines it and the models (``data:`` URLs), so the one file opens
offline from disk. The page's JSON (:func:`model_entry`, :func:`gallery_meta`) is described
at the top of ``viewer.js``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np

from ..core.scene import ExportModel, to_y_up

# the page's one script: viewer.js with three.js, one minified ES module (tools/bundle_viewer.py)
SCRIPT = "viewer.min.js"
GLB_MIME = "model/gltf-binary"
JS_MIME = "text/javascript; charset=utf-8"
THUMB_SIZE = 160

Meta = dict[str, Any]


def asset(name: str) -> bytes:
    """The bytes of the page's file ``name`` (``page.html``, ``bundle/viewer.min.js``...)."""
    return resources.files(__package__).joinpath(name).read_bytes()


def data_url(data: bytes, mime: str) -> str:
    """``data`` as a base64 ``data:`` URL."""
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def clip_entries(model: ExportModel) -> list[Meta]:
    """The clips of a single model for the page: ``frames`` (the model's frame numbers) keyed
    at ``times`` seconds (the model's fps, or an MDL frame group's intervals: ``group``)."""
    out = []
    for name, frames in model.clips.items():
        shown = [f for f in frames if 0 <= f < model.num_frames]
        if not shown:
            continue
        times = model.key_times(name, len(shown))
        out.append(
            {
                "name": name,
                "part": "all",
                "frames": shown,
                "times": [round(float(t), 6) for t in times],
                "fps": model.fps,
                "loop": True,
                "group": name in model.clip_times,
                # a group's poses: how long each is shown (the last as long as the one before)
                "intervals": [round(float(d), 6) for d in _durations(times)],
            }
        )
    return out


def bounds(model: ExportModel) -> list[list[float]] | None:
    """[min, max] of every frame's positions in glTF axes (Y up), or None without any."""
    found = [s.positions.reshape(-1, 3) for s in model.surfaces if s.positions.size]
    if not found:
        return None
    lo = np.min([p.min(axis=0) for p in found], axis=0)
    hi = np.max([p.max(axis=0) for p in found], axis=0)
    return [to_y_up(lo).tolist(), to_y_up(hi).tolist()]


def _durations(times: Any) -> list[float]:
    t = np.asarray(times, dtype=np.float64)
    if len(t) < 2:
        return [0.0] * len(t)
    d = np.diff(t)
    return [*d.tolist(), float(d[-1])]


def player_clip_entries(doc: dict[str, Any]) -> list[Meta]:
    """The clips of a player's glTF (``doc`` from the player exporter: each animation's
    ``extras`` hold its part, fps, loop, first frame and frame count, and its ``row`` in
    animation.cfg), in the cfg's order; the ``ALL_FRAMES`` runs (``extras.allFrames``, what
    the way back from Blender reads the tags from) are no clips."""
    out = []
    animations = [a for a in doc.get("animations", []) if not a.get("extras", {}).get("allFrames")]
    order = sorted(
        range(len(animations)), key=lambda k: animations[k].get("extras", {}).get("row", k)
    )
    for anim in (animations[k] for k in order):
        extras = anim.get("extras", {})
        part = str(extras.get("part", "both")).lower()
        fps = float(extras.get("fps") or 1.0)
        first, count = int(extras.get("firstFrame", 0)), max(int(extras.get("numFrames", 1)), 1)
        out.append(
            {
                "name": anim["name"],
                "part": part if part in ("legs", "torso") else "both",
                "frames": list(range(first, first + count)),
                "times": [round(k / fps, 6) for k in range(count)],
                "fps": fps,
                "loop": bool(extras.get("loop", True)),
                "group": False,
                "intervals": [],
            }
        )
    return out


def model_entry(
    name: str,
    kind: str,
    info: str,
    skins: Sequence[tuple[str, str]],
    clips: list[Meta],
    tags: Sequence[str],
    weapon: tuple[str, str] | None = None,
    box: list[list[float]] | None = None,
) -> Meta:
    """What the page shows of one model: ``skins`` (label, glb URL) with the first shown,
    ``clips`` (:func:`clip_entries`), ``tags`` names, a ``weapon`` (name, glb URL) for a
    player's ``tag_weapon``, the ``box`` of every frame (:func:`bounds`; the page finds a
    player's)."""
    return {
        "name": name,
        "kind": kind,
        "info": info,
        "skins": [{"name": label, "url": url} for label, url in skins],
        "clips": clips,
        "tags": list(tags),
        "weapon": None if weapon is None else {"name": weapon[0], "url": weapon[1]},
        "bounds": box,
    }


def gallery_meta(title: str, items: Sequence[tuple[str, str, str]]) -> Meta:
    """The page of a folder or archive: ``items`` (name, thumbnail URL, page URL)."""
    return {
        "mode": "gallery",
        "title": title,
        "thumbSize": THUMB_SIZE,
        "items": [{"name": n, "thumb": t, "href": h} for n, t, h in items],
    }


def _json_in_html(value: Any) -> str:
    # inside <script>: a "</script>" (or "<!--") in a name must not end the element
    text = json.dumps(value, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _html(title: str, meta: Meta, script: str) -> bytes:
    template = asset("page.html").decode("utf-8")
    text = template % {
        "title": _escape(title),
        "style": asset("viewer.css").decode("utf-8"),
        "meta": _json_in_html(meta),
        "script": script,
    }
    return text.encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def served_html(title: str, meta: Meta, base: str) -> bytes:
    """The page as ``quakemodels view`` serves it: its script from ``base`` (``/<token>/``:
    ``base + SCRIPT``, see :func:`served_files`)."""
    src = f"{base}{SCRIPT}"
    # the script fetched at once, and the model's entry asked for before the script runs
    entry = meta.get("entry")
    early = f"<script>window.qmEntry = fetch({_json_in_html(entry)});</script>" if entry else ""
    script = f'<link rel="modulepreload" href="{src}">{early}<script type="module" src="{src}">'
    return _html(title, meta, script + "</script>")


def standalone_html(title: str, meta: Meta) -> bytes:
    """The page as one file: the script inline; ``meta``'s model URLs should be ``data:``
    URLs (:func:`data_url`)."""
    code = asset(f"bundle/{SCRIPT}").decode("utf-8").replace("</script", "<\\/script")
    return _html(title, meta, f'<script type="module">\n{code}</script>')


def served_files() -> dict[str, bytes]:
    """What ``quakemodels view`` serves beside its pages, by path under ``base``."""
    return {SCRIPT: asset(f"bundle/{SCRIPT}")}
