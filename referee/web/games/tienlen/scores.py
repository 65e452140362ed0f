"""The Tiến lên score sheet on the web: an evening of games for points, shared like the other games.

Pages live under ``/tienlen/scores``; an evening is reached through its share link
``/tienlen/scores/g/<token>`` (keeper or watcher) and is one more followed game on the
shared path of :mod:`referee.web.tables`.  Each game is added **from a followed
table** (the table knows the cards left, who played nothing and every chop; the
keeper may add the losers' leftover cards, checked against the plays) or **by hand**.
The judging and the replay are in :mod:`referee.web.games.tienlen.evening`.

Also registers ``POST /api/tienlen/score`` (:mod:`referee.web.games.tienlen.scores_api`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, request, url_for
from flask_babel import gettext

from referee.cards import Card, NotationError
from referee.errors import RefereeError, UnreadableInput
from referee.switches import rules_from_mapping
from referee.text import message
from referee.tienlen import THREE_OF_SPADES, Setup, TienLenRules
from referee.tienlen_evening import RECORDS as EVENING_RECORDS
from referee.tienlen_evening import (
    EntryRefused,
    Evening,
    EveningSetup,
    NotFollowedError,
    SheetGame,
    TableFollowed,
    finished_hand,
    judge_from_table,
    seat_map,
)
from referee.tienlen_scores import ScoreRules
from referee.web import settle_up, store
from referee.web.games.tienlen import (
    evening_pages,
    scores_api,  # noqa: F401  (the API routes and their OpenAPI paths)
)
from referee.web.games.tienlen.evening import (
    KIND,
    TABLE_KIND,
    Entry,
    Sheet,
    build_sheet,
    describe,
    followed_table,
    last_move,
    refused_entry,
    table_hands,
    table_state,
    typed_from,
)
from referee.web.games.tienlen.evening_money import evening_context
from referee.web.games.tienlen.forms import form_verdict
from referee.web.guard import whole_number
from referee.web.house_rules import SwitchLabel, Words, switch_labels
from referee.web.models import Game as StoredGame
from referee.web.sheets import spreadsheet_cell
from referee.web.store import Access, find_by_token, live_events
from referee.web.tables import (
    Done,
    Feedback,
    FollowedGame,
    Render,
    remembered,
    require_keeper,
    seen_version,
    this_write,
)
from referee.web.views import csv_download, redirect_to, render_page, say

bp = Blueprint("tienlen_scores", __name__, url_prefix="/tienlen/scores")

MIN_PLAYERS, MAX_PLAYERS = evening_pages.MIN_PLAYERS, evening_pages.MAX_PLAYERS


def switch_specs() -> list[SwitchLabel]:
    """Every score switch with a label and a one-line explanation (amounts are editable numbers)."""
    return switch_labels(ScoreRules, {
        "score_by": Words(label=gettext("Score by"), help=gettext(
            "Cards: each loser pays the winner a point per card left. Places: the order out pays."),
            choices={"cards": gettext("cards left"), "places": gettext("places (needs play on)")}),
        "play_on": Words(label=gettext("Play on"), help=gettext(
            "After the first player goes out the others play on, so every place is known.")),
        "instant_wins": Words(label=gettext("Instant wins"), help=gettext(
            "Four 2s, a 3-to-ace dragon or six pairs dealt win the game at once.")),
        "first_stake": Words(label=gettext("First's stake"), help=gettext(
            "Places: the first out wins this from the last.")),
        "second_stake": Words(label=gettext("Second's stake"), help=gettext(
            "Places, four players: the second wins this from the third.")),
        "frozen": Words(label=gettext("Frozen (×)"), help=gettext(
            "Someone who played no card pays this many times over (1: no extra)."), low=1, high=10),
        "two_left_black": Words(label=gettext("Black 2 left"), help=gettext(
            "Caught holding a 2♠ or 2♣ when the first player went out: paid to that player.")),
        "two_left_red": Words(label=gettext("Red 2 left"), help=gettext(
            "Caught holding a 2♦ or 2♥ when the first player went out: paid to that player.")),
        "bomb_left": Words(label=gettext("Bomb left"), help=gettext(
            "Per bomb in a hand when the first player went out (four of a kind, three or more pairs in a row).")),
        "chop_black": Words(label=gettext("Chop a black 2"), help=gettext(
            "A bomb beats a black 2: its player pays the bomber at once.")),
        "chop_red": Words(label=gettext("Chop a red 2"), help=gettext(
            "A bomb beats a red 2: its player pays the bomber at once.")),
        "chop_bomb": Words(label=gettext("Bomb on a bomb"), help=gettext(
            "A bomb beaten by a bomb pays this, plus all it had won in the trick.")),
        "instant_stake": Words(label=gettext("Instant win"), help=gettext(
            "Every other player pays the one who declared an instant win.")),
    })


# ---------------------------------------------------------------------------
# Starting an evening


@bp.get("/")
def index() -> Response:
    rules = remembered(ScoreRules, KIND)
    return _start_form([""] * MAX_PLAYERS, rules.to_dict(), {})


@bp.post("/new")
def new() -> Response:
    read = evening_pages.read_new_evening(request.form)
    if read.errors:
        shown = {**ScoreRules().to_dict(), **read.values}
        shown.update({key: str(request.form.get(key, ""))[:12] for key in settle_up.END_FIELDS})  # kept as typed
        return _start_form(read.rows, shown, read.errors, status=422)
    return SHEET.start(read.names, rules=read.rules.to_dict(), setup=read.setup)


def _start_form(names: list[str], values: dict[str, Any], errors: dict[str, str], status: int = 200) -> Response:
    return render_page("tienlen_scores/index.html", "tienlen_scores/index.html", status=status,
                       names=names, values=values, errors=errors, specs=switch_specs())


# ---------------------------------------------------------------------------
# The sheet (a followed game)


def _context(access: Access, sheet: Sheet) -> dict[str, Any]:
    return {**SHEET.context(access), **evening_pages.sheet_context(sheet, live_events(access.game)),
            **evening_context(access, sheet)}


def render_sheet(access: Access, sheet: Sheet, feedback: Feedback, status: int = 200) -> Response:
    return render_page(
        "tienlen_scores/sheet.html", "tienlen_scores/_sheet.html", status=status, feedback=feedback,
        table_hands=table_hands(sheet) if sheet.tables else [],
        **evening_pages.page_context(sheet, request.args.get("added", "")),
        **_context(access, sheet),
    )


def _undo_label(access: Access, sheet: Sheet) -> str | None:
    return last_move(sheet, access.game)


SHEET: FollowedGame[Sheet] = FollowedGame(bp, kind=KIND, endpoint="tienlen_scores.sheet", build=build_sheet,
                                           render=render_sheet, last_move=_undo_label, live="sheet",
                                           events=frozenset(EVENING_RECORDS.classes))


settle_up.add_sheet_routes(bp, SHEET)  # the stake and the end of the evening (keeper forms)


SHEET.routes(rematch=True)  # the sheet's page, undo, redo and the same players again


# --- a game by hand, or a correction ------------------------------------------------------


def _entry_page(number: int | None) -> Render[Sheet]:
    """The by-hand form answers its own refusals and stale writes, with what was typed."""

    def render(access: Access, sheet: Sheet, feedback: Feedback, status: int) -> Response:
        entry = feedback.detail if isinstance(feedback.detail, Entry) else Entry(dict(feedback.typed))
        return _render_entry(access, sheet, number, entry, status=status, feedback=feedback)

    return render


def _render_entry(access: Access, sheet: Sheet, number: int | None, entry: Entry, *, status: int = 200,
                  feedback: Feedback | None = None) -> Response:
    return render_page(
        "tienlen_scores/entry.html", "tienlen_scores/entry.html", status=status,
        feedback=feedback or Feedback(), **evening_pages.entry_context(sheet, number, entry), **_context(access, sheet),
    )


@bp.get("/g/<token>/add")
def add_page(token: str) -> Response:
    access, sheet = SHEET.opened(token)
    return _render_entry(access, sheet, None, Entry({}))


@bp.get("/g/<token>/game/<int:number>")
def game_page(token: str, number: int) -> Response:
    access, sheet = SHEET.opened(token)
    try:
        entry = evening_pages.saved_entry(sheet, number)
    except RefereeError as exc:
        abort(404, say(exc))
    return _render_entry(access, sheet, number, entry)


def _saved_or_404(sheet: Sheet, number: int) -> SheetGame:
    try:
        return sheet.check_game_saved(number)
    except RefereeError as exc:
        abort(404, say(exc))


def _save_by_hand(token: str, number: int | None) -> Response:
    access, sheet = SHEET.opened(token, keeper=True)
    typed = typed_from(request.form, sheet.players)
    if number is not None and sheet.saved(number) is None and seen_version() != access.game.version:
        # Another keeper's undo took that game away: the fresh sheet's entry form, with what was typed.
        return SHEET.stale(access, Feedback(typed=dict(typed)), _entry_page(None))
    if number is not None:
        _saved_or_404(sheet, number)
    entry = Entry(typed)

    def decide(access: Access, evening: Sheet) -> Done:
        return Done.of(evening_pages.enter_by_hand(evening, number, typed))

    after = {"added": number or len(sheet.games) + 1}
    return SHEET.write(access, decide, typed=typed, detail=entry, render=_entry_page(number), after=after)


@bp.post("/g/<token>/add")
def add_by_hand(token: str) -> Response:
    return _save_by_hand(token, None)


@bp.post("/g/<token>/game/<int:number>")
def correct(token: str, number: int) -> Response:
    return _save_by_hand(token, number)


# --- a game from a followed table ------------------------------------------------------------


def _table_or_404(sheet: Sheet, table_id: int, *, once: StoredGame | None = None) -> Any:
    """The followed table ``table_id``; or ``once``, a table the sheet followed until an undo."""
    if once is not None:
        return once
    try:
        sheet.check_follows(table_id)
    except RefereeError as exc:
        abort(404, say(exc))
    table = followed_table(table_id)
    if table is None:
        abort(404, say(NotFollowedError()))
    return table


def _followed_once(access: Access, table_id: int) -> StoredGame | None:
    """A table this sheet followed at some version (an undo may have taken the follow back)."""
    if any(e.kind == TableFollowed.action and e.payload.get("table") == table_id for e in access.game.events):
        return followed_table(table_id)
    return None


def _table_page(table_id: int, hand: int, *, once: StoredGame | None = None) -> Render[Sheet]:
    def render(access: Access, sheet: Sheet, feedback: Feedback, status: int) -> Response:
        entry = feedback.detail if isinstance(feedback.detail, Entry) else Entry(dict(feedback.typed))
        return _render_table_entry(access, sheet, table_id, hand, entry, status=status, feedback=feedback, once=once)

    return render


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSeat:
    """A player of a hand the table followed, as its page lists them: their seat on the sheet,
    the cards they held when the first player went out, and whether they had played none."""

    seat: int
    """The player's seat on the sheet (the table may have seated them elsewhere)."""
    name: str
    left: int
    winner: bool
    """Went out first."""
    frozen: bool
    """Had played no card when the first player went out."""


def _render_table_entry(access: Access, sheet: Sheet, table_id: int, hand_index: int, entry: Entry, *,
                        status: int = 200, feedback: Feedback | None = None,
                        once: StoredGame | None = None) -> Response:
    table = _table_or_404(sheet, table_id, once=once)
    state = table_state(table)
    try:
        hand = finished_hand(state.hands, hand_index)
    except RefereeError as exc:
        abort(404, say(exc))
    mapping = seat_map(sheet.names, hand.players) or list(range(len(hand.players)))
    already = (table_id, hand_index) in sheet.added
    preview = entry
    if already:  # what the sheet holds for this hand, not what this phone typed
        on_sheet = next(g for g in sheet.games if g.table == (table_id, hand_index))
        preview = Entry(entry.typed, problem=entry.problem, payments=[describe(p, sheet.names) for p in on_sheet.payments])
    elif not (entry.ok or entry.errors or entry.problem):
        preview = _preview(sheet, table_id, state.hands, hand_index, entry.typed)
    left = hand.cards_left_at_first_out or hand.cards_left
    seats = sorted((HandSeat(seat=mapping[s], name=hand.players[s], left=left[s], winner=s == hand.winner,
                             frozen=s in (hand.no_card_at_first_out or ())) for s in range(len(hand.players))),
                   key=lambda row: row.seat)
    return render_page(
        "tienlen_scores/from_table.html", "tienlen_scores/from_table.html", status=status, entry=preview,
        table=table, hand_number=hand_index + 1, hand_index=hand_index, seats=seats,
        already=already, on_sheet=on_sheet.number if already else None, feedback=feedback or Feedback(),
        **_context(access, sheet),
    )


def _preview(sheet: Sheet, table_id: int, hands: Any, hand_index: int, typed: dict[str, str]) -> Entry:
    """What the hand scores with the cards typed so far (the same judge as the write)."""
    return Entry(typed).take(form_verdict(
        judge_from_table(sheet.names, sheet.rules, table_id, hands, hand_index, _leftover(typed),
                         _leftover(typed, "caught_")), typed, left_field="cards"), sheet.names)


@bp.get("/g/<token>/table/<int:table_id>/<int:hand>/preview")
def from_table_preview(token: str, table_id: int, hand: int) -> Response:
    """The "What it scores" list for the cards typed so far (the form asks again on each change)."""
    access, sheet = SHEET.opened(token)
    table = _table_or_404(sheet, table_id)
    state = table_state(table)
    try:
        finished_hand(state.hands, hand)
    except RefereeError as exc:
        abort(404, say(exc))
    typed = {f"{field}_{s}": str(request.args.get(f"{field}_{s}", ""))[:200].strip()
             for field in ("cards", "caught") for s in range(sheet.players)}
    return render_page("tienlen_scores/_preview.html", "tienlen_scores/_preview.html",
                       entry=_preview(sheet, table_id, state.hands, hand, typed), **_context(access, sheet))


@bp.get("/g/<token>/table/<int:table_id>/<int:hand>")
def from_table_page(token: str, table_id: int, hand: int) -> Response:
    access, sheet = SHEET.opened(token)
    return _render_table_entry(access, sheet, table_id, hand, Entry({}))


def _leftover(typed: dict[str, str], prefix: str = "cards_") -> dict[int, str]:
    """The leftover cards typed (or, with ``caught_``, the 2s and bomb cards caught), by sheet seat."""
    return {int(name.removeprefix(prefix)): text for name, text in typed.items() if name.startswith(prefix)}


@bp.post("/g/<token>/table/<int:table_id>/<int:hand>")
def add_from_table(token: str, table_id: int, hand: int) -> Response:
    access, sheet = SHEET.opened(token, keeper=True)
    typed = {f"{field}_{s}": str(request.form.get(f"{field}_{s}", ""))[:200].strip()
             for field in ("cards", "caught") for s in range(sheet.players)}
    if table_id not in sheet.tables and seen_version() != access.game.version:
        once = _followed_once(access, table_id)  # another keeper's undo took the follow back
        if once is not None:
            return SHEET.stale(access, Feedback(typed=typed), _table_page(table_id, hand, once=once))
    table = _table_or_404(sheet, table_id)
    hands = table_state(table).hands
    leftover, caught = _leftover(typed), _leftover(typed, "caught_")

    def decide(access: Access, evening: Sheet) -> Done:
        try:
            return Done.of(evening.add_from_table(table_id, hands, hand, leftover, caught))
        except EntryRefused as exc:
            raise refused_entry(typed, exc, evening.names, left_field="cards") from None
        except RefereeError as exc:
            raise RefereeError(exc.reason, detail=Entry(typed).take(form_verdict(judge_from_table(
                evening.names, evening.rules, table_id, hands, hand, leftover, caught), typed, left_field="cards"),
                evening.names)) from None

    return SHEET.write(access, decide, typed=typed, detail=Entry(typed), render=_table_page(table_id, hand),
                       after={"added": len(sheet.games) + 1})


# --- following a table ------------------------------------------------------------------------


@bp.post("/g/<token>/tables")
def start_table(token: str) -> Response:
    """Start a followed Tiến lên table with the sheet's players, and follow it."""
    access, sheet = SHEET.opened(token, keeper=True)
    form = request.form
    typed = {"leader": str(form.get("leader", ""))[:2], "lowest": str(form.get("lowest", "3♠"))[:4]}
    new_tables: list[store.NewGame] = []

    def decide(access: Access, evening: Sheet) -> tuple[str, dict[str, Any]]:
        leader = whole_number(typed["leader"], high=sheet.players - 1)
        if leader is None:
            raise RefereeError(message("Tap the player who holds the lowest card dealt: they lead the first hand."),
                               field="leader")
        try:
            lowest = Card.parse(typed["lowest"] or str(THREE_OF_SPADES))
        except (NotationError, ValueError):
            raise UnreadableInput(message("Choose the lowest card dealt from the list."), field="lowest") from None
        game_rules = _table_rules(sheet.rules)
        try:
            setup = Setup(tuple(sheet.names), game_rules, leader=leader, lowest_card=lowest)
        except RefereeError as exc:
            raise exc.about("lowest") from None
        table = store.NewGame(TABLE_KIND, sheet.names, game_rules.to_dict(),
                              {**setup.to_dict(), "sheet": access.game.keeper_token,
                               "sheet_watch": access.game.watch_token},
                              started_from=access.game)  # in the sheet's group, on its evening
        new_tables.append(table)
        return TableFollowed.action, {"table": table}  # created with the write: nothing is left behind by a 409

    response = SHEET.write(access, decide, typed=typed)
    created = new_tables[0].created if new_tables else None
    if created is None and (mine := this_write()):  # the same form sent again: the table it started
        created = store.game_made_by(access.game, mine, "table")
    if created is not None and response.status_code in (200, 303):
        return redirect_to(url_for("tienlen_table.table", token=created.keeper_token))
    return response


@bp.post("/score/<table_token>/<int:hand>")
def score_table_hand(table_token: str, hand: int) -> Response:
    """"Score this hand", from a finished hand of a followed table (its keeper): the evening's
    sheet that started the table, else the sheet made for this table before, else a new sheet
    with the table's players, following it; then that hand's scoring page.  Sent twice, it
    opens the same sheet (and the hand is scored there once: the sheet refuses a second)."""
    found = find_by_token(table_token, TABLE_KIND)
    if found is None:
        abort(404, gettext("No game has this link. Check that it was copied whole."))
    require_keeper(found)
    table = found.game
    sheet = _sheet_of_table(table)
    return redirect_to(url_for(".from_table_page", token=sheet.keeper_token, table_id=table.id, hand=hand))


def _sheet_of_table(table: Any) -> Any:
    """The sheet a table's hands are scored on: the one that started the table, else the one
    made for it before, else a new one with the table's players, made following the table (in
    one transaction)."""
    started = table.setup.get("sheet")
    access = find_by_token(started, KIND) if started else None
    if access is not None:
        return access.game
    made = store.made_for(KIND, table)
    if made is not None:
        return made
    table_rules = table.rules or {}
    defaults = ScoreRules()
    rules = rules_from_mapping(ScoreRules, {
        **defaults.to_dict(), "play_on": bool(table_rules.get("play_on", defaults.play_on)),
        "instant_wins": bool(table_rules.get("instant_wins", defaults.instant_wins))})
    evening = Evening(EveningSetup(tuple(table.player_names), rules))
    follow = evening.follow(table.id, table.player_names).to_dict()
    kind = str(follow.pop("action"))
    return store.create_game(KIND, table.player_names, rules=rules.to_dict(), setup={"table": table.id},
                             events=[(kind, follow)], made_for=table,
                             started_from=table)  # in the table's group, on its evening  # one sheet per table, however many press


def _table_rules(rules: ScoreRules) -> TienLenRules:
    """The table's house rules: those this phone last used, with the sheet's play_on and instant_wins."""
    return remembered(TienLenRules, TABLE_KIND, over={"play_on": rules.play_on, "instant_wins": rules.instant_wins})


@bp.post("/g/<token>/follow")
def follow(token: str) -> Response:
    """Follow a table by its link (keeper or watch link), if it has this sheet's players."""
    typed = {"link": str(request.form.get("link", ""))[:300].strip()}

    def decide(access: Access, evening: Sheet) -> Done:
        link = typed["link"].rstrip("/")
        found = find_by_token(link.rsplit("/", 1)[-1], TABLE_KIND) if link else None
        if found is None:
            raise RefereeError(message("That is not the link of a Tiến lên table: copy it from the table's share box."),
                               field="link")
        return Done.of(evening.follow(found.game.id, found.game.player_names))

    return SHEET.write(token, decide, typed=typed, at="link")


# --- rematch, CSV -------------------------------------------------------------------------------


@bp.get("/g/<token>/scores.csv")
def export_csv(token: str) -> Response:
    access, sheet = SHEET.opened(token)
    rows: list[list[Any]] = [["game", "from", *(spreadsheet_cell(n) for n in sheet.names), "payments"]]
    for g in sheet.games:
        words = "; ".join(describe(p, sheet.names) for p in g.payments)
        rows.append([g.number, g.source, *g.points, spreadsheet_cell(words)])
    rows.append(["total", "", *sheet.totals, ""])
    return csv_download(rows, f"tienlen-scores-{access.game.id}.csv")
