"""Settling up and the end of an evening, on the web: shared by every sheet and a group's evening.

The rules are the library's (:mod:`referee.settle`, :mod:`referee.evening_end`); this
module reads what a sheet stores, words it in the reader's language and formats the money
for their locale with Babel (the library stays Babel-free).

- ``POST /api/settle``: ``{"balances": {"An": 1250, "Binh": -500, ...}}`` (whole smallest
  units) answers ``{"transfers": [{"from": "Binh", "to": "An", "amount": 500}, ...]}``, the
  exact fewest; a 400 names the mistake.
- A sheet's **stake** (an amount per point or per game won, in a currency) and its **end
  switches** are two event kinds on the sheet's stored game, written by its keeper through
  its :class:`~referee.web.tables.FollowedGame` (versioned; a resend is applied once):
  :data:`MONEY` (``{"stake": 1000, "currency": "VND"}``) and :data:`END`
  (:meth:`EveningEnd.to_dict`).  A sheet's replay leaves them out (:data:`EVENT_KINDS`).
  :func:`add_sheet_routes` adds the two forms' routes to a sheet's blueprint.
- The view models the shared partials draw: :class:`SettleUpView`
  (``partials/settle_up.html``, from :func:`settle_up_view`), :class:`StakeForm`
  (``partials/stake_form.html``) and :class:`EndView` (``partials/evening_end.html``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, TypedDict

from babel import Locale
from babel.numbers import (
    NumberFormatError,
    format_currency,
    format_decimal,
    get_currency_name,
    get_currency_precision,
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
    list_currencies,
    parse_decimal,
)
from flask import Blueprint, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale, ngettext

from referee import evening_money
from referee.errors import RefereeError, UnreadableInput
from referee.evening_end import EveningEnd
from referee.evening_money import Sitting
from referee.settle import MAX_PEOPLE, settle
from referee.stats import Result
from referee.text import Message, message
from referee.web import events, money_words, openapi
from referee.web.api import bp as api_bp
from referee.web.api import json_body
from referee.web.evening_ends import (
    END,
    END_FIELDS,
    EVENT_KINDS,
    MONEY,
    EndView,
    decide_end,
    end_from,
    end_view,
    entered_at,
    read_end,
    undo_label,
)
from referee.web.models import Event, Game
from referee.web.money_words import (
    CURRENCIES,
    MAX_STAKE,
    MoneyRow,
    Numbers,
    SettleUpView,
    Stake,
    StakeForm,
    TransferRow,
    format_money,
    parse_stake,
    settle_up_view,
)
from referee.web.store import Access, live_events
from referee.web.tables import FollowedGame

__all__ = [
    "END", "END_FIELDS", "EVENT_KINDS", "MONEY", "MAX_STAKE", "BabelMoney", "CURRENCIES", "EndView", "MoneyRow", "SettleUpView", "Stake", "StakeForm",
    "TransferRow", "add_sheet_routes", "end_of", "end_view", "entered_times", "format_money", "locale_currency",
    "last_entered", "money_of", "money_tables", "parse_stake", "read_end", "settle_up_view", "sheet_rows", "sitting_block", "sitting_of", "stake_form",
    "undo_label",
]

MAX_AMOUNT = 10**15
"""The largest balance (in the smallest unit) the JSON API takes."""
MAX_NAME = 80
NOT_BLANK = "[^" + "".join(f"\\u{ord(c):04x}" for c in map(chr, range(0x10000)) if c.isspace()) + "]"
"""A JSON schema's ``pattern`` for a text that is not only spaces (``str.isspace``, as the names are read)."""

_LOCALE_CURRENCY = {"en": "USD", "es": "EUR", "pt": "BRL", "vi": "VND"}
_BABEL_LOCALE = {"en": "en_US", "es": "es_ES", "pt": "pt_BR", "vi": "vi_VN"}


# ---------------------------------------------------------------------------
# The JSON API


@api_bp.post("/settle")
def settle_api() -> ResponseReturnValue:
    """The fewest transfers that square the balances (whole smallest units)."""
    data = json_body(required=("balances",), allowed=("balances",))
    balances = data["balances"]
    if not isinstance(balances, dict):
        raise UnreadableInput(message("the field {field} must be an object of names and whole amounts",
                                 field="'balances'"), field="balances")
    for name, amount in balances.items():
        if len(name) > MAX_NAME:
            raise UnreadableInput(message("the name {name} is longer than {most} characters",
                                          name=repr(name[:20] + "…"), most=MAX_NAME), field="balances")
        if isinstance(amount, int) and not isinstance(amount, bool) and abs(amount) > MAX_AMOUNT:
            raise UnreadableInput(message("{name}'s balance {value} is more than {most} in the smallest unit",
                                     name=name, value=amount, most=MAX_AMOUNT), field="balances")
    try:
        transfers = settle(balances)
    except RefereeError as exc:
        raise UnreadableInput(exc.reason, field="balances") from None
    return jsonify(transfers=[t.to_dict() for t in transfers])


openapi.add_path("/api/settle", "post", openapi.json_operation(
    "Settle up: the exact fewest transfers that bring every balance to zero (amounts in the currency's "
    "smallest unit; positive is owed, negative owes; they must add up to zero).",
    {
        "type": "object", "required": ["balances"], "additionalProperties": False,
        "properties": {"balances": {
            "type": "object", "maxProperties": MAX_PEOPLE,
            "propertyNames": {"maxLength": MAX_NAME, "pattern": NOT_BLANK,
                              "description": "A player's name: some text that is not only spaces."},
            "additionalProperties": {"type": "integer", "minimum": -MAX_AMOUNT, "maximum": MAX_AMOUNT},
            "description": "Each player's balance, by name, in whole smallest units.",
        }},
    },
    {
        "type": "object", "required": ["transfers"],
        "properties": {"transfers": {"type": "array", "items": {
            "type": "object", "required": ["from", "to", "amount"],
            "properties": {"from": {"type": "string"}, "to": {"type": "string"},
                           "amount": {"type": "integer", "minimum": 1}},
        }}},
    },
    {"balances": {"An": 1250, "Binh": -500, "Chi": -750}},
))


# ---------------------------------------------------------------------------
# Money in the reader's language


class BabelMoney:
    """The reader's numbers from Babel (:class:`referee.web.money_words.Money`, on the server: any
    currency Babel knows)."""

    def __init__(self, locale: str | None = None) -> None:
        self.locale = locale or _babel_locale()

    def known(self, currency: str) -> bool:
        return currency in list_currencies()

    def digits(self, currency: str) -> int:
        return int(get_currency_precision(currency))

    def format(self, amount: int, currency: str) -> str:
        value = Decimal(amount).scaleb(-self.digits(currency))
        return str(format_currency(value, currency, locale=self.locale))

    def plain(self, amount: int, currency: str) -> str:
        digits = self.digits(currency)
        pattern = "0." + "0" * digits if digits else "0"
        return str(format_decimal(Decimal(amount).scaleb(-digits), format=pattern, locale=self.locale))

    def parse(self, text: str) -> Decimal:
        try:
            return Decimal(parse_decimal(text, locale=self.locale))
        except NumberFormatError:
            raise InvalidOperation(text) from None

    def name(self, currency: str) -> str:
        return str(get_currency_name(currency, locale=self.locale))

    def numbers(self) -> Numbers:
        """This locale's :class:`~referee.web.money_words.Numbers` for the stake form's currencies
        (what the phone reads and formats money with, generated here from Babel)."""
        pattern = Locale.parse(self.locale).currency_formats["standard"]
        minus = get_minus_sign_symbol(locale=self.locale)
        return Numbers(
            get_decimal_symbol(self.locale), get_group_symbol(self.locale),
            (pattern.prefix[0], pattern.prefix[1].replace("-", minus)),
            (pattern.suffix[0], pattern.suffix[1].replace("-", minus)),
            {code: (str(get_currency_symbol(code, locale=self.locale)), self.digits(code), self.name(code))
             for code in CURRENCIES})


def _money_in(language: str | None = None) -> BabelMoney:
    """Babel's numbers of ``language`` (one the app speaks), else the reader's."""
    return BabelMoney(_BABEL_LOCALE.get(language or ""))


money_words.use_server(_money_in)


def money_tables(languages: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The phone's money tables (:func:`referee.web.money_words.use`), by language."""
    return {code: BabelMoney(_BABEL_LOCALE.get(code, code)).numbers().to_dict() for code in languages}


def _babel_locale() -> str:
    code = str(get_locale() or "en")
    return _BABEL_LOCALE.get(code, code)


def locale_currency() -> str:
    """The currency of the reader's locale (the stake form's default)."""
    return _LOCALE_CURRENCY.get(str(get_locale() or "en"), "USD")


def _latest(game: Game, kind: str) -> Event | None:
    found = [event for event in live_events(game) if event.kind == kind]
    return found[-1] if found else None


def money_of(game: Game) -> Stake | None:
    """The sheet's stake (its latest :data:`MONEY` event still in force), ``None`` when not set."""
    event = _latest(game, MONEY)
    return Stake.from_dict(event.payload) if event is not None else None


def end_of(game: Game) -> EveningEnd:
    """The sheet's end switches (:func:`referee.web.evening_ends.end_from` of its events still in force)."""
    return end_from(live_events(game), game.setup)


def entered_times(game: Game, kind: str) -> list[datetime]:
    """When each game of a sheet was entered: its events of ``kind`` still in force, in order."""
    return entered_at(live_events(game), kind)


def undo_words(game: Game, entry_words: Callable[[Event], str]) -> str | None:
    """The undo button's words for a sheet's latest entry still in force (``None`` before the
    first): a stake or an end in this module's words (:func:`undo_label`), any other entry (a
    round, a game, a correction) in the sheet's own, ``entry_words``."""
    return events.undo_words(live_events(game), undo_label, entry_words)


# ---------------------------------------------------------------------------
# The view models


class Money(TypedDict):
    """What a game's page shows of the money: the keeper's stake form, and who pays whom
    (``None`` until a stake is set and there is a result to settle)."""

    stake_form: StakeForm
    settle_up: SettleUpView | None


def stake_words(stake: Stake, per: str = "point") -> str:
    """The stake in words: "1.000 ₫ a point" (``per="point"``) or "5,00 € a game won" (``"game"``)."""
    return money_words.stake_words(stake.amount, stake.currency, per)


def stake_form(action: str, version: int, stake: Stake | None, *, per: str = "point",
               with_settle: bool = False) -> StakeForm:
    """The stake form filled in with the sheet's stake (``per``: ``"point"`` or ``"game"`` won;
    ``with_settle``: the ``settle`` switch too, for a sheet where the lowest total wins), in the
    reader's language (:func:`referee.web.money_words.stake_form`, which the phone draws too)."""
    return money_words.stake_form(action, version, stake, locale_currency(), per=per, with_settle=with_settle,
                                  language=str(get_locale() or "en"))


class EveningMoney(Money):
    """What a score sheet's pages show of the money and of the evening's end (:class:`EndView`)."""

    evening_end: EndView


def sitting_of(game: Game, results: Sequence[Result], entered: Sequence[datetime] = (), *,
               ends: bool = True) -> Sitting:
    """A sheet or table as far as money goes (:class:`referee.evening_money.Sitting`): its results,
    its stake (:func:`money_of`) and, with ``ends``, the games its end switches count
    (:func:`end_of`; ``entered``: when each finished game was entered).  Its page and its group's
    evening both read :func:`referee.evening_money.balances` of it."""
    stake = money_of(game)
    end = end_of(game) if ends else EveningEnd()
    count = evening_money.counted(end, game.player_names, results, entered, start=game.created_at)
    at = tuple(entered) if len(entered) >= len(evening_money.finished(results)) else ()
    if stake is None:
        return Sitting(results=tuple(results), counted=count, entered=at)
    return Sitting(results=tuple(results), stake=stake.amount, currency=stake.currency, settle=stake.settle,
                   counted=count, entered=at)


def last_entered(game: Game) -> list[datetime]:
    """When a game of one result (a two-player table, a sheet scored once at its end) was last entered: its
    latest record still in force that is not a stake or an end (none before its first)."""
    played = [event.created_at for event in live_events(game) if event.kind not in EVENT_KINDS]
    return played[-1:]


def sitting_block(sitting: Sitting, stake: Stake | None, *, per: str = "point", note: str | None = None,
                  final: bool = False, square: Sequence[str] = ()) -> SettleUpView | None:
    """The settle-up block of a sheet's or table's page: :func:`referee.evening_money.balances`
    in words (``None`` until it plays for money and has something to settle; with ``square``,
    those players all square until then)."""
    rows = evening_money.balances(sitting) or dict.fromkeys(square, 0)
    if stake is None or not sitting.plays_for_money or not rows:
        return None
    return settle_up_view(rows, sitting.currency, stake_words=stake_words(stake, per), note=note, final=final)


GROUP_CUT: list[Callable[[Game, Sitting], tuple[Sitting, int]]] = []
"""Set by :mod:`referee.web.groups.evenings`: a game's sitting as its group's evening counts it
(the group's end over everything the evening holds), and how many of its finished games that end
left out besides its own."""


def money_block(game: Game, sitting: Sitting, endpoint_prefix: str, *, per: str = "point",
                with_settle: bool = False, note: str | None = None, final: bool = False,
                square: Sequence[str] = ()) -> Money:
    """What a sheet's or table's page shows of the money (:class:`Money`): the keeper's
    :func:`stake_form`, posting to the blueprint's ``settle_money`` and filled in with the game's
    stake, and the :func:`sitting_block` of its ``sitting`` (``per``: a point or a game won).  In
    a group whose end is set, the sitting as the group's evening counts it (``RULES.md``: the
    group's page and the sheets never disagree on an amount), the games past that end said."""
    stake = money_of(game)
    if GROUP_CUT and game.group_id is not None:
        own_past = len(evening_money.finished(sitting.results)) - len(evening_money.finished(sitting.counted_results))
        sitting, left_out = GROUP_CUT[0](game, sitting)
        if left_out:  # past its own end and past the group's: every game not in the result
            past = own_past + left_out
            note = ngettext("%(num)d game was played past the end; it is not in the result.",
                            "%(num)d games were played past the end; they are not in the result.", past)
    money_url, _ = sheet_urls(endpoint_prefix, game.keeper_token)
    return {"stake_form": stake_form(money_url, game.version, stake, per=per, with_settle=with_settle),
            "settle_up": sitting_block(sitting, stake, per=per, note=note, final=final, square=square)}


def sheet_rows(names: Sequence[str], totals: Sequence[int], stake: Stake) -> dict[str, int]:
    """A points sheet's balances: each total × the stake."""
    return {name: total * stake.amount for name, total in zip(names, totals, strict=True)}


# ---------------------------------------------------------------------------
# The sheet's forms


def add_sheet_routes(bp: Blueprint, followed: FollowedGame[Any],
                     check: Callable[[Access], None] | None = None, *,
                     ends: Sequence[str] = ("target", "games", "until"), refusal: Message | None = None) -> None:
    """Add a sheet's keeper forms to its blueprint: ``POST /g/<token>/money`` (endpoint
    ``<bp>.settle_money``) and ``POST /g/<token>/end`` (``<bp>.evening_end``).

    ``ends``: the end switches the game takes (``RULES.md``, "End of an evening": where each
    applies); a request setting another (or any, when it takes none) is refused with
    ``refusal`` at that switch's field (422) and nothing is stored."""

    def money(token: str) -> Response:
        typed = {"stake": str(request.form.get("stake", ""))[:30], "currency": str(request.form.get("currency", ""))[:3],
                 "settle": str(request.form.get("settle", "winner"))[:10], "lang": str(request.form.get("lang", ""))[:5]}

        def decide(access: Access, state: Any) -> tuple[str, dict[str, Any]]:
            stake = money_words.read_stake(typed, list_currencies(), tables_only=False)  # the phone's reading too
            assert stake is not None  # any currency Babel knows is read here
            return MONEY, stake

        return followed.write(token, decide, typed=typed, at="stake")

    def end(token: str) -> Response:
        typed = {key: str(request.form.get(key, ""))[:12] for key in END_FIELDS}

        def decide(access: Access, state: Any) -> tuple[str, dict[str, Any]]:
            return END, decide_end(typed, ends, refusal)

        return followed.write(token, decide, typed=typed, at="target" if ends else None)

    bp.add_url_rule("/g/<token>/money", endpoint="settle_money", view_func=money, methods=["POST"])
    bp.add_url_rule("/g/<token>/end", endpoint="evening_end", view_func=end, methods=["POST"])


def sheet_urls(endpoint_prefix: str, token: str) -> tuple[str, str]:
    """The stake form's and the end form's addresses on a sheet's blueprint."""
    return (url_for(f"{endpoint_prefix}.settle_money", token=token), url_for(f"{endpoint_prefix}.evening_end", token=token))
