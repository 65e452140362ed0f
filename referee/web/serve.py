"""Serve Thirteen to a room: every phone on the same Wi-Fi scans the QR code printed here.

``python -m referee.web.serve [--host 0.0.0.0] [--port 8000] [--threads 8] [--quiet]``

The server is waitress (pure Python, any OS).  Its settings are chosen for a room of phones
that follow games by polling every 3 s, measured with ``tests/bench_room.py`` (docs/performance.md, "Load"):

* ``connection_limit`` :data:`CONNECTION_LIMIT`: every watching phone keeps a connection open
  between polls.  Waitress's default of 100 made a room of 200 phones queue behind it (poll p99
  4.96 s); with room for every phone the same room answers in milliseconds.  An idle
  connection costs a few KB, so the limit is set well above a big room (1,000 phones).
* ``asyncore_use_poll``: ``select()`` cannot watch more than 1,024 sockets; ``poll()`` can.
* ``threads`` :data:`THREADS`: requests are short and mostly Python (the GIL runs one at a
  time), so more threads only add switching; a few more than the cores cover the moments a
  thread waits for the disk when a round is saved.
* ``max_request_body_size`` :data:`MAX_BODY`: waitress refuses a larger body from its
  ``Content-Length`` before reading it (waitress's default would read a gigabyte first).  It is
  the import's limit (:data:`referee.web.policy.IMPORT_MAX_BYTES`, 16 MB), the largest body any
  path takes, so a file gunicorn imports imports here too; every other path's limit (64 KB) is
  the app's, said from ``Content-Length`` before the body is read.
* ``channel_timeout`` :data:`IDLE_SECONDS`: a phone that went to sleep has its connection closed
  after this long; the next poll opens a new one.
* event streams (``referee/web/live.py``): waitress gives each request one of its threads until
  the answer ends, and a stream does not end.  :func:`live_dispatcher`
  hands a stream's request, with its socket, to the app's hub (one thread for every stream)
  before a thread takes it: the threads stay for the short requests.
* the interpreter's thread switch interval :data:`SWITCH_SECONDS` (Python's default is 5 ms):
  a short answer (an unchanged poll costs about 0.1 ms) waits at most this long behind a thread
  busy judging a round or behind the loop that watches every phone's connection, so the room's
  tail follows the short answers, not the long ones.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import qrcode

from referee.web import live
from referee.web.logs import LOGGED_PATH, routed_path
from referee.web.logs import install as cut_tokens_in_every_log_line
from referee.web.logs import shown_path as shown_path  # the tests read it here
from referee.web.policy import IMPORT_MAX_BYTES
from referee.web.sharing import is_loopback, lan_address

CONNECTION_LIMIT = 2000
THREADS = 8
BACKLOG = 2048
MAX_BODY = IMPORT_MAX_BYTES
IDLE_SECONDS = 120
SWITCH_SECONDS = 0.001

log = logging.getLogger("thirteen.requests")

class RequestLog:
    """WSGI middleware: one line per request (method, path, status, milliseconds)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        status: list[str] = []

        def recording_start_response(code: str, headers: Any, exc_info: Any = None) -> Any:
            status.append(code.split(" ", 1)[0])
            return start_response(code, headers, exc_info)

        body = self.app(environ, recording_start_response)
        try:
            yield from body
        finally:
            if hasattr(body, "close"):  # WSGI: the server closes what the app returned
                body.close()
            if log.isEnabledFor(logging.INFO):
                self._log(environ, status, started)

    @staticmethod
    def _log(environ: dict[str, Any], status: list[str], started: float) -> None:
        path = environ.get(LOGGED_PATH)  # the app's routes cut every token by its place (referee.web.logs)
        if not isinstance(path, str):  # the app never saw it: its first segment only
            path = routed_path(str(environ.get("PATH_INFO", "")), lambda _: None)
        log.info("%s %s %s %s %.1f ms", environ.get("REMOTE_ADDR", "-"), environ.get("REQUEST_METHOD"),
                 path, status[0] if status else "-", (time.perf_counter() - started) * 1000)


def live_dispatcher(app: Any, threads: int) -> Any:
    """Waitress's task dispatcher, except that a followed page's event stream is handed, with its
    socket, to the app's hub (:mod:`referee.web.live`) before a thread takes it: waitress would
    otherwise give it one of its :data:`THREADS` threads for as long as the phone follows."""
    # The LAN server's own, only to serve: gunicorn.conf.py imports serve for its log helper.
    from waitress.task import ThreadedTaskDispatcher

    hub = live.hub_of(app)

    class Dispatcher(ThreadedTaskDispatcher):
        def add_task(self, channel: Any) -> None:
            requests = getattr(channel, "requests", None) or []
            asked = requests[0] if len(requests) == 1 else None
            found = hub.match(asked.command, asked.path) if hub is not None and asked is not None else None
            if hub is None or found is None or asked is None:
                super().add_task(channel)
                return
            headers, scheme = live.shown_headers(asked.headers.items()), asked.url_scheme

            def hand_over() -> None:
                sock = channel.socket
                channel.del_channel()  # waitress forgets the connection (and stops counting it): the hub has it
                channel.connected = False
                hub.take(live.SocketSink(sock), *found, headers=headers, scheme=scheme)

            if threading.current_thread().name.startswith("waitress-"):
                # A request that came behind another on the connection, queued by a task thread:
                # only the loop that owns the connections may take one out of its map.
                channel.server.trigger.pull_trigger(hand_over)
            else:
                hand_over()

    dispatcher = Dispatcher()
    dispatcher.set_thread_count(threads)
    return dispatcher


def shown_url(host: str, port: int) -> str:
    """The address to print and to put in the QR code for a server listening on ``host``."""
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def qr_text(url: str) -> str:
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def _log_requests(*, quiet: bool) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    log.handlers[:] = [handler]
    log.propagate = False
    log.disabled = False
    log.setLevel(logging.WARNING if quiet else logging.INFO)
    # Waitress says "task queue depth is N" whenever a request waits for a thread: under a burst
    # that is normal, and the request log shows the waits.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve Thirteen on the local network.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every network)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=THREADS, help=f"worker threads (default {THREADS})")
    parser.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT,
                        help=f"open connections at most (default {CONNECTION_LIMIT})")
    parser.add_argument("--quiet", action="store_true", help="no request log")
    parser.add_argument("--trusted-proxy", default=os.environ.get("TRUSTED_PROXY") or None, metavar="ADDRESS",
                        help="a reverse proxy whose X-Forwarded-Proto/-Host/-For are believed (default: none; "
                             "env TRUSTED_PROXY): behind it, https requests are seen as such (Secure cookies, HSTS)")
    args = parser.parse_args(argv)
    # Imported only to serve (gunicorn.conf.py and the tests import this module for its log helpers):
    from waitress.server import create_server  # the LAN server's

    from app import create_app  # the checkout's factory, beside the package, not in it
    from portcheck import cannot_listen  # the checkout's, beside the package

    taken = cannot_listen(args.host, args.port)  # said at once, not after the app is built
    if taken:
        print(taken, file=sys.stderr)
        return 2
    sys.setswitchinterval(SWITCH_SECONDS)
    cut_tokens_in_every_log_line()  # waitress's own lines too ("Exception while serving /…")
    os.environ["THIRTEEN_THREADS"] = str(args.threads)  # one kept for static files (referee.web.threads)
    app = create_app()  # migrations first: alembic's logging setup replaces what was there
    _log_requests(quiet=args.quiet)
    # A keeper who opens http://127.0.0.1 gets share links with the LAN address, when phones can reach it.
    app.config["LAN_SHARING"] = not is_loopback(args.host)
    proxy: dict[str, Any] = {}
    if args.trusted_proxy:
        proxy = {"trusted_proxy": args.trusted_proxy, "trusted_proxy_count": 1,
                 "trusted_proxy_headers": {"x-forwarded-proto", "x-forwarded-host", "x-forwarded-for"}}
    try:
        server = create_server(
            RequestLog(app), host=args.host, port=args.port, threads=args.threads,
            connection_limit=args.connection_limit, backlog=BACKLOG, asyncore_use_poll=True,
            max_request_body_size=MAX_BODY, channel_timeout=IDLE_SECONDS, ident="Thirteen",
            clear_untrusted_proxy_headers=True, _dispatcher=live_dispatcher(app, args.threads), **proxy,
        )
    except OSError:  # taken meanwhile
        print(cannot_listen(args.host, args.port) or f"Cannot listen on {args.host}:{args.port}.", file=sys.stderr)
        return 2
    url = shown_url(args.host, server.effective_port)  # type: ignore[union-attr]  # one host and port: one server, whose effective_port the stubs leave out
    if not is_loopback(args.host):
        print(qr_text(url))
        print("Phones on the same Wi-Fi: scan the code above, or open the address below.")
    else:
        print("Listening on this computer only (--host 0.0.0.0 lets phones on the Wi-Fi in).")
    print(f"Serving Thirteen at {url} — Ctrl-C to stop", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        live.stop_all()  # the phones' event streams end now; they reconnect to the next server
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
