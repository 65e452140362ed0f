"""The pages of a game started on this phone, drawn on the phone (no Flask, no database).

A game started offline (``static/js/offline-start.js`` keeps its new-game form, with the keeper
and watch links the phone made, in localStorage ``thirteen-starts``) has no page on the server
until the network is back.  The phone draws its pages itself, with the same templates and the
same Python the server's views use (each game's own module names its pages: a
:class:`Followed` class per store kind and its new-game form's reader, registered in :data:`GAMES`
and :data:`STARTS` when imported; the game's registry entry lists those modules,
:class:`referee.web.registry.PhonePages`), from the records the phone holds: the start form, then the writes kept in the outbox for that game
(``thirteen-outbox``), in order.  Those records are exactly what is sent once the network is
back, so the server then holds the same game and draws the same pages.

What the templates need of Flask is given here without it (:class:`Kit`): ``url_for`` from the
app's URL rules and hashed static names, the Jinja globals of the app, the stake form's words
and the money tables in each language (generated from Babel: :mod:`referee.web.money_words`),
all exported into ``pages.zip``
when the app starts (:func:`referee.web.engine.pages_kit`); the share links' address comes from
``/engine.json`` (the server's :func:`referee.web.sharing.public_base`).

**One entry point**, :func:`draw` (JSON in, JSON out), for the engine's worker:

Request::

    {"method": "GET" | "POST", "path": "/<game>/g/<token>/<page>?x=y",
     "form": [[name, value], ...],         # the body's fields (POST)
     "htmx": true, "boosted": false,       # HX-Request, HX-Boosted
     "language": "en", "write": "<id>",    # X-Thirteen-Write of a POST
     "share": {"base": "http://…", "source": "request"},
     "game": {"start": {"action": "/<game>/new", "params": [[name, value], ...],
                        "at": <ms>},
              "writes": [{"path": ..., "params": [[name, value], ...], "id": ..., "at": <ms>}, ...]}}

Answer::

    {"status": 200, "html": "…", "headers": {"Location": …, "HX-Redirect": …},
     "url": "/<game>/g/<token>?saved=2",   # the address the answer is at (after a 303)
     "stored": true}                               # a POST the server would store: keep it

A redirect (a write that stood, answered to a plain or boosted form) is followed here as the
browser's XMLHttpRequest follows it: the answer is the page it leads to (``url``), as htmx sees
the server's.  ``{"status": 0}`` means "not a page this phone draws" (the JS asks the network).
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from referee.cards import format_cards
from referee.errors import REFUSED, RefereeError
from referee.evening_end import EveningEnd
from referee.text import Message
from referee.web import evening_ends, events, money_words, names, words
from referee.web.evening_ends import EVENT_KINDS, MONEY
from referee.web.feedback import Feedback
from referee.web.numbers import whole_number
from referee.web.phone import LANGUAGES, Form, catalogue

HERE = Path(__file__).resolve().parents[2]  # the unpacked zips (or the repository)
KIT_FILE = "referee/web/phone_kit.json"
"""Where ``pages.zip`` keeps what the templates need of the app (:func:`referee.web.engine.pages_kit`)."""
MODULES_FILE = "referee/web/phone_pages.json"
"""Where ``pages.zip`` lists the games' modules that draw pages (:func:`referee.web.engine.pages_modules`)."""
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


class Refused(Exception):
    """An HTTP refusal drawn as the server's error page would be: a status and its sentence."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status, self.sentence = status, sentence


# --------------------------------------------------------------------------- the app, without Flask


@dataclass
class Kit:
    """What the templates need of the app: its URL rules (endpoint -> [(rule, arguments)]), its
    static files' hashed addresses, its Jinja globals, the stake form's words by language."""

    rules: dict[str, list[tuple[str, list[str]]]]
    static: dict[str, str]
    values: dict[str, Any]
    languages: list[tuple[str, str, str]]
    html_lang: dict[str, str]
    entries: list[dict[str, Any]]
    card_orders: dict[str, dict[str, Any]]
    stake: dict[str, dict[str, Any]]
    money: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The money tables by language (:func:`referee.web.money_words.use`)."""
    currencies: list[str] = field(default_factory=list)
    """Every currency code Babel knows (the stake form refuses any other, as the server does)."""
    markup: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, raw: Mapping[str, Any]) -> Kit:
        return cls(rules={k: [(r, list(a)) for r, a in v] for k, v in raw["rules"].items()},
                   static=dict(raw["static"]), values=dict(raw["values"]),
                   languages=[(c, n, t) for c, n, t in raw["languages"]], html_lang=dict(raw["html_lang"]),
                   entries=list(raw["entries"]), card_orders=dict(raw["card_orders"]), stake=dict(raw["stake"]),
                   money=dict(raw.get("money", {})),
                   currencies=list(raw.get("currencies", [])), markup=list(raw.get("markup", [])))

    def url_for(self, endpoint: str, **values: Any) -> str:
        """The address Flask's ``url_for`` gives (the first rule whose arguments are all given;
        the other values in the query, encoded as Werkzeug encodes them)."""
        if endpoint == "static":
            name = str(values.pop("filename"))
            return self.static.get(name, "/static/" + name)
        for rule, arguments in self.rules.get(endpoint, []):
            if all(a in values and values[a] is not None for a in arguments):
                path = _PARAM.sub(lambda m: quote(str(values[m.group(2)]), safe="!$&'()*+,/:;=@"), rule)
                query = [(k, str(v)) for k, v in values.items() if k not in arguments and v is not None]
                return path + ("?" + urlencode(query, safe="!$'()*,/:;?@") if query else "")
        raise LookupError(f"no rule builds {endpoint} with {sorted(values)}")

    def match(self, endpoint: str, path: str) -> dict[str, str] | None:
        """The arguments ``path`` gives ``endpoint``'s rule, or ``None`` when it is not its."""
        for rule, _arguments in self.rules.get(endpoint, []):
            pattern = "^" + _PARAM.sub(lambda m: f"(?P<{m.group(2)}>{'[0-9]+' if m.group(1) == 'int' else '[^/]+'})",
                                       re.escape(rule).replace(r"\<", "<").replace(r"\>", ">").replace(r"\:", ":")) + "$"
            found = re.match(pattern, path)
            if found:
                return found.groupdict()
        return None


_kit: Kit | None = None
_env: Environment | None = None


def kit() -> Kit:
    global _kit
    if _kit is None:
        _kit = Kit.load(json.loads((HERE / KIT_FILE).read_text(encoding="utf-8")))
    return _kit


money_words.use(lambda: kit().money, lambda: words_language())


class Namespace(dict[str, Any]):
    """Flask's ``g`` as the templates use it (``get``, ``setdefault``, attributes)."""

    def __getattr__(self, name: str) -> Any:
        return self.get(name)


@dataclass(frozen=True)
class PhoneRequest:
    """Flask's ``request`` as the templates read it."""

    method: str
    path: str
    query: str
    view_args: dict[str, Any]

    @property
    def full_path(self) -> str:
        return f"{self.path}?{self.query}"

    @property
    def args(self) -> Form:
        return Form(parse_qsl(self.query, keep_blank_values=True))


def environment() -> Environment:
    """The server's Jinja settings (:func:`referee.web.phone.environment`), for whole pages."""
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=True,
                      extensions=["jinja2.ext.i18n"], auto_reload=False)
    gettext, ngettext = words.template_callables()
    env.install_gettext_callables(gettext=gettext, ngettext=ngettext, newstyle=True)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    env.filters["cards"] = format_cards
    env.filters["rank_plural"] = words.rank_plural
    return env


# --------------------------------------------------------------------------- the game the phone holds


@dataclass
class PhoneEvent:
    """One of the game's records as the store would keep it (:class:`referee.web.models.Event`)."""

    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: datetime | None
    write: str = ""
    fingerprint: str = ""


@dataclass
class PhoneGame:
    """The game as the store would hold it (:class:`referee.web.models.Game`), from the phone's records."""

    kind: str
    player_names: list[str]
    rules: dict[str, Any]
    setup: dict[str, Any]
    keeper_token: str
    watch_token: str
    created_at: datetime
    events: list[PhoneEvent] = field(default_factory=list)
    id: int = 0
    group_id: int | None = None

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def updated_at(self) -> datetime:
        return self.events[-1].created_at or self.created_at if self.events else self.created_at


@dataclass(frozen=True)
class PhoneAccess:
    """:class:`referee.web.store.Access` on the phone."""

    game: PhoneGame
    role: str

    @property
    def can_write(self) -> bool:
        return self.role == "keeper"


def _when(ms: Any) -> datetime:
    try:
        return datetime.fromtimestamp(float(ms) / 1000, UTC)
    except (TypeError, ValueError, OverflowError):
        return datetime.now(UTC)


def started(start: Mapping[str, Any]) -> PhoneGame:
    """The game a kept start form makes, read as the server's new-game view reads it (a form
    the server would refuse makes none: :class:`Refused`)."""
    form = Form(start.get("params", []))
    action = urlsplit(str(start.get("action", ""))).path
    k = kit()
    reads = next((read for endpoint, read in STARTS.items() if action == k.url_for(endpoint)), None)
    if reads is None:
        raise Refused(0, "not a game this phone draws")
    kind, player_names, stored, setup = reads(form)
    return PhoneGame(kind, player_names, stored, setup, str(form.get("keeper_token", "")), str(form.get("watch_token", "")),
                     _when(start.get("at")))


# --------------------------------------------------------------------------- drawing


@dataclass
class Answer:
    status: int
    html: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    url: str = ""
    stored: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "html": self.html, "headers": self.headers, "url": self.url,
                "stored": self.stored}


@dataclass
class Asked:
    """One request to the phone's game."""

    method: str
    path: str
    query: str
    form: Form
    htmx: bool
    boosted: bool
    write: str
    share: Mapping[str, str]
    at: datetime

    @property
    def fragment(self) -> bool:
        """An htmx request that swaps a fragment in (:func:`referee.web.views.wants_fragment`)."""
        return self.htmx and not self.boosted

    @property
    def args(self) -> Form:
        return Form(parse_qsl(self.query, keep_blank_values=True))


def _followed(asked: Asked, location: str) -> Asked:
    """The request a 303 to ``location`` makes: the browser's request follows it with its headers."""
    return Asked("GET", *_split(location), Form([]), asked.htmx, asked.boosted, "", asked.share, asked.at)


class Followed:
    """A followed game on the phone: its pages and writes as the server's
    :class:`referee.web.tables.FollowedGame` answers them (the version check, a refusal's 422
    with what was typed, undo and redo, the answer to a plain or boosted form a 303 to the page)."""

    endpoint = ""
    fragment = ""
    template = ""
    live = "table"
    undo_typed: tuple[str, ...] = ()

    def __init__(self, game: PhoneGame, token: str) -> None:
        self.game = game
        self.access = PhoneAccess(game, "keeper" if token == game.keeper_token else "watcher")
        self.token = token

    # --- what a game says (each game's own)

    def context(self, asked: Asked, feedback: Feedback) -> dict[str, Any]:
        raise NotImplementedError

    def last_move(self) -> str | None:
        raise NotImplementedError

    def routes(self, asked: Asked) -> list[tuple[str, str, Callable[[dict[str, str]], Answer]]]:
        """(method, endpoint, answer) of each address the game answers here."""
        return [("GET", self.endpoint, lambda a: self.page(asked)),
                ("POST", self.prefix + "undo", lambda a: self.undo(asked)),
                ("POST", self.prefix + "redo", lambda a: self.redo(asked))]

    @property
    def prefix(self) -> str:
        return self.endpoint.rsplit(".", 1)[0] + "."

    # --- what every followed page shows

    def shared(self, asked: Asked) -> dict[str, Any]:
        """:meth:`referee.web.tables.FollowedGame.context`, the share links as the server makes them."""
        k, game = kit(), self.game
        base = str(asked.share.get("base", "")).rstrip("/")
        keeper = self.access.can_write

        def link(token: str) -> str:
            return base + k.url_for(self.endpoint, token=token)

        def qr(data: str) -> Markup:
            src = k.url_for("sharing.qr_image", link=data)
            return Markup('<img class="qr" alt="QR code" loading="lazy" width="240" height="240" src="{}">').format(src)

        links = {"watch": link(game.watch_token), "keeper": link(game.keeper_token) if keeper else None,
                 "base": base, "source": str(asked.share.get("source", "request"))}
        return {"access": self.access, "game": game, "keeper": keeper,
                "token": game.keeper_token if keeper else game.watch_token, "links": links, "qr": qr,
                "live": self.live}

    def last_undo(self) -> PhoneEvent | None:
        """:func:`referee.web.store.last_undo`: what the latest change took back, while it is an undo."""
        events_ = self.game.events
        if not events_ or events_[-1].kind != events.UNDO:
            return None
        undoes = events_[-1].payload.get("undoes")
        return next((e for e in events_ if e.seq == undoes), None)

    def page(self, asked: Asked, feedback: Feedback | None = None, status: int = 200) -> Answer:
        since = whole_number(asked.args.get("since"))
        if since is not None and since == self.game.version:
            return Answer(204)
        feedback = feedback or Feedback()
        feedback.redo = self.access.can_write and self.last_undo() is not None
        template = self.fragment if asked.fragment else self.template
        return Answer(status, render(template, asked, self.context(asked, feedback), {"token": self.token}))

    # --- writes

    def keeper(self, asked: Asked) -> int:
        if not self.access.can_write:
            raise Refused(403, words.gettext("This is a watch link: it shows the game but cannot change it."))
        seen = whole_number(asked.form.get("version", ""))
        if seen is None:
            raise Refused(400, words.gettext("The form is missing the game version; reload the page and try again."))
        return seen

    def typed(self, asked: Asked, names_: Sequence[str]) -> dict[str, str]:
        return {name: str(asked.form.get(name, ""))[:200] for name in names_}

    def money(self, results: Sequence[Any], *, entered: Sequence[Any] | None = None, end: EveningEnd | None = None,
              per: str = "point", with_settle: bool = False, note: str | None = None, final: bool = False,
              square: Sequence[str] = ()) -> dict[str, Any]:
        """What the page shows of the money (``stake_form``, ``settle_up``) as the server's
        :func:`referee.web.settle_up.money_block` draws it for a game in no group
        (:func:`referee.web.money_words.money_view`): ``entered`` defaults to the latest record
        that is no stake or end (a game of one result), ``end`` to none."""
        k, game = kit(), self.game
        live = events.effective_events(game.events)
        if entered is None:
            entered = [event.created_at for event in live if event.kind not in EVENT_KINDS][-1:]
        currency = str((k.stake.get(words_language()) or k.stake["en"])["currency"])
        return money_words.money_view(
            live, results, entered, end or EveningEnd(), game.player_names, start=game.created_at,
            action=k.url_for(self.prefix + "settle_money", token=game.keeper_token), version=game.version,
            currency=currency, per=per, with_settle=with_settle, note=note, final=final, square=square)

    def set_stake(self, asked: Asked) -> Answer:
        """:func:`referee.web.settle_up.add_sheet_routes`' stake form (a sheet or table in no
        group), read and worded as the server does (:mod:`referee.web.money_words`: the
        phone's money tables are Babel's).  A
        currency the phone's tables do not have (one the referee may know) is refused where it
        stands, what was typed kept in it, and nothing is kept to send."""
        seen = self.keeper(asked)
        typed = {"stake": str(asked.form.get("stake", ""))[:30], "currency": str(asked.form.get("currency", ""))[:3],
                 "settle": str(asked.form.get("settle", "winner"))[:10], "lang": str(asked.form.get("lang", ""))[:5]}
        feedback = Feedback(typed=typed)
        if seen != self.game.version:
            feedback.stale = True
            return self.page(asked, feedback, 409)
        try:
            payload = money_words.read_stake(typed, kit().currencies)
        except RefereeError as exc:
            feedback.error, feedback.at = words.say(exc.said), exc.field or "stake"
            answer = self.page(asked, feedback, exc.status)
            if not asked.fragment:  # the refusal in view (the form is low on the sheet)
                answer.headers["HX-Reswap"] = "innerHTML show:#settle-{}:top".format(
                    {"settle": "how"}.get(feedback.at or "stake", feedback.at or "stake"))
            return answer
        if payload is None:
            said = words.gettext("No connection to the referee. Nothing was sent; what you entered is still here.")
            answer = self.page(asked, Feedback(typed=typed, error=said, at="stake"), REFUSED)
            if not asked.fragment:  # drawn at the sheet's address (a reload shows it), the refusal in view
                answer.url = kit().url_for(self.endpoint, token=self.token)
                answer.headers["HX-Reswap"] = "innerHTML show:#settle-stake:top"
            return answer
        self.append(asked, MONEY, payload)
        return self.done(asked)

    def append(self, asked: Asked, kind: str, payload: dict[str, Any]) -> None:
        self.game.events.append(PhoneEvent(self.game.version + 1, kind, payload, asked.at, asked.write))

    def done(self, asked: Asked, *, notice: str | None = None, undone: str | None = None,
             after: Mapping[str, Any] | None = None) -> Answer:
        if asked.fragment:
            answer = self.page(asked, Feedback(notice=notice, undone=undone))
        else:
            location = kit().url_for(self.endpoint, token=self.game.keeper_token, **dict(after or {}))
            answer = self.page(_followed(asked, location))
            answer.url = location
        answer.stored = True
        return answer

    def write(self, asked: Asked, decide: Callable[[Any], Any], *, typed: Sequence[str] = (),
              at: str | None = None) -> Answer:
        """:meth:`referee.web.tables.FollowedGame.write` of an action whose record is its event."""
        seen = self.keeper(asked)
        feedback = Feedback(typed=self.typed(asked, typed))
        if seen != self.game.version:
            feedback.stale = True
            return self.page(asked, feedback, 409)
        try:
            record = decide(self.state())
        except RefereeError as exc:
            feedback.error, feedback.at = words.say(exc.said), exc.field or at
            return self.page(asked, feedback, exc.status)
        payload = record.to_dict()
        self.append(asked, str(payload["action"]), payload)
        return self.done(asked)

    def undo(self, asked: Asked) -> Answer:
        seen = self.keeper(asked)
        feedback = Feedback(typed=self.typed(asked, self.undo_typed))
        if seen != self.game.version:
            feedback.stale = True
            return self.page(asked, feedback, 409)
        what = self.last_move()
        live = events.effective_events(self.game.events)
        if not live:
            feedback.error = words.gettext("There is nothing to undo.")
            return self.page(asked, feedback, REFUSED)
        self.append(asked, events.UNDO, {"undoes": live[-1].seq, "kind": live[-1].kind})
        return self.done(asked, undone=what)

    def redo(self, asked: Asked) -> Answer:
        seen = self.keeper(asked)
        feedback = Feedback(typed=self.typed(asked, self.undo_typed))
        if seen != self.game.version:
            feedback.stale = True
            return self.page(asked, feedback, 409)
        undone = self.last_undo()
        if undone is None:
            feedback.error = words.gettext("There is nothing to redo.")
            return self.page(asked, feedback, REFUSED)
        self.append(asked, undone.kind, dict(undone.payload))
        what = self.last_move()
        return self.done(asked, notice=words.gettext("Redone: %(what)s", what=what) if what else None)

    def evening_end(self, asked: Asked, ends: Sequence[str] = ("target", "games", "until"),
                    refusal: Message | None = None) -> Answer:
        """The keeper's end-of-the-evening form (``partials/evening_end_form.html``) as the
        server's :func:`referee.web.settle_up.add_sheet_routes` answers it: ``ends`` the switches
        the game takes, ``refusal`` what is said of another (:func:`referee.web.evening_ends.decide_end`)."""
        seen = self.keeper(asked)
        feedback = Feedback(typed={key: str(asked.form.get(key, ""))[:12] for key in evening_ends.END_FIELDS})
        if seen != self.game.version:
            feedback.stale = True
            return self.page(asked, feedback, 409)
        try:
            payload = evening_ends.decide_end(feedback.typed, ends, refusal)
        except RefereeError as exc:
            feedback.error, feedback.at = words.say(exc.said), exc.field or ("target" if ends else None)
            return self.page(asked, feedback, exc.status)
        self.append(asked, evening_ends.END, payload)
        return self.done(asked)

    def state(self) -> Any:
        raise NotImplementedError

    def route(self, asked: Asked) -> Answer:
        k = kit()
        for method, endpoint, answer in self.routes(asked):
            found = k.match(endpoint, asked.path) if method == asked.method else None
            if found is not None and found.get("token") == self.token:
                return answer(found)
        return Answer(0)


GAMES: dict[str, type[Followed]] = {}
"""The games the phone draws, by store kind: each game's module puts its classes here when imported."""
STARTS: dict[str, Callable[[Form], tuple[str, list[str], dict[str, Any], dict[str, Any]]]] = {}
"""Their new-game forms, by endpoint: the game each starts (kind, names, rules, setup), or
:class:`Refused` as the server would refuse it."""
_modules: list[str] | None = None


def modules() -> list[str]:
    """The games' modules that draw pages, imported by name as :mod:`referee.web.phone` imports the
    screens its zip names: ``pages.zip`` lists them; on the server, the registry's entries do."""
    global _modules
    if _modules is None:
        listed = HERE / MODULES_FILE
        if listed.exists():  # in pages.zip
            _modules = [str(m) for m in json.loads(listed.read_text(encoding="utf-8"))]
        else:  # on the server (the repository): the registry's entries, as the engine lists them
            from referee.web import engine, registry  # they need Flask, which the phone has not

            _modules = engine.pages_modules(registry.load(registry.GAME_PACKAGES))
        for module in _modules:
            importlib.import_module(module)
    return _modules


def words_language() -> str:
    for code in LANGUAGES:
        if words.current() is catalogue(code):
            return code
    return "en"


def _split(location: str) -> tuple[str, str]:
    parts = urlsplit(location)
    return parts.path, parts.query


class PhoneRequestProxy:
    """Flask's ``request`` proxy: the request being drawn (templates imported without their
    context keep the globals they were first given, so these are one object each, refilled)."""

    current: PhoneRequest = PhoneRequest("GET", "/", "", {})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current, name)


_g = Namespace()
_request = PhoneRequestProxy()


def _globals(k: Kit) -> dict[str, Any]:
    """The app's Jinja globals on the phone (set once: see :class:`PhoneRequestProxy`)."""
    values = {name: (Markup(v) if name in k.markup else v) for name, v in k.values.items()}
    retention = int(values.pop("RETENTION_DAYS", 0) or 0)
    engine = bool(values.pop("phone_engine", True))
    return {
        **values, "url_for": k.url_for, "g": _g, "request": _request,
        "get_locale": words_language, "html_lang": lambda: k.html_lang.get(words_language(), words_language()),
        "language_choices": lambda: list(k.languages), "RETENTION_DAYS": lambda: retention,
        "new_write_id": lambda: os.urandom(16).hex(), "short_names": names.short_names,
        "kept_switches": lambda kind: {}, "game_entries": k.entries, "card_orders": k.card_orders,
        "phone_engine": engine, "format_money": money_words.format_money,
    }


def render(template: str, asked: Asked, context: Mapping[str, Any], view_args: Mapping[str, Any]) -> str:
    """``template`` drawn as Flask would draw it for this request (its globals given here)."""
    global _env
    if _env is None:
        _env = environment()
        _env.globals.update(_globals(kit()))  # as Flask's: macros imported without the context see them
    _g.clear()
    PhoneRequestProxy.current = PhoneRequest(asked.method, asked.path, asked.query, dict(view_args))
    rendered_at = asked.at.strftime("%Y-%m-%dT%H:%M:%SZ")  # a context processor's, on the server
    return _env.get_template(template).render(rendered_at=rendered_at, **context)


def records(game: PhoneGame, writes: Sequence[Mapping[str, Any]], share: Mapping[str, str]) -> None:
    """The phone's writes replayed on ``game`` in order, each as the server takes it (a write
    the server would refuse stores nothing, there as here)."""
    for write in writes:
        path, query = _split(str(write.get("path", "")))
        asked = Asked("POST", path, query, Form(write.get("params", [])), True, True, str(write.get("id", "")),
                      share, _when(write.get("at")))
        try:
            GAMES[game.kind](game, game.keeper_token).route(asked)
        except Refused:
            continue


def answer_to(request: Mapping[str, Any]) -> Answer:
    """:func:`draw`'s answer, as a value."""
    modules()
    held = request.get("game") or {}
    share = request.get("share") or {}
    try:
        game = started(held.get("start") or {})
    except Refused:
        return Answer(0)
    records(game, held.get("writes") or [], share)
    path, query = _split(str(request.get("path", "")))
    token = path.split("/g/", 1)[1].split("/", 1)[0] if "/g/" in path else ""
    if token not in (game.keeper_token, game.watch_token):
        return Answer(0)
    asked = Asked(str(request.get("method", "GET")).upper(), path, query, Form(request.get("form") or []),
                  bool(request.get("htmx")), bool(request.get("boosted")), str(request.get("write", "")), share,
                  _when(request.get("at")))
    try:
        return GAMES[game.kind](game, token).route(asked)
    except Refused as refused:
        if not refused.status:
            return Answer(0)
        template = "partials/error.html" if asked.fragment else "errors/error.html"
        context = {"code": refused.status, "title": words.error_title(refused.status),
                   "detail": refused.sentence or words.plain_refusal(refused.status)}
        return Answer(refused.status, render(template, asked, context, {"token": token}))


def warm_up(language: str, module: str = "") -> None:
    """Each game's made-up game drawn once by its own module (the worker, once pages.zip is in):
    the templates are compiled before the first tap.  The worker warms one ``module`` at a time
    and answers what waits between two (a verdict is never held behind the whole warm-up)."""
    words.use(catalogue(language if language in LANGUAGES else "en"))
    try:
        now = datetime.now(UTC)
        for name in [module] if module else modules():
            importlib.import_module(name).warm_up(now)
    finally:
        words.use(None)


def draw(request_json: str) -> str:
    """The phone's answer to one request for a game it started offline (see the module's notes)."""
    request = json.loads(request_json)
    language = str(request.get("language", "en"))
    words.use(catalogue(language if language in LANGUAGES else "en"))
    try:
        return json.dumps(answer_to(request).to_dict(), ensure_ascii=False)
    finally:
        words.use(None)
