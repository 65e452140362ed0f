"""A group's games gathered into evenings, and its stats: read from the games' own records.

Every game started from the group (``Game.group_id``) is read into :class:`referee.stats.Result`
values by its game's registry entry (``GameEntry.results``: the game's state machine replays its
records), so an undo or a correction shows at once.  An evening is the games of one day (the day
each was begun on, in the group's time zone, turning at 06:00: :meth:`referee.group.Group.day_of`)
unless the keeper moved a game to another day's evening; a game started from another (a rematch,
the sheet "Score this hand" made for a table, a table started from a sheet: ``Game.started_from``)
is on that game's evening.

What each sheet or table says each person wins or pays is its game's
:class:`referee.evening_money.Sitting` (``GameEntry.money``), the very one its own page settles;
the evening's settle-up sums those (:func:`evening_money`), per currency.

Replays are kept per game and version, in the process (:data:`_READ`) and with the game
(``Game.summary`` at ``Game.summary_version``, :meth:`referee.evening_money.Sitting.to_dict`): a
game nobody wrote to since is not replayed again when the group's page or stats are opened, even
by a fresh process.  Every write (a game, a correction, an undo, a stake, an end) moves the game's
version, so what is kept is never read for a game that changed since.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import inspect, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload, undefer

from referee import evening_money as money_lib
from referee import group as groups_lib
from referee import stats
from referee.evening_end import Progress
from referee.evening_money import FORMAT as SUMMARY_FORMAT
from referee.evening_money import Sitting as Money
from referee.group import Group, GroupSetup
from referee.stats import PersonStats, Result
from referee.web import registry, settle_up, store
from referee.web.extensions import db
from referee.web.models import Event, Game
from referee.web.sheets import running_chart

_READ: OrderedDict[tuple[str, int], Money] = OrderedDict()
_READ_MAX = 5000
_LOCK = threading.Lock()


def build_group(game: Game) -> Group:
    """The group as its records make it (its effective events replayed)."""
    setup = GroupSetup.from_dict(game.setup)
    return groups_lib.replay(setup, store.records_of(store.live_events(game)))


def _utc(when: datetime | None) -> datetime:
    if when is None:
        return datetime.min.replace(tzinfo=UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def day_of(when: datetime | None, group: Group | None = None) -> str:
    """The evening a game begun at ``when`` is on by default: the group's local day, turning at
    06:00 (in UTC without a group)."""
    if when is None:
        return "0000-01-01"
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return group.day_of(when) if group is not None else groups_lib.evening_day(when)


def money_of(game: Game, *, keep: bool = False) -> Money:
    """A stored game read through its game's entry: its results and, when it plays for money,
    its stake and end (``GameEntry.money``: what its own page says each player wins or pays).
    With ``keep`` (a page that writes nothing), what it came to is kept with the game too."""
    if game.id is None:  # not stored yet (an import checking its replays): its table hands have no id
        return _read(game)
    key = (game.keeper_token, game.version)  # tokens are unique on every server (ids are not)
    with _LOCK:
        kept = _READ.get(key)
        if kept is not None:
            _READ.move_to_end(key)
            return kept
    found = _kept_summary(game)
    if found is None:
        found = _read(game)
        if keep:
            _keep_summary(game, found)
    with _LOCK:  # a server's threads share the kept replays
        _READ[key] = found
        while len(_READ) > _READ_MAX:
            _READ.popitem(last=False)
    return found


def _kept_summary(game: Game) -> Money | None:
    """What the game came to when it was last read at this version (``Game.summary``), if kept."""
    state = inspect(game)
    if "summary" in state.unloaded or game.summary_version != game.version or not game.summary:
        return None
    if game.summary.get("format") != SUMMARY_FORMAT:
        return None
    try:
        return Money.from_dict(game.summary)
    except ValueError:
        return None


def _keep_summary(game: Game, money: Money) -> None:
    """Keep what the game came to with it, at its version (on the engine's own connection, so the
    page's session is untouched; a game written meanwhile is left for the next reading)."""
    if game.id is None:
        return
    try:
        with db.engine.begin() as connection:
            connection.execute(update(Game).where(Game.id == game.id, Game.version == game.version)
                               .values(summary=money.to_dict(), summary_version=game.version)
                               .execution_options(synchronize_session=False))
    except SQLAlchemyError:
        pass  # only a later reading replays it again


def _read(game: Game) -> Money:
    try:
        entry, _ = registry.by_kind(game.kind)
    except KeyError:
        raise ValueError(f"no game stores {game.kind!r}") from None
    reads_money = entry.money.get(game.kind)
    if reads_money is not None:
        found: Money = reads_money(game)
    else:
        read = entry.results.get(game.kind)
        found = Money(results=tuple(read(game)) if read is not None else ())
    return found


def results_of(game: Game) -> tuple[Result, ...]:
    """A stored game's results through its game's entry (none for a kind no game reads)."""
    return money_of(game).results


@dataclass(frozen=True)
class Sitting:
    """One sheet or table of an evening, as the group's page shows it."""

    game: Game
    label: str
    """The game's own name (Tiến lên, Trece…)."""
    results: tuple[Result, ...]
    money: Money
    """Its results, stake and end: what its own page says each player wins or pays."""
    winners: tuple[str, ...]
    totals: tuple[tuple[str, int], ...]
    endpoint: str
    once: tuple[Result, ...]
    """Its results as the group counts them: a table's hand a sheet scored left out (that
    sheet's game is the hand)."""

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
    counted: tuple[Money, ...] = ()
    """Each sitting's money as the evening counts it: past the group's end, nothing."""
    progress: Progress | None = None
    """Where the evening stands against the group's end switches (``None``: none set)."""

    @property
    def results(self) -> list[Result]:
        """Its games as the stats count them: each table's hand a sheet scored once."""
        return [r for s in self.sittings for r in s.once]


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
        .options(selectinload(Game.players), undefer(Game.summary)).order_by(Game.created_at, Game.id)))
    if events:
        load_events(games, everyone=True)
    return games


def load_events(games: Sequence[Game], *, everyone: bool = False) -> None:
    """Load the events of ``games`` in a query per 500 games: all of them with ``everyone``, else
    only those whose replay is not kept (:func:`money_of`)."""
    missing = [g.id for g in games if everyone or (
        (g.keeper_token, g.version) not in _READ and _kept_summary(g) is None)]
    for start in range(0, len(missing), 500):
        list(db.session.scalars(select(Game).where(Game.id.in_(missing[start:start + 500]))
                                .options(selectinload(Game.events).load_only(
                                    Event.seq, Event.kind, Event.payload, Event.created_at))))


def evening_days(group: Group, games: Sequence[tuple[int, str, datetime | None, int | None]]) -> dict[int, str]:
    """Each game's evening, by id (``games``: id, watch token, when begun, the game it was started
    from): where the keeper moved it, else the evening of the game it was started from (when that
    one is the group's), else its own local day (:func:`day_of`)."""
    known = {game_id: (token, when, source) for game_id, token, when, source in games}
    days: dict[int, str] = {}

    def day(game_id: int, seen: frozenset[int]) -> str:
        if game_id not in days:
            token, when, source = known[game_id]
            if source is not None and source in known and source not in seen:
                own = day(source, seen | {game_id})
            else:
                own = day_of(when, group)
            days[game_id] = group.evening_of(token, own)
        return days[game_id]

    for game_id in known:
        day(game_id, frozenset({game_id}))
    return days


def evenings_of(group_game: Game, group: Group, *, newest: int | None = None) -> list[Evening]:
    """The group's evenings, newest first; within one, its sittings in the order started.  With
    ``newest``, only that many evenings are read (their games replayed): a page that shows
    the latest evenings does not replay the older ones.

    A followed table's hand that a sheet of the group scored is one game, the sheet's (its record
    is the game; the table is how it was played): it counts once, on the sheet's evening, in the
    evening's winners, the group's end and the stats (:func:`referee.stats.once`); the table's
    line still shows its hands."""
    person = person_names(group)
    by_day: dict[str, list[tuple[Game, Any, Any]]] = {}
    games = group_games(group_game, events=False)
    days = evening_days(group, [(g.id, g.watch_token, g.created_at, g.started_from) for g in games])
    for game in games:
        try:
            entry, followed = registry.by_kind(game.kind)
        except KeyError:
            continue
        by_day.setdefault(days[game.id], []).append((game, entry, followed))
    chosen = sorted(by_day.items(), reverse=True)[:newest]
    load_events([game for _, sittings in chosen for game, _, _ in sittings])
    read = {game.id: money_of(game, keep=True) for _, found in chosen for game, _, _ in found}
    scored = _scored_hands(games, read)
    out = []
    for day, found in chosen:
        sittings = []
        for game, entry, followed in found:
            money = read[game.id]
            kept = money.counted_results  # a game past a sheet's end counts toward nothing
            sittings.append(Sitting(
                game=game, label=entry.name, results=money.results, money=money,
                winners=stats.winners(kept, person), totals=tuple(stats.totals(kept, person).items()),
                endpoint=followed.endpoint, once=stats.once(money.results, scored)))
        counted: tuple[Money, ...] = tuple(s.money.without_hands(scored) for s in sittings)
        got = None
        if group.end.is_set:  # the group's end over everything the evening holds
            counted, got = money_lib.evening_cut(counted, group.end, person)
        out.append(Evening(day, tuple(sittings), stats.winners([r for m in counted for r in m.counted_results], person),
                           counted, got))
    return out


def _scored_hands(games: Sequence[Game], read: dict[int, Money]) -> frozenset[tuple[int, int]]:
    """The followed tables' hands that a sheet of the group scored, for the games ``read``: a
    table's hand among them may have been scored on a sheet of an evening not read (moved to
    another day, or older than the newest shown), so then the group's other games written since
    the first such table began are read too."""
    scored = stats.scored_hands(r for money in read.values() for r in money.results)
    missing = {r.hand[0] for money in read.values() for r in money.results
               if not r.scored and r.hand is not None and r.hand not in scored}
    if not missing:
        return scored
    since = min((_utc(g.created_at) for g in games if g.id in missing), default=_utc(None))
    rest = [g for g in games if g.id not in read and _utc(g.updated_at) >= since]
    load_events(rest)
    return scored | stats.scored_hands(r for g in rest for r in money_of(g, keep=True).results)


def group_cut(game: Game, sitting: Money) -> tuple[Money, int]:
    """A game's sitting as its group's evening counts it, for its own page (``RULES.md``: the
    group's page and the sheets never disagree on an amount): with the group's end set, the
    games of the game's evening in the order entered, cut where the group's end came
    (:func:`referee.evening_money.evening_cut`); and how many of its finished games the group's
    end left out besides its own end.  ``sitting`` is the game as its page just read it."""
    owner = db.session.get(Game, game.group_id) if game.group_id is not None else None
    if owner is None or owner.kind != store.GROUP:
        return sitting, 0
    group = build_group(owner)
    if not group.end.is_set:
        return sitting, 0
    games = [g for g in group_games(owner, events=False) if _known(g.kind)]
    days = evening_days(group, [(g.id, g.watch_token, g.created_at, g.started_from) for g in games])
    same = [g for g in games if days[g.id] == days.get(game.id)]
    if game.id not in {g.id for g in same}:
        return sitting, 0
    load_events([g for g in same if g.id != game.id])
    read = {g.id: sitting if g.id == game.id else money_of(g, keep=True) for g in same}
    scored = _scored_hands(games, read)
    cut, _ = money_lib.evening_cut([read[g.id].without_hands(scored) for g in same], group.end, person_names(group))
    mine = cut[[g.id for g in same].index(game.id)]
    left_out = len(money_lib.finished(sitting.counted_results)) - len(money_lib.finished(mine.counted_results))
    playing = any(not r.finished and any(r.rounds) for r in sitting.counted_results)
    if playing and not any(not r.finished for r in mine.counted_results):
        left_out += 1  # a Three Thirteen sheet still being played when the group's evening ended
    return mine, left_out


def _known(kind: str) -> bool:
    try:
        registry.by_kind(kind)
    except KeyError:
        return False
    return True


settle_up.GROUP_CUT[:] = [group_cut]


def evening_count(group_game: Game, group: Group) -> int:
    """How many evenings the group has (no game replayed)."""
    rows = db.session.execute(select(Game.id, Game.watch_token, Game.created_at, Game.started_from)
                              .where(Game.group_id == group_game.id))
    return len(set(evening_days(group, [(r[0], r[1], r[2], r[3]) for r in rows]).values()))


def evening_money(evening: Evening, group: Group) -> dict[str, dict[str, int]]:
    """The evening's balances, per currency, per person: the sum of what each of its sheets' and
    tables' own page says (:func:`referee.evening_money.evening_balances`)."""
    return money_lib.evening_balances(evening.counted or [s.money for s in evening.sittings], person_names(group))


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
