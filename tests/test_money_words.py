"""The phone's money (:class:`referee.web.money_words.Numbers`, generated from Babel into
pages.zip's kit) reads and formats as Babel does on the server (issue 35: a stake set offline):
every language, every currency the stake form offers, many amounts, typed stakes good and bad."""

from __future__ import annotations

import random
from decimal import InvalidOperation

import pytest

from referee.errors import RefereeError
from referee.web import money_words
from referee.web.money_words import CURRENCIES, MAX_STAKE, Numbers
from referee.web.settle_up import BabelMoney, money_tables

LANGUAGES = ("en", "vi", "es", "pt")
LOCALES = {"en": "en_US", "es": "es_ES", "pt": "pt_BR", "vi": "vi_VN"}


def amounts() -> list[int]:
    rng = random.Random(35)
    found = [0, 1, 5, 9, 10, 99, 100, 101, 999, 1000, 1001, 12345, 99999, 100000, 123456789, MAX_STAKE, MAX_STAKE + 1]
    found += [rng.randrange(10 ** rng.randrange(1, 16)) for _ in range(300)]
    return found + [-a for a in found[:40]]


TYPED = ["", "0", "1", "2.50", "2,50", "0,5", "0.5", "1.000", "1,000", "1 000", "1\xa0000", "1\u202f000", "12.345,67",
         "12,345.67", "abc", "1e3", "1E-2", "-5", "+5", "0.001", "0,001", "1.2.3", "1,2,3", "NaN", "Infinity", "1_000",
         " 7 ", "١٢", "5$", "€5", "10000000000000", "99999999999,99", "0.10", "000012", ".5", ",5", "5.", "5,",
         "1e999999", "1e999997", "0e999999", "1e-999999", "1e16", "-1e999999"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_formats_money_as_babel_does(language):  # type: ignore[no-untyped-def]
    babel, table = BabelMoney(LOCALES[language]), Numbers.from_dict(money_tables([language])[language])
    for currency in CURRENCIES:
        assert table.name(currency) == babel.name(currency)
        assert table.digits(currency) == babel.digits(currency)
        for amount in amounts():
            assert table.format(amount, currency) == babel.format(amount, currency), (currency, amount)
            if amount >= 0:
                assert table.plain(amount, currency) == babel.plain(amount, currency), (currency, amount)


def read(money: money_words.Money, typed: str, currency: str) -> tuple[str, object]:
    """What :func:`money_words.parse_stake` makes of ``typed`` with ``money``: the amount or the mistake's words."""
    saved = money_words.source
    money_words.source = lambda language=None: money  # type: ignore[assignment]
    try:
        return "amount", money_words.parse_stake(typed, currency)
    except RefereeError as exc:
        return "refused", (str(exc.reason), exc.field)
    finally:
        money_words.source = saved  # type: ignore[assignment]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_reads_a_typed_stake_as_babel_does(language):  # type: ignore[no-untyped-def]
    babel, table = BabelMoney(LOCALES[language]), Numbers.from_dict(money_tables([language])[language])
    for currency in CURRENCIES:
        for typed in TYPED:
            assert read(table, typed, currency) == read(babel, typed, currency), (currency, typed)
        for text in TYPED:
            try:
                theirs: object = babel.parse(text)
            except (InvalidOperation, ValueError):
                theirs = "unreadable"
            try:
                ours: object = table.parse(text)
            except (InvalidOperation, ValueError):
                ours = "unreadable"
            assert str(ours) == str(theirs), text


def test_the_tables_are_small():  # type: ignore[no-untyped-def]
    import json

    assert len(json.dumps(money_tables(list(LANGUAGES)), ensure_ascii=False).encode()) < 6000
