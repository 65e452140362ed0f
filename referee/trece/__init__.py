"""Trece: the two-player shedding game with red and black jokers.

One 52-card deck plus a red and a black joker (54 cards).  Each player gets 13
cards, one card turned face up starts the pile and the other 27 are the stock.
The first player to hold no cards wins.

**Single card.**  A card goes on the top of the pile if its rank is one above or
one below, whatever the suit.  Ranks go round, so an ace sits between a king and
a 2:

>>> check_play("J♦", "Q♠").legal, check_play("J♦", "10♥").legal
(True, True)
>>> check_play("K♣", "A♥").legal, check_play("2♣", "A♥").legal, check_play("A♦", "K♠").legal
(True, True, True)
>>> print(check_play("J♦", "7♣").reason)
7♣ is not one rank from J♦

**Run.**  Several cards in one turn, in the order played.  The first card
follows the single-card rule; every next card is the suit of the card before it
and one rank above or below it.  The direction may turn, and ranks go round
inside a run too (``A♠ K♠`` and ``K♠ A♠`` both step by one).  After a king, any
queen or any ace of any suit may follow:

>>> check_play("J♦", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣").legal
True
>>> print(check_play("J♦", "Q♥ K♥ Q♣ J♥").reason)
J♥ is not a ♣: each card of a run is the suit of the card before it

**Jokers.**  A joker goes only on a king of its own colour (red on ♥ or ♦,
black on ♠ or ♣), alone or as the last card of a run; it ends the run.  The
other player must then play a card of that king's suit:

>>> v = check_play("Q♥", "K♥ RJ")
>>> v.legal, v.joker, v.demands_suit
(True, True, <Suit.HEARTS: 3>)
>>> print(check_play("K♠", "RJ").reason)
a red joker goes only on a red king, not on K♠
>>> print(check_play("Q♥", "K♥ RJ A♥").reason)
a joker ends the run: nothing may follow RJ
>>> from referee.cards import Suit
>>> print(check_play("RJ", "7♣", must_follow=Suit.HEARTS).reason)
you must play a ♥, not 7♣

Whoever cannot follow the demand picks up 13 cards; after that the two players
take turns to play the suit or pick up one card, until one of them plays it.
That card is played alone (house rule ``run_after_joker``: it may begin a run).
Once played it is the new top and the single-card rule applies to it, so a
joker is on top only while its demand is pending.

:class:`State` is the two-player game as the app sees it: the cards played and
how many cards each player and the stock hold, never the hands themselves.

Where the sheet says little, the referee decides so:

- The wrap applies inside a run as well (the sheet's own example steps ``A♠ K♠``).
- After a king only a queen or an ace may follow, even in the king's suit (its
  only neighbours anyway).
- Drawing ends the turn, outside a demand as inside it (the sheet has the
  players alternate one card each).  The app cannot see hands, so it takes the
  table's word that a player who draws could not play.
- The pile is turned into a new stock as soon as someone takes the last stock
  card (as the sheet says), and again in the middle of a 13-card pick-up when
  needed.  If even the pile cannot supply the cards due, the player takes what
  there is (possibly none) and the turn still passes.
- A card is refused as played twice while it lies in the pile.  Cards shuffled
  back into the stock may be played again once drawn: a player cannot play more
  of them than they have taken from the stock since (the referee cannot see
  which cards those were, only how many).
- "Last card" and "thirteen" are not turns: they may be said at any moment
  while a player holds one card.  A player who draws and comes back down to one
  card must say "last card" again.  The challenge costs the caught player 13
  cards (fewer if the stock and pile run dry), and a wrong challenge is refused
  without cost.
- A player who plays their last card wins at once, even with a joker.
- A joker cannot be the turned card that starts the pile: the table puts it
  back and turns the next one.  The dealer's opponent plays first by default.

One idea a module: :mod:`~referee.trece.rules` (the deck, the house rules),
:mod:`~referee.trece.play` (whether a play goes on the pile), :mod:`~referee.trece.actions`
(the setup and the records) and :mod:`~referee.trece.state` (the game's state machine);
every public name is here too.
"""

from __future__ import annotations

from referee.trece.actions import RECORDS, Draw, LastCard, Play, Record, Setup, Thirteen, record_from_dict
from referee.trece.play import (
    DemandError,
    DuplicateCardError,
    EmptyPlayError,
    IllegalActionError,
    IllegalPlayError,
    SetupError,
    Verdict,
    check_play,
    is_one_rank_apart,
)
from referee.trece.rules import DECK_SIZE, HAND_SIZE, PENALTY, TRECE_JOKERS, TreceRules
from referee.trece.state import State, replay

__all__ = [
    "DECK_SIZE",
    "HAND_SIZE",
    "PENALTY",
    "TRECE_JOKERS",
    "TreceRules",
    "Verdict",
    "check_play",
    "is_one_rank_apart",
    "DuplicateCardError",
    "EmptyPlayError",
    "DemandError",
    "SetupError",
    "IllegalActionError",
    "IllegalPlayError",
    "Setup",
    "Play",
    "Draw",
    "LastCard",
    "Thirteen",
    "Record",
    "record_from_dict",
    "RECORDS",
    "State",
    "replay",
]
