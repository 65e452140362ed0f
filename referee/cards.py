"""Cards and the notation players write them in.

A card is a rank then a suit: ``10♥``, ``10h``, ``TH``, ``qs``.  Suits may be
written as symbols (``♠ ♣ ♦ ♥``, also the white ``♤ ♧ ♢ ♡``) or letters
(``s c d h``, either case); ``T`` stands for 10.  A suit symbol may also come
first, as card players often write it (``♣5``).  Jokers are ``JK`` (colourless),
``RJ`` (red) and ``BJ`` (black).

>>> parse_cards("10♥ 10h TH")
(Card.parse('10♥'), Card.parse('10♥'), Card.parse('10♥'))
>>> format_cards(parse_cards("3s,3c4d qs RJ"))
'3♠ 3♣ 4♦ Q♠ RJ'
>>> parse_cards("3s 1x")
Traceback (most recent call last):
...
referee.cards.NotationError: '1x' at position 2 is not a card (write 10 or T for ten)

Each game sorts cards its own way; the natural order here is rank (ace low)
then suit in the order ♠ ♣ ♦ ♥, with jokers last.
"""

from __future__ import annotations

import enum
import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from referee.errors import RefereeError
from referee.text import Message, message

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "Joker",
    "AnyCard",
    "CardsLike",
    "NotationError",
    "TooManyCopiesError",
    "parse_card",
    "parse_cards",
    "card_of",
    "cards_of",
    "suited_cards",
    "card_name",
    "format_cards",
    "check_copies",
    "full_deck",
    "notation_for_javascript",
    "notation_pattern",
    "card_pattern",
    "suit_pattern",
    "JOKER",
    "RED_JOKER",
    "BLACK_JOKER",
]


class NotationError(RefereeError):
    """Text that is not a card, with the bad piece and its position (1-based).

    ``reason`` is the sentence as a translatable :class:`~referee.text.Message`.

    >>> err = NotationError("3s 1x", "1x", 2)
    >>> err.piece, err.position
    ('1x', 2)
    >>> str(err)
    "'1x' at position 2 is not a card"
    """

    def __init__(self, text: str, piece: str, position: int, why: Message | None = None) -> None:
        self.text = text
        self.piece = piece
        self.position = position
        self.why = str(why) if why else ""
        if why:
            reason = message(
                "{piece} at position {position} is not a card ({why})", piece=repr(piece), position=position, why=why
            )
        else:
            reason = message("{piece} at position {position} is not a card", piece=repr(piece), position=position)
        super().__init__(reason)


class TooManyCopiesError(RefereeError):
    """A card the game's decks cannot hold that many times.

    ``reason`` is the sentence as a translatable :class:`~referee.text.Message`.

    >>> check_copies(parse_cards("3s 4s 3s"))
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: 3♠ appears 2 times, but one deck holds it only once
    """

    def __init__(self, card: AnyCard, count: int, limit: int, reason: Message) -> None:
        self.card = card
        self.count = count
        self.limit = limit
        super().__init__(reason)


class Suit(enum.IntEnum):
    """The four suits, in Tiến lên order: ♠ < ♣ < ♦ < ♥."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        """The printed symbol.

        >>> Suit.HEARTS.symbol
        '♥'
        """
        return "♠♣♦♥"[self]

    @property
    def letter(self) -> str:
        """The ASCII letter.

        >>> Suit.CLUBS.letter
        'c'
        """
        return "scdh"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red.

        >>> Suit.DIAMONDS.is_red, Suit.SPADES.is_red
        (True, False)
        """
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def color(self) -> str:
        """``"red"`` or ``"black"``."""
        return "red" if self.is_red else "black"

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read the notation people write.

        >>> Suit.parse("♡"), Suit.parse("S")
        (<Suit.HEARTS: 3>, <Suit.SPADES: 0>)
        """
        try:
            return _SUITS[text.lower()]
        except KeyError:
            raise ValueError(f"{text!r} is not a suit") from None


_SUITS: dict[str, Suit] = {}
_SUIT_SPELLINGS = ("♠♤s", "♣♧c", "♦♢d", "♥♡h")  # each suit's symbols, then its letter
for _suit, _chars in zip(Suit, _SUIT_SPELLINGS, strict=False):
    for _ch in _chars:
        _SUITS[_ch] = _suit
# Emoji presentation selector sometimes follows a suit symbol on phones.
_VARIATION_SELECTORS = "\ufe0f\ufe0e"


class Rank(enum.IntEnum):
    """Ranks by face value: ace 1 up to king 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The printed symbol.

        >>> Rank.TEN.symbol, Rank.QUEEN.symbol, Rank.ACE.symbol
        ('10', 'Q', 'A')
        """
        return _RANK_SYMBOLS[self]

    @property
    def plural(self) -> str:
        """How players say the rank in the plural: ``"6s"``, ``"jacks"``.

        >>> Rank.SIX.plural, Rank.JACK.plural, Rank.ACE.plural
        ('6s', 'jacks', 'aces')
        """
        return {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}.get(int(self), f"{self.symbol}s")

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read the notation people write.

        >>> Rank.parse("t"), Rank.parse("10"), Rank.parse("a")
        (<Rank.TEN: 10>, <Rank.TEN: 10>, <Rank.ACE: 1>)
        """
        try:
            return _RANKS[text.upper()]
        except KeyError:
            raise ValueError(f"{text!r} is not a rank") from None


_RANK_SYMBOLS = {r: s for r, s in zip(Rank, "A 2 3 4 5 6 7 8 9 10 J Q K".split(), strict=False)}
_RANKS: dict[str, Rank] = {s: r for r, s in _RANK_SYMBOLS.items()}
_RANKS["T"] = Rank.TEN


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card.

    >>> Card(Rank.TEN, Suit.HEARTS)
    Card.parse('10♥')
    >>> str(Card.parse("th")), Card.parse("th").ascii
    ('10♥', '10h')
    >>> Card.parse("qs") < Card.parse("qh")
    True
    """

    rank: Rank
    suit: Suit

    is_joker = False

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse exactly one card (not a joker)."""
        card = parse_card(text)
        if not isinstance(card, Card):
            raise NotationError(text, text, 1, message("a joker, not a suited card"))
        return card

    @property
    def ascii(self) -> str:
        """The card in letters only: ``10h``."""
        return f"{self.rank.symbol}{self.suit.letter}"

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


class JokerColor(enum.Enum):
    RED = "red"
    BLACK = "black"


@dataclass(frozen=True, slots=True)
class Joker:
    """A joker: colourless (``JK``), red (``RJ``) or black (``BJ``).

    >>> Joker(JokerColor.RED)
    Joker.parse('RJ')
    >>> str(JOKER), str(BLACK_JOKER)
    ('JK', 'BJ')
    """

    color: JokerColor | None = None

    is_joker = True

    @classmethod
    def parse(cls, text: str) -> Joker:
        card = parse_card(text)
        if not isinstance(card, Joker):
            raise NotationError(text, text, 1, message("not a joker"))
        return card

    @property
    def ascii(self) -> str:
        return str(self)

    @property
    def is_red(self) -> bool:
        return self.color is JokerColor.RED

    def __str__(self) -> str:
        return {None: "JK", JokerColor.RED: "RJ", JokerColor.BLACK: "BJ"}[self.color]

    def __repr__(self) -> str:
        return f"Joker.parse({str(self)!r})"

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return False
        if isinstance(other, Joker):
            return _joker_index(self) < _joker_index(other)
        return NotImplemented


def _joker_index(j: Joker) -> int:
    return (None, JokerColor.RED, JokerColor.BLACK).index(j.color)


AnyCard = Card | Joker

JOKER = Joker(None)
RED_JOKER = Joker(JokerColor.RED)
BLACK_JOKER = Joker(JokerColor.BLACK)
_JOKERS = {"JK": JOKER, "RJ": RED_JOKER, "BJ": BLACK_JOKER, "🃏": JOKER}

# One token: a joker, a rank then a suit, or a suit symbol then a rank.
_SUIT_CHARS = "♠♤♣♧♦♢♥♡"
_TOKEN = re.compile(
    r"(?P<joker>JK|RJ|BJ|🃏)"
    r"|(?P<rank>10|[2-9AJQKT])[\ufe0f\ufe0e]?(?P<suit>[SCDH" + _SUIT_CHARS + r"])[\ufe0f\ufe0e]?"
    r"|(?P<suit1>[" + _SUIT_CHARS + r"])[\ufe0f\ufe0e]?(?P<rank1>10|[2-9AJQKT])",
    # ASCII letters only are folded: Unicode folding would read the Kelvin sign as K and a long
    # s as s, which no table of ranks and suits holds (a KeyError, not a NotationError).
    re.IGNORECASE | re.ASCII,
)
_SEPARATORS = re.compile(r"[\s,;]+")


def notation_for_javascript() -> dict[str, object]:
    """The notation :func:`parse_cards` reads, as data a JavaScript reader compiles (the card
    picker reads it from the page, so the grammar is written once, here): ``token``, one card
    as a regular expression (groups: a joker; a rank and a suit; a suit and a rank), ``flags``,
    ``separators``, and the canonical spelling of each suit symbol, rank and joker it accepts
    that is not already one (letters ``s c d h`` in lower case, ranks ``A 2 … 10 J Q K`` and
    jokers ``JK RJ BJ`` in upper case).

    >>> grammar = notation_for_javascript()
    >>> grammar["suits"]["♡"], grammar["ranks"], grammar["jokers"], grammar["flags"]
    ('h', {'T': '10'}, {'🃏': 'JK'}, 'i')
    >>> "(?P<" in str(grammar["token"])
    False
    """
    return {
        "token": _TOKEN.pattern.replace("(?P<", "(?<"),
        "flags": "i",
        "separators": _SEPARATORS.pattern,
        "suits": {ch: chars[-1] for chars in _SUIT_SPELLINGS for ch in chars if ch != chars[-1]},
        "ranks": {text: _RANK_SYMBOLS[rank] for text, rank in _RANKS.items() if text != _RANK_SYMBOLS[rank]},
        "jokers": {text: str(joker) for text, joker in _JOKERS.items() if text != str(joker)},
    }


def notation_pattern() -> str:
    """The notation :func:`parse_cards` reads, as one regular expression for a JSON schema
    (``pattern``: no flags, no named groups, so ECMAScript, Python and Rust read it alike): a text
    matches exactly when :func:`parse_cards` reads it (its separators and its case folded in).
    The API's OpenAPI document says a field of cards with it, so the document and the parser
    cannot disagree (``tests/test_api_schema.py`` checks the two agree on any text).

    >>> pattern = re.compile(notation_pattern())
    >>> [bool(pattern.match(t)) for t in ("3s3c 4d", "10♥, th; JK", "", "3s 4x", "enum")]
    [True, True, True, False, False]
    """
    token = re.sub(r"\(\?P<\w+>", "(?:", _TOKEN.pattern)
    folded, in_class, i = [], False, 0
    while i < len(token):
        ch = token[i]
        if ch == "\\":  # an escape, kept whole (\\ufe0f)
            width = 6 if token[i + 1] == "u" else 2
            folded.append(token[i : i + width])
            i += width
            continue
        if ch in "[]":
            in_class = ch == "["
        elif ch.isascii() and ch.isalpha():  # re.IGNORECASE, spelled out
            ch = ch + ch.swapcase() if in_class else f"[{ch}{ch.swapcase()}]"
        folded.append(ch)
        i += 1
    return f"^(?:{_separator_class()}|{''.join(folded)})*$"


def card_pattern(cards: Iterable[AnyCard] | None = None) -> str:
    """One card (of ``cards``, or any card or joker) in any spelling :func:`parse_card` reads,
    as a JSON schema's ``pattern`` (like :func:`notation_pattern`): separators may stand around it.

    >>> pattern = re.compile(card_pattern([Card.parse("3s"), Card.parse("10h")]))
    >>> [bool(pattern.match(t)) for t in ("3♠", " 3S ", "♠3", "th", "10♥\ufe0f", "3c", "3s 3s")]
    [True, True, True, True, True, False, False]
    >>> [bool(re.match(card_pattern(), t)) for t in ("rj", "🃏", "qh", "♥q", "hq", "3s 4s", "")]
    [True, True, True, True, False, False, False]
    """
    def folded(text: str) -> str:
        return "".join(f"[{ch.upper()}{ch.lower()}]" if ch.isalpha() else ch for ch in text)

    selector = f"[{_VARIATION_SELECTORS}]?"
    spellings: list[str] = []
    every: list[AnyCard] = [*full_deck(), JOKER, RED_JOKER, BLACK_JOKER]
    for card in cards if cards is not None else every:
        if isinstance(card, Joker):
            spellings.extend(folded(text) for text, joker in _JOKERS.items() if joker == card)
            continue
        ranks = "|".join(folded(text) for text, rank in _RANKS.items() if rank is card.rank)
        suit, symbol = _suit_class(card.suit), _suit_class(card.suit, letters=False)  # ♠3, never s3
        spellings.append(f"(?:{ranks}){selector}{suit}{selector}|{symbol}{selector}(?:{ranks})")
    separators = _separator_class()
    return f"^{separators}*(?:{'|'.join(spellings)}){separators}*$"


def suit_pattern(*, blank: bool = False) -> str:
    """A suit as :meth:`Suit.parse` reads it (♥, ♡, h or H), spaces around it allowed, as a JSON
    schema's ``pattern``; with ``blank`` a text of spaces only matches too.

    >>> [bool(re.match(suit_pattern(), t)) for t in ("♥", " H ", "", "x", "hh")]
    [True, True, False, False, False]
    >>> bool(re.match(suit_pattern(blank=True), "  "))
    True
    """
    spaces = "[" + "".join(f"\\u{ord(c):04x}" for c in map(chr, range(0x10000)) if c.isspace()) + "]"
    suits = "".join(_suit_class(suit)[1:-1] for suit in Suit)
    return f"^{spaces}*[{suits}]{'?' if blank else ''}{spaces}*$"


def _suit_class(suit: Suit, *, letters: bool = True) -> str:
    return "[" + "".join(ch + ch.upper() if ch.isalpha() else ch for ch, s in _SUITS.items()
                         if s is suit and (letters or not ch.isalpha())) + "]"


@functools.cache
def _separator_class() -> str:
    """What :func:`parse_cards` skips between cards, as a character class of escapes."""
    return "[" + "".join(f"\\u{ord(c):04x}" for c in map(chr, range(0x10000)) if _SEPARATORS.fullmatch(c)) + "]"


def parse_card(text: str) -> AnyCard:
    """Parse one card or joker.

    >>> parse_card("TH"), parse_card("♣5"), parse_card("bj")
    (Card.parse('10♥'), Card.parse('5♣'), Joker.parse('BJ'))
    >>> parse_card("3s 4s")
    Traceback (most recent call last):
    ...
    referee.cards.NotationError: '3s 4s' at position 1 is not a card (one card expected)
    """
    stripped = text.strip()
    cards = parse_cards(stripped)
    if len(cards) != 1:
        raise NotationError(text, stripped, 1, message("one card expected"))
    return cards[0]


def parse_cards(text: str) -> tuple[AnyCard, ...]:
    """Parse a list of cards separated by spaces, commas or nothing.

    >>> format_cards(parse_cards("3s3c4d"))
    '3♠ 3♣ 4♦'
    >>> parse_cards("")
    ()
    >>> parse_cards("3s 4x 5h")
    Traceback (most recent call last):
    ...
    referee.cards.NotationError: '4x' at position 2 is not a card ('x' is not a suit)
    >>> parse_cards("3\u017f")  # a long s is no s
    Traceback (most recent call last):
    ...
    referee.cards.NotationError: '3ſ' at position 1 is not a card ('ſ' is not a suit)
    """
    cards: list[AnyCard] = []
    pos = 0
    n = len(text)
    while pos < n:
        sep = _SEPARATORS.match(text, pos)
        if sep:
            pos = sep.end()
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            end = _SEPARATORS.search(text, pos)
            piece = text[pos : end.start() if end else n]
            raise NotationError(text, piece, len(cards) + 1, _explain(piece))
        if m["joker"]:
            cards.append(_JOKERS[m["joker"].upper()])
        elif m["rank"]:
            cards.append(Card(_RANKS[m["rank"].upper()], _SUITS[m["suit"].lower()]))
        else:
            cards.append(Card(_RANKS[m["rank1"].upper()], _SUITS[m["suit1"].lower()]))
        pos = m.end()
    return tuple(cards)


def _explain(piece: str) -> Message | None:
    """A short hint for a piece that is not a card."""
    m = re.match(r"(10|[2-9AJQKT])", piece, re.IGNORECASE)
    if m:
        rest = piece[m.end() :].lstrip("\ufe0f\ufe0e")
        if not rest:
            return message("it has no suit")
        return message("{char} is not a suit", char=repr(rest[0]))
    if piece[:1] == "1":
        return message("write 10 or T for ten")
    return None


def card_name(card: AnyCard, *, ascii: bool = False) -> str:
    """Print a card: ``10♥``, or ``10h`` with ``ascii=True``.

    >>> card_name(Card.parse("th")), card_name(Card.parse("th"), ascii=True)
    ('10♥', '10h')
    """
    return card.ascii if ascii else str(card)


def format_cards(cards: Iterable[AnyCard], *, ascii: bool = False, sep: str = " ") -> str:
    """Print a list of cards the way :func:`parse_cards` reads them back.

    >>> format_cards(parse_cards("as kd"), ascii=True)
    'As Kd'
    """
    return sep.join(card_name(c, ascii=ascii) for c in cards)


def full_deck() -> tuple[Card, ...]:
    """The 52 suited cards, ace low, suit by suit within each rank.

    >>> len(full_deck()), str(full_deck()[0]), str(full_deck()[-1])
    (52, 'A♠', 'K♥')
    """
    return tuple(Card(r, s) for r in Rank for s in Suit)


CardsLike = str | Iterable[AnyCard]
"""Cards as notation text or as card objects: what every rule function takes."""


def card_of(card: AnyCard | str) -> AnyCard:
    """One card, from notation or as it is.

    >>> card_of("th"), card_of(JOKER)
    (Card.parse('10♥'), Joker.parse('JK'))
    """
    return parse_card(card) if isinstance(card, str) else card


def cards_of(cards: CardsLike) -> tuple[AnyCard, ...]:
    """Cards from notation, or the cards given, as a tuple (in the order given).

    >>> cards_of("3s 4s"), cards_of([JOKER])
    ((Card.parse('3♠'), Card.parse('4♠')), (Joker.parse('JK'),))
    """
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def suited_cards(cards: CardsLike, *, decks: int = 1) -> tuple[Card, ...]:
    """Cards of a game played without jokers: a joker, or a card more times than
    ``decks`` hold it, is refused (:class:`TooManyCopiesError`).

    >>> suited_cards("3s 4s")
    (Card.parse('3♠'), Card.parse('4♠'))
    >>> suited_cards("3s RJ")
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: RJ is not in this game's deck: it has no jokers
    """
    found = cards_of(cards)
    check_copies(found, decks=decks)
    return tuple(c for c in found if isinstance(c, Card))


def check_copies(
    cards: Iterable[AnyCard],
    *,
    decks: int = 1,
    jokers: Mapping[Joker, int] | None = None,
) -> None:
    """Refuse a card the game's decks cannot hold that many times.

    ``decks`` is the number of 52-card decks; ``jokers`` how many of each joker
    the game has (none by default).

    >>> check_copies(parse_cards("9h 9h 9s"), decks=2)
    >>> check_copies(parse_cards("9h 9h 9h"), decks=2)
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: 9♥ appears 3 times, but 2 decks hold it only twice
    >>> check_copies(parse_cards("JK"))
    Traceback (most recent call last):
    ...
    referee.cards.TooManyCopiesError: JK is not in this game's deck: it has no jokers
    """
    allowed = dict(jokers or {})
    for card, count in Counter(cards).items():
        if isinstance(card, Joker):
            limit = allowed.get(card, 0)
            if limit == 0:
                if any(allowed.values()):
                    reason = message("{card} is not in this game's deck: it has no such joker", card=card)
                else:
                    reason = message("{card} is not in this game's deck: it has no jokers", card=card)
                raise TooManyCopiesError(card, count, 0, reason)
            if count > limit:
                raise TooManyCopiesError(card, count, limit, message(
                    "{card} appears {count} times, but the deck holds it only {limit} times",
                    card=card, count=count, limit=limit))
        elif count > decks:
            if decks == 1:
                reason = message("{card} appears {count} times, but one deck holds it only once", card=card, count=count)
            elif decks == 2:
                reason = message("{card} appears {count} times, but 2 decks hold it only twice", card=card, count=count)
            else:
                reason = message(
                    "{card} appears {count} times, but {decks} decks hold it only {decks} times",
                    card=card, count=count, decks=decks,
                )
            raise TooManyCopiesError(card, count, decks, reason)
