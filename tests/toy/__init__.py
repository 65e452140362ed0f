"""Higher on the web: a toy game defined only in the tests, registered in every test app.

Everything here is what a game package provides: its blueprint and routes (a new-table form,
the followed table, one write, undo, a JSON check), its :class:`FollowedGame`, its templates
(``tests/toy/templates/toy/``), its part of the OpenAPI document and its registry ``ENTRY``.
Nothing outside this package and the tests' registry list names it: the home tile, the share
box, the poll, keeper-only writes, the 409, undo, the stale mark offline, the rows of the shared
suites and its OpenAPI entry all come from the registry.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, request
from flask_babel import gettext

from referee.cards import card_pattern, full_deck
from referee.errors import RefereeError, UnreadableInput
from referee.text import message
from referee.web import api, openapi, store
from referee.web.house_rules import SwitchLabel, Words, switch_labels
from referee.web.models import Game
from referee.web.new_table import NewTable
from referee.web.players import read_players
from referee.web.registry import GameEntry, HomeLink
from referee.web.tables import Action, Done, Feedback, FollowedGame
from referee.web.views import render_page, say
from tests.toy.rules import HigherRules, Setup, State, parse_one, replay

KIND = "toy_higher"

bp = Blueprint("toy", __name__, url_prefix="/toy", template_folder="templates")
api_bp = Blueprint("toy_api", __name__, url_prefix="/api/toy")
api_bp.register_error_handler(RefereeError, api.bad_input)
API = openapi.Section()


def switch_specs() -> list[SwitchLabel]:
    """The house rules' words (one ``Words`` per field of the rules class: a field without words
    is refused when the page is drawn); the form, the cookie and the OpenAPI schema follow."""
    return switch_labels(HigherRules, {"aces_high": Words(label=gettext("Aces high"), help=gettext("An ace ranks above a king."))})


def read_setup(form: Mapping[str, str], rules: HigherRules, errors: dict[str, str]) -> Setup | None:
    """The table's setup from its new-table form (the house rules read already)."""
    players = read_players(form, least=2, most=2)
    try:
        start = parse_one(form.get("start", ""))
    except RefereeError as exc:
        errors["names"] = players.error or say(exc)
        return None
    if players.error:
        errors["names"] = players.error
        return None
    return Setup(tuple(players.names), start, rules)


def state_of(game: Game) -> State:
    return replay(game.setup, store.records_of(store.live_events(game)))


def last_move(access: store.Access, state: State) -> str | None:
    return f"{state.setup.players[state.log[-1].seat]} {state.log[-1].card}" if state.log else None


def render_table(access: store.Access, state: State, feedback: Feedback, status: int = 200) -> Response:
    return render_page("toy/table.html", "toy/_table.html", status=status, **GAME.context(access),
                       state=state, feedback=feedback, undo_label=last_move(access, state))


def play(access: store.Access, state: State) -> Done:
    raw = request.form.get("cards", "")
    if not raw.strip():
        raise UnreadableInput(message("Tap the cards played, in order, then Play."), field="cards")
    return Done.of(state.play(raw))


GAME = FollowedGame(bp, kind=KIND, endpoint="toy.table", build=state_of, render=render_table, last_move=last_move)
GAME.routes({"play": Action(play, typed=("cards",), at="cards")})  # the table page, the play, undo and redo
NewTable(GAME, page="toy/index.html", rules=HigherRules, words=switch_specs, read=read_setup).register()


@api_bp.post("/check")
def api_check() -> Response:
    data = api.json_body(required=("top", "card"), allowed=("rules",))
    state = State(Setup(("A", "B"), parse_one(api.text_field(data, "top")), HigherRules.from_mapping(api.rules_field(data))))
    try:  # a top that does not read is a 400 (above); a card that does not, a play refused
        state.check_play(api.text_field(data, "card"))
    except RefereeError as exc:
        return jsonify(legal=False, reason=str(exc))
    return jsonify(legal=True, reason="")


API.add_path("/api/toy/check", "post", openapi.json_operation(
    "Higher: may this card follow that one?",
    {"type": "object", "required": ["top", "card"], "additionalProperties": False, "properties": {
        # The top is read (a suited card); the card is asked about, any text (what does not read is not legal).
        "top": {"type": "string", "pattern": card_pattern(full_deck())}, "card": {"type": "string"},
        "rules": openapi.rules_ref(HigherRules)}},
    {"type": "object", "required": ["legal", "reason"],
     "properties": {"legal": {"type": "boolean"}, "reason": {"type": "string"}}},
    {"top": "5h", "card": "9s", "rules": {"aces_high": False}},
))

ENTRY = GameEntry(
    slug="toy",
    name="Higher",
    tagline=lambda: gettext("Check a play"),
    blueprints=(bp, api_bp),
    home="toy.index",
    links=(HomeLink(label=lambda: gettext("Check a play"), endpoint="toy.index"),),
    followed=(GAME,),
    rules=(HigherRules,),
    api=(API,),
)
