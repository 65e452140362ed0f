"""What a game of Trece records: its setup and one record per action."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.cards import (
    AnyCard,
    Card,
    Suit,
    card_of,
    format_cards,
    parse_cards,
)
from referee.records import Records
from referee.switches import rules_from_mapping
from referee.text import message
from referee.trece.play import SetupError
from referee.trece.rules import PENALTY, TreceRules


def _two_names(value: Any) -> tuple[str, str]:
    names = tuple(value)
    if len(names) != 2:
        raise SetupError(message("Trece needs two named players, not {players}", players=repr(names)))
    return (names[0], names[1])


def _player_index(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise SetupError(message("a player is 0 or 1, not {value}", value=repr(value)))
    return value


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game starts: the two players, who deals, who plays first, the turned card.

    The dealer's opponent plays first unless ``first`` says otherwise.  A joker
    cannot start the pile (it would demand a suit of nobody): the table puts it
    back and turns the next card.

    >>> s = Setup(("Ana", "Ben"), Card.parse("9♣"))
    >>> s.dealer, s.first
    (0, 1)
    >>> Setup.from_dict(s.to_dict()) == s
    True
    >>> from referee.cards import RED_JOKER
    >>> Setup(("Ana", "Ben"), RED_JOKER)
    Traceback (most recent call last):
    ...
    referee.trece.play.SetupError: RJ cannot start the pile: put it back and turn the next card
    """

    players: tuple[str, str]
    turned: Card
    dealer: int = 0
    first: int | None = None
    rules: TreceRules = field(default_factory=TreceRules)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        if len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
            raise SetupError(message("Trece needs two named players, not {players}", players=repr(players)))
        if players[0] == players[1]:
            raise SetupError(message("the two players need different names, not {name} twice", name=repr(players[0])))
        object.__setattr__(self, "players", players)
        turned = card_of(self.turned)
        if not isinstance(turned, Card):
            raise SetupError(message("{card} cannot start the pile: put it back and turn the next card", card=turned))
        object.__setattr__(self, "turned", turned)
        object.__setattr__(self, "dealer", _player_index(self.dealer))
        first = 1 - self.dealer if self.first is None else _player_index(self.first)
        object.__setattr__(self, "first", first)
        if not isinstance(self.rules, TreceRules):
            raise TypeError(f"rules must be TreceRules, not {self.rules!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "turned": str(self.turned),
            "dealer": self.dealer,
            "first": self.first,
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        return cls(
            players=_two_names(data["players"]),
            turned=Card.parse(data["turned"]),
            dealer=data.get("dealer", 0),
            first=data.get("first"),
            rules=rules_from_mapping(TreceRules, data.get("rules")),
        )


@dataclass(frozen=True, slots=True)
class Play:
    """A player put ``cards`` on the pile, in that order (a single card or a run).

    ``demands_suit`` is the suit the other player must now play when the play
    ended with a joker; ``won`` says it was the player's last card.
    """

    player: int
    cards: tuple[AnyCard, ...]
    demands_suit: Suit | None = None
    won: bool = False

    action: ClassVar[str] = "play"

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "cards": format_cards(self.cards),
            "demands_suit": None if self.demands_suit is None else self.demands_suit.symbol,
            "won": self.won,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Play:
        suit = data.get("demands_suit")
        return cls(
            _player_index(data["player"]),
            parse_cards(data["cards"]),
            None if suit is None else Suit.parse(suit),
            bool(data.get("won", False)),
        )


@dataclass(frozen=True, slots=True)
class Draw:
    """A player picked up ``count`` cards instead of playing; the turn passed.

    ``penalty`` marks the 13 cards for not following a joker's demand.
    ``returned`` lists the pile cards shuffled back into the stock on the way
    (the stock ran out); ``count`` may be short of what was due when even the
    pile could not supply enough.
    """

    player: int
    count: int = 1
    penalty: bool = False
    returned: tuple[AnyCard, ...] = ()

    action: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "count": self.count,
            "penalty": self.penalty,
            "returned": format_cards(self.returned),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Draw:
        return cls(
            _player_index(data["player"]),
            int(data.get("count", 1)),
            bool(data.get("penalty", False)),
            parse_cards(data.get("returned", "")),
        )


@dataclass(frozen=True, slots=True)
class LastCard:
    """``player``, holding one card, said "last card"."""

    player: int

    action: ClassVar[str] = "last_card"

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "player": self.player}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LastCard:
        return cls(_player_index(data["player"]))


@dataclass(frozen=True, slots=True)
class Thirteen:
    """``player`` said "thirteen" before the other player said "last card".

    The other player (``target``) picked up ``count`` cards (13 unless the
    stock and pile held fewer); ``returned`` as for :class:`Draw`.
    """

    player: int
    target: int = 0
    count: int = PENALTY
    returned: tuple[AnyCard, ...] = ()

    action: ClassVar[str] = "thirteen"

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "player": self.player,
            "target": self.target,
            "count": self.count,
            "returned": format_cards(self.returned),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Thirteen:
        player = _player_index(data["player"])
        return cls(
            player,
            _player_index(data.get("target", 1 - player)),
            int(data.get("count", PENALTY)),
            parse_cards(data.get("returned", "")),
        )


Record = Play | Draw | LastCard | Thirteen
RECORDS: Records[Record] = Records("Trece", Play, Draw, LastCard, Thirteen)


def record_from_dict(data: Mapping[str, Any]) -> Record:
    """Read back any record written by ``to_dict()``.

    >>> record_from_dict({"action": "play", "player": 1, "cards": "K♥ RJ", "demands_suit": "♥"})
    Play(player=1, cards=(Card.parse('K♥'), Joker.parse('RJ')), demands_suit=<Suit.HEARTS: 3>, won=False)
    """
    return RECORDS.from_dict(data)
