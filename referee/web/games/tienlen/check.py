"""Tiến lên on the web: the landing page, the *check a play* screen, the rules page
and ``POST /api/tienlen/check``.

The check screen is one form: the cards on the table, the cards played, the
"first play of the game" box and the house-rule switches.  With JavaScript,
htmx posts the form on every change and swaps the verdict box (field errors
travel out of band to sit beside their fields); without it, the same form
posts and the whole page comes back with the verdict.  The switches a phone
used last are kept in a cookie and applied when the page is opened again.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.cards import Card, NotationError, TooManyCopiesError, card_pattern, check_copies, parse_cards
from referee.errors import UnreadableInput
from referee.switches import rules_from_mapping
from referee.text import Message, message
from referee.tienlen import (
    THREE_OF_SPADES,
    Combination,
    Kind,
    TienLenRules,
    check,
    lowest_cards,
)
from referee.web import api, openapi
from referee.web.games.tienlen import answers
from referee.web.games.tienlen.answers import LOWEST_CHOICES
from referee.web.games.tienlen.answers import (
    combo_name as combo_name,  # the table page names combinations too
)
from referee.web.house_rules import SwitchLabel, Words, switch_labels
from referee.web.i18n import reason_fields
from referee.web.tables import remember_rules, remembered_rules
from referee.web.views import render_page, wants_fragment

bp = Blueprint("tienlen", __name__, url_prefix="/tienlen")
API = openapi.Section()

GAME = "tienlen"


# ---------------------------------------------------------------------------
# Words shown on the pages (built per request so they follow the reader's language)
# ---------------------------------------------------------------------------


def switch_specs() -> list[SwitchLabel]:
    """Every Tiến lên house rule with a one-line explanation (its name, the label, is the
    library's: ``TienLenRules.NAMES``, the words its refusals use)."""
    return switch_labels(TienLenRules, {
        "twos_in_sequences": Words(help=gettext(
            "A 2 may be the top card of a sequence, as in Q K A 2; it never wraps round to 3.")),
        "first_lead": Words(help=gettext(
            "What the very first play of the game has to be."), choices={
            "contains_3s": gettext("must include the 3♠"),
            "three_spades_alone": gettext("the 3♠ on its own"),
            "any": gettext("anything: no opening rule"),
        }),
        "quad_beats_pair_of_twos": Words(help=gettext(
            "Four of a kind may bomb a pair of 2s, not just a single 2.")),
        "quad_beats_three_pairs": Words(help=gettext(
            "Four of a kind may beat a double sequence of exactly three pairs.")),
        "four_pairs_beat_quad": Words(help=gettext(
            "A double sequence of four pairs may beat four of a kind (never four 2s). House "
            "convention of this app: a longer double sequence may too.")),
        "bomb_after_pass": Words(help=gettext(
            "Someone who passed can still come back in to bomb a 2 before the table clears.")),
        "play_on": Words(help=gettext(
            "When the first player runs out, the rest keep going until everyone is placed. If "
            "the player who went out made the last play, the next player still in leads.")),
        "instant_wins": Words(help=gettext(
            "Four 2s, a 3-to-ace dragon or six pairs in the dealt hand win on the spot.")),
    })


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


def _new_game_url() -> str:
    if "tienlen_table.new" in current_app.view_functions:
        return url_for("tienlen_table.new")
    return "/tienlen/new"


@bp.get("/")
def index() -> Response:
    return render_page("tienlen/index.html", "tienlen/index.html", new_game_url=_new_game_url())


@bp.get("/rules")
def rules_page() -> Response:
    return render_page(
        "tienlen/rules.html", "tienlen/rules.html", specs=switch_specs(), new_game_url=_new_game_url()
    )


@bp.route("/check", methods=["GET", "POST"])
def check_page() -> Response:
    """The check screen; GET shows it (``?table=&play=`` fill it in), POST judges the form."""
    form = request.form if request.method == "POST" else request.args
    oob = wants_fragment()
    answer = answers.check_screen(form, remembered_rules(GAME), oob=oob)
    response = render_page("tienlen/check.html", answer.fragment, status=answer.status,
                           specs=switch_specs(), **answer.context)
    if answer.remember is not None:
        remember_rules(response, GAME, answer.remember)
    return response


# ---------------------------------------------------------------------------
# JSON API
# ---------------------------------------------------------------------------


def _combo_json(combo: Combination | None, cards: tuple[Any, ...]) -> dict[str, Any]:
    if combo is None:
        return {"kind": None, "name": None, "cards": [str(c) for c in cards], "top": None}
    return {
        "kind": combo.kind.value,
        "name": combo.name,
        "cards": [str(c) for c in combo.cards],
        "top": str(combo.top),
    }


def _api_cards(data: dict[str, Any], key: str, where: Message) -> tuple[Any, ...]:
    text = api.text_field(data, key)
    try:
        cards = parse_cards(text)
        check_copies(cards, decks=1)
    except (NotationError, TooManyCopiesError) as exc:
        raise api.in_field(exc, key, where) from None
    return cards


def _api_lowest(data: dict[str, Any]) -> Card:
    value = data.get("lowest")
    if value is None:
        return THREE_OF_SPADES
    try:
        card = Card.parse(value) if isinstance(value, str) else None
    except NotationError:
        card = None
    if card is None or str(card) not in LOWEST_CHOICES:
        raise UnreadableInput(message("the field {field} must be one card from 3♠ to {highest}",
                                     field="'lowest'", highest=LOWEST_CHOICES[-1]), field="lowest")
    return card


@api.bp.post("/tienlen/check")
def api_check() -> ResponseReturnValue:
    data = api.json_body(required=("play",), allowed=("table", "first_play", "lowest", "rules"))
    play = _api_cards(data, "play", message("the play"))
    table = _api_cards(data, "table", message("the table"))
    first_play = data.get("first_play")
    if first_play is None:
        first_play = False
    if not isinstance(first_play, bool):
        raise UnreadableInput(message("the field {field} must be true or false", field="'first_play'"),
                             field="first_play")
    lowest = _api_lowest(data)
    rules = rules_from_mapping(TienLenRules, api.rules_field(data))
    verdict = check(play, table, rules, first_play=first_play, opening_card=lowest)
    return jsonify(
        legal=verdict.legal,
        bomb=verdict.bomb,
        **reason_fields(verdict.reason),
        play=_combo_json(verdict.play, play),
        table=_combo_json(verdict.table, table) if table else None,
    )


API.add_schema(
    "TienLenCombination",
    {
        "type": "object",
        "required": ["kind", "cards", "top"],
        "properties": {
            "kind": {
                "type": ["string", "null"],
                "enum": [k.value for k in Kind] + [None],
                "description": "The kind of combination, or null when the cards make none.",
            },
            "name": {"type": ["string", "null"], "description": "How players say it: 'double sequence of 3 pairs'."},
            "cards": {"type": "array", "items": {"type": "string"}, "description": "The cards, lowest first."},
            "top": {"type": ["string", "null"], "description": "The highest card, which decides what beats what."},
        },
    },
)
API.add_schema(
    "TienLenVerdict",
    {
        "type": "object",
        "required": ["legal", "bomb", "reason", "play"],
        "properties": {
            "legal": {"type": "boolean"},
            "bomb": {"type": "boolean", "description": "True when a legal play beats a different kind (a bomb)."},
            "reason": {"type": "string", "description": "One sentence naming the rule that decides."},
            **openapi.REASON_PROPERTIES,
            "play": {"$ref": "#/components/schemas/TienLenCombination"},
            "table": {
                "oneOf": [{"$ref": "#/components/schemas/TienLenCombination"}, {"type": "null"}],
                "description": "The combination on the table; null for a lead.",
            },
        },
    },
)
API.add_path(
    "/api/tienlen/check",
    "post",
    openapi.json_operation(
        "Tiến lên: may this play go on this table? The verdict names the rule and says whether it is a bomb.",
        {
            "type": "object",
            "required": ["play"],
            "additionalProperties": False,
            "properties": {
                "play": {"$ref": "#/components/schemas/Cards"},
                "table": {"$ref": "#/components/schemas/Cards", "description": "Empty or absent for a lead."},
                "first_play": {
                    "type": "boolean",
                    "default": False,
                    "description": "The first play of the game (the opening rule first_lead applies).",
                },
                "lowest": {
                    "type": "string",
                    "default": "3♠",
                    "pattern": card_pattern(lowest_cards(2)),
                    "examples": LOWEST_CHOICES,
                    "description": f"With 2 or 3 players the 3♠ may not be dealt: the lowest card dealt, which "
                                   f"then plays the part of the 3♠ in the opening rule (with first_play). One of "
                                   f"{', '.join(LOWEST_CHOICES)}, in any notation (3c, ♦3).",
                },
                "rules": openapi.rules_ref(TienLenRules),
            },
        },
        {"$ref": "#/components/schemas/TienLenVerdict"},
        {"play": "3♠3♣4♦4♥5♠5♣", "table": "2♥", "first_play": False, "rules": {"quad_beats_pair_of_twos": True}},
    ),
)
