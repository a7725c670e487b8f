"""Headless chromium driven over the Chrome DevTools Protocol, standard library only.

    with Browser() as b:                 # Debian's chromium, headless, SwiftShader WebGL
        page = b.new_page(1024, 640)     # a tab, its console, errors and requests recorded
        page.goto(url)
        page.eval("qm.ready", wait=True)
        png = page.screenshot()

The websocket is a minimal RFC 6455 client (text frames, masked as a client must; ping,
fragments and close handled): enough for CDP, no ``websocket-client`` or selenium needed.
One connection to the browser target; pages are attached with ``flatten`` sessions.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from browser_render import FLAGS, RenderError, find_chromium


class WebSocket:
    """A client websocket over a plain TCP socket (``ws://host:port/path``)."""

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        rest = url.removeprefix("ws://")
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"websocket handshake refused: {head[:200]!r}")

    def _exact(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise ConnectionError("websocket closed")
            out += chunk
        return bytes(out)

    def send(self, text: str, opcode: int = 1) -> None:
        payload = text.encode()
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        mask = os.urandom(4)
        masked = (
            bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if n < 4096
            else _mask(payload, mask)
        )
        self.sock.sendall(head + mask + masked)

    def recv(self) -> str:
        """The next text message (fragments joined; pings answered)."""
        parts: list[bytes] = []
        while True:
            b0, b1 = self._exact(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._exact(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._exact(8))
            mask = self._exact(4) if b1 & 0x80 else None
            data = self._exact(n)
            if mask:
                data = _mask(data, mask)
            if opcode == 9:  # ping
                self.send(data.decode("latin-1"), opcode=10)
                continue
            if opcode == 8:
                raise ConnectionError("websocket closed by the browser")
            if opcode in (0, 1, 2):
                parts.append(data)
                if b0 & 0x80:
                    return b"".join(parts).decode()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def _mask(data: bytes, mask: bytes) -> bytes:
    """``data`` XOR the repeated 4-byte ``mask`` (as one big integer: fast for MBs)."""
    n = len(data)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(n, "little")


class Browser:
    """A headless chromium of its own (a temporary profile), ended on exit."""

    def __init__(self, timeout: float = 120.0) -> None:
        self.timeout = timeout
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        chromium = find_chromium()
        if chromium is None:
            raise RenderError("chromium is not installed")
        self._profile = tempfile.TemporaryDirectory(prefix="qm-cdp-")
        profile = self._profile.name
        self._log = open(Path(profile) / "stderr.txt", "wb")
        self.proc = subprocess.Popen(
            [
                chromium,
                *FLAGS,
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
        )
        active = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (active.exists() and len(active.read_text().splitlines()) >= 2):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self._stop()
                raise RenderError("chromium did not open its DevTools port")
            time.sleep(0.05)
        port, path = active.read_text().splitlines()[:2]
        self.ws = WebSocket(f"ws://127.0.0.1:{port}{path}", self.timeout)
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.close()
        self._stop()

    def _stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self._log.close()
        self._profile.cleanup()

    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send a command and wait for its answer (events met meanwhile are kept)."""
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        self.ws.sock.settimeout(timeout or self.timeout)
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RenderError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            self.events.append(reply)

    def new_page(self, width: int = 1024, height: int = 640) -> Page:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Network", "Log"):
            page.call(f"{domain}.enable")
        page.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        return page


class Page:
    """One tab: ``errors()`` (console errors, exceptions, failed loads) and ``requests()``."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def call(
        self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None
    ) -> dict[str, Any]:
        return self.browser.call(method, params, self.session, timeout)

    def _events(self, method: str) -> list[dict[str, Any]]:
        return [
            e["params"]
            for e in self.browser.events
            if e.get("sessionId") == self.session and e.get("method") == method
        ]

    def goto(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})

    def eval(self, expression: str, wait: bool = True, timeout: float | None = None) -> Any:
        """The value of ``expression`` (awaited when a promise); RenderError when it throws."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": wait, "returnByValue": True},
            timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise RenderError(f"{expression}: {text}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 60.0) -> Any:
        """Poll ``expression`` until it is truthy (a page that is still navigating)."""
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(RenderError):
                value = self.eval(expression)
                if value:
                    return value
            if time.monotonic() > deadline:
                raise RenderError(f"timed out waiting for {expression}")
            time.sleep(0.05)

    def errors(self) -> list[str]:
        found = [
            " ".join(str(a.get("value", a.get("description", ""))) for a in e.get("args", []))
            for e in self._events("Runtime.consoleAPICalled")
            if e.get("type") in ("error", "assert")
        ]
        found += [
            e["exceptionDetails"].get("exception", {}).get("description")
            or e["exceptionDetails"].get("text", "")
            for e in self._events("Runtime.exceptionThrown")
        ]
        found += [
            f"{e['entry'].get('text')} ({e['entry'].get('url', '')})"
            for e in self._events("Log.entryAdded")
            if e["entry"].get("level") == "error"
        ]
        return found

    def requests(self) -> list[str]:
        """Every URL the page asked for (documents, scripts, fetches, images)."""
        return [e["request"]["url"] for e in self._events("Network.requestWillBeSent")]

    def screenshot(self) -> bytes:
        """The page as it shows, PNG."""
        return base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
