"""Tiến lên's verdicts: whether a play may go on the table, and the rule that decides it.

>>> str(check("8s", "8h").reason)
'8♠ is lower than 8♥'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import (
    Card,
    CardsLike,
    TooManyCopiesError,
)
from referee.errors import RefereeError
from referee.text import Message, message
from referee.tienlen.combinations import (
    THREE_OF_SPADES,
    Combination,
    Kind,
    NotACombinationError,
    _cards,
    card_power,
    classify,
    table_combination,
)
from referee.tienlen.rules import DEFAULT_RULES, TienLenRules

# ---------------------------------------------------------------------------
# Verdicts
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a play may go on the table, and the rule that decides it.

    ``bomb`` is true when the play is legal and beats a different kind (a bomb
    on 2s, or a bomb switch such as ``four_pairs_beat_quad``).
    """

    legal: bool
    play: Combination | None
    table: Combination | None
    bomb: bool
    reason: Message

    def __str__(self) -> str:
        return f"{'legal' if self.legal else 'not legal'}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "play": self.play.to_dict() if self.play else None,
            "table": self.table.to_dict() if self.table else None,
            "bomb": self.bomb,
            "reason": str(self.reason),
        }


# Built with message("...") so that pybabel extracts each sentence for translators.
_MUST_MATCH = {
    Kind.SINGLE: message("a single card must be beaten by a single card"),
    Kind.PAIR: message("a pair must be beaten by a pair"),
    Kind.TRIPLE: message("a triple must be beaten by a triple"),
    Kind.FOUR_OF_A_KIND: message("four of a kind must be beaten by a higher four of a kind"),
    Kind.SEQUENCE: message("a sequence must be beaten by a sequence"),
    Kind.DOUBLE_SEQUENCE: message("a double sequence must be beaten by a double sequence"),
}


SWITCH_NAMES = TienLenRules.NAMES
"""Each switch's name, as the sentences that name a switch say it (the rules class's ``NAMES``)."""


Judged = tuple[bool, bool, Message]
"""(legal, bomb, reason): a step's verdict of a play on the table."""

_QUAD, _DSEQ = Kind.FOUR_OF_A_KIND, Kind.DOUBLE_SEQUENCE


def _judge(play: Combination, table: Combination, rules: TienLenRules) -> Judged:
    """(legal, bomb, reason) for ``play`` on a non-empty ``table``: the first of the steps below
    that has a say (2s on the table, the bomb switches, another kind, another length), else the
    higher top card decides.

    >>> from referee.tienlen import parse_combination as c
    >>> legal, bomb, reason = _judge(c("3s 3h 4s 4h 5s 5h"), c("2d"), DEFAULT_RULES)
    >>> legal, bomb, str(reason)
    (True, True, 'a double sequence of 3 pairs bombs a single 2')
    >>> str(_judge(c("9s 9h"), c("8s 8h"), DEFAULT_RULES)[2])
    'the highest card decides: 9♥ is higher than 8♥'
    """
    for step in (_on_twos, _quad_on_pairs, _pairs_on_quad, _other_kind, _other_length):
        judged = step(play, table, rules)
        if judged is not None:
            return judged
    return _higher(play, table)


def _on_twos(play: Combination, table: Combination, rules: TienLenRules) -> Judged | None:
    """2s on the table and another kind played: the bomb rows of RULES.md.

    >>> from referee.tienlen import parse_combination as c
    >>> str(_on_twos(c("5s 5h 5c 5d"), c("2s 2h 2c 2d"), DEFAULT_RULES)[2])
    'nothing beats four 2s'
    >>> _on_twos(c("5s 5h"), c("2d"), DEFAULT_RULES)[:2]
    (False, False)
    >>> _on_twos(c("2h"), c("2d"), DEFAULT_RULES) is None  # a single on a single 2: the same kind
    True
    """
    if table.is_twos and table.kind is _QUAD:
        return False, False, message("nothing beats four 2s")
    if not table.is_twos or play.kind is table.kind:
        return None
    if table.kind is Kind.SINGLE:
        return _on_a_single_two(play)
    if table.kind is Kind.PAIR:
        return _on_a_pair_of_twos(play, rules)
    return _on_three_twos(play)


def _on_a_single_two(play: Combination) -> Judged:
    """
    >>> from referee.tienlen import parse_combination as c
    >>> str(_on_a_single_two(c("5s 5h 5c 5d"))[2])
    'four of a kind bombs a single 2'
    """
    if play.kind is _QUAD:
        return True, True, message("four of a kind bombs a single 2")
    if play.kind is _DSEQ:
        return True, True, message("a double sequence of {pairs} pairs bombs a single 2", pairs=play.pairs)
    return False, False, message(
        "a single 2 is beaten only by a higher 2, four of a kind "
        "or a double sequence of 3 or more pairs"
    )


def _on_a_pair_of_twos(play: Combination, rules: TienLenRules) -> Judged:
    """
    >>> from referee.tienlen import parse_combination as c
    >>> _on_a_pair_of_twos(c("3s 3h 4s 4h 5s 5h 6s 6h"), DEFAULT_RULES)[:2]
    (True, True)
    >>> _on_a_pair_of_twos(c("5s 5h 5c 5d"), DEFAULT_RULES)[:2]
    (False, False)
    >>> _on_a_pair_of_twos(c("5s 5h 5c 5d"), TienLenRules(quad_beats_pair_of_twos=True))[:2]
    (True, True)
    """
    if play.kind is _DSEQ and play.pairs >= 4:
        return True, True, message("a double sequence of {pairs} pairs beats a pair of 2s", pairs=play.pairs)
    switch = SWITCH_NAMES["quad_beats_pair_of_twos"]
    if play.kind is _QUAD and rules.quad_beats_pair_of_twos:
        return True, True, message("four of a kind beats a pair of 2s (house rule “{switch}”)", switch=switch)
    if play.kind is _QUAD:
        return False, False, message(
            "four of a kind bombs only a single 2 (a pair of 2s needs house rule “{switch}”)", switch=switch
        )
    if play.kind is _DSEQ:
        return False, False, message(
            "a pair of 2s is beaten only by a double sequence of 4 or more pairs, not {pairs}", pairs=play.pairs
        )
    if rules.quad_beats_pair_of_twos:
        return False, False, message(
            "a pair of 2s is beaten only by a higher pair of 2s, four of a kind "
            "or a double sequence of 4 or more pairs"
        )
    return False, False, message(
        "a pair of 2s is beaten only by a higher pair of 2s or a double sequence of 4 or more pairs"
    )


def _on_three_twos(play: Combination) -> Judged:
    """
    >>> from referee.tienlen import parse_combination as c
    >>> str(_on_three_twos(c("3s 3h 4s 4h 5s 5h 6s 6h"))[2])
    'three 2s are beaten only by a double sequence of 5 or more pairs, not 4'
    """
    if play.kind is _DSEQ and play.pairs >= 5:
        return True, True, message("a double sequence of {pairs} pairs beats three 2s", pairs=play.pairs)
    if play.kind is _DSEQ:
        return False, False, message(
            "three 2s are beaten only by a double sequence of 5 or more pairs, not {pairs}", pairs=play.pairs
        )
    return False, False, message("three 2s are beaten only by a double sequence of 5 or more pairs")


def _quad_on_pairs(play: Combination, table: Combination, rules: TienLenRules) -> Judged | None:
    """Four of a kind on a double sequence (switch ``quad_beats_three_pairs``).

    >>> from referee.tienlen import parse_combination as c
    >>> three_pairs = c("3s 3h 4s 4h 5s 5h")
    >>> _quad_on_pairs(c("9s 9h 9c 9d"), three_pairs, TienLenRules(quad_beats_three_pairs=True))[:2]
    (True, True)
    >>> _quad_on_pairs(c("9s 9h 9c 9d"), three_pairs, DEFAULT_RULES)[:2]
    (False, False)
    """
    if not (play.kind is _QUAD and table.kind is _DSEQ):
        return None
    switch = SWITCH_NAMES["quad_beats_three_pairs"]
    if table.pairs != 3:
        # No switch makes this legal: name none.
        return False, False, message("four of a kind does not beat a double sequence of {pairs} pairs",
                                     pairs=table.pairs)
    if not rules.quad_beats_three_pairs:
        return False, False, message(
            "four of a kind beats a double sequence of 3 pairs only with house rule “{switch}”", switch=switch
        )
    return True, True, message("four of a kind beats a double sequence of 3 pairs (house rule “{switch}”)",
                               switch=switch)


def _pairs_on_quad(play: Combination, table: Combination, rules: TienLenRules) -> Judged | None:
    """A double sequence on four of a kind (switch ``four_pairs_beat_quad``).

    >>> from referee.tienlen import parse_combination as c
    >>> str(_pairs_on_quad(c("3s 3h 4s 4h 5s 5h"), c("9s 9h 9c 9d"), DEFAULT_RULES)[2])
    'only a double sequence of 4 or more pairs beats four of a kind'
    """
    if not (play.kind is _DSEQ and table.kind is _QUAD):
        return None
    switch = SWITCH_NAMES["four_pairs_beat_quad"]
    if play.pairs < 4:
        # No switch makes this legal: name none.
        return False, False, message("only a double sequence of 4 or more pairs beats four of a kind")
    if not rules.four_pairs_beat_quad:
        return False, False, message(
            "a double sequence of {pairs} pairs beats four of a kind only with house rule “{switch}”",
            pairs=play.pairs,
            switch=switch,
        )
    return True, True, message(
        "a double sequence of {pairs} pairs beats four of a kind (house rule “{switch}”)",
        pairs=play.pairs,
        switch=switch,
    )


def _other_kind(play: Combination, table: Combination, rules: TienLenRules) -> Judged | None:
    """Another kind than the table's, no bomb: refused, naming what would beat it.

    >>> from referee.tienlen import parse_combination as c
    >>> str(_other_kind(c("3s 3h"), c("9h"), DEFAULT_RULES)[2])
    'a single card must be beaten by a single card'
    """
    if play.kind is table.kind:
        return None
    if table.kind is _QUAD and rules.four_pairs_beat_quad:
        return False, False, message(
            "four of a kind is beaten only by a higher four of a kind or a double sequence "
            "of 4 or more pairs"
        )
    if table.kind is _DSEQ and table.pairs == 3 and rules.quad_beats_three_pairs:
        return False, False, message(
            "a double sequence of 3 pairs is beaten only by a higher double sequence of 3 pairs "
            "or four of a kind"
        )
    return False, False, _MUST_MATCH[table.kind]


def _other_length(play: Combination, table: Combination, rules: TienLenRules) -> Judged | None:
    """The same kind of another length (sequences and double sequences).

    >>> from referee.tienlen import parse_combination as c
    >>> str(_other_length(c("3s 4h 5s 6d"), c("7s 8h 9s"), DEFAULT_RULES)[2])
    'a sequence must be beaten by a sequence of the same length: 4 cards on 3'
    """
    if play.length == table.length:
        return None
    if table.kind is Kind.SEQUENCE:
        return False, False, message(
            "a sequence must be beaten by a sequence of the same length: {play} cards on {table}",
            play=play.length,
            table=table.length,
        )
    return False, False, message(
        "a double sequence must be beaten by a double sequence of the same length: {play} pairs on {table}",
        play=play.pairs,
        table=table.pairs,
    )


def _higher(play: Combination, table: Combination) -> Judged:
    """One kind and size: the higher top card wins.

    >>> from referee.tienlen import parse_combination as c
    >>> str(_higher(c("8s"), c("8h"))[2])
    '8♠ is lower than 8♥'
    """
    # Each template is a literal so that pybabel extracts it for translators.
    higher = card_power(play.top) > card_power(table.top)
    if table.kind is Kind.SINGLE:
        if higher:
            return True, False, message("{play} is higher than {table}", play=play.top, table=table.top)
        return False, False, message("{play} is lower than {table}", play=play.top, table=table.top)
    # Two combinations of one kind and size: the one with the higher highest card wins.
    if higher:
        return True, False, message(
            "the highest card decides: {play} is higher than {table}", play=play.top, table=table.top
        )
    return False, False, message(
        "the highest card decides: {play} is lower than {table}", play=play.top, table=table.top
    )


def beats(play: Combination, table: Combination, rules: TienLenRules | None = None) -> bool:
    """Whether ``play`` may go on ``table``.

    >>> from referee.tienlen import parse_combination
    >>> beats(parse_combination("5s 5h 5c 5d"), parse_combination("2d"))
    True
    >>> beats(parse_combination("6s 6h 6c 6d"), parse_combination("2d 2h"))
    False
    >>> beats(parse_combination("6s 6h 6c 6d"), parse_combination("2d 2h"), TienLenRules(quad_beats_pair_of_twos=True))
    True
    """
    return _judge(play, table, rules or DEFAULT_RULES)[0]


def check(
    play_cards: CardsLike,
    table_cards: CardsLike = (),
    rules: TienLenRules | None = None,
    first_play: bool = False,
    *,
    opening_card: Card = THREE_OF_SPADES,
) -> Verdict:
    """Judge a play against the table (empty for a lead).

    An illegal play gives a verdict that says so; bad input raises: text that
    is not a card (:class:`NotationError`), a joker or a card given twice, or a
    card both in the play and on the table (:class:`TooManyCopiesError`), a
    table that is not a combination (:class:`NotACombinationError` with
    ``where="table"``).  ``first_play`` applies the opening rule ``first_lead``
    to ``opening_card``: the 3♠, or with 2–3 players the lowest card dealt.

    >>> str(check("4s 4h", first_play=True).reason)
    'the first play of the game must contain the 3♠'
    >>> str(check("3s 4h 5c", first_play=True).reason)
    'the first play of the game contains the 3♠'
    >>> str(check("3d 4d 5d", first_play=True, opening_card=Card.parse("3c")).reason)
    'the first play of the game must contain the 3♣'
    >>> str(check("3s 3d 3h", first_play=True, opening_card=Card.parse("3d")).reason)
    '3♠ was not dealt: the lowest card dealt is 3♦'
    >>> str(check("3s 3h", "9h").reason)
    'a single card must be beaten by a single card'
    >>> check("3s", "3s")
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: 3♠ is both on the table and in the play
    >>> check("3s", "4s 5h")
    Traceback (most recent call last):
    ...
    referee.tienlen.combinations.NotACombinationError: the table 4♠ 5♥ is not a combination: a sequence needs at least three cards
    """
    rules = rules or DEFAULT_RULES
    played = _cards(play_cards)
    on_table = _cards(table_cards)
    common = set(played) & set(on_table)
    if common:
        card = min(common, key=card_power)
        raise TooManyCopiesError(card, 2, 1, message("{card} is both on the table and in the play", card=card))
    table: Combination | None = None
    if on_table:
        table = table_combination(on_table, rules)
    if first_play and table is not None:
        raise RefereeError(message("the first play of the game is made on an empty table"))
    try:
        play = classify(played, rules)
    except NotACombinationError as err:
        return Verdict(False, None, table, False, err.why)
    if table is None:
        card = opening_card
        if first_play:
            below = [c for c in play.cards if card_power(c) < card_power(card)]
            if below:  # with 2–3 players the cards below the lowest dealt are in nobody's hand
                return Verdict(False, play, None, False, message(
                    "{card} was not dealt: the lowest card dealt is {lowest}", card=below[0], lowest=card))
        if first_play and rules.first_lead == "contains_3s":
            if card not in play.cards:
                return Verdict(False, play, None, False,
                               message("the first play of the game must contain the {card}", card=card))
            return Verdict(True, play, None, False, message("the first play of the game contains the {card}", card=card))
        if first_play and rules.first_lead == "three_spades_alone":
            if play.cards != (card,):
                return Verdict(False, play, None, False,
                               message("the first play of the game must be the {card} alone", card=card))
            return Verdict(True, play, None, False, message("the first play of the game is the {card} alone", card=card))
        return Verdict(True, play, None, False, message("any combination may be led on an empty table"))
    legal, bomb, reason = _judge(play, table, rules)
    return Verdict(legal, play, table, bomb, reason)
