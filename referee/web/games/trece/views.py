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
    AnyCard,
    Card,
    Joker,
    NotationError,
    Suit,
    TooManyCopiesError,
    parse_card,
    parse_cards,
)
from referee.switches import rules_from_mapping
from referee.text import message
from referee.trece import (
    DemandError,
    Draw,
    EmptyPlayError,
    IllegalPlayError,
    LastCard,
    Play,
    Record,
    Setup,
    SetupError,
    State,
    Thirteen,
    TreceRules,
    Verdict,
    check_play,
    replay,
)
from referee.web import api, openapi, store
from referee.web.house_rules import SwitchLabel, Words, rules_from_form, sent_switches, switch_labels
from referee.web.i18n import reason_fields
from referee.web.models import Game
from referee.web.tables import (
    BadForm,
    Feedback,
    FollowedGame,
    Refused,
    remember_rules,
    remembered,
)
from referee.web.views import render_page, say

KIND = "trece"
JOKER_CODES = ("RJ", "BJ")
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


def card_parts(card: AnyCard | None) -> tuple[str, str]:
    """The rank and suit letter a one-card chooser shows checked for ``card``."""
    if card is None:
        return "", ""
    if isinstance(card, Joker):
        return str(card), ""
    return card.rank.symbol, card.suit.letter


def read_one_card(
    form: Mapping[str, Any], name: str, errors: dict[str, str], *, jokers: bool
) -> tuple[AnyCard | None, str, str]:
    """Read a one-card chooser (``<name>_rank`` + ``<name>_suit`` radios, or a ``<name>`` text).

    Returns the card (or ``None`` when not chosen yet) and the rank and suit to show checked.
    """
    text = (form.get(name) or "").strip()
    rank = (form.get(f"{name}_rank") or "").strip()
    suit = (form.get(f"{name}_suit") or "").strip()
    if text:
        try:
            card = parse_card(text)
        except NotationError as exc:
            errors[name] = say(exc)
            return None, "", ""
    elif not rank:
        return None, "", suit
    elif rank.upper() in JOKER_CODES:
        card = parse_card(rank)
    elif not suit:
        return None, rank, ""
    else:
        try:
            card = parse_card(rank + suit)
        except NotationError as exc:
            errors[name] = say(exc)
            return None, rank, suit
    if isinstance(card, Joker) and (not jokers or str(card) not in JOKER_CODES):
        errors[name] = gettext("%(card)s cannot be here: choose a card with a suit", card=str(card))
        return None, "", ""
    shown_rank, shown_suit = card_parts(card)
    return card, shown_rank, shown_suit or suit


def read_suit(raw: Any) -> Suit | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    wrong = message("the field {field} must be a suit such as ♥ or h, or null", field="'must_follow'")
    if not isinstance(raw, str):
        raise api.BadRequest(wrong, field="must_follow")
    try:
        return Suit.parse(raw.strip())
    except ValueError:
        raise api.BadRequest(message("the field {field} must be a suit such as ♥ or h, or null: {value} is not a suit",
                                     field="'must_follow'", value=repr(raw.strip())), field="must_follow") from None


def verdict_view(verdict: Verdict) -> dict[str, Any]:
    """What the verdict box shows."""
    return {
        "legal": verdict.legal,
        "reason": say(verdict.reason),
        "joker": verdict.joker,
        "demands": None if verdict.demands_suit is None else verdict.demands_suit.symbol,
        "demands_red": verdict.demands_suit is not None and verdict.demands_suit.is_red,
    }


# --------------------------------------------------------------------------- landing and rules


@bp.get("/")
def index() -> Response:
    return render_page(
        "trece/index.html", "trece/index.html", form={}, errors={},
        specs=switch_specs(), rules=remembered(TreceRules, KIND).to_dict(),
    )


@bp.get("/rules")
def rules_page() -> Response:
    return render_page("trece/rules.html", "trece/rules.html")


# --------------------------------------------------------------------------- the check screen


@bp.route("/check", methods=["GET", "POST"])
def check() -> Response:
    form = request.form if request.method == "POST" else request.args
    errors: dict[str, str] = {}
    top, top_rank, top_suit = read_one_card(form, "top", errors, jokers=True)
    play_text = form.get("play", "") or ""
    play: tuple[AnyCard, ...] = ()
    try:
        play = parse_cards(play_text)
    except NotationError as exc:
        errors["play"] = say(exc)
    demand_raw = (form.get("must_follow") or "").strip()
    must_follow: Suit | None = None
    if demand_raw and isinstance(top, Joker):
        try:
            must_follow = Suit.parse(demand_raw)
        except ValueError as exc:
            errors["must_follow"] = say(exc)

    if request.method == "POST" or sent_switches(form, TreceRules):
        rules = rules_from_form(form, TreceRules, errors)
    else:
        rules = remembered(TreceRules, KIND)

    verdict: dict[str, Any] | None = None
    waiting: str | None = None
    if not errors:
        if top is None:
            waiting = gettext("Choose the top card of the pile.")
        elif isinstance(top, Joker) and must_follow is None:
            waiting = gettext("A joker on top demands a suit: choose it.")
        elif not play:
            waiting = gettext("Tap the cards of the play, in the order they were played.")
        else:
            try:
                verdict = verdict_view(check_play(top, play, must_follow, rules))
            except DemandError as exc:
                errors["must_follow"] = say(exc)
            except (TooManyCopiesError, EmptyPlayError) as exc:
                errors["play"] = say(exc)

    status = 400 if errors else 200
    response = render_page(
        "trece/check.html", "trece/_check_result.html", status=status,
        top_rank=top_rank, top_suit=top_suit, play=play_text, must_follow=demand_raw,
        errors=errors, verdict=verdict, waiting=waiting, specs=switch_specs(), rules=rules.to_dict(),
    )
    if request.method == "POST" and "rules" not in errors:
        remember_rules(response, KIND, rules.to_dict())
    return response


# --------------------------------------------------------------------------- the JSON check


@api.bp.post("/trece/check", endpoint="trece_check")
def trece_api_check() -> ResponseReturnValue:
    data = api.json_body(required=("top", "play"), allowed=("must_follow", "rules"))
    top_text = api.text_field(data, "top")
    if not top_text.strip():
        raise api.BadRequest(message("the field {field} must name the card on top of the pile", field="'top'"),
                             field="top")
    try:
        top = parse_card(top_text)
    except NotationError as exc:
        raise api.BadRequest(message("{what}: {why}", what=message("the top of the pile"), why=exc.reason),
                             reason=exc.reason, field="top") from None
    try:
        play = parse_cards(api.text_field(data, "play"))
    except NotationError as exc:
        raise api.BadRequest(message("{what}: {why}", what=message("the play"), why=exc.reason),
                             reason=exc.reason, field="play") from None
    must_follow = read_suit(data.get("must_follow"))
    rules = rules_from_mapping(TreceRules, api.rules_field(data))
    verdict = check_play(top, play, must_follow, rules)
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
                "top": {"type": "string", "description": "The card on top of the pile (a joker only while "
                        "its demand is pending).", "examples": ["J♦", "RJ"]},
                "play": {"$ref": "#/components/schemas/Cards"},
                "must_follow": {"type": ["string", "null"], "description": "The suit a joker on top demands "
                                "(♠ ♥ ♣ ♦ or s h c d); null when no joker is pending."},
                "rules": openapi.rules_ref(TreceRules),
            },
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


@bp.post("/new")
def new_game() -> Response:
    form = request.form
    errors: dict[str, str] = {}
    names: list[str] = []
    try:
        names = store.clean_names([form.get("name0", ""), form.get("name1", "")], least=2, most=2)
    except ValueError as exc:
        errors["names"] = say(exc)
    dealer = 1 if form.get("dealer") == "1" else 0
    turned, turned_rank, turned_suit = read_one_card(form, "turned", errors, jokers=False)
    if turned is None and "turned" not in errors:
        errors["turned"] = gettext("Choose the card turned face up to start the pile (rank and suit).")
    rules = rules_from_form(form, TreceRules, errors)
    setup: Setup | None = None
    if not errors and isinstance(turned, Card):  # read with jokers=False; none turned is an error (above)
        try:
            setup = Setup((names[0], names[1]), turned, dealer=dealer, rules=rules)
        except SetupError as exc:
            errors["names"] = say(exc)
    if setup is None:
        shown = {"name0": form.get("name0", ""), "name1": form.get("name1", ""), "dealer": str(dealer),
                 "turned_rank": turned_rank, "turned_suit": turned_suit}
        return render_page(
            "trece/index.html", "trece/index.html", status=422, form=shown, errors=errors,
            specs=switch_specs(), rules=rules.to_dict(),
        )
    return GAME.start(setup.players, rules=rules.to_dict(), setup=setup.to_dict())


# --------------------------------------------------------------------------- the table


def game_state(game: Game) -> State:
    return replay(game.setup, [e.payload for e in store.live_events(game)])


def describe(record: Record, state: State) -> str:
    """One line of the move log, naming who did what."""
    names = state.players
    who = names[record.player]
    if isinstance(record, Play):
        text = gettext("%(name)s played %(cards)s", name=who, cards=" ".join(str(c) for c in record.cards))
        if record.demands_suit is not None:
            text += " — " + gettext("%(other)s must play a %(suit)s", other=names[1 - record.player],
                                   suit=record.demands_suit.symbol)
        if record.won:
            text += " — " + gettext("%(name)s is out and wins", name=who)
        return text
    if isinstance(record, Draw):
        if record.penalty:
            text = gettext("%(name)s could not follow the joker and picked up %(count)s", name=who,
                           count=record.count)
        elif record.count == 1:
            text = gettext("%(name)s drew a card", name=who)
        else:
            text = gettext("%(name)s drew %(count)s", name=who, count=record.count)
        if record.returned:
            text += " — " + gettext("the pile became the new stock")
        return text
    if isinstance(record, LastCard):
        return gettext("%(name)s said “last card”", name=who)
    if isinstance(record, Thirteen):
        text = gettext("%(name)s said “thirteen”: %(other)s had not said “last card” and picked up %(count)s",
                       name=who, other=names[record.target], count=record.count)
        if record.returned:
            text += " — " + gettext("the pile became the new stock")
        return text
    return str(record)  # pragma: no cover


def last_move(access: store.Access) -> str | None:
    """The latest move still in force, for the undo button."""
    state = game_state(access.game)
    return describe(state.log[-1], state) if state.log else None


def render_table(access: store.Access, feedback: Feedback, status: int = 200) -> Response:
    state = game_state(access.game)
    log = [describe(r, state) for r in state.log]
    return render_page(
        "trece/table.html", "trece/_table.html", status=status, **GAME.context(access),
        state=state, info=state.to_dict(), log=log, undo_label=log[-1] if log else None,
        calls_last=[p for p in (0, 1) if state.can_call_last_card(p)],
        calls_thirteen=[p for p in (0, 1) if state.can_call_thirteen(p)],
        feedback=feedback, top_red=getattr(state.top, "is_red", False),
        demand_red=state.demand is not None and state.demand.is_red,
    )


GAME: FollowedGame[object] = FollowedGame(  # no build: its pages read the state themselves
    bp, kind=KIND, endpoint="trece.table", render=render_table, last_move=last_move)


@bp.get("/g/<token>")
def table(token: str) -> Response:
    return GAME.page(token)


def decide(access: store.Access) -> tuple[str, dict[str, Any]]:
    """The action the form asks for, judged on the table this phone saw."""
    state = game_state(access.game)
    action = request.form.get("action", "")
    if action == "play":
        try:
            cards = parse_cards(request.form.get("cards", ""))
        except NotationError as exc:
            raise Refused(exc, at="cards") from None
        if not cards:
            raise Refused(gettext("Tap the cards played, in order, then Play."), at="cards")
        try:
            record: Record = state.play(cards)
        except IllegalPlayError as exc:
            raise Refused(exc, at="play") from None
        except (TooManyCopiesError, EmptyPlayError) as exc:
            raise Refused(exc, at="cards") from None
    elif action == "draw":
        record = state.draw()
    elif action in ("last_card", "thirteen"):
        player = request.form.get("player", "")
        if player not in ("0", "1"):
            raise BadForm(gettext("Say which player calls."))
        record = state.call_last_card(int(player)) if action == "last_card" else state.call_thirteen(int(player))
    else:
        raise BadForm(gettext("Unknown action: play, draw, last card or thirteen."))
    return record.action, record.to_dict()


@bp.post("/g/<token>/act")
def act(token: str) -> Response:
    typed = {"cards": request.form.get("cards", "")[:200]} if request.form.get("action") == "play" else {}
    return GAME.write(token, decide, typed=typed)


@bp.post("/g/<token>/undo")
def undo(token: str) -> Response:
    return GAME.undo(token)
