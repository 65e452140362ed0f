"""Groups: a table of friends, evening after evening (shared by every game, so not a game).

A group is a stored game of its own kind (:data:`referee.web.store.GROUP`) whose records are
its people and how its evenings are grouped (:mod:`referee.group`); so it has watch and keeper
links, QR codes, the poll, keeper-only writes, the 409, undo and ``no-store`` of every followed
game (:class:`~referee.web.tables.FollowedGame`).  Each sheet or table started from the group
(its game's normal new-game form, with the group's keeper token in the hidden field ``group``)
or made into one points to it (``Game.group_id``).  No account: the keeper link is the key.

The group knows the games through the registry only: each entry says what a group may start
of it (``GameEntry.starts``) and how a stored game reads into stats results
(``GameEntry.results``).

Pages (blueprint ``groups``, under ``/groups``):

``GET  /groups/``                   make a group, import a file
``POST /groups/new``                a group with its name and people
``POST /groups/from-game``          a group of a sheet's or table's players (its keeper token in ``game``)
``GET  /groups/g/<token>``          the group: start tonight's, its people, its evenings newest first
``POST /groups/g/<token>/add|rename|remove|move|zone|undo``   the keeper's changes (one record each)
``GET  /groups/g/<token>/stats``    stats per person (``?evening=YYYY-MM-DD`` for one evening) and a chart
``GET  /groups/g/<token>/export.json``   the whole group as one file (keeper only)
``GET  /groups/game/<token>/export.json`` one sheet or table as one file (keeper only)
``POST /groups/import``             a file back into this server (the same file twice: nothing twice)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from babel.numbers import format_decimal
from flask import Blueprint, Response, abort, current_app, make_response, request, url_for
from flask_babel import get_locale, gettext, ngettext

from referee import group as groups_lib
from referee.errors import UnreadableInput
from referee.evening_end import Progress
from referee.group import Group, GroupSetup, Person
from referee.text import message
from referee.web import guard, limits, registry, settle_up, store
from referee.web.extensions import db
from referee.web.groups import transfer
from referee.web.groups.evenings import (
    build_group,
    evening_count,
    evenings_of,
    people_stats,
    wins_chart,
)
from referee.web.groups.money import evening_settle_up
from referee.web.guard import whole_number
from referee.web.models import Game
from referee.web.policy import IMPORT_MAX_BYTES
from referee.web.store import GROUP, Access, live_events
from referee.web.tables import Feedback, FollowedGame, open_game, phone_tokens, require_keeper, starting_id
from referee.web.views import redirect_to, render_page, say

bp = Blueprint("groups", __name__, url_prefix="/groups")

guard.LARGER_BODIES["/groups/import"] = IMPORT_MAX_BYTES  # the same on every server (policy.py)


def last_move(access: Access, group: Group | None = None) -> str | None:
    live = live_events(access.game)
    if not live:
        return None
    payload = live[-1].payload
    kind = live[-1].kind
    if kind == groups_lib.PersonAdded.action:
        return gettext("%(name)s added", name=payload.get("name", ""))
    if kind == groups_lib.PersonRenamed.action:
        return gettext("renamed to %(name)s", name=payload.get("name", ""))
    if kind == groups_lib.PersonRemoved.action:
        return gettext("a person removed")
    if kind == groups_lib.EndChanged.action:
        return gettext("End of the evening changed")
    if kind == groups_lib.ZoneChanged.action:
        return gettext("time zone changed to %(zone)s", zone=payload.get("zone", ""))
    return gettext("a game moved to %(day)s", day=payload.get("day", ""))


def starts() -> list[tuple[registry.GameEntry, registry.GroupStart]]:
    """What a group may start, game by game (the registry's entries)."""
    return [(entry, start) for entry in registry.entries() for start in entry.starts]


def render_group(access: Access, group: Group, feedback: Feedback, status: int = 200) -> Response:
    every = request.args.get("every") == "1"
    evenings = evenings_of(access.game, group, newest=None if every else SHOWN_EVENINGS)
    return render_page(
        "groups/page.html", "groups/_page.html", status=status, **GROUP_GAME.context(access),
        group=group, evenings=evenings, money={e.day: evening_settle_up(e, group) for e in evenings},
        ends={e.day: evening_end_words(e) for e in evenings if e.progress is not None},
        end_form=settle_up.EndView(Progress(over=False), group.end, (), None, None, None,
                                   url_for("groups.evening_end", token=access.game.keeper_token), access.game.version),
        evening_count=evening_count(access.game, group), starts=starts(), feedback=feedback,
        undo_label=last_move(access), game_token=_game_token(access), share_title=gettext("Share this group"),
    )


SHOWN_EVENINGS = 20
"""The evenings the group's page shows (newest first) before "Every evening"."""


def _game_token(access: Access) -> Any:
    """A game's link from the group's page: its keeper link for the group's keeper, else its watch link."""
    def token(game: Game) -> str:
        return game.keeper_token if access.can_write else game.watch_token
    return token


GROUP_GAME: FollowedGame[Group] = FollowedGame(
    bp, kind=GROUP, endpoint="groups.page", render=render_group, last_move=last_move, live="sheet",
    build=build_group, events=frozenset(groups_lib.RECORDS.classes))


def _record(record: Any) -> tuple[str, dict[str, Any]]:
    return record.action, record.to_dict()


def _person(form: Any, group: Group) -> int:
    number = whole_number(form.get("person", ""), high=10_000)
    if number is None:
        raise UnreadableInput(message("The form does not say which person; reload the page and try again."))
    return number


# --------------------------------------------------------------------------- making a group


@bp.get("/")
def index() -> Response:
    return _index({}, {})


def _index(typed: dict[str, str], errors: dict[str, str], status: int = 200, *, already: str | None = None,
           imported: str | None = None, renewed: int = 0) -> Response:
    """The groups' page: make a group, import a file.  A refusal of the import, a file that
    brought nothing new (``already``: the address of what it holds), or an import whose games were
    given new links (``imported``, ``renewed``: how many) is said at the top."""
    return render_page("groups/index.html", "groups/index.html", status=status, typed=typed, errors=errors,
                       already=already, imported=imported, renewed=renewed)


def _phone_zone() -> str:
    """The time zone the form says (the phone's, filled in by app.js in its ``data-time-zone``
    field), else UTC; :class:`~referee.group.GroupSetup` checks it against ``zoneinfo``."""
    return str(request.form.get("zone", ""))[:80].strip() or "UTC"


@bp.post("/new")
def new() -> Response:
    name = request.form.get("name", "")
    people_raw = request.form.get("people", "")
    zone = _phone_zone()
    people = [p for line in people_raw.replace(",", "\n").splitlines() if (p := " ".join(line.split()))]
    try:
        setup = GroupSetup(name, tuple(people), zone)
    except (groups_lib.GroupError, groups_lib.ZoneError) as exc:
        return _index({"name": name, "people": people_raw, "zone": zone}, {"group": say(exc)}, status=422)
    return _made(setup)


def _made(setup: GroupSetup, game: Game | None = None) -> Response:
    """The group stored and opened, at the links the phone made for it when its form was sent by
    static/js/offline-start.js (which opens the group at its own link), or the server's."""
    keeper, watch = phone_tokens()
    try:
        group = store.create_game(GROUP, [], rules={}, setup=setup.to_dict(), created_by=starting_id(),
                                  keeper_token=keeper, watch_token=watch)
    except store.TokenTaken:
        abort(409, gettext("This phone's link for the new game is already another game's link. "
                           "Nothing was started; the phone picks another link and sends it again."))
    if game is not None and game.group_id is None:
        game.group_id = group.id
        db.session.commit()
    return redirect_to(url_for("groups.page", token=group.keeper_token))


@bp.post("/from-game")
def from_game() -> Response:
    """A group of the players of a sheet or table (keeper only), with that game in it."""
    found = store.find_by_token(request.form.get("game", ""))
    if found is None or found.game.kind == GROUP:
        abort(404, gettext("No game has this link. Check that it was copied whole."))
    require_keeper(found)
    game = found.game
    if game.group_id is not None:
        owner = db.session.get(Game, game.group_id)
        if owner is not None:
            mine = owner.created_by is not None and owner.created_by == starting_id()  # this form, sent again
            # Otherwise a game's keeper link is not the group's key: the group's watch page.
            return redirect_to(url_for("groups.page", token=owner.keeper_token if mine else owner.watch_token))
    names = game.player_names
    title = ", ".join(names)
    if len(title) > groups_lib.NAME_MAX:
        title = title[: groups_lib.NAME_MAX - 1] + "…"
    try:
        setup = GroupSetup(title, tuple(names), _phone_zone())
    except (groups_lib.GroupError, groups_lib.ZoneError) as exc:  # as /groups/new refuses it: nothing stored
        abort(422, say(exc))
    return _made(setup, game)


# --------------------------------------------------------------------------- the group's page


@bp.get("/g/<token>")
def page(token: str) -> Response:
    return GROUP_GAME.page(token)


@bp.post("/g/<token>/add")
def add(token: str) -> Response:
    name = request.form.get("name", "")

    def decide(access: Access, group: Group) -> tuple[str, dict[str, Any]]:
        return _record(group.check_add_person(name))

    return GROUP_GAME.write(token, decide, typed={"name": name}, at="name")


@bp.post("/g/<token>/rename")
def rename(token: str) -> Response:
    name = request.form.get("name", "")

    def decide(access: Access, group: Group) -> tuple[str, dict[str, Any]]:
        return _record(group.check_rename_person(_person(request.form, group), name))

    return GROUP_GAME.write(token, decide, typed={"rename": name})


@bp.post("/g/<token>/remove")
def remove(token: str) -> Response:
    def decide(access: Access, group: Group) -> tuple[str, dict[str, Any]]:
        return _record(group.check_remove_person(_person(request.form, group)))

    return GROUP_GAME.write(token, decide)


@bp.post("/g/<token>/move")
def move(token: str) -> Response:
    """Count a game of the group for another evening (the day typed)."""
    day = request.form.get("day", "")
    game_token = request.form.get("game", "")

    def decide(access: Access, group: Group) -> tuple[str, dict[str, Any]]:
        found = store.find_by_token(game_token)
        if found is None or found.game.group_id != access.game.id:
            raise UnreadableInput(message("That game is not one of this group's."))
        return _record(group.check_move_game(found.game.watch_token, day))

    return GROUP_GAME.write(token, decide, typed={"day": day})


@bp.post("/g/<token>/zone")
def zone(token: str) -> Response:
    """The group's time zone (its evenings are its local days, turning at 06:00)."""
    typed = {"zone": str(request.form.get("zone", ""))[:80].strip()}

    def decide(access: Access, group: Group) -> tuple[str, dict[str, Any]]:
        return _record(group.check_change_zone(typed["zone"]))

    return GROUP_GAME.write(token, decide, typed=typed, at="zone")


@bp.post("/g/<token>/end")
def evening_end(token: str) -> Response:
    """The end switches of the group's evenings (over everything an evening holds)."""
    typed = {key: str(request.form.get(key, ""))[:12] for key in settle_up.END_FIELDS}

    def decide(access: Access, group: Group) -> tuple[str, dict[str, Any]]:
        return _record(group.check_change_end(settle_up.read_end(typed)))

    return GROUP_GAME.write(token, decide, typed=typed, at="target")


def evening_end_words(evening: Any) -> dict[str, str | None]:
    """How the evening stands against the group's end, in the reader's words."""
    got = evening.progress
    past = None
    if got.past_end:
        past = ngettext("%(num)d game was played past the end; it is not in the result.",
                        "%(num)d games were played past the end; they are not in the result.", got.past_end)
    return {"over": say(got.why) if got.why is not None else None, "to_go": " · ".join(say(m) for m in got.to_go),
            "past": past}


@bp.post("/g/<token>/undo")
def undo(token: str) -> Response:
    return GROUP_GAME.undo(token)


@bp.post("/g/<token>/redo")
def redo(token: str) -> Response:
    return GROUP_GAME.redo(token)


# --------------------------------------------------------------------------- stats


@bp.get("/g/<token>/stats")
def stats_page(token: str) -> Response:
    access = GROUP_GAME.open(token)
    group = build_group(access.game)
    evenings = evenings_of(access.game, group)
    day = request.args.get("evening", "")
    shown = [e for e in evenings if e.day == day] if day else evenings
    if day and not shown:
        abort(404, gettext("This group has no evening on that day."))
    return render_page(
        "groups/stats.html", "groups/stats.html", **GROUP_GAME.context(access), group=group,
        stats=people_stats(group, shown), evenings=evenings, day=day,
        chart=wins_chart(group, evenings) if not day else None, people=_people_names(group.people),
        format_decimal=_decimal, money=evening_settle_up(shown[0], group) if day else (),
    )


def _decimal(value: float, digits: int = 1) -> str:
    """A number in the reader's locale, with at most ``digits`` decimals (1.5, 1,5)."""
    return str(format_decimal(round(value, digits), format="0." + "#" * digits, locale=get_locale() or "en"))


def _people_names(people: tuple[Person, ...]) -> set[str]:
    return {p.name for p in people}


# --------------------------------------------------------------------------- export and import


def _download(body: bytes, what: str) -> Response:
    response = make_response(body)
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    response.headers["Content-Disposition"] = f'attachment; filename="thirteen-{what}-{stamp}.json"'
    return response


@bp.get("/g/<token>/export.json")
def export_group(token: str) -> Response:
    access = open_game(token, GROUP)
    require_keeper(access)  # the file holds the keeper links
    return _download(transfer.export_group(access.game), "group")


@bp.get("/game/<token>/export.json")
def export_game(token: str) -> Response:
    access = store.find_by_token(token)
    if access is None:
        abort(404, gettext("No game has this link. Check that it was copied whole."))
    require_keeper(access)  # the file holds the keeper link
    if access.game.kind == GROUP:
        return _download(transfer.export_group(access.game), "group")
    return _download(transfer.export([access.game]), access.game.kind)


@bp.post("/import")
def import_file() -> Response:
    sent = request.files.get("file")
    if sent is None or not sent.filename:
        return _index({}, {"file": gettext("Choose the file to import (a .json file exported by Thirteen).")},
                      status=400)
    try:
        done = transfer.import_file(sent.read(), secret=str(current_app.config["SECRET_KEY"]),
                                    allow_new=limits.count_new_games)
    except transfer.ImportRefused as exc:  # said beside the file field, the form kept
        return _index({}, {"file": say(exc)}, status=exc.status)
    game = done.first
    try:
        _, followed = registry.by_kind(game.kind)
        endpoint = followed.endpoint
    except KeyError:
        endpoint = "groups.page"
    target = url_for(endpoint, token=game.keeper_token)
    if done.renewed:  # the file's links do not open these games here: said, with the new one
        return _index({}, {}, imported=target, renewed=done.renewed)
    if not done.new:  # the same file again: nothing changed, and the page says so
        return _index({}, {}, already=target)
    return redirect_to(target)
