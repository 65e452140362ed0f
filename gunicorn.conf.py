"""gunicorn settings for a hosted Thirteen: ``gunicorn --config gunicorn.conf.py``.

Several worker processes share one PostgreSQL; no worker keeps any state of its own (a game
lives in the database and every request reads it), so any worker can answer any phone.
Every setting can be changed through the environment, as hosts expect:

* ``WEB_CONCURRENCY`` workers (default: 2 per core + 1, gunicorn's advice).  The app is
  Python-bound, so workers, not threads, are what use more cores.
* ``GUNICORN_THREADS`` threads per worker (default 4), worker class ``gthread``: a thread
  waiting for the database or a slow phone does not hold up the others, and connections are
  kept alive between polls (``keepalive`` 5 s > the 3 s a phone waits between polls), so a
  room does not open a new connection every 3 s per phone.
* every followed page's event stream (``referee/web/live.py``) is handed by the worker class
  (``referee.web.live_worker.LiveThreadWorker``, gthread's) to one thread of the worker that
  holds every stream of the process: a watching phone holds no thread; a write of another
  worker is seen within 0.25 s (one version lookup per worker), and a restart closes the streams at
  once (the phones reconnect and are sent the state first).
* ``worker_connections`` 1000 per worker: open keep-alive connections a worker holds at most.
* ``timeout`` 30 s: a worker stuck that long is restarted; no request of the app needs 1 s.
* ``LISTEN_HOST`` (default 127.0.0.1, this computer only) and ``PORT`` (default 8000), access log on stdout (tokens of share links cut short).

Migrations run once, in the master before any worker starts (``on_starting``), under the
database's migration lock (see ``referee/web/database.py``), so several containers started at
once are safe too; the workers start with ``AUTO_MIGRATE=0``.
"""

from __future__ import annotations

import multiprocessing
import os

from gunicorn.glogging import Logger

from referee.web.logs import install as cut_tokens_in_every_log_line

# Every log line of the master and its workers (the error lines too) has its tokens cut.
cut_tokens_in_every_log_line()


class TokenCuttingLogger(Logger):
    """The access log as the LAN server writes it: the path as the app's routes show it, every
    token cut by its place in the route (``referee.web.logs.RoutedPaths``); no referrer (it holds
    the path of the page it came from, tokens and all)."""

    def atoms(self, resp, req, environ, request_time):  # type: ignore[no-untyped-def]
        from referee.web.logs import LOGGED_PATH, routed_path

        atoms = super().atoms(resp, req, environ, request_time)
        path = environ.get(LOGGED_PATH)
        atoms["U"] = path if isinstance(path, str) else routed_path(atoms.get("U") or "", lambda _: None)
        atoms["r"] = "-"
        atoms["q"] = "-"
        atoms["u"] = "-"
        return atoms


wsgi_app = "app:create_app()"
# This computer only unless LISTEN_HOST says otherwise (the container sets LISTEN_HOST=0.0.0.0; a reverse proxy
# on the same host needs nothing more).
bind = [f"{os.environ.get('LISTEN_HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"]
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
# gthread, with the event streams handed to one thread of the worker (referee/web/live_worker.py):
# a phone following a table holds no thread of the pool.
worker_class = "referee.web.live_worker.LiveThreadWorker"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
os.environ["THIRTEEN_THREADS"] = str(threads)  # each worker keeps one for static files (referee/web/threads.py)
worker_connections = 1000
keepalive = 5
timeout = 30
graceful_timeout = 20
backlog = 2048
# Request line and headers: the app's URLs are short; a bigger request is refused (400).
limit_request_line = 4094
limit_request_fields = 100
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(M)sms'
logger_class = TokenCuttingLogger
errorlog = "-"
# Behind a reverse proxy on the same host; PUBLIC_URL sets the address share links hold.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn 27 opens a control socket in $HOME by default; the container needs none.
control_socket_disable = True


def worker_exit(server, worker):  # type: ignore[no-untyped-def]
    """The worker's event streams end with it (already, when it stopped on a signal)."""
    from referee.web import live

    live.stop_all()


def on_starting(server):  # type: ignore[no-untyped-def]
    """Migrate once, in the master, before the workers fork; they then skip it."""
    if os.environ.get("AUTO_MIGRATE") != "0":
        from app import create_app
        from referee.web.extensions import db

        app = create_app()
        with app.app_context():
            db.engine.dispose()  # no connection of the master's is inherited by a worker
    os.environ["AUTO_MIGRATE"] = "0"
