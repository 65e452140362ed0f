"""Serve Thirteen to a room: every phone on the same Wi-Fi scans the QR code printed here.

``python -m referee.web.serve [--host 0.0.0.0] [--port 8000] [--threads 8] [--quiet] [--no-restart]``

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

**The server comes back by itself.**  The process started here holds the listening socket and
serves nothing itself (:class:`Supervisor`): a child process builds the app and serves on that
socket, and a second child builds the app beside it and waits.  If the serving process ever
dies (a crash, SIGKILL, the out-of-memory killer), the waiting one serves at once, on the same
socket: a phone's connection that was being answered is cut (its outbox sends the write again;
a write sent twice is stored once), and the phones that connect meanwhile wait in the
socket's queue rather than being refused.  Another child is started to wait in its turn.  A
child that stops by itself (Ctrl-C) stops them all; a child that served is always replaced,
but children that die before their app is built :data:`EARLY_DEATHS` times in a row (a database
that cannot be opened) stop it with their message.  ``--no-restart`` (and Windows, which cannot hand a
socket to a child this way) serve in one process as before.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import qrcode
from sqlalchemy.exc import DBAPIError

from referee.web import live
from referee.web.logs import LOGGED_PATH, routed_path
from referee.web.logs import install as cut_tokens_in_every_log_line
from referee.web.logs import shown_path as shown_path  # the tests read it here
from referee.web.policy import IMPORT_MAX_BYTES
from referee.web.sharing import is_loopback, lan_address
from referee.web.threads import needs_no_database

CONNECTION_LIMIT = 2000
THREADS = 8
BACKLOG = 2048
MAX_BODY = IMPORT_MAX_BYTES
IDLE_SECONDS = 120
SWITCH_SECONDS = 0.001
EARLY_DEATHS = 3
"""Children that die before their app is built this many times in a row stop the supervisor."""
WATCH_SECONDS = 0.02
"""How often the supervisor looks at its children: a dead server is replaced within this."""

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
    otherwise give it one of its :data:`THREADS` threads for as long as the phone follows.  And
    a ``GET`` of what needs no database (static files, ``/sw.js``, the offline page:
    :data:`referee.web.threads.NO_DATABASE`) is served by a thread of its own, so no request
    waiting on the database can keep it waiting (issue 39)."""
    # The LAN server's own, only to serve: gunicorn.conf.py imports serve for its log helper.
    from waitress.task import ThreadedTaskDispatcher

    hub = live.hub_of(app)
    static = ThreadedTaskDispatcher()
    static.set_thread_count(1)

    class Dispatcher(ThreadedTaskDispatcher):
        def shutdown(self, cancel_pending: bool = True, timeout: int = 5) -> bool:
            static.shutdown(cancel_pending, timeout)
            return bool(super().shutdown(cancel_pending, timeout))

        def add_task(self, channel: Any) -> None:
            requests = getattr(channel, "requests", None) or []
            asked = requests[0] if len(requests) == 1 else None
            if asked is not None and asked.command in ("GET", "HEAD") and needs_no_database(asked.path):
                static.add_task(channel)
                return
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


def _parser() -> argparse.ArgumentParser:
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
    parser.add_argument("--no-restart", action="store_true",
                        help="serve in this one process, not brought back if it dies")
    # The supervisor's children: the listening socket and the line to the supervisor, inherited.
    parser.add_argument("--listen-fd", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--control-fd", type=int, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    if args.listen_fd is not None and args.control_fd is not None:
        return _child(args)
    from portcheck import cannot_listen  # the checkout's, beside the package

    taken = cannot_listen(args.host, args.port)  # said at once, not after the app is built
    if taken:
        print(taken, file=sys.stderr)
        return 2
    if args.no_restart or os.name != "posix":
        return _serve_here(args)
    try:
        listener = socket.create_server((args.host, args.port), family=_family(args.host), backlog=BACKLOG)
    except OSError:  # taken meanwhile
        print(cannot_listen(args.host, args.port) or f"Cannot listen on {args.host}:{args.port}.", file=sys.stderr)
        return 2
    return Supervisor(listener, argv, args).run()


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _app_and_server(args: argparse.Namespace, **where: Any) -> Any:
    """The app (migrations first) and its waitress server, listening where ``where`` says."""
    # Imported only to serve (gunicorn.conf.py and the tests import this module for its log helpers):
    from waitress.server import create_server  # the LAN server's

    from app import create_app  # the checkout's factory, beside the package, not in it

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
    return create_server(
        RequestLog(app), threads=args.threads, connection_limit=args.connection_limit, backlog=BACKLOG,
        asyncore_use_poll=True, max_request_body_size=MAX_BODY, channel_timeout=IDLE_SECONDS, ident="Thirteen",
        clear_untrusted_proxy_headers=True, _dispatcher=live_dispatcher(app, args.threads), **proxy, **where,
    )


def _banner(host: str, port: int) -> None:
    url = shown_url(host, port)
    if not is_loopback(host):
        print(qr_text(url))
        print("Phones on the same Wi-Fi: scan the code above, or open the address below.")
    else:
        print("Listening on this computer only (--host 0.0.0.0 lets phones on the Wi-Fi in).")
    print(f"Serving Thirteen at {url} — Ctrl-C to stop", flush=True)


def _serve_here(args: argparse.Namespace) -> int:
    """Serve in this process (``--no-restart``, Windows)."""
    from portcheck import cannot_listen  # the checkout's, beside the package

    try:
        server = _app_and_server(args, host=args.host, port=args.port)
    except OSError:  # taken meanwhile
        print(cannot_listen(args.host, args.port) or f"Cannot listen on {args.host}:{args.port}.", file=sys.stderr)
        return 2
    _banner(args.host, server.effective_port)
    try:
        server.run()
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        live.stop_all()  # the phones' event streams end now; they reconnect to the next server
        server.close()
    return 0


def _built_when_the_database_answers(args: argparse.Namespace, listener: socket.socket) -> Any:
    """The child's app and server, built once the database answers: a child started while the
    database is down or starting up (the one waiting to take over, most often) says so in one
    line and tries again each second, instead of dying with a traceback (and its supervisor
    counting it as a child that cannot start)."""
    said = False
    while True:
        try:
            return _app_and_server(args, sockets=[listener])
        except DBAPIError as exc:
            if not said:
                logging.getLogger("thirteen.database").warning(
                    "the server waits for the database before it can take over: %s",
                            str(exc.orig or exc).splitlines()[0][:200])
                said = True
            time.sleep(1)


def _child(args: argparse.Namespace) -> int:
    """A child of the :class:`Supervisor`: build the app, say so, serve when told to."""
    control = socket.socket(fileno=args.control_fd)
    listener = socket.socket(fileno=args.listen_fd)
    try:
        server = _built_when_the_database_answers(args, listener)
        control.sendall(b"r")  # ready
        if control.recv(1) != b"g":  # the supervisor stopped before this one was needed
            return 0
    except KeyboardInterrupt:  # Ctrl-C while waiting: the supervisor stops too
        return 0

    def supervisor_gone() -> None:
        with contextlib.suppress(OSError):
            control.recv(1)
        os._exit(0)  # nobody would bring this one back, nor stop it: it stops with its supervisor

    threading.Thread(target=supervisor_gone, daemon=True, name="supervisor").start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        live.stop_all()  # the phones' event streams end now; they reconnect to the next server
        server.close()
    return 0


class _Child:
    """A child process and the supervisor's end of its line."""

    def __init__(self, listener: socket.socket, argv: list[str]) -> None:
        self.line, theirs = socket.socketpair()
        command = [sys.executable, "-m", "referee.web.serve", *argv,
                   "--listen-fd", str(listener.fileno()), "--control-fd", str(theirs.fileno())]
        self.process = subprocess.Popen(command, pass_fds=(listener.fileno(), theirs.fileno()))
        theirs.close()
        self.ready = False

    @property
    def pid(self) -> int:
        return self.process.pid

    def is_ready(self) -> bool:
        """Whether it has built its app (it said so on its line), without waiting."""
        if not self.ready:
            self.line.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                self.ready = self.line.recv(1) == b"r"
        return self.ready

    def serve(self) -> None:
        with contextlib.suppress(OSError):
            self.line.sendall(b"g")

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.line.close()  # a waiting child reads the end of its line and stops
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _how(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
        return f"killed by signal {-code}"
    return f"exit code {code}"


class Supervisor:
    """Holds the listening socket; one child serves on it, another waits to take over."""

    def __init__(self, listener: socket.socket, argv: list[str], args: argparse.Namespace) -> None:
        self.listener = listener
        self.argv = argv
        self.args = args
        self.early_deaths = 0

    def say(self, line: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)

    def run(self) -> int:
        serving: _Child | None = None
        waiting: _Child | None = None
        try:
            serving = _Child(self.listener, self.argv)
            while not serving.is_ready():
                if serving.process.poll() is not None:  # it could not start: its own message says why
                    return serving.process.returncode or 1
                time.sleep(WATCH_SECONDS)
            serving.serve()
            _banner(self.args.host, self.listener.getsockname()[1])
            self.say(f"Server process {serving.pid} serving; it comes back by itself if it dies.")
            waiting = _Child(self.listener, self.argv)
            said_ready = False
            while True:
                time.sleep(WATCH_SECONDS)
                if not said_ready and waiting.is_ready():
                    said_ready = True
                    self.say(f"Process {waiting.pid} ready to take over.")
                code = serving.process.poll()
                if code is not None:
                    if code == 0:  # stopped on purpose (Ctrl-C reaches every process of the terminal)
                        print("Stopped.")
                        return 0
                    if not serving.is_ready():  # it died before its app was built
                        self.early_deaths += 1
                        if self.early_deaths >= EARLY_DEATHS:
                            self.say(f"The server process keeps stopping as it starts ({_how(code)}); see above. "
                                     "Giving up.")
                            return 1
                    else:  # a process that served is always replaced
                        self.early_deaths = 0
                    waiting.serve()  # at once, or as soon as it has built its app
                    self.say(f"Server process {serving.pid} stopped ({_how(code)}); process {waiting.pid} "
                             f"serving{'' if waiting.is_ready() else ' once started'}.")
                    serving, waiting, said_ready = waiting, _Child(self.listener, self.argv), False
                elif waiting.process.poll() is not None:
                    waiting, said_ready = _Child(self.listener, self.argv), False
        except KeyboardInterrupt:
            print("Stopped.")
            return 0
        finally:
            for child in (waiting, serving):
                if child is not None:
                    child.stop()
            self.listener.close()


if __name__ == "__main__":
    sys.exit(main())
