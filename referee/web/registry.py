"""The games the app knows: one :class:`GameEntry` per game package, and nothing else names a game.

Each package under ``referee/web/games/`` describes itself once, in its ``__init__.py``, as
``ENTRY = GameEntry(...)``: its slug, its name and tagline in the players' words, its
blueprints, the links of its home tile, its followed games (a :class:`~referee.web.tables.FollowedGame`
per store kind: the live fragment, the poll, the keeper-only writes), the order its card
picker shows the ranks in, the library's rules classes behind its switches, its part of the
OpenAPI document, the screens its phone's engine answers and the pages it draws of a game
started offline.  (The worked examples the shared
test suites drive each game with are the tests' own: ``tests/worked/<slug>.py``.)  Everything shared is derived from the
entries: :func:`referee.web.init_app` registers the blueprints, the home page draws one tile per
entry, the card picker reads the rank orders, the OpenAPI document gathers the paths and builds
each rules schema from the library's switch metadata, and the tests' game lists are these
entries.

The app's games are :data:`GAME_PACKAGES` (the config key ``GAME_PACKAGES`` may give others,
such as the tests' toy game).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, current_app

from referee.web.openapi import Section
from referee.web.tables import FollowedGame

GAME_PACKAGES: tuple[str, ...] = (
    "referee.web.games.tienlen",
    "referee.web.games.three_thirteen",
    "referee.web.games.trece",
)
"""The game packages, in the order of the home page's tiles."""

_EXTENSION = "thirteen_games"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardOrder:
    """How a game's card picker lays out the deck: ranks low to high, suits left to right."""

    name: str
    """The name templates pass to the picker macros (``order="…"``)."""
    ranks: tuple[str, ...]
    suits: str
    """Suit letters (``s c d h``) in the order of the columns."""


ACE_LOW = CardOrder(
    name="ace_low", ranks=("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), suits="shcd"
)
"""The standard order (A…K; suits ♠ ♥ ♣ ♦): a game whose ranks rank otherwise names its own."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HomeLink:
    """A quick link on the game's home tile: its words (translated when drawn) and endpoint."""

    label: Callable[[], str]
    endpoint: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PhoneScreen:
    """A screen the phone's engine answers too, once it is ready (see :mod:`referee.web.phone`).

    The element that asks carries ``data-local="<kind>"``; ``answer`` names a function of a
    module that knows no Flask (``"package.module:function"``), called with the form, the house
    rules this phone kept and what the page carries (``data-local-setup``, ``data-local-game``)
    and returning a :class:`referee.web.checks.Answer`, as the server's view does.
    """

    kind: str
    answer: str
    fragments: tuple[str, ...]
    """The templates the answer is drawn with (what they import comes along)."""
    warm_up: tuple[tuple[str, str], ...] | None = None
    """A form the engine answers while it starts (modules imported, templates compiled before the
    first tap); ``None``: not warmed up."""
    warm_setup: Mapping[str, Any] | None = None

    @property
    def module(self) -> str:
        return self.answer.split(":")[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class PhonePages:
    """The pages the phone draws of a game started offline (see :mod:`referee.web.phone_pages`).

    ``draws`` names the modules (Flask-free) that put their :class:`~referee.web.phone_pages.Followed`
    classes in ``phone_pages.GAMES`` and their new-game form readers in ``phone_pages.STARTS`` when
    imported, each with a ``warm_up(now)`` drawing a made-up game once; ``needs`` the game's other
    Flask-free modules they import; ``templates`` the whole pages they draw (what those import or
    include comes along).  All of it goes into ``pages.zip``.
    """

    draws: tuple[str, ...]
    needs: tuple[str, ...] = ()
    templates: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupStart:
    """How a group's page starts one of the game's followed games with the group's people
    (:mod:`referee.web.groups`): a form posting to the game's own new-game endpoint, with the
    people picked in seat order, a guest or two typed, and the group's keeper token in the
    hidden field ``group``."""

    kind: str
    """The followed kind it starts."""
    endpoint: str
    """The game's new-game endpoint (``POST``)."""
    label: Callable[[], str]
    """What it starts, in the reader's language ("Tonight's score sheet")."""
    least: int
    most: int
    names: str = "name{seat}"
    """The name fields: ``"name{seat}"`` (one field per seat) or a field sent once per seat."""
    hidden: Mapping[str, str] = field(default_factory=dict)
    """Fields the game's form needs, at the values a group starts with."""
    extra: str | None = None
    """A template of the game's own fields to choose on the group's page (``None``: none)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEntry:
    """One game, as the rest of the app knows it (see the module docstring)."""

    slug: str
    """The package's name and the key of the game in the app (``tienlen``)."""
    name: str
    """The game's own name, as the table says it (not translated: Tiến lên, Trece)."""
    tagline: Callable[[], str]
    """What the game is, in a line, in the reader's language (a function: called per request)."""
    blueprints: tuple[Blueprint, ...]
    home: str
    """The endpoint of the game's landing page (its home tile)."""
    links: tuple[HomeLink, ...] = ()
    forms: tuple[str, ...] = ()
    """The endpoints of the pages with the game's new-game forms, when not its home page: with
    its home and links, the service worker keeps them after the first page this phone opened, so
    a game can be started offline on a phone that never opened them."""
    followed: tuple[FollowedGame[Any], ...] = ()
    """A followed game per store kind (the kinds of ``Game.kind`` this game writes)."""
    card_order: CardOrder = ACE_LOW
    rules: tuple[type, ...] = ()
    """The library's rules classes behind the game's switches (fields, defaults, ``CHOICES``)."""
    api: tuple[Section, ...] = ()
    """The game's paths and schemas in the OpenAPI document."""
    phone: tuple[PhoneScreen, ...] = ()
    """The screens the phone's engine answers too (by their ``data-local`` kinds)."""
    pages: PhonePages | None = None
    """The pages the phone draws of a game of this kind started offline (``None``: none)."""
    starts: tuple[GroupStart, ...] = ()
    """What a group's page offers to start of this game ("Start tonight's")."""
    results: Mapping[str, Callable[[Any], Sequence[Any]]] = field(default_factory=dict)
    """Per followed kind: the stored game (``models.Game``) read into :class:`referee.stats.Result`
    values through the game's state machine (the group's evenings and stats)."""
    money: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    """Per followed kind that plays for money: the stored game read into a
    :class:`referee.evening_money.Sitting` (its results, stake and end), the one source of what
    its own page and its group's evening say each player wins or pays.  A kind that plays for
    nothing may be here too, to say when each of its games was over (a group's end counts an
    evening's games in the order played); else ``results`` is read."""

    @property
    def kinds(self) -> tuple[str, ...]:
        """The store kinds this game writes."""
        return tuple(f.kind for f in self.followed)


def load(packages: Iterable[str]) -> tuple[GameEntry, ...]:
    """The entries of these game packages (each package's ``ENTRY``), in order."""
    entries: list[GameEntry] = []
    for name in packages:
        entry = getattr(importlib.import_module(name), "ENTRY", None)
        if not isinstance(entry, GameEntry):
            raise TypeError(f"the game package {name} has no ENTRY = GameEntry(...)")
        entries.append(entry)
    slugs = [e.slug for e in entries]
    kinds = [k for e in entries for k in e.kinds]
    for seen in (slugs, kinds):
        twice = sorted({s for s in seen if seen.count(s) > 1})
        if twice:
            raise ValueError(f"two games claim {twice[0]!r}")
    return tuple(entries)


def init_app(app: Flask) -> tuple[GameEntry, ...]:
    """Load the app's games, register their blueprints, and give templates what they need."""
    entries = load(app.config.get("GAME_PACKAGES") or GAME_PACKAGES)
    app.extensions[_EXTENSION] = entries
    for entry in entries:
        for blueprint in entry.blueprints:
            app.register_blueprint(blueprint)
    app.jinja_env.globals["card_orders"] = card_orders(entries)
    app.jinja_env.globals["game_entries"] = entries
    return entries


def entries(app: Flask | None = None) -> tuple[GameEntry, ...]:
    """The games of ``app`` (the current app by default)."""
    found: tuple[GameEntry, ...] = (app or current_app).extensions[_EXTENSION]
    return found


def card_orders(games: Sequence[GameEntry]) -> dict[str, CardOrder]:
    """Every rank order a picker may name: the standard one and each game's own."""
    orders = {ACE_LOW.name: ACE_LOW}
    for entry in games:
        orders.setdefault(entry.card_order.name, entry.card_order)
    return orders


def by_kind(kind: str) -> tuple[GameEntry, FollowedGame[Any]]:
    """The game and the followed game that store ``kind``."""
    for entry in entries():
        for followed in entry.followed:
            if followed.kind == kind:
                return entry, followed
    raise KeyError(kind)
