"""A loopback HTTP server that serves a directory, and can misbehave on purpose.

Tests (unit and workflow) use :func:`serve_directory` to stand in for a remote host
such as OPUS: the files under ``root`` are served at the same relative paths, e.g.
``<base_url>/OPUS-TED2020/v1/moses/de-en.txt.zip``. For chosen paths the server can
instead answer with an error status, send a truncated body while announcing the full
``Content-Length``, or drop the connection without answering.

Paths given to the hooks are relative to ``root``, with or without a leading slash.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit


def _key(path: str) -> str:
    return unquote(urlsplit(path).path).lstrip("/")


@dataclass
class Misbehaviour:
    """What the server does wrong, by path relative to the served root.

    Attributes
    ----------
    status
        Path -> HTTP status to answer with (e.g. 404, 500) instead of the file.
    truncate_at
        Path -> number of body bytes to send before closing the connection, while the
        ``Content-Length`` header announces the full file size.
    drop_first
        Path -> number of requests to answer by closing the connection without any
        response (a transient failure); later requests are served normally.
    requests
        Every requested path (relative to root), in order; filled in by the server.
    ranges
        The ``Range`` header of every request that sent one, in order. Such requests
        (``bytes=N-``) of a well-behaved path are answered 206 with the file from byte N.
    """

    status: dict[str, int] = field(default_factory=dict)
    truncate_at: dict[str, int] = field(default_factory=dict)
    drop_first: dict[str, int] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    ranges: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.status = {_key(k): v for k, v in self.status.items()}
        self.truncate_at = {_key(k): v for k, v in self.truncate_at.items()}
        self.drop_first = {_key(k): v for k, v in self.drop_first.items()}


class _MirrorHandler(http.server.SimpleHTTPRequestHandler):
    misbehaviour: Misbehaviour

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - base signature
        pass  # keep test output quiet

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        key = _key(self.path)
        plan = self.misbehaviour
        with plan.lock:
            plan.requests.append(key)
            drop = plan.drop_first.get(key, 0) > 0
            if drop:
                plan.drop_first[key] -= 1
        if drop:
            self.close_connection = True
            return
        if key in plan.status:
            self.send_error(plan.status[key])
            return
        if key in plan.truncate_at:
            self._send_truncated(plan.truncate_at[key])
            return
        wanted = self.headers.get("Range")
        if wanted is not None:
            with plan.lock:
                plan.ranges.append(wanted)
            self._send_range(wanted)
            return
        super().do_GET()

    def _send_range(self, wanted: str) -> None:
        file_path = Path(self.translate_path(self.path))
        if not file_path.is_file():
            self.send_error(404)
            return
        body = file_path.read_bytes()
        unit, _, spec = wanted.partition("=")
        start_text, _, end_text = spec.partition("-")
        if unit.strip() != "bytes" or not start_text.isdigit() or end_text:
            self.send_error(400, "only 'bytes=N-' ranges are supported")
            return
        start = int(start_text)
        if start >= len(body):
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(body)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(206)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        self.wfile.write(body[start:])

    def _send_truncated(self, n_bytes: int) -> None:
        file_path = Path(self.translate_path(self.path))
        if not file_path.is_file():
            self.send_error(404)
            return
        body = file_path.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[:n_bytes])
        self.wfile.flush()
        self.close_connection = True


@contextmanager
def serve_directory(
    root: Path,
    *,
    misbehaviour: Misbehaviour | None = None,
    status: Mapping[str, int] | None = None,
    truncate_at: Mapping[str, int] | None = None,
    drop_first: Mapping[str, int] | None = None,
) -> Iterator[str]:
    """Serve ``root`` over HTTP on 127.0.0.1 (a free port) and yield the base URL.

    Parameters
    ----------
    root
        Directory whose files are served at their relative paths.
    misbehaviour
        A :class:`Misbehaviour` to use (and to inspect afterwards, e.g. its
        ``requests``); it may be changed while the server runs.
    status, truncate_at, drop_first
        Shorthands for the fields of the same name; they are merged into
        ``misbehaviour`` when that is given too.

    Yields
    ------
    str
        Base URL without a trailing slash, e.g. ``http://127.0.0.1:54321``.
    """
    plan = misbehaviour if misbehaviour is not None else Misbehaviour()
    with plan.lock:
        plan.status.update({_key(k): v for k, v in (status or {}).items()})
        plan.truncate_at.update({_key(k): v for k, v in (truncate_at or {}).items()})
        plan.drop_first.update({_key(k): v for k, v in (drop_first or {}).items()})
    handler = type("MirrorHandler", (_MirrorHandler,), {"misbehaviour": plan})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(Path(root)))
    )
    server.daemon_threads = True
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="httpmirror", daemon=True
    )
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
