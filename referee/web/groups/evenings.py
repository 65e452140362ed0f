"""A group's games gathered into evenings, and its stats: read from the games' own records.

Every game started from the group (``Game.group_id``) is read into :class:`referee.stats.Result`
values by its game's registry entry (``GameEntry.results``: the game's state machine replays its
records), so an undo or a correction shows at once.  An evening is the games of one day (the day
each was started, in UTC) unless the keeper moved a game to another day's evening.

Replays are kept per game and version (:data:`_READ`): a game nobody wrote to since is not
replayed again when the group's page or stats are opened.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from referee import group as groups_lib
from referee import stats
from referee.group import Group, GroupSetup
from referee.stats import PersonStats, Result
from referee.web import registry, store
from referee.web.extensions import db
from referee.web.models import Event, Game
from referee.web.sheets import running_chart

_READ: OrderedDict[tuple[str, int], tuple[Result, ...]] = OrderedDict()
_READ_MAX = 5000
_LOCK = threading.Lock()


def build_group(game: Game) -> Group:
    """The group as its records make it (its effective events replayed)."""
    setup = GroupSetup.from_dict(game.setup)
    return groups_lib.replay(setup, store.records_of(store.live_events(game)))


def day_of(when: datetime | None) -> str:
    """The UTC day a game was started (an evening's default key)."""
    if when is None:
        return "0000-01-01"
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).date().isoformat()


def results_of(game: Game) -> tuple[Result, ...]:
    """A stored game's results through its game's entry (none for a kind no game reads)."""
    key = (game.keeper_token, game.version)  # tokens are unique on every server (ids are not)
    with _LOCK:
        kept = _READ.get(key)
        if kept is not None:
            _READ.move_to_end(key)
            return kept
    try:
        entry, _ = registry.by_kind(game.kind)
    except KeyError:
        raise ValueError(f"no game stores {game.kind!r}") from None
    read = entry.results.get(game.kind)
    found = tuple(read(game)) if read is not None else ()
    with _LOCK:  # a server's threads share the kept replays
        _READ[key] = found
        while len(_READ) > _READ_MAX:
            _READ.popitem(last=False)
    return found


@dataclass(frozen=True)
class Sitting:
    """One sheet or table of an evening, as the group's page shows it."""

    game: Game
    label: str
    """The game's own name (Tiến lên, Trece…)."""
    results: tuple[Result, ...]
    winners: tuple[str, ...]
    totals: tuple[tuple[str, int], ...]
    endpoint: str

    @property
    def names(self) -> list[str]:
        return self.game.player_names

    @property
    def finished_games(self) -> int:
        return sum(1 for r in self.results if r.finished)


@dataclass(frozen=True)
class Evening:
    day: str
    sittings: tuple[Sitting, ...]
    winners: tuple[str, ...]

    @property
    def results(self) -> list[Result]:
        return [r for s in self.sittings for r in s.results]


def person_names(group: Group) -> Callable[[str], str]:
    """A seat's name → the group's person (their name now, for any name they had), else the name."""
    everyone = group.everyone
    known: dict[str, str] = {}

    def person(name: str) -> str:
        if name not in known:
            number = group.person_of(name)
            known[name] = everyone[number].name if number is not None else name
        return known[name]

    return person


def group_games(group_game: Game, *, events: bool = True) -> list[Game]:
    """Every game of the group, oldest first, with their players loaded at once (and with
    ``events``, their events: :func:`load_events`)."""
    games = list(db.session.scalars(
        select(Game).where(Game.group_id == group_game.id)
        .options(selectinload(Game.players)).order_by(Game.created_at, Game.id)))
    if events:
        load_events(games, everyone=True)
    return games


def load_events(games: Sequence[Game], *, everyone: bool = False) -> None:
    """Load the events of ``games`` in a query per 500 games: all of them with ``everyone``, else
    only those whose replay is not kept (:func:`results_of`)."""
    missing = [g.id for g in games if everyone or (g.keeper_token, g.version) not in _READ]
    for start in range(0, len(missing), 500):
        list(db.session.scalars(select(Game).where(Game.id.in_(missing[start:start + 500]))
                                .options(selectinload(Game.events).load_only(
                                    Event.seq, Event.kind, Event.payload, Event.created_at))))


def evenings_of(group_game: Game, group: Group, *, newest: int | None = None) -> list[Evening]:
    """The group's evenings, newest first; within one, its sittings in the order started.  With
    ``newest``, only that many evenings are read (their games replayed): a page that shows
    the latest evenings does not replay the older ones."""
    person = person_names(group)
    by_day: dict[str, list[tuple[Game, Any, Any]]] = {}
    for game in group_games(group_game, events=False):
        try:
            entry, followed = registry.by_kind(game.kind)
        except KeyError:
            continue
        day = group.evening_of(game.watch_token, day_of(game.created_at))
        by_day.setdefault(day, []).append((game, entry, followed))
    days = sorted(by_day.items(), reverse=True)[:newest]
    load_events([game for _, sittings in days for game, _, _ in sittings])
    out = []
    for day, found in days:
        sittings = []
        for game, entry, followed in found:
            results = results_of(game)
            sittings.append(Sitting(
                game=game, label=entry.name, results=results, winners=stats.winners(results, person),
                totals=tuple(stats.totals(results, person).items()), endpoint=followed.endpoint))
        out.append(Evening(day, tuple(sittings), stats.winners([r for s in sittings for r in s.results], person)))
    return out


def evening_count(group_game: Game, group: Group) -> int:
    """How many evenings the group has (no game replayed)."""
    days = {group.evening_of(token, day_of(when)) for token, when in db.session.execute(
        select(Game.watch_token, Game.created_at).where(Game.group_id == group_game.id))}
    return len(days)


def people_stats(group: Group, evenings: Sequence[Evening]) -> dict[str, PersonStats]:
    """Each person's stats over ``evenings`` (the group's people first, then guests)."""
    return stats.tally([e.results for e in evenings], person_names(group), [p.name for p in group.people])


def wins_chart(group: Group, evenings: Sequence[Evening]) -> Any:
    """Each person's wins added up evening after evening (oldest first): one line a person."""
    names = [p.name for p in group.people]
    person = person_names(group)
    running = [0] * len(names)
    steps: list[tuple[int, list[int]]] = []
    for number, evening in enumerate(reversed(evenings), start=1):
        for r in evening.results:
            if r.finished:
                for seat in r.winners:
                    who = person(r.names[seat])
                    if who in names:
                        running[names.index(who)] += 1
        steps.append((number, list(running)))
    if not names:
        return None
    return running_chart(names, steps, max(1, len(steps)), running)
