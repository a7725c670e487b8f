"""The local server of ``quakemodels view``: standard library only, on 127.0.0.1.

It listens on a free port and answers only under ``/<token>/`` (a random token, so another
page or user on the machine cannot guess the URL) and only with what was registered
(:meth:`ViewServer.add`): the page, its scripts, the models it made. No file is served from
disk by its path. Requests whose ``Host`` is not this server's (DNS rebinding) are refused.
A registered producer runs on the first request and its bytes are kept.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

Producer = Callable[[], bytes]
Opener = Callable[[str, bytes], dict[str, Any]]
"""``opener(file name, bytes)``: the page JSON entry of a dropped file (ValueError: refused)."""

MAX_UPLOAD = 256 << 20  # a dropped file: larger than any model an engine loads


@dataclass
class _Route:
    mime: str
    producer: Producer
    body: bytes | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self) -> bytes:
        with self.lock:
            if self.body is None:
                self.body = self.producer()
            return self.body


class ViewServer:
    """Serves registered bytes under ``http://127.0.0.1:<port>/<token>/``."""

    def __init__(self, opener: Opener | None = None) -> None:
        self.token = secrets.token_urlsafe(16)
        self.base = f"/{self.token}/"
        self.opener = opener
        self.errors: list[str] = []
        self._routes: dict[str, _Route] = {}
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self.port = int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """The page's URL."""
        return f"http://127.0.0.1:{self.port}{self.base}"

    def add(self, name: str, body: bytes | Producer, mime: str) -> str:
        """Serve ``body`` (or what ``body()`` returns, made once on the first request) at
        ``base + name``; returns that path."""
        producer = body if callable(body) else (lambda data=body: data)
        with self._lock:
            self._routes[name] = _Route(mime, producer)
        return self.base + name

    def route(self, name: str) -> _Route | None:
        with self._lock:
            return self._routes.get(name)

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown` (from another thread) or KeyboardInterrupt."""
        self._httpd.serve_forever(poll_interval=0.2)

    def shutdown(self) -> None:
        """Stop serving (call from another thread than :meth:`serve_forever`'s)."""
        self._httpd.shutdown()

    def close(self) -> None:
        """Close the listening socket."""
        self._httpd.server_close()


def _handler(server: ViewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass  # the page's requests are not news

        def _send(self, status: int, body: bytes, mime: str = "text/plain; charset=utf-8") -> None:
            self.send_response(status)
            self.send_header("Content-Type", mime)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def _name(self) -> str | None:
            """The registered name asked for, or None (wrong host or token: not ours)."""
            host = self.headers.get("Host", "")
            if host not in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
                return None
            path = unquote(urlsplit(self.path).path)
            if not path.startswith(server.base):
                return None
            return path[len(server.base) :]

        def do_GET(self) -> None:
            name = self._name()
            route = None if name is None else server.route(name)
            if route is None:
                self._send(404, b"not found")
                return
            try:
                body = route.get()
            except Exception as e:  # a model that fails to build: the page shows why
                message = f"{name}: {e}"
                server.errors.append(message)
                self._send(500, message.encode("utf-8", "replace"))
                return
            self._send(200, body, route.mime)

        def do_POST(self) -> None:
            name = self._name()
            if name != "open" or server.opener is None:
                self._send(404, b"not found")
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_UPLOAD:
                self._reply(413, {"error": f"a dropped file must be 1 to {MAX_UPLOAD} bytes"})
                return
            data = self.rfile.read(length)
            query = parse_qs(urlsplit(self.path).query)
            filename = (query.get("name") or ["dropped"])[0]
            try:
                entry = server.opener(filename, data)
            except Exception as e:  # the file is the user's: say why it cannot be shown
                self._reply(400, {"error": str(e)})
                return
            self._reply(200, entry)

        def _reply(self, status: int, value: Any) -> None:
            self._send(status, json.dumps(value).encode(), "application/json")

    return Handler
