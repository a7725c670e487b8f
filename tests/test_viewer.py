"""``quakemodels view`` and ``export --format html``: the server, the page, in a real browser.

The server tests run everywhere: ``quakemodels view`` in a subprocess serves the page under its
token only, refuses other paths and hosts, and stops on SIGINT with exit code 0 and its port
closed. The page tests drive Debian's chromium (headless, SwiftShader WebGL) over the DevTools
protocol (tools/cdp.py): an MD2, an MD3, an MDL, a player with a weapon and a gallery load with
the clip names and morph counts of the files, log no error and ask nothing outside 127.0.0.1;
a frame stepped to shows the silhouette the software renderer draws from the same camera
(IoU >= 0.9). The self-contained page opens from disk with no server. Skipped with the
install line when chromium is missing, except under CI=true.
"""

from __future__ import annotations

import base64
import contextlib
import importlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, IN_CI, REPO, no_corpus

from quakemodels.cli import main as cli
from quakemodels.interchange.render import SUPERSAMPLE, Renderer
from quakemodels.registry import load, scene

sys.path.insert(0, str(REPO / "tools"))
br: ModuleType = importlib.import_module("browser_render")
cdp: ModuleType = importlib.import_module("cdp")

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
DRFREAK = CORPUS / "md2" / "ppm_drfreak.md2"
MD3 = CORPUS / "md3" / "trem_human_base_upper.md3"
MDL_GROUPS = CORPUS / "mdl" / "lq_flame2.mdl"
MDL_SKINS = CORPUS / "mdl" / "lq_armor.mdl"
PLAYER = CORPUS / "q3" / "models" / "players" / "human_base"
WEAPON = CORPUS / "md3" / "trem_rifle.md3"
GALLERY = CORPUS / "md3"
PK3 = CORPUS / "archives" / "cge_jkm_oaktree.pk3"
SHOTS = REPO / "out" / "viewer"  # the screenshots the tests take (make viewer-image)
IOU_MIN = 0.9
MAGENTA = (255, 0, 255)


def corpus(path: Path) -> Path:
    if not path.exists():
        no_corpus(path)
    return path


# --- the server, in a subprocess --------------------------------------------------------------


class Served:
    """``quakemodels view ARGS --no-browser`` running; ``url`` is the page's."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "quakemodels", "view", *args, "--no-browser"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if " at http://" not in line:
            self.proc.kill()
            _, err = self.proc.communicate()
            raise AssertionError(f"no URL from quakemodels view: {line!r} {err}")
        self.line = line
        self.url = line.split(" at ", 1)[1].split()[0]
        self.port = int(self.url.split(":")[2].split("/")[0])

    def stop(self) -> tuple[int, str]:
        """SIGINT (Ctrl-C); the exit code and stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


@contextlib.contextmanager
def served(*args: str) -> Iterator[Served]:
    s = Served(*args)
    try:
        yield s
    finally:
        if s.proc.poll() is None:
            s.stop()


def get(url: str, host: str | None = None) -> tuple[int, bytes, str]:
    request = urllib.request.Request(url)
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, reply.read(), reply.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        return e.code, e.read(), ""


def test_view_serves_only_its_own_pages_and_stops_on_ctrl_c() -> None:
    with served(str(SAMPLE)) as s:
        assert s.url.startswith("http://127.0.0.1:")
        token = s.url.rstrip("/").rsplit("/", 1)[1]
        assert len(token) >= 20
        status, body, mime = get(s.url)
        assert status == 200 and mime.startswith("text/html")
        assert b'"entry":"/' + token.encode() + b'/entry.json"' in body
        status, body, mime = get(s.url + "entry.json")
        assert status == 200 and mime == "application/json"
        entry = json.loads(body)
        assert [c["name"] for c in entry["clips"]] == list(load(SAMPLE).animations)
        status, glb, mime = get(f"http://127.0.0.1:{s.port}{entry['skins'][0]['url']}")
        assert status == 200 and glb[:4] == b"glTF" and mime == "model/gltf-binary"
        status, script, mime = get(s.url + "viewer.min.js")
        assert status == 200 and mime.startswith("text/javascript")
        assert script == (REPO / "src/quakemodels/viewer/bundle/viewer.min.js").read_bytes()
        root = f"http://127.0.0.1:{s.port}"
        # no file browsing: other paths, another token, a path out of the token, another host
        for url in (
            root + "/",
            root + "/viewer.min.js",
            s.url + "viewer.js",
            root + "/AAAAAAAAAAAAAAAAAAAAAA/",
            s.url + "../../etc/passwd",
            s.url + "%2e%2e/%2e%2e/etc/passwd",
            s.url + "quakeguy.md2",
        ):
            assert get(url)[0] == 404, url
        assert get(s.url, host=f"evil.example:{s.port}")[0] == 404
        code, err = s.stop()
    assert code == 0, err
    assert "stopped" in err and "Traceback" not in err
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", s.port), timeout=2):
        pass


def test_view_refuses_a_weapon_without_a_player(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli(["view", str(SAMPLE), "--no-browser", "--weapon", str(SAMPLE)])
    assert code == 2
    err = capsys.readouterr().err
    assert err == "quakemodels view: error: --weapon goes with a Quake III player folder\n"


def test_export_html_is_one_file_with_no_outside_url(tmp_path: Path) -> None:
    out = tmp_path / "quakeguy.html"
    assert cli(["export", str(SAMPLE), "-o", str(out), "-q"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "importmap" not in text and "<script src=" not in text
    # the one script, inline: the committed bundle (three's @license comment kept at its end)
    bundle = (REPO / "src/quakemodels/viewer/bundle/viewer.min.js").read_text(encoding="utf-8")
    assert text.count('<script type="module">') == 1
    start = text.index('<script type="module">') + len('<script type="module">\n')
    assert text[start : text.index("</script>", start)] == bundle
    assert "SPDX-License-Identifier: MIT" in bundle
    start = text.index('<script id="qm-meta" type="application/json">')
    start = text.index(">", start) + 1
    meta_text = text[start : text.index("</script>", start)]
    meta = json.loads(meta_text)
    entry = meta["model"]
    assert meta["upload"] is None
    assert [c["name"] for c in entry["clips"]] == list(load(SAMPLE).animations)
    url = entry["skins"][0]["url"]
    assert url.startswith("data:model/gltf-binary;base64,")
    glb = base64.b64decode(url.split(",", 1)[1])
    assert glb[:4] == b"glTF"
    # besides the model's own glb (as base64 in the page), at most 1 MB: the page, the bundle
    assert len(out.read_bytes()) - len(url) <= 1_000_000
    assert "default-src 'none'" in text  # the page's policy: no network
    assert cli(["export", str(SAMPLE), "-o", "-", "--format", "html"]) == 2
    assert not (tmp_path / "-").exists()


def test_viewer_bundle_is_viewer_js_with_node_modules_three() -> None:
    """The committed bundle is what tools/bundle_viewer.py makes of viewer.js and the pinned
    three and esbuild; its SOURCE note names them, three's licence beside it."""
    missing = [m for m in ("three", "esbuild") if not (REPO / "node_modules" / m).is_dir()]
    if missing:
        if IN_CI:
            pytest.fail(f"CI=true but node_modules lacks {missing} (make node)")
        pytest.skip(f"node_modules lacks {missing} (make node)")
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "bundle_viewer.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    folder = REPO / "src" / "quakemodels" / "viewer" / "bundle"
    source = (folder / "SOURCE").read_text()
    for package in ("three", "esbuild"):
        meta = json.loads((REPO / "node_modules" / package / "package.json").read_text())
        assert f"{package} {meta['version']}" in source.replace("three.js", "three")
    assert (folder / "LICENSE").read_bytes() == (REPO / "node_modules/three/LICENSE").read_bytes()
    assert sorted(p.name for p in folder.iterdir()) == ["LICENSE", "SOURCE", "viewer.min.js"]


# --- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # three.js comes from the package (bundle/), not node_modules: only chromium is needed
    if br.find_chromium() is None:
        why = f"chromium is not installed ({br.INSTALL}, or make browser-deps)"
        if IN_CI:
            pytest.fail(f"CI=true but {why}")
        pytest.skip(why)
    with cdp.Browser() as b:
        yield b


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page(1024, 640)
    page.goto(url)
    page.wait_for("document.readyState === 'complete' && window.qm !== undefined")
    page.eval("qm.ready.then(() => true)", timeout=120)
    return page


def outside(page: Any, allowed: tuple[str, ...] = ("http://127.0.0.1:",)) -> list[str]:
    """The page's requests that went anywhere but ``allowed`` (blob: URLs are its own)."""
    return [u for u in page.requests() if not u.startswith((*allowed, "blob:", "data:"))]


def software_mask(em: Any, frame: int, size: tuple[int, int]) -> tuple[np.ndarray, Renderer]:
    """(h, w) bool: the pixels the software renderer covers in ``frame``, and its renderer."""
    r = Renderer(em, size, frames=[frame], background=MAGENTA)
    pixels = np.asarray(r.frame(frame), dtype=np.int16)
    return np.abs(pixels - np.array(MAGENTA)).sum(axis=-1) > 96, r


def camera_of(r: Renderer, size: tuple[int, int]) -> dict[str, Any]:
    """The software renderer's orthographic camera in glTF axes ((x, y, z) → (y, z, x))."""

    def y_up(v: np.ndarray) -> list[float]:
        return [float(v[1]), float(v[2]), float(v[0])]

    # view = rot @ quake: rows of rot are toward the camera, screen right, screen up
    return {
        "target": y_up(r.rot.T @ r.center),
        "toward": y_up(r.rot[0]),
        "up": y_up(r.rot[2]),
        "halfWidth": size[0] * SUPERSAMPLE / 2 / r.scale,
        "halfHeight": size[1] * SUPERSAMPLE / 2 / r.scale,
    }


def page_mask(page: Any, size: tuple[int, int]) -> np.ndarray:
    data = base64.b64decode(page.eval(f"qm.silhouette({size[0]}, {size[1]})"))
    return np.frombuffer(data, np.uint8).reshape(size[1], size[0]) > 0


def iou(a: np.ndarray, b: np.ndarray) -> float:
    union = int((a | b).sum())
    return int((a & b).sum()) / union if union else 0.0


def check_silhouette(page: Any, path: Path, clip: str, k: int) -> np.ndarray:
    """Step the page to key ``k`` of ``clip`` and compare with the software renderer; returns
    the software renderer's (h, w) mask, the page left at its camera."""
    em = scene(load(path))
    frame = page.eval(f"qm.select('all', {json.dumps(clip)}) && qm.step('all', {k})")
    assert frame == list(em.clips[clip])[k]
    size = (200, 200)
    soft, r = software_mask(em, frame, size)
    page.eval(f"qm.setCamera({json.dumps(camera_of(r, size))})")
    shown = page_mask(page, size)
    score = iou(soft, shown)
    assert score >= IOU_MIN, f"{path.name} frame {frame}: IoU {score:.3f}"
    print(f"{path.name} frame {frame}: silhouette IoU {score:.3f} ({int(soft.sum())} pixels)")
    return soft


def test_md2_in_the_page(browser: Any) -> None:
    path = corpus(DRFREAK)
    model = load(path)
    with served(str(path)) as s:
        page = open_page(browser, s.url)
        state = page.eval("qm.state()")
        assert state["clips"] == list(model.animations) == state["animations"]
        assert state["morphs"] == {"mesh": 198}
        frame = page.eval("qm.select('all', 'run') && qm.step('all', 3)")
        assert frame == model.animations["run"][3]
        assert page.eval("qm.state().labels.all") == f"frame {frame} (4/6)"
        for name in ("wireframe", "normals", "bounds", "tags"):
            page.eval(f"qm.toggle('{name}', true)")
        page.eval("qm.toggle('wireframe', false)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / "viewer_md2.png").write_bytes(page.screenshot())
        page.eval("qm.toggle('normals', false); qm.toggle('bounds', false)")
        soft = check_silhouette(page, path, "run", 3)
        # the comparison sees the frame: the last pose of death1 does not pass for run's
        page.eval("qm.select('all', 'death1') && qm.step('all', -1)")
        assert iou(soft, page_mask(page, soft.shape[::-1])) < 0.5
        assert page.errors() == []
        assert outside(page) == []
        assert s.stop()[0] == 0


def test_md3_with_tags_in_the_page(browser: Any) -> None:
    path = corpus(MD3)
    em = scene(load(path))
    with served(str(path)) as s:
        page = open_page(browser, s.url)
        state = page.eval("qm.state()")
        assert state["morphs"] == {surface.name: em.num_frames for surface in em.surfaces}
        assert state["tags"] == [t.name for t in em.tags]
        assert state["clips"] == list(em.clips)
        check_silhouette(page, path, "all", 40)
        assert page.errors() == []
        assert outside(page) == []


def test_mdl_frame_groups_and_skins_in_the_page(browser: Any) -> None:
    path = corpus(MDL_GROUPS)
    em = scene(load(path))
    with served(str(path)) as s:
        page = open_page(browser, s.url)
        clips = page.eval("qm.meta.model || null")  # served: the entry is fetched
        assert clips is None
        entry = json.loads(get(s.url + "entry.json")[1])
        groups = {c["name"]: c for c in entry["clips"]}
        assert set(groups) == set(em.clip_times) == {"flame", "flameb"}
        for name, times in em.clip_times.items():
            assert groups[name]["group"] is True
            np.testing.assert_allclose(groups[name]["times"], times, atol=1e-6)
        # the group's keys are shown at its intervals: the label follows the time
        k = len(em.clip_times["flame"]) - 1
        page.eval(f"qm.select('all', 'flame') && qm.step('all', {k})")
        assert page.eval("qm.state().frames.all") == list(em.clips["flame"])[k]
        check_silhouette(page, path, "flame", 2)
        assert page.errors() == []
    path = corpus(MDL_SKINS)
    with served(str(path)) as s:
        page = open_page(browser, s.url)
        assert page.eval("qm.state().skins") == [f"{path.stem}_skin{k}.png" for k in (0,)] + [
            "skin 1",
            "skin 2",
        ]
        page.eval("qm.setSkin(2).then(() => true)")
        assert page.eval("document.getElementById('skin').value") == "2"
        assert page.errors() == []
        assert outside(page) == []


def test_player_with_a_weapon_plays_legs_and_torso_apart(browser: Any) -> None:
    path, weapon = corpus(PLAYER), corpus(WEAPON)
    player = load(path)
    with served(str(path), "--weapon", str(weapon)) as s:
        page = open_page(browser, s.url)
        state = page.eval("qm.state()")
        assert state["kind"] == "player"
        assert state["clips"] == [c.name for c in player.config]
        assert set(state["tracks"]) == {"legs", "torso"}
        assert state["weapon"] == 1
        assert {t for t in ("tag_torso", "tag_head", "tag_weapon")} <= set(state["tags"])
        parts = {"l_": player.lower, "u_": player.upper, "h_": player.head}
        for mesh, count in state["morphs"].items():
            if mesh[:2] in parts:
                assert count == parts[mesh[:2]].num_frames, mesh
        clips = {c.name: c for c in player.config}
        page.eval("qm.select('legs', 'LEGS_RUN'); qm.select('torso', 'TORSO_ATTACK')")
        legs = page.eval("qm.step('legs', 2)")
        torso = page.eval("qm.step('torso', 5)")
        state = page.eval("qm.state()")
        assert state["tracks"] == {"legs": "LEGS_RUN", "torso": "TORSO_ATTACK"}
        assert legs == state["frames"]["legs"] == clips["LEGS_RUN"].first_frame + 2
        assert torso == state["frames"]["torso"] == clips["TORSO_ATTACK"].first_frame + 5
        # stepping the torso left the legs where they were
        assert page.eval("qm.step('torso', 3)") == clips["TORSO_ATTACK"].first_frame + 3
        assert page.eval("qm.state().frames.legs") == legs
        # a BOTH_ clip takes both tracks
        page.eval("qm.select('torso', 'BOTH_DEATH1')")
        assert page.eval("qm.state().tracks") == {"legs": None, "torso": "BOTH_DEATH1"}
        page.eval("qm.select('legs', 'LEGS_IDLE'); qm.select('torso', 'TORSO_STAND')")
        page.eval("qm.play(true)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        time.sleep(0.3)
        (SHOTS / "viewer.png").write_bytes(page.screenshot())
        assert page.errors() == []
        assert outside(page) == []


def test_gallery_of_a_folder_opens_a_model(browser: Any) -> None:
    folder = corpus(GALLERY)
    names = sorted(p.name for p in folder.glob("*.md3"))
    with served(str(folder)) as s:
        assert f"a gallery of {len(names)} models" in s.line
        page = open_page(browser, s.url)
        assert page.eval("qm.state().items") == names
        widths = page.eval("[...document.images].map((i) => i.naturalWidth)")
        assert widths == [160] * len(names)
        page.eval("document.querySelector('a.thumb').click(); true")
        time.sleep(0.2)
        page.wait_for("window.qm !== undefined && qm.state && qm.state().mode === 'model'", 120)
        state = page.eval("qm.ready")
        assert state["name"] == names[0]
        assert state["clips"] == list(load(folder / names[0]).animations)
        assert page.errors() == []
        assert outside(page) == []


def test_gallery_of_a_pk3_and_a_model_inside_it(browser: Any) -> None:
    pk3 = corpus(PK3)
    inside = [f"models/mapobjects/oak/oak{k}.md3" for k in range(1, 6)]
    with served(str(pk3)) as s:
        page = open_page(browser, s.url)
        assert page.eval("qm.state().items") == inside
        assert page.eval("[...document.images].every((i) => i.naturalWidth === 160)")
        assert page.errors() == []
    model = f"{pk3}/{inside[3]}"
    with served(model) as s:
        page = open_page(browser, s.url)
        state = page.eval("qm.state()")
        assert state["name"] == "oak4.md3"
        # the skins come out of the pk3, through the game's search path
        assert state["skins"][0] != "no skin"
        check_silhouette(page, Path(model), "all", 0)
        assert page.errors() == []
        assert outside(page) == []


def test_a_dropped_file_is_read_by_the_server(browser: Any) -> None:
    path = corpus(MDL_GROUPS)
    with served(str(SAMPLE)) as s:
        page = open_page(browser, s.url)
        data = base64.b64encode(path.read_bytes()).decode()
        state = page.eval(f"qm.drop('flame.mdl', '{data}')")
        assert state["name"] == "flame.mdl"
        assert state["clips"] == list(load(path).animations)
        assert page.errors() == []
        # a file no format reads: the page says why (a console error), the server goes on
        state = page.eval("qm.drop('junk.md2', btoa('not a model'))")
        assert state["name"] == "flame.mdl"
        assert any("junk.md2" in e for e in page.errors())
        assert outside(page) == []
        assert s.stop()[0] == 0


def test_exported_html_opens_from_disk_offline(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "quakeguy.html"
    assert cli(["export", str(SAMPLE), "-o", str(out), "-q"]) == 0
    page = open_page(browser, out.as_uri())
    state = page.eval("qm.state()")
    model = load(SAMPLE)
    assert state["clips"] == list(model.animations)
    assert state["morphs"] == {"mesh": model.num_frames}
    assert page.errors() == []
    assert outside(page, allowed=("file://",)) == []
