"""gunicorn's threaded worker (``gthread``), with the event streams handed to the process's hub.

``worker_class = "referee.web.live_worker.LiveThreadWorker"`` (gunicorn.conf.py).  A request for a
followed page's stream (``GET <page>/live``, :mod:`referee.web.live`) is not answered by one of
the worker's threads, which it would hold for as long as the phone follows: its socket goes,
still unanswered, to the hub (one thread of the worker for every stream), and the thread is free
at once.  Every other request is gthread's, unchanged.  When the worker stops (a deploy, a
restart), the hub closes its streams at once: the phones reconnect to the next worker and are
sent the state first.
"""

from __future__ import annotations

from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from referee.web import live

_HANDED = object()
"""What :meth:`LiveThreadWorker.handle` returns for a connection the hub now holds."""


class LiveThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no type hints
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
