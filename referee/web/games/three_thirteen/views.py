"""Three Thirteen on the web: the score sheet, the quick hand scorer, the rules page, the API.

Pages live under ``/three-thirteen``; a game is reached through its share link
``/three-thirteen/g/<token>`` (keeper or watcher).  A round is saved as one event
for the whole table (see :mod:`referee.web.games.three_thirteen.sheet`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.cards import AnyCard, NotationError, parse_cards
from referee.errors import RefereeError, UnreadableInput
from referee.text import message
from referee.three_thirteen import (
    Schedule,
    Split,
    ThreeThirteenRules,
    split_hand,
)
from referee.three_thirteen_sheet import RECORDS as SHEET_RECORDS
from referee.web import api, openapi, settle_up
from referee.web.games.three_thirteen import answers, pages
from referee.web.games.three_thirteen.answers import (
    SCORE_SWITCHES,
    SplitView,
    form_values,
    rules_from_form,
)
from referee.web.games.three_thirteen.money import NO_END, money_context
from referee.web.games.three_thirteen.pages import phone_setup, running_chart
from referee.web.games.three_thirteen.sheet import (
    KIND,
    RoundEntry,
    RoundInfo,
    Sheet,
    SheetRound,
    build_sheet,
    rules_of,
    stored_rules,
)
from referee.web.guard import whole_number
from referee.web.house_rules import SwitchLabel, Words, switch_labels
from referee.web.models import Game
from referee.web.players import read_players
from referee.web.sheets import spreadsheet_cell
from referee.web.store import MAX_PLAYERS, Access, history
from referee.web.tables import (
    Done,
    Feedback,
    FollowedGame,
    Render,
    remembered,
    seen_version,
)
from referee.web.views import csv_download, render_page, say

bp = Blueprint("three_thirteen", __name__, url_prefix="/three-thirteen")
API = openapi.Section()



def switch_specs(ids: Sequence[str] | None = None) -> list[SwitchLabel]:
    """Each house rule with a one-line explanation (the switches partial)."""
    return switch_labels(ThreeThirteenRules, {
        "faces": Words(label=gettext("Picture cards"), help=gettext(
            "Jack, queen and king cost 10 each, or 11, 12 and 13."),
            choices={"ten": gettext("10 each"), "rank": gettext("11, 12, 13")}),
        "decks": Words(label=gettext("Decks"), help=gettext(
            "Normally one for two players, two for three or four, one more per two extra players."),
            choices={"": gettext("by the number of players"), **{n: str(n) for n in range(1, 9)}}),
        "aces": Words(label=gettext("Aces"), help=gettext(
            "Low only, or also above the king (Q K A); a spare ace then costs 15."),
            choices={"low": gettext("low only"), "high_or_low": gettext("high or low")}),
        "jokers": Words(label=gettext("Jokers"), help=gettext("Two per deck, wild in every round; a spare one costs 20.")),
        "longer_game": Words(label=gettext("Longer game"), help=gettext(
            "Rounds 12 and 13 are added: 14 cards (aces wild), then 15 cards (2s wild).")),
        "up_and_back": Words(label=gettext("Up and back"), help=gettext(
            "Climb from 3 cards to 13, then come back down to 3: 22 rounds.")),
        "doubles": Words(label=gettext("Doubles"), help=gettext("Rounds where jacks, queens or kings are wild score twice.")),
        "false_out": Words(label=gettext("False out"), help=gettext(
            "Claiming to be out with a hand that does not fit is not refused: the hand counts as usual, plus 20.")),
    }, ids)


# ---------------------------------------------------------------------------
# Landing, new game, rules


@bp.get("/")
def index() -> Response:
    rules = remembered(ThreeThirteenRules, KIND)
    return render_page(
        "three_thirteen/index.html", "three_thirteen/index.html",
        specs=switch_specs(), values=form_values(rules), names=[""] * MAX_PLAYERS, dealer=0, errors={},
    )


@bp.post("/new")
def new_game() -> Response:
    players = read_players(request.form, least=2, most=MAX_PLAYERS, mark="dealer", default_mark=0)
    raw = [*players.rows[:MAX_PLAYERS], *[""] * (MAX_PLAYERS - len(players.rows))]
    errors: dict[str, str] = {}
    rules = ThreeThirteenRules()
    try:
        rules = rules_from_form(request.form)
    except RefereeError as exc:
        errors["rules"] = say(exc)
    if players.error:
        errors["names"] = players.error
    dealer_row = players.marked_row or 0
    if players.marked is None:
        errors["dealer"] = gettext("Choose the first dealer among the named players.")
    if errors:
        return render_page(
            "three_thirteen/index.html", "three_thirteen/index.html", status=422,
            specs=switch_specs(), values=form_values(rules), names=raw, dealer=dealer_row, errors=errors,
        )
    return GAME.start(players.names, rules=stored_rules(rules), setup={"first_dealer": players.marked})


@bp.get("/rules")
def rules_page() -> Response:
    doubles = Schedule(ThreeThirteenRules(doubles=True))  # the chart marks the rounds the switch doubles
    chart = [RoundInfo.of(doubles, n) for n in range(1, 12)]
    longer = Schedule(ThreeThirteenRules(longer_game=True))
    extra = [dataclasses.replace(RoundInfo.of(longer, n), doubled=False, short=False) for n in (12, 13)]
    return render_page("three_thirteen/rules.html", "three_thirteen/rules.html", chart=chart, extra=extra,
                       specs=switch_specs())


# ---------------------------------------------------------------------------
# Score a hand


@bp.get("/score")
def score() -> Response:
    answer = answers.score_screen(request.args)
    return render_page("three_thirteen/score.html", answer.fragment, status=answer.status,
                       specs=switch_specs(SCORE_SWITCHES), **answer.context)


# ---------------------------------------------------------------------------
# A game


def _sheet_context(access: Access, sheet: Sheet) -> dict[str, Any]:
    return {**GAME.context(access), "sheet": sheet, "chart": running_chart(sheet),
            **money_context(access, sheet)}


def last_move(access: Access, sheet: Sheet) -> str | None:
    """The latest entry still in force, in the players' words (the undo button)."""
    return settle_up.undo_words(access.game, lambda event: pages.round_words(event.kind, event.payload))


def _build(game: Game) -> Sheet:
    return build_sheet(game, lambda: history(game))


def render_sheet(access: Access, sheet: Sheet, feedback: Feedback, status: int = 200) -> Response:
    saved = request.args.get("saved", "")
    saved_round = whole_number(saved, low=1, high=999)
    return render_page(
        "three_thirteen/game.html", "three_thirteen/_sheet.html", status=status,
        feedback=feedback, saved_round=saved_round, undo_label=last_move(access, sheet), **_sheet_context(access, sheet),
    )


GAME: FollowedGame[Sheet] = FollowedGame(bp, kind=KIND, endpoint="three_thirteen.game", build=_build,
                                          render=render_sheet, last_move=last_move, live="sheet",
                                          events=frozenset(SHEET_RECORDS.classes))


settle_up.add_sheet_routes(bp, GAME, ends=(), refusal=NO_END)  # the stake; no end: it ends after its rounds


GAME.routes(rematch=True)  # the sheet's page, undo, redo and the same players again


@bp.get("/g/<token>/round/<int:number>")
def round_page(token: str, number: int) -> Response:
    access, sheet = GAME.opened(token)
    _check_round(sheet, number)
    return _render_round(access, sheet, number, pages.shown_entry(sheet, number),
                         saved_splits=pages.saved_splits(sheet, number), with_previews=sheet.saved(number) is None)


def _check_round(sheet: Sheet, number: int) -> None:
    if not pages.round_is_open(sheet, number):
        abort(404, pages.no_such_round(number))


def _render_round(access: Access, sheet: Sheet, number: int, entry: RoundEntry, *, status: int = 200,
                  saved_splits: dict[int, SplitView] | None = None, stale: bool = False,
                  with_previews: bool = True) -> Response:
    return render_page(
        "three_thirteen/round.html", "three_thirteen/round.html", status=status, feedback=Feedback(stale=stale),
        **pages.round_context(sheet, number, entry, saved_splits=saved_splits, stale=stale, with_previews=with_previews),
        **_sheet_context(access, sheet),
    )


def _round_answer(number: int) -> Render[Sheet]:
    """A refused or stale round entry is answered on the round page, with what was typed."""

    def render(access: Access, sheet: Sheet, feedback: Feedback, status: int) -> Response:
        shown = pages.stale_round(sheet, number) if feedback.stale else number
        return _render_round(access, sheet, shown, feedback.detail, status=status, stale=feedback.stale,
                             saved_splits=pages.saved_splits(sheet, shown) if feedback.stale else None)

    return render


@bp.post("/g/<token>/round/<int:number>")
def save_round(token: str, number: int) -> Response:
    access, sheet = GAME.opened(token, keeper=True)
    if not (seen_version() != access.game.version and 1 <= number <= sheet.schedule.rounds):
        # A stale phone's round may have been undone on another phone: it gets the 409 below,
        # with its typing kept, rather than a 404.
        _check_round(sheet, number)
    cards, points, out, entry = pages.read_round(request.form, request.form.getlist("out"), number, sheet.players)

    def decide(access: Access, sheet: Sheet) -> Done:
        return Done.of(pages.enter_round(sheet, number, cards, points, out))

    return GAME.write(access, decide, detail=entry, render=_round_answer(number), after={"saved": number})


@bp.get("/g/<token>/round/<int:number>/preview/<int:seat>")
def preview(token: str, number: int, seat: int) -> Response:
    access, sheet = GAME.opened(token)
    _check_round(sheet, number)
    if not 0 <= seat < sheet.players:
        abort(404)
    answer = answers.preview_screen(phone_setup(sheet, number), seat, request.args)
    return render_page(answer.fragment, answer.fragment, status=answer.status, **answer.context)


def spreadsheet_points(r: SheetRound, seat: int) -> str:
    """A seat's points in one round as a CSV cell, marked as the sheet marks them: went out,
    false out (a claim that could not go out), typed rather than counted from cards."""
    marks = []
    if seat in r.false_out:
        marks.append("false out")
    elif seat in r.out:
        marks.append("went out")
    if r.typed[seat]:
        marks.append("typed")
    return f"{r.points[seat]} ({', '.join(marks)})" if marks else str(r.points[seat])


@bp.get("/g/<token>/sheet.csv")
def export_csv(token: str) -> Response:
    access, sheet = GAME.opened(token)
    rows: list[list[Any]] = [["round", "cards", "wild", "doubled", *(spreadsheet_cell(n) for n in sheet.names)]]
    for r in sheet.rounds:
        cells = [spreadsheet_points(r, seat) for seat in range(sheet.players)]
        rows.append([r.number, r.dealt, r.wild, "yes" if r.doubled else "", *cells])
    rows.append(["total", "", "", "", *sheet.totals])
    if sheet.winners:
        rows.append(["winner", "", "", "", *("yes" if s in sheet.winners else "" for s in range(sheet.players))])
    return csv_download(rows, f"three-thirteen-{access.game.id}.csv")


# ---------------------------------------------------------------------------
# JSON API


def _api_split(cards: Sequence[AnyCard], split: Split) -> dict[str, Any]:
    """Melds and leftover in the order the hand was written."""
    slots: dict[AnyCard, list[int]] = {}
    for i, c in enumerate(cards):
        slots.setdefault(c, []).append(i)
    taken: Counter[AnyCard] = Counter()

    def place(c: AnyCard) -> int:
        i = slots[c][taken[c]]
        taken[c] += 1
        return i

    melds = []
    for meld in split.melds:
        order = [place(c) for c in meld.cards]
        pairs = list(zip(meld.cards, meld.faces, order, strict=True))
        if meld.kind == "set":
            pairs.sort(key=lambda p: p[2])
        body: dict[str, Any] = {"kind": meld.kind, "cards": [str(c) for c, _f, _i in pairs]}
        wild = {str(c): str(f) for c, f, _i in pairs if c != f}
        if wild:
            body["wild"] = wild
        melds.append((min(order), body))
    melds.sort(key=lambda m: m[0])
    leftover = sorted(split.leftover, key=place)
    return {"melds": [b for _i, b in melds], "leftover": [str(c) for c in leftover]}


@api.bp.post("/three-thirteen/score")
def api_score() -> ResponseReturnValue:
    data = api.json_body(required=("hand", "round"), allowed=("players", "rules"))
    hand = api.text_field(data, "hand")
    round_number = data["round"]
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise UnreadableInput(message("the field {field} must be a whole number (1 for the first round)",
                                     field="'round'"), field="round")
    players = data.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise UnreadableInput(message("the field {field} must be a whole number from 2 to {most}",
                                     field="'players'", most=MAX_PLAYERS), field="players")
    rules = rules_of(api.rules_field(data))
    schedule = Schedule(rules)
    dealt = schedule.cards_dealt(round_number)
    try:
        cards = parse_cards(hand)
    except NotationError as exc:
        raise api.in_field(exc, "hand", message("the hand")) from None
    split = split_hand(cards, round_number, rules, players=players)
    factor = 2 if schedule.is_doubled(round_number) else 1
    return jsonify(
        cards_dealt=dealt, wild_rank=schedule.wild_rank(round_number).symbol,
        deadwood=split.points, score=split.points * factor, **_api_split(cards, split),
    )


API.add_path(
    "/api/three-thirteen/score",
    "post",
    openapi.json_operation(
        "Three Thirteen: split a hand at the end of a round into the sets and runs that leave the fewest points.",
        {
            "type": "object",
            "required": ["hand", "round"],
            "properties": {
                "hand": {"$ref": "#/components/schemas/Cards"},
                "round": {"type": "integer", "minimum": 1, "description": "Round number, from 1, in the rules' schedule."},
                "players": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS, "default": 4,
                            "description": "Sets the number of decks unless rules.decks fixes it."},
                "rules": openapi.rules_ref(ThreeThirteenRules),
            },
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "cards_dealt": {"type": "integer"},
                "wild_rank": {"type": "string"},
                "deadwood": {"type": "integer", "description": "Value of the cards outside every meld."},
                "score": {"type": "integer", "description": "Deadwood after the doubles switch."},
                "melds": {"type": "array", "items": {"type": "object", "properties": {
                    "kind": {"enum": ["set", "run"]},
                    "cards": {"type": "array", "items": {"type": "string"}},
                    "wild": {"type": "object", "additionalProperties": {"type": "string"},
                             "description": "Each wild card and the card it stands for."},
                }}},
                "leftover": {"type": "array", "items": {"type": "string"}},
            },
        },
        {"hand": "9♠ 9♥ 9♣ 4♥ 5♥ 6♣", "round": 4, "players": 4, "rules": {"faces": "ten"}},
    ),
)
