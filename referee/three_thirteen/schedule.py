"""Three Thirteen's rounds: how many cards each deals, which rank is wild, who deals and starts."""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import (
    Rank,
)
from referee.errors import RefereeError, SeatError
from referee.text import message
from referee.three_thirteen.rules import (
    _DEFAULT_RULES,
    ThreeThirteenRules,
    decks_for,
)

# ---------------------------------------------------------------------------
# Rounds


class RoundNumberError(RefereeError):
    """A round the game does not have."""

    def __init__(self, round_number: object, rounds: int) -> None:
        self.round_number = round_number
        self.rounds = rounds
        super().__init__(message(
            "there is no round {round}: this game has rounds 1 to {rounds}", round=repr(round_number), rounds=rounds
        ))


def _wild_rank_for(dealt: int) -> Rank:
    """3 to 13 cards: the rank with that number; 14: aces; 15: 2s."""
    return Rank(dealt) if dealt <= 13 else Rank(dealt - 13)


@dataclass(frozen=True)
class Schedule:
    """The plan of rounds: cards dealt, wild rank, dealer and doubled rounds.

    Eleven rounds deal 3 to 13 cards; the wild rank is the number dealt.

    >>> s = Schedule()
    >>> s.rounds, s.cards_dealt(1), s.wild_rank(1).plural, s.wild_rank(9).plural, s.wild_rank(11).plural
    (11, 3, '3s', 'jacks', 'kings')

    The longer game adds 14 cards with aces wild and 15 with 2s wild; up and back
    comes down again, dealing 13 twice in a row.

    >>> long = Schedule(ThreeThirteenRules(longer_game=True))
    >>> long.rounds, long.cards_dealt(12), long.wild_rank(12).plural, long.wild_rank(13).plural
    (13, 14, 'aces', '2s')
    >>> Schedule(ThreeThirteenRules(up_and_back=True)).deals[9:13]
    (12, 13, 13, 12)

    With ``doubles`` the jack, queen and king rounds count double.

    >>> d = Schedule(ThreeThirteenRules(doubles=True))
    >>> [r for r in range(1, d.rounds + 1) if d.is_doubled(r)]
    [9, 10, 11]
    """

    rules: ThreeThirteenRules = _DEFAULT_RULES

    @property
    def deals(self) -> tuple[int, ...]:
        """Cards dealt in each round, first to last."""
        top = 15 if self.rules.longer_game else 13
        up = tuple(range(3, top + 1))
        return up + up[::-1] if self.rules.up_and_back else up

    @property
    def rounds(self) -> int:
        return len(self.deals)

    def _check(self, round_number: int) -> int:
        if isinstance(round_number, bool) or not isinstance(round_number, int) or not (
            1 <= round_number <= self.rounds
        ):
            raise RoundNumberError(round_number, self.rounds)
        return round_number

    def cards_dealt(self, round_number: int) -> int:
        """Cards each player holds in round ``round_number`` (1-based)."""
        return self.deals[self._check(round_number) - 1]

    def wild_rank(self, round_number: int) -> Rank:
        """The rank that is wild: the number of cards dealt."""
        return _wild_rank_for(self.cards_dealt(round_number))

    def is_doubled(self, round_number: int) -> bool:
        """With ``doubles``, rounds where jacks, queens or kings are wild count double."""
        wild = self.wild_rank(round_number)
        return self.rules.doubles and wild in (Rank.JACK, Rank.QUEEN, Rank.KING)

    def dealer(self, round_number: int, *, first_dealer: int, players: int) -> int:
        """The dealer's seat; seats are numbered in playing order, so the deal
        passes to the next seat (the left) each round.

        >>> [Schedule().dealer(r, first_dealer=2, players=3) for r in (1, 2, 3, 4)]
        [2, 0, 1, 2]
        """
        self._check_seat(first_dealer, players)
        return (first_dealer + self._check(round_number) - 1) % players

    def starter(self, round_number: int, *, first_dealer: int, players: int) -> int:
        """The round is opened by the seat after the dealer (play goes to the left).

        >>> Schedule().starter(1, first_dealer=2, players=3)
        0
        """
        return (self.dealer(round_number, first_dealer=first_dealer, players=players) + 1) % players

    @staticmethod
    def _check_seat(seat: int, players: int) -> None:
        decks_for(players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise SeatError(seat, players)
