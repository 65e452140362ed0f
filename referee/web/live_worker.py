"""gunicorn's threaded worker (``gthread``), with the event streams handed to the process's hub.

``worker_class = "referee.web.live_worker.LiveThreadWorker"`` (gunicorn.conf.py).  A request for a
followed page's stream (``GET <page>/live``, :mod:`referee.web.live`) is not answered by one of
the worker's threads, which it would hold for as long as the phone follows: its socket goes,
still unanswered, to the hub (one thread of the worker for every stream), and the thread is free
at once.  Every other request is gthread's, unchanged.  When the worker stops (a deploy, a
restart), the hub closes its streams at once: the phones reconnect to the next worker and are
sent the state first.

A request for what needs no database (static files, ``/sw.js``, the offline page:
:data:`referee.web.threads.NO_DATABASE`) is answered by a thread of its own
(:data:`STATIC_THREADS`), never one of the pool: the worker's loop peeks at a connection's first
bytes before it hands it to a thread, and a whole ``GET`` of such a path goes to that thread.  So
no request that waits on the database (a frozen PostgreSQL, up to the watchdog's 3.5 s each), nor
a phone that sends its request slowly, can hold the thread a static file needs (issue 39: 3.44 s
for a static file under load, behind every pool thread).  Only whole requests are routed there
(their headers' end peeked), so a slow sender of a static path never holds it either.
"""

from __future__ import annotations

import selectors
import socket
import time
from concurrent import futures
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from referee.web import live
from referee.web.threads import is_whole_request_needing_no_database

STATIC_THREADS = 1
"""The worker's threads for what needs no database, beside gunicorn's pool (``GUNICORN_THREADS``)."""
PEEK_BYTES = 8192

_HANDED = object()
"""What :meth:`LiveThreadWorker.handle` returns for a connection the hub now holds."""


class LiveThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no type hints
    def init_process(self) -> None:
        self.static_pool = futures.ThreadPoolExecutor(max_workers=STATIC_THREADS, thread_name_prefix="static")
        super().init_process()

    def enqueue_req(self, conn: Any) -> None:
        """Hand ``conn`` to a thread: the static thread for a whole request of a path that needs
        no database, else the pool (as gthread does).  A new connection with nothing sent yet
        waits on the loop's poller until its request comes (as gthread's deferred ones do)."""
        pool = self.tpool
        buffered = conn.parser is not None and conn.parser.unreader.buf.getvalue()
        if not buffered:
            try:
                head = conn.sock.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                head = None
            except OSError:
                head = b""
            if head is None and not conn.initialized and not conn.data_ready and self.alive:
                conn.sock.setblocking(False)
                conn.timeout = time.monotonic() + self.cfg.keepalive
                self.pending_conns.append(conn)
                self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))
                return
            if head and not self.cfg.is_ssl and is_whole_request_needing_no_database(head):
                pool = self.static_pool
        fs = pool.submit(self.handle, conn)
        fs.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))

    def handle_request(self, req: Any, conn: Any) -> bool:
        hub = live.hub_of(self.wsgi)
        found = hub.match(req.method, req.path) if hub is not None else None
        if hub is None or found is None:
            return bool(super().handle_request(req, conn))
        conn.live = True
        hub.take(live.SocketSink(conn.sock), *found, headers=live.shown_headers(req.headers), scheme=req.scheme)
        return False

    def handle(self, conn: Any) -> Any:
        result = super().handle(conn)
        return _HANDED if getattr(conn, "live", False) else result

    def finish_request(self, conn: Any, fs: Any) -> None:
        if not fs.cancelled() and fs.exception() is None and fs.result() is _HANDED:
            self.nr_conns -= 1  # the hub holds it now: not closed here, not counted as the worker's
            return
        super().finish_request(conn, fs)

    def handle_exit(self, sig: Any, frame: Any) -> None:
        live.stop_all()  # the streams end now: the phones reconnect to the next worker
        super().handle_exit(sig, frame)

    def handle_quit(self, sig: Any, frame: Any) -> None:
        self.static_pool.shutdown(wait=False)
        super().handle_quit(sig, frame)
