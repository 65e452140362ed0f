"""Money in the reader's language, with no Flask and no Babel: one set of sentences for the
server and the phone.

A sheet's stake is read (:func:`parse_stake`), its money formatted (:func:`format_money`) and
its settle-up worded (:func:`settle_up_view`, :func:`stake_words`) here.  The numbers come
from a :class:`Money` source: on the server Babel's (:class:`referee.web.settle_up.BabelMoney`,
any currency Babel knows), in the phone's engine the :class:`Numbers` table the server
generated from Babel for each of the app's languages and the currencies the stake form offers
(``phone_kit.json``'s ``money``, installed by :func:`use`).  Both read and format with the same
rules (Babel's own, for these locales: a currency pattern's prefix and suffix, groups of three,
the currency's digits; a typed amount read as Babel's ``parse_decimal`` reads it), and the
parity test (``tests/test_money_words.py``) compares the table with Babel over every language,
every currency and many amounts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from referee import evening_money
from referee.errors import RefereeError
from referee.settle import SETTLE_CHOICES, Transfer, settle
from referee.text import message
from referee.web import words
from referee.web.words import gettext

__all__ = ["CURRENCIES", "MAX_STAKE", "Money", "MoneyRow", "Numbers", "SettleUpView", "Stake", "StakeForm", "TransferRow",
           "format_money", "parse_stake", "settle_up_view", "money_view", "read_stake", "stake_choices", "stake_form", "stake_of", "stake_shown", "stake_words", "use"]

MAX_STAKE = 10**12
"""The largest stake (in the currency's smallest unit) a sheet takes."""
MAX_STAKE_DIGITS = 15
"""A typed stake whose first digit stands higher than this power of ten is above any stake
(:data:`MAX_STAKE` in any currency): refused before it is worked with."""

#: The currencies offered first on the stake form (the server takes any ISO code Babel knows).
CURRENCIES = ("VND", "USD", "EUR", "BRL", "MXN", "ARS", "COP", "CLP", "PEN", "GBP", "AUD", "CAD")

SPACE_CHARS = ("\u202f", " ", "\xa0")
"""Babel's ``SPACE_CHARS``: a group symbol that is a space may be typed as any of them."""
_SPACE = re.compile("|".join(SPACE_CHARS))


class Money(Protocol):
    """Where the numbers of the reader's locale come from."""

    def known(self, currency: str) -> bool: ...
    def digits(self, currency: str) -> int: ...
    def format(self, amount: int, currency: str) -> str: ...
    def plain(self, amount: int, currency: str) -> str: ...
    def parse(self, text: str) -> Decimal: ...
    def name(self, currency: str) -> str: ...


@dataclass(frozen=True)
class Numbers:
    """A locale's numbers as Babel gives them, for the currencies of :data:`CURRENCIES`:
    ``decimal`` and ``group`` symbols, the currency pattern's ``prefix`` and ``suffix`` (positive,
    negative; ``¤`` stands for the symbol) and each currency's ``(symbol, digits, name)``."""

    decimal: str
    group: str
    prefix: tuple[str, str]
    suffix: tuple[str, str]
    currencies: Mapping[str, tuple[str, int, str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"decimal": self.decimal, "group": self.group, "prefix": list(self.prefix),
                "suffix": list(self.suffix), "currencies": {c: list(v) for c, v in self.currencies.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Numbers:
        return cls(str(data["decimal"]), str(data["group"]), (data["prefix"][0], data["prefix"][1]),
                   (data["suffix"][0], data["suffix"][1]),
                   {str(c): (str(v[0]), int(v[1]), str(v[2])) for c, v in data["currencies"].items()})

    # --- Money

    def known(self, currency: str) -> bool:
        return currency in self.currencies

    def digits(self, currency: str) -> int:
        return self.currencies[currency][1]

    def name(self, currency: str) -> str:
        return self.currencies[currency][2]

    def _number(self, value: Decimal, digits: int, group: bool) -> str:
        text = f"{abs(value).quantize(Decimal(1).scaleb(-digits)):f}"
        whole, _, fraction = text.partition(".")
        if group:
            parts: list[str] = []
            while len(whole) > 3:
                whole, tail = whole[:-3], whole[-3:]
                parts.insert(0, tail)
            whole = self.group.join([whole, *parts])
        return whole + (self.decimal + fraction if digits else "")

    def format(self, amount: int, currency: str) -> str:
        symbol, digits, _ = self.currencies[currency]
        negative = 1 if amount < 0 else 0
        number = self._number(Decimal(amount).scaleb(-digits), digits, True)
        return (self.prefix[negative].replace("¤", symbol) + number
                + self.suffix[negative].replace("¤", symbol))

    def plain(self, amount: int, currency: str) -> str:
        digits = self.digits(currency)
        return ("-" if amount < 0 else "") + self._number(Decimal(amount).scaleb(-digits), digits, False)

    def parse(self, text: str) -> Decimal:
        if self.group in SPACE_CHARS and self.group not in text and _SPACE.search(text):
            text = _SPACE.sub(self.group, text)
        return Decimal(text.replace(self.group, "").replace(self.decimal, "."))


_tables: list[Callable[[], Mapping[str, Mapping[str, Any]]]] = []  # the phone's (set by use())
_language: list[Callable[[], str]] = []
_server: list[Callable[[str | None], Money]] = []  # Babel's, set by referee.web.settle_up (the phone has no Babel)


def use_server(money: Callable[[str | None], Money]) -> None:
    """The server's money source (:class:`referee.web.settle_up.BabelMoney` of a language, by
    default the reader's)."""
    _server[:] = [money]
_read: dict[int, dict[str, Numbers]] = {}


def use(tables: Callable[[], Mapping[str, Mapping[str, Any]]], language: Callable[[], str]) -> None:
    """The phone's engine: while the phone speaks (:func:`referee.web.words.use`), read and
    format money with ``tables()`` (:meth:`Numbers.to_dict` by language), in ``language()``'s."""
    _tables[:], _language[:] = [tables], [language]


def source(language: str | None = None) -> Money:
    """The :class:`Money` of ``language`` (one the app speaks; by default the reader's): the
    phone's table while the phone speaks, else Babel (the server)."""
    if _tables and words.speaking():
        raw = _tables[0]()
        read = _read.get(id(raw))
        if read is None:
            _read.clear()
            read = _read[id(raw)] = {code: Numbers.from_dict(data) for code, data in raw.items()}
        return read.get(language or "") or read.get(_language[0]()) or read["en"]
    if not _server:
        raise RuntimeError("no money source: on the server, referee.web.settle_up gives Babel's")
    return _server[0](language)


def format_money(amount: int, currency: str) -> str:
    """An amount in the currency's smallest unit, formatted for the reader's locale
    (``1.200.000 ₫``, ``R$ 12,50``, ``$12.50``)."""
    return source().format(amount, currency)


def stake_shown(amount: int, currency: str) -> str:
    """A stake as the form shows it, in the currency's units with no groups (``12,50``)."""
    return source().plain(amount, currency)


def parse_stake(typed: str, currency: str, language: str | None = None) -> int:
    """The stake typed in the currency's units (``0,50``, ``1.000``) as a whole number of its
    smallest unit, read with the numbers of ``language`` (the one its form was drawn in: a stake
    kept on a phone and sent later is read as it was typed, whatever the reader's is by then);
    a sentence the keeper can act on otherwise."""
    money = source(language)
    text = typed.strip()
    if not text:
        return 0
    try:
        value = money.parse(text)
        if not value.is_finite():  # "NaN", "Infinity": Decimal reads them, no amount is one
            raise InvalidOperation(text)
    except (InvalidOperation, ValueError):
        raise RefereeError(message("“{typed}” is not an amount of money.", typed=text), field="stake") from None
    if value and value.adjusted() > MAX_STAKE_DIGITS:
        # "1e999999": far above any stake, refused before it is scaled (decimal.Overflow) or
        # made a whole number (a million digits: a minute of work)
        value = Decimal(MAX_STAKE + 1)
    smallest = value.scaleb(money.digits(currency))
    if smallest != smallest.to_integral_value():
        raise RefereeError(message("{currency} has no amount smaller than {unit}.", currency=currency,
                                   unit=money.format(1, currency)), field="stake")
    amount = int(smallest)
    if not 0 <= amount <= MAX_STAKE:
        raise RefereeError(message("A stake is between nothing and {most}.", most=money.format(MAX_STAKE, currency)),
                           field="stake")
    return amount


def stake_choices(currency: str) -> tuple[tuple[str, str], ...]:
    """The stake form's currencies (``currency`` first when it is not one of :data:`CURRENCIES`)."""
    money = source()
    codes = list(CURRENCIES)
    if currency not in codes:
        codes.insert(0, currency)
    return tuple((code, f"{code} · {money.name(code)}") for code in codes)


# ---------------------------------------------------------------------------
# The view models


@dataclass(frozen=True)
class Stake:
    """A sheet's stake: ``amount`` per point (or per game won) in ``currency``'s smallest unit;
    ``settle`` is the switch of a sheet where the lowest total wins (``winner`` or ``each``; other sheets keep the default)."""

    amount: int
    currency: str
    settle: str = "winner"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"stake": self.amount, "currency": self.currency}
        if self.settle != "winner":
            data["settle"] = self.settle
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stake:
        settle = str(data.get("settle", "winner"))
        return cls(int(data.get("stake", 0)), str(data.get("currency", "USD")),
                   settle if settle in SETTLE_CHOICES else "winner")


def stake_of(live: Sequence[Any], kind: str = "money") -> Stake | None:
    """A sheet's stake: its latest event of ``kind`` (:data:`referee.web.evening_ends.MONEY`)
    among ``live`` (its events still in force), ``None`` when not set."""
    found = [event for event in live if event.kind == kind]
    return Stake.from_dict(found[-1].payload) if found else None


@dataclass(frozen=True)
class MoneyRow:
    """One player's balance: ``amount`` in the smallest unit, ``shown`` formatted, ``words`` a sentence."""

    name: str
    amount: int
    shown: str
    words: str

    @property
    def sign(self) -> str:
        """``"owed"``, ``"owes"`` or ``"square"`` (the row's ``data-state``)."""
        return "owed" if self.amount > 0 else "owes" if self.amount < 0 else "square"


@dataclass(frozen=True)
class TransferRow:
    """One payment: who pays whom how much, formatted, and the sentence ("Binh pays An 12.000 ₫")."""

    payer: str
    payee: str
    amount: int
    shown: str
    words: str


@dataclass(frozen=True)
class SettleUpView:
    """What ``partials/settle_up.html`` draws: each balance and the fewest transfers, in words.

    ``title`` heads the block; ``stake_words`` says the stake ("1.000 ₫ a point"), ``note``
    one more line (such as games past the end not counted); ``final``: the evening is over.
    """

    currency: str
    rows: tuple[MoneyRow, ...]
    transfers: tuple[TransferRow, ...]
    title: str
    stake_words: str | None = None
    note: str | None = None
    final: bool = False


def settle_up_view(
    balances: Mapping[str, int], currency: str, *, stake_words: str | None = None, note: str | None = None,
    final: bool = False, title: str | None = None,
) -> SettleUpView:
    """The settle-up block of these balances (zero-sum, whole smallest units), in the reader's words."""
    rows = []
    for name, amount in balances.items():
        shown = format_money(abs(amount), currency)
        if amount > 0:
            words = gettext("%(name)s is owed %(amount)s", name=name, amount=shown)
        elif amount < 0:
            words = gettext("%(name)s owes %(amount)s", name=name, amount=shown)
        else:
            words = gettext("%(name)s is square", name=name)
        rows.append(MoneyRow(name, amount, shown, words))
    transfers = tuple(_transfer_row(t, currency) for t in settle(balances))
    if title is None:
        title = gettext("Settle up") if final else gettext("Settle up if the evening ended now")
    return SettleUpView(currency, tuple(rows), transfers, title, stake_words, note, final)


def _transfer_row(transfer: Transfer, currency: str) -> TransferRow:
    shown = format_money(transfer.amount, currency)
    words = gettext("%(payer)s pays %(payee)s %(amount)s", payer=transfer.payer, payee=transfer.payee, amount=shown)
    return TransferRow(transfer.payer, transfer.payee, transfer.amount, shown, words)


def stake_words(amount: int, currency: str, per: str = "point") -> str:
    """The stake in words: "1.000 ₫ a point" (``per="point"``) or "5,00 € a game won" (``"game"``)."""
    shown = format_money(amount, currency)
    if per == "game":
        return gettext("%(amount)s a game won", amount=shown)
    return gettext("%(amount)s a point", amount=shown)


@dataclass(frozen=True)
class StakeForm:
    """The keeper's stake form (``partials/stake_form.html``): where it posts and what it shows
    (``stake`` in the currency's units, as the reader writes them).  What was typed comes back
    through the page's ``feedback.typed`` (``stake``, ``currency``) after a refusal or a 409."""

    action: str
    version: int
    stake: str
    currency: str
    currencies: tuple[tuple[str, str], ...]
    label: str
    settle: str = "winner"
    settle_choices: tuple[tuple[str, str], ...] = ()
    """The ``settle`` switch's choices (empty: the form has no such field)."""
    language: str = ""
    """The language the form is drawn in (sent with it: ``lang``), whose numbers read the stake."""


# ---------------------------------------------------------------------------
# A sheet's or table's money from its records (the phone's; the server's settle_up.money_block)


def read_stake(typed: Mapping[str, str], known: Collection[str], *, tables_only: bool = True) -> dict[str, Any] | None:
    """The stake form read as the server's ``settle_money`` reads it (a :class:`RefereeError`
    names the field; ``known``: every currency code Babel knows), or ``None`` when its currency
    is one the phone's money tables have not (the referee reads it; the server, whose Babel knows
    every currency, reads any with ``tables_only=False``)."""
    currency = typed["currency"].strip().upper()
    if currency not in known:
        raise RefereeError(message("Choose a currency from the list."), field="currency")
    if tables_only and currency not in CURRENCIES:
        return None
    if typed["settle"] not in SETTLE_CHOICES:
        raise RefereeError(message("Choose how the stake is paid from the list."), field="settle")
    return Stake(parse_stake(typed["stake"], currency, typed.get("lang")), currency, typed["settle"]).to_dict()


def stake_form(action: str, version: int, stake: Stake | None, currency: str, *, per: str = "point",
               with_settle: bool = False, language: str | None = None) -> StakeForm:
    """The stake form filled in with the sheet's stake (``currency``: the reader's, when none is
    set; ``language``: the one it is drawn in, by default the phone's), for the server
    (:func:`referee.web.settle_up.stake_form`) and the phone alike."""
    chosen = stake.currency if stake else currency
    shown = stake_shown(stake.amount, stake.currency) if stake and stake.amount else ""
    label = gettext("Stake per game won") if per == "game" else gettext("Stake per point")
    settle_choices: tuple[tuple[str, str], ...] = ()
    if with_settle:
        settle_choices = (("winner", gettext("Everyone pays the winner the difference")),
                          ("each", gettext("Every pair squares the difference")))
    return StakeForm(action, version, shown, chosen, stake_choices(chosen), label,
                     stake.settle if stake else "winner", settle_choices,
                     language if language is not None else (_language[0]() if _language else ""))


def money_view(live: Sequence[Any], results: Sequence[Any], entered: Sequence[Any], end: Any, names: Sequence[str], *,
               start: Any, action: str, version: int, currency: str, per: str = "point", with_settle: bool = False,
               note: str | None = None, final: bool = False, square: Sequence[str] = ()) -> dict[str, Any]:
    """What a sheet or table in no group shows of the money (``stake_form``, ``settle_up``), from
    ``live`` (its events still in force, the stake among them), its ``results``, when each was
    ``entered`` and its ``end``, as :func:`referee.web.settle_up.money_block` draws it."""
    stake = stake_of(live)
    form = stake_form(action, version, stake, currency, per=per, with_settle=with_settle)
    if stake is None:
        return {"stake_form": form, "settle_up": None}
    count = evening_money.counted(end, names, results, entered, start=start)
    at = tuple(entered) if len(entered) >= len(evening_money.finished(results)) else ()
    sitting = evening_money.Sitting(results=tuple(results), stake=stake.amount, currency=stake.currency,
                                    settle=stake.settle, counted=count, entered=at)
    rows = evening_money.balances(sitting) or dict.fromkeys(square, 0)
    block = None
    if sitting.plays_for_money and rows:
        block = settle_up_view(rows, sitting.currency, stake_words=stake_words(stake.amount, stake.currency, per),
                               note=note, final=final)
    return {"stake_form": form, "settle_up": block}
