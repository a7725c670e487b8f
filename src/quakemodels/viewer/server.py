"""The local server of ``quakemodels view``: standard library only, on 127.0.0.1.

It listens on a free port and answers only under ``/<token>/`` (a random token, so another
page or user on the machine cannot guess the URL) and only with what was registered
(:meth:`ViewServer.add`): the page, its scripts, the models it made. No file is served from
disk by its path. Requests whose ``Host`` is not this server's (DNS rebinding) are refused.
A registered producer runs on the first request and its bytes are kept.

Bounded against slow or many clients (any program on the machine can connect, token or not):
a connection gets a worker thread only once its request line and headers have arrived whole
(read without blocking by the accepting loop, within :data:`HEADER_SECONDS`, at most
:data:`MAX_HEADER` bytes); at most :data:`MAX_WAITING` connections wait for theirs (the oldest
is closed first), :data:`MAX_WORKERS` threads answer and :data:`MAX_QUEUED` complete requests
wait for them (more are answered 503); every read and write of a handler times out after
:data:`SOCKET_TIMEOUT`. A trickling client therefore holds a file descriptor for seconds,
never a thread, and a real request is answered while hundreds of them are connected.
"""

from __future__ import annotations

import contextlib
import io
import json
import secrets
import selectors
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

Producer = Callable[[], bytes]
Opener = Callable[[str, bytes], dict[str, Any]]
"""``opener(file name, bytes)``: the page JSON entry of a dropped file (ValueError: refused)."""

MAX_UPLOAD = 256 << 20  # a dropped file: larger than any model an engine loads
MAX_WORKERS = 8  # requests answered at once (a page asks for a few files in parallel)
MAX_QUEUED = 64  # complete requests waiting for a worker; more are answered 503
MAX_WAITING = 512  # connections whose request has not arrived yet; the oldest is closed
HEADER_SECONDS = 5.0  # a request line and its headers must arrive within this
MAX_HEADER = 64 << 10  # bytes of a request line and headers
SOCKET_TIMEOUT = 10.0  # any one read or write of a handler


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
        self._httpd = _BoundedServer(("127.0.0.1", 0), _handler(self))
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


@dataclass
class _Waiting:
    """A connection whose request line and headers have not all arrived."""

    deadline: float
    head: bytearray = field(default_factory=bytearray)


class _Replay(io.RawIOBase):
    """A socket's stream with the bytes already read from it (``head``) put back in front."""

    def __init__(self, head: bytes, sock: socket.socket) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        return self._sock.recv_into(buffer)


class _BoundedServer(HTTPServer):
    """One thread accepts and reads request heads without blocking; a fixed pool answers
    whole requests (see the module's docstring for the bounds)."""

    request_queue_size = 128  # the listen backlog

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self._pool = ThreadPoolExecutor(MAX_WORKERS, thread_name_prefix="quakemodels-view")
        self._queued = 0  # handed to the pool, not finished
        self._queued_lock = threading.Lock()
        self._waiting: dict[socket.socket, _Waiting] = {}  # insertion order: oldest first
        self._heads: dict[socket.socket, bytes] = {}
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()

    def serve_forever(self, poll_interval: float = 0.2) -> None:
        self._stopped.clear()
        self.socket.setblocking(False)
        with selectors.DefaultSelector() as sel:
            sel.register(self.socket, selectors.EVENT_READ)
            try:
                while not self._stop.is_set():
                    for key, _ in sel.select(timeout=poll_interval):
                        sock = key.fileobj
                        assert isinstance(sock, socket.socket)
                        if sock is self.socket:
                            self._accept(sel)
                        else:
                            self._read_head(sel, sock)
                    self._expire(sel, time.monotonic())
            finally:
                for sock in list(self._waiting):
                    self._drop(sel, sock)
                self._stopped.set()

    def shutdown(self) -> None:
        self._stop.set()
        self._stopped.wait()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _accept(self, sel: selectors.BaseSelector) -> None:
        while True:
            try:
                conn, _ = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of descriptors: those waiting make room as they expire
                return
            conn.setblocking(False)
            if len(self._waiting) >= MAX_WAITING:
                self._drop(sel, next(iter(self._waiting)))
            self._waiting[conn] = _Waiting(time.monotonic() + HEADER_SECONDS)
            sel.register(conn, selectors.EVENT_READ)

    def _drop(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        self._waiting.pop(sock, None)
        with contextlib.suppress(KeyError, ValueError):
            sel.unregister(sock)
        sock.close()

    def _expire(self, sel: selectors.BaseSelector, now: float) -> None:
        for sock, waiting in list(self._waiting.items()):
            if waiting.deadline > now:
                break  # in order of arrival, so of deadline
            self._drop(sel, sock)

    def _read_head(self, sel: selectors.BaseSelector, sock: socket.socket) -> None:
        waiting = self._waiting.get(sock)
        if waiting is None:  # dropped earlier in the same round of events
            return
        try:
            data = sock.recv(MAX_HEADER)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # closed before its request was whole
            self._drop(sel, sock)
            return
        waiting.head += data
        head = bytes(waiting.head)
        if b"\r\n\r\n" not in head and b"\n\n" not in head and len(head) < MAX_HEADER:
            return
        self._waiting.pop(sock)
        sel.unregister(sock)
        sock.setblocking(True)
        with self._queued_lock:
            full = self._queued >= MAX_QUEUED
            if not full:
                self._queued += 1
        if full:
            with contextlib.suppress(OSError):
                sock.settimeout(1.0)
                sock.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
            sock.close()
            return
        self._heads[sock] = head
        self._pool.submit(self._answer, sock)

    def _answer(self, sock: socket.socket) -> None:
        try:
            self.finish_request(sock, ("127.0.0.1", 0))
        except Exception:  # one broken connection must not end the pool's worker
            pass
        finally:
            self._heads.pop(sock, None)
            self.shutdown_request(sock)
            with self._queued_lock:
                self._queued -= 1

    def head_of(self, sock: socket.socket) -> bytes:
        """The bytes read from ``sock`` before it was handed to a worker."""
        return self._heads.pop(sock, b"")


def _handler(server: ViewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = SOCKET_TIMEOUT  # each read and write (setup() sets it on the socket)

        def setup(self) -> None:
            super().setup()
            bounded = self.server
            assert isinstance(bounded, _BoundedServer)
            self.rfile = io.BufferedReader(
                _Replay(bounded.head_of(self.connection), self.connection)
            )

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
            text = (self.headers.get("Content-Length") or "0").strip()
            if not (text.isascii() and text.isdigit()):  # int() takes "-1", "+1", "1_0"
                self._reply(400, {"error": f"Content-Length {text[:40]!r} is not a byte count"})
                return
            length = int(text)
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
