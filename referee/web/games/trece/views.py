"""Trece on the web: the quick check screen, the two-player table, the rules page, the JSON check.

Pages
-----
``/trece/``               landing: links to the check screen and the rules, the new-table form
``/trece/check``          GET/POST: top card, optional joker demand, the play → the verdict
``/trece/rules``          the rules in short
``/trece/new``            POST: create a table (two names, who deals, the turned card)
``/trece/g/<token>``      the table (keeper or watcher, by the token); ``?since=N`` polls
``/trece/g/<token>/act``  POST: play, draw, "last card", "thirteen" (one event each)
``/trece/g/<token>/undo`` POST: take back the last action

The table's state is never stored: it is ``referee.trece.replay`` of the setup and
the effective events.  Every write names the ``version`` the phone saw.

API: ``POST /api/trece/check`` (on :data:`referee.web.api.bp`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.cards import (
    BLACK_JOKER,
    JOKER,
    RED_JOKER,
    NotationError,
    Suit,
    card_pattern,
    parse_card,
    parse_cards,
    suit_pattern,
)
from referee.errors import UnreadableInput
from referee.switches import rules_from_mapping
from referee.text import message
from referee.trece import RECORDS as TRECE_RECORDS
from referee.trece import (
    DemandError,
    State,
    TreceRules,
    check_play,
)
from referee.web import api, openapi, settle_up, store
from referee.web.games.trece import answers, pages
from referee.web.games.trece.answers import JOKER_CODES as JOKER_CODES
from referee.web.games.trece.answers import judge, read_one_card
from referee.web.games.trece.money import ENDS, NO_UNTIL, money_context
from referee.web.games.trece.pages import KIND as KIND  # the store's name for a table, read by the registry
from referee.web.house_rules import SwitchLabel, Words, switch_labels
from referee.web.i18n import reason_fields
from referee.web.models import Game
from referee.web.new_table import NewTable
from referee.web.players import read_players
from referee.web.tables import (
    Action,
    Done,
    Feedback,
    FollowedGame,
    remember_rules,
    remembered_rules,
)
from referee.web.views import render_page

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = (("♠", "s", "black"), ("♥", "h", "red"), ("♣", "c", "black"), ("♦", "d", "red"))

bp = Blueprint(KIND, __name__, url_prefix="/trece")
API = openapi.Section()


# --------------------------------------------------------------------------- small helpers


def switch_specs() -> list[SwitchLabel]:
    return switch_labels(TreceRules, {
        "run_after_joker": Words(label=gettext("A run may follow a joker"), help=gettext(
            "The card that meets a joker's demand may start a run (off: it is played alone).")),
    })


def read_suit(raw: Any) -> Suit | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    wrong = message("the field {field} must be a suit such as ♥ or h, or null", field="'must_follow'")
    if not isinstance(raw, str):
        raise UnreadableInput(wrong, field="must_follow")
    try:
        return Suit.parse(raw.strip())
    except ValueError:
        raise UnreadableInput(message("the field {field} must be a suit such as ♥ or h, or null: {value} is not a suit",
                                     field="'must_follow'", value=repr(raw.strip())), field="must_follow") from None


# --------------------------------------------------------------------------- landing and rules


@bp.get("/rules")
def rules_page() -> Response:
    return render_page("trece/rules.html", "trece/rules.html")


# --------------------------------------------------------------------------- the check screen


@bp.route("/check", methods=["GET", "POST"])
def check() -> Response:
    form = request.form if request.method == "POST" else request.args
    answer = answers.check_screen(form, remembered_rules(KIND), posted=request.method == "POST")
    response = render_page("trece/check.html", answer.fragment, status=answer.status,
                           specs=switch_specs(), **answer.context)
    if answer.remember is not None:
        remember_rules(response, KIND, answer.remember)
    return response


# --------------------------------------------------------------------------- the JSON check


@api.bp.post("/trece/check", endpoint="trece_check")
def trece_api_check() -> ResponseReturnValue:
    data = api.json_body(required=("top", "play"), allowed=("must_follow", "rules"))
    top_text = api.text_field(data, "top")
    if not top_text.strip():
        raise UnreadableInput(message("the field {field} must name the card on top of the pile", field="'top'"),
                             field="top")
    try:
        top = parse_card(top_text)
    except NotationError as exc:
        raise api.in_field(exc, "top", message("the top of the pile")) from None
    try:
        play = parse_cards(api.text_field(data, "play"))
    except NotationError as exc:
        raise api.in_field(exc, "play", message("the play")) from None
    must_follow = read_suit(data.get("must_follow"))
    rules = rules_from_mapping(TreceRules, api.rules_field(data))
    try:
        verdict = check_play(top, play, must_follow, rules)
    except DemandError as exc:  # the top and the demanded suit cannot go together: about must_follow
        raise exc.about("must_follow") from None
    return jsonify(
        legal=verdict.legal,
        **reason_fields(verdict.reason),
        joker=verdict.joker,
        demands_suit=None if verdict.demands_suit is None else verdict.demands_suit.symbol,
    )


API.add_path(
    "/api/trece/check",
    "post",
    openapi.json_operation(
        "Trece: is this play (cards in the order played) legal on the top of the pile?",
        {
            "type": "object",
            "required": ["top", "play"],
            "additionalProperties": False,
            "properties": {
                "top": {"type": "string", "pattern": card_pattern(), "description": "The card on top of the "
                        "pile (a joker only while its demand is pending), in any notation.", "examples": ["J♦", "RJ"]},
                "play": {"$ref": "#/components/schemas/Cards"},
                "must_follow": {"type": ["string", "null"], "pattern": suit_pattern(blank=True),
                                "description": "The suit a joker on top demands (♠ ♥ ♣ ♦ or s h c d); null or "
                                "blank when no joker is pending."},
                "rules": openapi.rules_ref(TreceRules),
            },
            # A joker lies on top only while its demand is pending: then must_follow names the suit.
            "if": {"properties": {"top": {"type": "string", "pattern": card_pattern([JOKER, RED_JOKER, BLACK_JOKER])}},
                   "required": ["top"]},
            "then": {"properties": {"must_follow": {"type": "string", "pattern": suit_pattern()}},
                     "required": ["must_follow"]},
        },
        {
            "type": "object",
            "required": ["legal", "reason", "joker", "demands_suit"],
            "properties": {
                "legal": {"type": "boolean"},
                "reason": {"type": "string", "description": "One sentence naming the rule."},
                **openapi.REASON_PROPERTIES,
                "joker": {"type": "boolean", "description": "The play ends with a joker."},
                "demands_suit": {"type": ["string", "null"], "description": "The suit the other player "
                                 "must now play (a legal joker play only)."},
            },
        },
        {"top": "J♦", "play": "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣", "must_follow": None, "rules": {"run_after_joker": False}},
    ),
)


# --------------------------------------------------------------------------- creating a table


def shown(form: Mapping[str, str]) -> dict[str, str]:
    """The form as it is shown again after a mistake: the dealer and the turned card chosen."""
    _, rank, suit = read_one_card(form, "turned", {}, jokers=False)
    return {"name0": form.get("name0", ""), "name1": form.get("name1", ""),
            "dealer": "1" if read_players(form, least=2, most=2, mark="dealer").marked_row == 1 else "0",
            "turned_rank": rank, "turned_suit": suit}


# --------------------------------------------------------------------------- the table


def game_state(game: Game) -> State:
    return pages.game_state(game.setup, store.history(game))


def last_move(access: store.Access, state: State) -> str | None:
    """The latest move still in force, for the undo button."""
    return pages.last_move(store.history(access.game), state)


def render_table(access: store.Access, state: State, feedback: Feedback, status: int = 200) -> Response:
    return render_page(
        "trece/table.html", "trece/_table.html", status=status, **GAME.context(access), feedback=feedback,
        **pages.table_context(state, access.game.setup, store.history(access.game), access.can_write),
        **money_context(access, state),
    )


GAME: FollowedGame[State] = FollowedGame(
    bp, kind=KIND, endpoint="trece.table", build=game_state, render=render_table, last_move=last_move,
    events=frozenset(TRECE_RECORDS.classes))


settle_up.add_sheet_routes(bp, GAME, ends=ENDS, refusal=NO_UNTIL)  # the stake per game won; games, target


def decide(access: store.Access, state: State) -> Done:
    """The action the form asks for, done on the table this phone saw (as the phone judges it:
    :func:`referee.web.games.trece.answers.judge`)."""
    return Done.of(judge(state, request.form))


GAME.routes({"act": Action(decide, typed=("cards",))})  # the table page, its one form's actions, undo, redo
NewTable(GAME, page="trece/index.html", rules=TreceRules, words=switch_specs, read=pages.read_setup,
         shown=shown).register(new="new_game")
