"""No log line holds a token: every route of the app, with real share links and write ids, under
both production servers (their access and error lines, the app's own lines, tracebacks)."""

from __future__ import annotations

import http.client
import re
import secrets
import urllib.parse

import pytest

from referee.web.logs import cut_tokens
from tests.games import ROWS
from tests.servers import ProductionServer

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _leaked(token: str, log: str) -> str:
    """The first 5 characters in a row of ``token`` the log holds, or "".

    Not every 5 are a sign: a run of digits only is in any log (byte counts), and the migrations'
    lines, written before any request, name Alembic revisions (``d20fe8d645eb``) in which five hex
    characters of a test's write id turn up by chance now and then (CI saw one)."""
    requests = "\n".join(line for line in log.splitlines() if "alembic.runtime.migration" not in line)
    windows = (token[i:i + 5] for i in range(len(token) - 4))
    return next((w for w in windows if not w.isdigit() and w in requests), "")


def _send(url: str, method: str, path: str, fields: dict[str, object] | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(url).netloc, timeout=30)
    try:
        body = urllib.parse.urlencode(fields or {}, doseq=True) if method == "POST" else None
        connection.request(method, path, body, {**(FORM if body is not None else {}), **(headers or {})})
        response = connection.getresponse()
        headers = {k.lower(): v for k, v in response.getheaders()}
        if headers.get("content-type", "").startswith("text/event-stream"):
            return response.status, headers, ""  # a live page's stream never ends: its first line is enough
        return response.status, headers, response.read().decode(errors="replace")
    finally:
        connection.close()


def _routes() -> list[tuple[str, list[str], set[str]]]:
    from app import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x", "AUTO_MIGRATE": False})
    return [(rule.rule, sorted(rule.arguments), set(rule.methods or ()) & {"GET", "POST"})
            for rule in app.url_map.iter_rules() if not rule.rule.startswith("/static")]


def test_a_token_is_cut_wherever_it_stands_and_names_are_not():
    token = "Ql1JEuxAn-XGUUsQh38kcDtGgEQgfFm2"
    assert cut_tokens(f"POST /tienlen/scores/score/{token}/0") == "POST /tienlen/scores/score/Ql1J…/0"
    assert cut_tokens(f"(psycopg.errors.UniqueViolation) Key (created_by)=({'a1' * 16}) exists") == \
        "(psycopg.errors.UniqueViolation) Key (created_by)=(a1a1…) exists"
    assert cut_tokens("File base.py, in _handle_dbapi_exception_noconnection") == \
        "File base.py, in _handle_dbapi_exception_noconnection"


def test_the_leak_check_sees_five_characters_of_a_token_and_not_a_revision_or_a_number():
    token = "d20fe8d645ebc0ffee12345678901234"
    assert _leaked(token, "GET /trece/g/…1a2b 200\nPOST /x/ebc0ffee 303") == "ebc0f"
    migration = "INFO  [alembic.runtime.migration] Running upgrade  -> d20fe8d645eb, games"
    assert _leaked(token, f"{migration}\nGET / 200 12345 bytes") == ""


@pytest.mark.parametrize("server_kind", ["waitress", "gunicorn"])
def test_no_log_line_holds_five_characters_of_a_token_whatever_the_route(tmp_path, server_kind):
    server = ProductionServer(server_kind, f"sqlite:///{tmp_path / 'logs.sqlite'}", tmp_path / "log",
                              quiet=False, workers=1).start()
    kept: set[str] = set()  # every token and id this run sent or was given
    keepers: dict[str, str] = {}
    try:
        for row in ROWS:
            write = secrets.token_hex(16)
            kept.add(write)
            status, headers, _ = _send(server.url, "POST", f"{row.prefix}/new", {**row.new, "write": write})
            if status == 404:
                continue  # a game of the tests only
            assert status == 303, (row.prefix, status)
            keeper = re.search(r"/g/([\w-]+)", headers["location"]).group(1)
            keepers[row.prefix] = keeper
            _, _, page = _send(server.url, "GET", f"{row.prefix}/g/{keeper}")
            kept.update(re.findall(r"/g/([\w-]{20,})", page))
            # The same starting id on another kind of game, and one too long to be any.
            other = next(r for r in ROWS if r.prefix != row.prefix)
            _send(server.url, "POST", f"{other.prefix}/new", {**other.new, "write": write})
        any_keeper = next(iter(keepers.values()))
        for rule, arguments, methods in _routes():
            prefix = next((p for p in keepers if rule.startswith(p + "/")), "")
            tokens = [t for t in kept if len(t) == 32 and not re.fullmatch(r"[0-9a-f]+", t)] if arguments else [""]
            for token in tokens[:6] or [any_keeper]:
                path = rule
                for name in arguments:
                    value = "1" if name in ("hand", "number", "seat", "round", "table_id") else keepers.get(prefix, token)
                    if name not in ("hand", "number", "seat", "round", "table_id"):
                        value = token or value
                    path = re.sub(rf"<(?:[a-z]+:)?{name}>", value, path)
                for method in sorted(methods):
                    write = secrets.token_hex(16)
                    kept.add(write)
                    query = f"?next=/trece/g/{token}" if token else ""
                    _send(server.url, method, path + query, {"version": "0", "write": write, "link": f"/g/{token}"},
                          {"X-Thirteen-Write": write, "Referer": f"{server.url}/trece/g/{token}"})
    finally:
        server.stop()
    log = server.output()
    assert "GET /" in log or " GET " in log  # the requests were logged
    leaks = {token: window for token in kept if (window := _leaked(token, log))}
    assert not leaks, [(window, [line for line in log.splitlines() if window in line][:3])
                       for window in leaks.values()][:5]
