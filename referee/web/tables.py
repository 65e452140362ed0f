"""A followed game on the web: one path for every table and score sheet of every game.

A followed game lives at ``/<game>/g/<token>``; the token says whether this phone is a
*keeper* (may enter and correct) or a *watcher* (reads only).  Everything that is the same
in every game is written here, once, in :class:`FollowedGame`:

* **opening** a game by its share link, with the link's role (404 for an unknown link);
* **the poll**: every page polls itself every :data:`POLL_SECONDS` with ``?since=<version>``
  (the ``poll`` macro of ``templates/partials/followed.html``) and gets an empty ``204``
  while nothing changed, which costs one indexed query;
* **keeper-only writes**: a write through a watch link is a ``403`` with the reason;
* **the version check**: every form that writes carries the ``version`` the phone saw; a
  stale one is a ``409`` with the fresh state and what the phone typed kept in its fields
  (``store.append_event`` re-checks it inside the transaction, so two phones cannot both win);
* **refusals**: an action the rules refuse is a ``422`` with the rule's sentence (its
  :class:`~referee.text.Message`, through :func:`~referee.web.views.say`), the state
  unchanged and the typed input kept.  A form that cannot be read at all (a seat that does
  not exist, an unknown action) is a ``400``, like bad input in the JSON API;
* **undo** of the latest effective move, named on its button; with nothing to undo every
  game answers the same refusal (422, "There is nothing to undo.");
* **share links and QR codes** of the watch and keeper links (:meth:`FollowedGame.context`);
* **cache headers**: ``Cache-Control: no-store`` on every response of a ``/g/<token>`` route
  (pages, fragments, polls, CSV, refusals): a shared phone never shows a stale table from
  its cache, and no proxy keeps a keeper link's page.

What a game provides (one :class:`FollowedGame` in its web module):

``blueprint``
    the game's blueprint, whose ``/g/<token>`` routes get the cache headers.
``kind``
    the store's name for the game (``Game.kind``).
``endpoint``
    the table page's endpoint, e.g. ``"<game>.table"`` (share links, redirects, polls).
``build(game)``
    the game's state from the stored game (its events replayed through the rules library, or a
    view of the replayed state): :meth:`FollowedGame.state` builds it once per request and
    version and hands it to the three below, so no callback replays the game itself.
``render(access, state, feedback, status)``
    the game's page (or its fragment for htmx) showing the state and the :class:`Feedback`:
    ``feedback.stale``, ``feedback.error`` (shown beside the field ``feedback.at``, or above
    the table with the ``notices`` macro), ``feedback.notice`` and ``feedback.typed`` (the
    fields to put back).  Its template includes ``poll()`` and ``notices()``.
``last_move(access, state)``
    the latest move still in force, in the players' words (the undo button and the
    "Undone: …" notice), or ``None``.
``live`` (optional)
    ``"table"`` (the default) or ``"sheet"``: the live section of its template carries
    ``data-live="{{ live }}"`` (the watcher's stale mark and notice, in app.js).

and, for each action, a *decide* function that reads the form and does the action on the
state with the rules library: ``decide(access, state) -> (event kind, payload)``.  When the
rules say no (or the form cannot be read) it raises the library's
:class:`~referee.errors.RefereeError` (:class:`~referee.errors.UnreadableInput` for a form that
cannot be read), whose ``field`` says where the sentence goes; nothing else is caught.
:meth:`FollowedGame.routes` registers the table page, one route per decide (an :class:`Action`),
undo, redo and the rematch; a route of the game's own is one line:
``return GAME.write(access, decide, typed={"cards": ...})``.

Adding a fourth game is: a rules module in ``referee/``; a package ``referee/web/games/<game>/``
with its ``FollowedGame``, its new-table form (:class:`referee.web.new_table.NewTable`), its
decide functions, and its ``ENTRY`` in ``__init__.py`` (:mod:`referee.web.registry`: the followed games, with a worked
example of their forms, which gives the game its rows in the shared suites); its templates; its
tests; and one line in :data:`referee.web.registry.GAME_PACKAGES`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Protocol, TypedDict, TypeVar

from flask import Blueprint, Response, abort, g, request, url_for
from flask_babel import gettext
from markupsafe import Markup
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException

from referee.errors import REFUSED, NothingToUndo, RefereeError
from referee.web import news, store
from referee.web.feedback import Feedback as Feedback  # what every followed page is told, also on the phone
from referee.web.guard import MAX_JSON_DEPTH, json_depth, whole_number
from referee.web.house_rules import kept_rules
from referee.web.models import Game, Write
from referee.web.sharing import ShareLinks, qr_svg, share_links
from referee.web.store import Access, StaleGame, WriteId, find_by_token, game_version
from referee.web.views import redirect_to, say, wants_fragment

REMEMBER_SECONDS = 3600 * 24 * 365
POLL_SECONDS = 3
"""How often every followed page asks the server whether the game moved on."""



KNOWN_VERSION = "thirteen.poll_version"
"""The environ key of (token, version) a poll's version lookup already found (referee.web.quick_poll)."""
_STATES = "followed_states"
"""The ``flask.g`` key of the states built in this request, by (kind, game id, version)."""

class Done(NamedTuple):
    """What a decide returns when it did the action on the state it was handed (the library's
    doer appended the record): the event to store.  The state is then the next version's, and
    the page answering the write is drawn from it without building it again.  A decide that
    returns a plain ``(kind, payload)`` leaves the state to be built again."""

    kind: str
    payload: dict[str, Any]

    @classmethod
    def of(cls, record: _Record) -> Done:
        """A library record as every game stores it (the one convention of stored records): the
        event's kind is the record's ``action`` and its payload the record's whole ``to_dict()``,
        ``"action"`` included, so :func:`referee.web.store.records_of` reads it back as it was.

        >>> class Knock:
        ...     action = "knock"
        ...     def to_dict(self): return {"action": "knock", "seat": 2}
        >>> Done.of(Knock())
        Done(kind='knock', payload={'action': 'knock', 'seat': 2})
        """
        payload = record.to_dict()
        return cls(str(payload["action"]), payload)


class UnreadableLog(RuntimeError):
    """A stored game whose records no longer replay through its rules (a bug, or a row changed
    by hand): not a refusal (nothing the player typed is wrong) but a server error, a 500 whose
    log line names the game.

    >>> UnreadableLog("knock", 7, 3)
    UnreadableLog('the stored knock game 7 (version 3) no longer replays')
    """

    def __init__(self, kind: str, game_id: int, version: int) -> None:
        super().__init__(f"the stored {kind} game {game_id} (version {version}) no longer replays")
        self.kind, self.game_id, self.version = kind, game_id, version


class _Record(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


S = TypeVar("S")
Render = Callable[[Access, S, Feedback, int], Response]
Decide = Callable[[Access, S], tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Action(Generic[S]):
    """One keeper action of a followed game as :meth:`FollowedGame.routes` registers it: its
    ``decide``, the form fields kept as typed on a refusal or a 409 (``typed``, each cut to
    200 characters) and the field a refusal is said beside (``at``)."""

    decide: Decide[S]
    typed: tuple[str, ...] = ()
    at: str | None = None


class FollowedContext(TypedDict):
    """What every page of a followed game shows (:meth:`FollowedGame.context`): the game, whether
    this phone may enter, this link's token, the share box and what the page's poll follows."""

    access: Access
    game: Game
    keeper: bool
    token: str
    links: ShareLinks
    qr: Callable[[str], Markup]
    live: str


@dataclass(frozen=True)
class FollowedGame(Generic[S]):
    """One followed game's web path (see the module docstring for what a game provides)."""

    blueprint: Blueprint
    kind: str
    endpoint: str
    build: Callable[[Game], S]
    """The game's state (the library's, or a view of it) from the stored game: built once per
    request and version (:meth:`state`) and handed to ``render``, ``last_move`` and each decide."""
    render: Render[S]
    last_move: Callable[[Access, S], str | None]
    live: str = "table"
    """What the page follows, as a watcher's stale notice names it: ``"table"`` or ``"sheet"``.
    The live section carries it as ``data-live`` (from :meth:`context`), which app.js reads."""
    events: frozenset[str] | None = None
    """The kinds of event a game of this kind stores (its library's records' actions; undo and
    the settle-up's kinds are every game's): an imported file holding another kind is refused.
    ``None``: any kind (a game that does not say)."""

    def __post_init__(self) -> None:
        self.blueprint.after_request(_no_store)

    # --- reading ------------------------------------------------------------------------

    def open(self, token: str) -> Access:
        """The game behind a share link, or a 404 page."""
        return open_game(token, self.kind)

    def state(self, access: Access) -> S:
        """The game's state at the version this request read: built at most once per request."""
        states: dict[tuple[str, int, int], Any] = g.setdefault(_STATES, {})
        key = (self.kind, access.game.id, access.game.version)
        if key not in states:
            states[key] = self.replayed(access.game)
        return states[key]  # type: ignore[no-any-return]  # stored by this method, built by self.build

    def replayed(self, game: Game) -> S:
        """``build(game)``: a stored log that no longer replays is the server's fault, never the
        player's: a 500 naming the game (logged with its traceback), not a refusal.

        A :class:`~referee.errors.RefereeError` here would otherwise answer 422 with a rule's
        sentence, as if the keeper had typed something wrong.  The database's own errors (an
        outage is a 503) and HTTP answers pass through unchanged."""
        try:
            return self.build(game)
        except (HTTPException, SQLAlchemyError):
            raise
        except Exception as exc:
            raise UnreadableLog(self.kind, game.id, game.version) from exc

    def opened(self, token: str, *, keeper: bool = False) -> tuple[Access, S]:
        """The game behind a share link and its state: the one step before every page and write
        that needs it (a 404 for an unknown link; with ``keeper``, a 403 through a watch link)."""
        access = self.open(token)
        if keeper:
            require_keeper(access)
        return access, self.state(access)

    def page(self, token: str) -> Response:
        """The table page: a 204 for a poll that finds nothing new, else the state."""
        since = whole_number(request.args.get("since"))
        if since is not None:  # a poll: one indexed lookup of the version (made by quick_poll already)
            known = request.environ.get(KNOWN_VERSION)
            version = known[1] if known and known[0] == token else game_version(token, self.kind)
            if version == since:  # most polls end here
                return unchanged()
            if version is not None:  # news: one render per version for the whole table

                def render() -> tuple[Response, int]:
                    access = self.open(token)
                    return self.show(access, Feedback()), access.game.version

                return news.shared_answer(token, version, render)
        return self.show(self.open(token), Feedback())

    def show(self, access: Access, feedback: Feedback, status: int = 200, render: Render[S] | None = None) -> Response:
        feedback.redo = access.can_write and store.last_undo(access.game) is not None
        return (render or self.render)(access, self.state(access), feedback, status)

    def context(self, access: Access) -> FollowedContext:
        """What every followed page shows: the game, the role, this link's token, the share box."""
        game = access.game
        return {
            "access": access,
            "game": game,
            "keeper": access.can_write,
            "token": game.keeper_token if access.can_write else game.watch_token,
            "links": share_links(access, self.endpoint),
            "qr": qr_svg,
            "live": self.live,
        }

    def routes(self, actions: Mapping[str, Action[S]] | None = None, *, undo: bool = True,
               typed: tuple[str, ...] = (), rematch: bool = False) -> None:
        """Register the mechanical routes every followed game has, on its blueprint: the table
        page (``GET /g/<token>``, at :attr:`endpoint`), each action (``POST /g/<token>/<name>``,
        endpoint ``<name>``), with ``undo`` undo and redo (``POST /g/<token>/undo`` and
        ``/redo``, keeping the fields ``typed`` as a refusal does) and with ``rematch`` the same
        players again (``POST /g/<token>/again``).  A game whose routes need more (a page of its
        own, a write that reads the path) writes those itself.
        """
        def page(token: str) -> Response:
            return self.page(token)

        def undo_route(token: str) -> Response:
            return self.undo(token, typed=_typed(typed))

        def redo_route(token: str) -> Response:
            return self.redo(token, typed=_typed(typed))

        def again(token: str) -> Response:
            return self.rematch(token)

        shared: list[tuple[str, str, Callable[[str], Response], str]] = [
            ("", self.endpoint.rsplit(".", 1)[-1], page, "GET")]
        shared += [(f"/{name}", name, self._route(action), "POST") for name, action in (actions or {}).items()]
        if undo:
            shared += [("/undo", "undo", undo_route, "POST"), ("/redo", "redo", redo_route, "POST")]
        if rematch:
            shared.append(("/again", "again", again, "POST"))
        for path, endpoint, view, method in shared:
            view.followed_game = self  # type: ignore[attr-defined]  # the registry's tests read it
            self.blueprint.add_url_rule(f"/g/<token>{path}", endpoint, view, methods=[method])

    def _route(self, action: Action[S]) -> Callable[[str], Response]:
        def route(token: str) -> Response:
            return self.write(token, action.decide, typed=_typed(action.typed), at=action.at)

        return route

    # --- writing ------------------------------------------------------------------------

    def keeper(self, opened: str | Access) -> tuple[Access, int]:
        """The game, for a write: 403 through a watch link, 400 without a version.  A route that
        opened the game already (:meth:`opened`) passes its ``Access``: the game is looked up
        once per request."""
        access = self.open(opened) if isinstance(opened, str) else opened
        require_keeper(access)
        return access, seen_version()

    def write(
        self, opened: str | Access, decide: Decide[S], *, typed: Mapping[str, str] | None = None, at: str | None = None,
        detail: Any = None, render: Render[S] | None = None, after: Mapping[str, Any] | None = None,
    ) -> Response:
        """One keeper action: judged on the state this phone saw, stored as one event.  ``opened``
        is the share link's token, or the ``Access`` a route opened already (one lookup of the
        game per request).

        ``decide(access, state)`` does the action on the state (the library's doer, which
        appends its record) and returns the event to store as :class:`Done` (then the page
        answering the write is drawn from that state, not built again), or asks the store for
        another event with a plain ``(kind, payload)``.  It raises a :class:`~referee.errors.RefereeError` when the rules
        say no (its ``status``, 422, or 400 for an :class:`~referee.errors.UnreadableInput`;
        its ``field``, else ``at``, is where the sentence is shown; its ``detail``, else
        ``detail``, the game's account of what was typed).  ``typed`` is what the phone typed
        (kept on a 409 or a 422); ``render`` another page than the table for the answers that
        are not a success (a score sheet's round page); ``after`` extra arguments for the table
        address a plain form is sent back to.
        """
        access, seen = self.keeper(opened)
        feedback = Feedback(typed=dict(typed or {}), detail=detail)
        mine = this_write()
        if mine and (stored := store.applied_write(access.game, mine)):
            return self.again(access, feedback, stored, mine, render)  # sent again
        if seen != access.game.version:
            return self.stale(access, feedback, render)
        state = self.state(access)
        try:
            decided = decide(access, state)
        except RefereeError as exc:
            if exc.detail is not None:
                feedback.detail = exc.detail
            return self.refuse(access, feedback, say(exc.said), exc.field or at, render, status=exc.status)
        kind, payload = decided
        states: dict[tuple[str, int, int], Any] = g.setdefault(_STATES, {})
        states.pop((self.kind, access.game.id, seen), None)  # the action may be done on it: not ``seen``'s now
        try:
            store.append_event(access.game, seen, kind, payload, mine)
        except StaleGame:
            if mine and (stored := store.applied_write(access.game, mine)):
                return self.again(access, feedback, stored, mine, render)
            return self.stale(access, feedback, render)
        if isinstance(decided, Done) and not any(isinstance(v, store.NewGame) for v in payload.values()):
            states[(self.kind, access.game.id, seen + 1)] = state  # the stored event is its last record
        return self.done(access, after=after)

    def _sent_before(self, access: Access, feedback: Feedback, mine: WriteId | None,
                     seen: int | None = None) -> Response | None:
        """The answer to a write that needs none of its own: sent before (its write id applied:
        answered as it was) or, given the version the phone ``seen``, stale (a 409); else ``None``."""
        if mine and (stored := store.applied_write(access.game, mine)):
            return self.again(access, feedback, stored, mine)
        if seen is not None and seen != access.game.version:
            return self.stale(access, feedback)
        return None

    def undo(self, opened: str | Access, *, typed: Mapping[str, str] | None = None) -> Response:
        """Take back the latest move still in force (kept in the history)."""
        access, seen = self.keeper(opened)
        feedback = Feedback(typed=dict(typed or {}))
        mine = this_write()
        if (answer := self._sent_before(access, feedback, mine, seen)) is not None:
            return answer
        what = self.last_move(access, self.state(access))
        try:
            store.undo_last(access.game, seen, mine)
        except NothingToUndo:
            return self.refuse(access, feedback, gettext("There is nothing to undo."), None)
        except StaleGame:
            return self._sent_before(access, feedback, mine) or self.stale(access, feedback)
        return self.done(access, undone=what)

    def redo(self, token: str, *, typed: Mapping[str, str] | None = None) -> Response:
        """Take the latest undo back: the change it took back is stored again, as it was (a new
        event, so the history shows the undo and the redo).  Offered only while the game's last
        change is an undo; otherwise the refusal "There is nothing to redo." (422)."""
        access, seen = self.keeper(token)
        feedback = Feedback(typed=dict(typed or {}))
        mine = this_write()
        if (answer := self._sent_before(access, feedback, mine, seen)) is not None:
            return answer
        undone = store.last_undo(access.game)
        if undone is None:
            return self.refuse(access, feedback, gettext("There is nothing to redo."), None)
        try:
            store.append_event(access.game, seen, undone.kind, dict(undone.payload), mine)
        except StaleGame:
            return self._sent_before(access, feedback, mine) or self.stale(access, feedback)
        what = self.last_move(access, self.state(access))
        return self.done(access, notice=gettext("Redone: %(what)s", what=what) if what else None)

    def start(self, names: Sequence[str], *, rules: Mapping[str, Any], setup: Mapping[str, Any]) -> Response:
        """A new game from its new-table form: stored, its house rules kept on this phone for
        next time, and the phone sent to its keeper page (a 303; for htmx, a 204 with
        ``HX-Redirect``).  A form started from a group (its keeper token in the field ``group``)
        puts the game in that group."""
        keeper, watch = phone_tokens()
        try:
            game = store.create_game(self.kind, list(names), rules=dict(rules), setup=dict(setup),
                                     created_by=starting_id(),  # the same form sent again: the same game
                                     group=store.keeper_group(request.form.get("group", "")),
                                     keeper_token=keeper, watch_token=watch)
        except store.TokenTaken:
            abort(409, gettext("This phone's link for the new game is already another game's link. "
                               "Nothing was started; the phone picks another link and sends it again."))
        target = url_for(self.endpoint, token=game.keeper_token)
        if wants_fragment():
            response = Response(status=204)
            response.headers["HX-Redirect"] = target
        else:
            response = redirect_to(target)
        return remember_rules(response, self.kind, rules)

    def rematch(self, token: str) -> Response:
        """The same players, house rules and setup in a new game (keeper only): 303 to its
        keeper page.  The old game stays as it was."""
        access = self.open(token)
        require_keeper(access)
        old = access.game
        game = store.create_game(self.kind, old.player_names, rules=dict(old.rules), setup=dict(old.setup),
                                 created_by=starting_id(),  # the same form sent again: the same game
                                 started_from=old)  # a rematch stays in the group, on its evening
        return redirect_to(url_for(self.endpoint, token=game.keeper_token))

    # --- answers ------------------------------------------------------------------------

    def again(self, access: Access, feedback: Feedback, stored: Write, mine: WriteId,
              render: Render[S] | None = None) -> Response:
        """A write id already applied: the same write is answered as it was (the game as it is
        now), at whatever version it is sent; the same id with another body is stale (409).
        ``after`` (what the first answer's address added, such as the entry to mark) is left
        out: it was worked out for the game as it was then."""
        if store.same_write(stored, mine):
            return self.done(access)
        return self.stale(access, feedback, render)

    def done(self, access: Access, *, notice: str | None = None, undone: str | None = None,
             after: Mapping[str, Any] | None = None) -> Response:
        """A write that stood: the fresh fragment for htmx, a 303 to the table otherwise (a
        boosted form, sent by htmx in a plain form's place, follows it as a plain form would)."""
        if wants_fragment():
            return self.show(access, Feedback(notice=notice, undone=undone))
        token = access.game.keeper_token
        return redirect_to(url_for(self.endpoint, token=token, **dict(after or {})))

    def stale(self, access: Access, feedback: Feedback, render: Render[S] | None = None) -> Response:
        """Someone wrote first: the fresh state, a notice, and what was typed (409)."""
        feedback.stale = True
        return self.show(access, feedback, 409, render)

    def refuse(self, access: Access, feedback: Feedback, sentence: str, at: str | None,
               render: Render[S] | None = None, *, status: int = REFUSED) -> Response:
        """The rules say no: the state unchanged, the reason, the typed input kept (422)."""
        feedback.error, feedback.at = sentence, at
        return self.show(access, feedback, status, render)


WRITE_ID = re.compile(r"[0-9a-z]{6,40}")
STARTING_ID = re.compile(r"[0-9a-z]{20,40}")
"""A form that starts a game answers with its keeper link when sent again: its id is long
enough that nobody guesses another phone's."""


def _typed(names: tuple[str, ...]) -> dict[str, str]:
    """The form's fields ``names`` as typed, each cut to 200 characters: put back on a refusal."""
    return {name: str(request.form.get(name, ""))[:200] for name in names}


def write_id() -> str:
    """The id a phone gives each write it sends (``X-Thirteen-Write``, set by app.js and kept
    with the entry when it must be sent again): the same entry is never stored twice."""
    raw = request.headers.get("X-Thirteen-Write", "")
    return raw if WRITE_ID.fullmatch(raw) else ""


def this_write() -> WriteId | None:
    """This request's write id with a fingerprint of what it carries (the path and every
    field but the version, in order), or ``None`` without an id."""
    mine = write_id()
    if not mine:
        return None
    fields = sorted((k, v) for k, v in request.form.items(multi=True) if k != "version")
    body = json.dumps([request.path, fields], ensure_ascii=False, separators=(",", ":"))
    return WriteId(mine, hashlib.sha256(body.encode()).hexdigest())


def new_starting_id() -> str:
    """A fresh id for a form that starts a game (``partials/starting_id.html``)."""
    return secrets.token_hex(16)


def starting_id() -> str | None:
    """The write id of a form that starts a game: its hidden ``write`` field (the page's own,
    made fresh by app.js on every showing), or the header app.js sets on a write form."""
    for raw in (request.form.get("write", ""), request.headers.get("X-Thirteen-Write", "")):
        if STARTING_ID.fullmatch(raw):
            return raw
    return None


def phone_tokens() -> tuple[str | None, str | None]:
    """The share-link tokens a phone made for a game it started offline (the new-game form's
    ``keeper_token`` and ``watch_token`` fields, added by static/js/offline-start.js), or
    ``None`` for a token the server makes.  A token weaker than the server's own
    (:func:`referee.web.store.strong_token`: fewer than 32 URL-safe characters, or fewer than 16
    different ones), or the two the same, is a 400 naming the field."""
    found: list[str | None] = []
    for name in ("keeper_token", "watch_token"):
        raw = request.form.get(name, "")
        if raw and not store.strong_token(raw):
            abort(400, gettext("The field %(field)s is not a link this server would make: it must be at least "
                               "32 letters, digits, - or _, with at least 16 different ones. Nothing was started.",
                               field=name))
        found.append(raw or None)
    if found[0] and found[0] == found[1]:
        abort(400, gettext("The keeper and watch links of a game must differ."))
    return found[0], found[1]


def _no_store(response: Response) -> Response:
    """``Cache-Control: no-store`` on every answer of a game's ``/g/<token>`` routes: pages,
    fragments, polls, refusals, downloads."""
    if request.view_args and "token" in request.view_args:
        response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------------------------------
# The steps, one by one (used by FollowedGame; a page outside a table may use them too)


def open_game(token: str, kind: str) -> Access:
    """The game behind a share link, or a 404 page."""
    access = find_by_token(token, kind)
    if access is None:
        abort(404, gettext("No game has this link. Check that it was copied whole."))
    return access


def require_keeper(access: Access) -> None:
    """Refuse a write through a watch link (403, with the reason)."""
    if not access.can_write:
        abort(403, gettext("This is a watch link: it shows the game but cannot change it."))


def seen_version(form: Mapping[str, Any] | None = None) -> int:
    """The game version the phone saw when it sent the form (400 if missing or not a version)."""
    raw = (form if form is not None else request.form).get("version", "")
    version = whole_number(raw)
    if version is None:
        abort(400, gettext("The form is missing the game version; reload the page and try again."))
    return version


def unchanged() -> Response:
    """A poll's answer when nothing changed: empty, never cached."""
    response = Response(status=204)
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("HX-Request")
    return response


# ---------------------------------------------------------------------------------------
# House rules a phone remembers, and switches from a form


def remembered_rules(kind: str) -> dict[str, Any]:
    """The house-rule switches this phone last used for ``kind`` (from a cookie)."""
    raw = request.cookies.get(f"rules_{kind}")
    if not raw or json_depth(raw) > MAX_JSON_DEPTH:  # nested deeper than any switches: not ours
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


R = TypeVar("R")


def remembered(cls: type[R], kind: str, *, over: Mapping[str, Any] | None = None) -> R:
    """The house rules this phone last used for ``kind`` (its cookie), as the game's rules
    class ``cls``, with the switches of ``over`` on top; the defaults where nothing is kept.

    One behaviour for every game: a kept switch that no longer reads (a renamed id, a value
    the switch does not take any more) falls back to its default, the others count.
    """
    return kept_rules(cls, {**remembered_rules(kind), **dict(over or {})})


def remember_rules(response: Response, kind: str, rules: Mapping[str, Any]) -> Response:
    """Keep the switches on this phone for next time."""
    response.set_cookie(
        f"rules_{kind}", json.dumps(dict(rules), separators=(",", ":")), max_age=REMEMBER_SECONDS, samesite="Lax",
        httponly=True,  # read by the referee only, never by a script
    )
    return response
