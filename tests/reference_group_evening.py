"""A group's evening settled by hand from ``RULES.md``: the reference the property test checks the
app against.  It reads only what the players did (cards left typed per game, points typed per
Three Thirteen round, who won a Trece game, stakes, ends, undos, corrections, moves) and adds
the money up itself; it calls nothing of ``referee`` (not the money library, not the sheets).

RULES.md, "Settling up an evening" and "A group's evenings and stats":

- Tiến lên (by hand, cards): every other player pays the first out one point per card left; a
  player with 13 cards left played none, and pays 2 × 13;
- Three Thirteen: the totals of the rounds entered (a round entered again replaces it), lowest
  wins; ``winner``: every other player pays the winner (total − lowest) × stake, tied winners
  share it, a remainder to the tied winner seated first; ``each``: every pair squares the
  difference × stake;
- Trece: the loser of a finished game pays the winner the stake;
- an end: ``games`` n counts the first n games; ``target`` t counts up to the first game after
  which a player's total is t or more, up or down; the games after count nowhere;
- an undo takes back the latest change still in force (a game, a correction, a stake, an end);
- an evening: the group's local day the sitting began (turning at 06:00) unless moved;
  each person's balance is the sum over its sittings, per currency;
- the group's own end (``games`` or ``target``) over everything the evening holds: its finished
  games (a Tiến lên game, a whole Three Thirteen sheet once its eleven rounds are in, a Trece
  game; each sheet's and table's up to its own end) in the order they were entered; points are
  each person's money when the sittings that play for money do so in one currency, else the Tiến
  lên points; the games after the one that ended it, and whatever was still being played then
  (a Three Thirteen sheet not yet finished), count nowhere.

- a followed Tiến lên table (``table``): its hands, each with who went out first and the cards
  left; a hand scored on a sheet (a sheet's ``game`` that names the table's hand) is a game of
  that sheet, scored like any game by cards left; a game started from another (a sheet made by
  "Score this hand", a table started from a sheet) is on that game's evening.

A group's stats and an evening's winners (RULES.md, "A group's evenings and stats"), per person:

- *games played*: Tiến lên games (each sheet's games, and each table hand that no sheet of the
  group scored: a hand scored on a sheet is one game, the sheet's, as docs/groups.md says where
  RULES.md is silent), finished Three Thirteen sheets, finished Trece games; *wins*: the first
  out, the lowest total (tied winners each win), the Trece game's winner; *frozen*: a Tiến lên
  game the player ended with all 13 cards;
- an evening's winners: who won the most of the evening's games that count (up to each sheet's
  and table's own end, then the group's end).

Each change of a sitting is made one minute after the one before, the first one minute after it
began (:func:`op_time`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


@dataclass
class Op:
    """One change to a sitting, as the players made it."""

    what: str
    """``game`` (Tiến lên: cards left per seat, the first out 0; with ``table`` and ``hand``, that
    table plan's hand scored on the sheet), ``follow`` (a sheet follows a table: nothing to
    count), ``hand`` (a table's hand: ``winner``, ``left``), ``correct`` (game ``number``),
    ``round`` (Three Thirteen: number, points per seat), ``win`` (Trece: the winner's seat),
    ``stake`` (amount, currency, settle), ``end`` (games or target), ``undo``."""
    data: dict[str, object] = field(default_factory=dict)


@dataclass
class SittingPlan:
    game: str  # "tienlen", "three_thirteen", "trece"
    names: tuple[str, ...]
    begun: datetime
    ops: list[Op]
    moved_to: str | None = None
    started_from: int | None = None
    """The plan (its index) this one was started from: it is on that one's evening."""


@dataclass
class SheetGame:
    """One game of a Tiến lên sheet still in force: when it was entered, the cards left, and the
    table hand it was scored from (``(table plan, hand)``; a correction keeps it)."""

    at: datetime
    left: list[int]
    hand: tuple[int, int] | None


def sheet_games(plan: SittingPlan) -> list[SheetGame]:
    """A Tiến lên sheet's games in force, in order (a correction replaces a game's cards left)."""
    games: list[SheetGame] = []
    for index, op in live_indexed(plan.ops):
        if op.what == "game":
            hand = (int(str(op.data["table"])), int(str(op.data["hand"]))) if "table" in op.data else None
            games.append(SheetGame(op_time(plan, index), list(op.data["left"]), hand))  # type: ignore[call-overload]
        elif op.what == "correct":
            number = int(str(op.data["number"])) - 1
            games[number] = SheetGame(games[number].at, list(op.data["left"]), games[number].hand)  # type: ignore[call-overload]
    return games


def table_hands(plan: SittingPlan) -> list[tuple[datetime, int, list[int]]]:
    """A followed table's hands: when each ended, who went out first, the cards left."""
    return [(op_time(plan, index), int(str(op.data["winner"])), list(op.data["left"]))  # type: ignore[call-overload]
            for index, op in live_indexed(plan.ops) if op.what == "hand"]


def live(ops: list[Op]) -> list[Op]:
    """The changes still in force: each undo takes back the latest one not yet undone."""
    return [op for _, op in live_indexed(ops)]


def live_indexed(ops: list[Op]) -> list[tuple[int, Op]]:
    """The changes still in force with their place among all the changes."""
    stack: list[tuple[int, Op]] = []
    for index, op in enumerate(ops):
        if op.what == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((index, op))
    return stack


def op_time(plan: SittingPlan, index: int) -> datetime:
    """When change ``index`` of a sitting was made."""
    return plan.begun + timedelta(minutes=index + 1)


def tienlen_points(left: list[int]) -> list[int]:
    winner = left.index(0)
    points = [0] * len(left)
    for seat, cards in enumerate(left):
        if seat == winner:
            continue
        owed = 26 if cards == 13 else cards
        points[seat] -= owed
        points[winner] += owed
    return points


def counted_games(games: list[list[int]], end: dict[str, object] | None) -> list[list[int]]:
    """The games an end leaves counted (``games``: the points of each game)."""
    if not end:
        return games
    if end.get("games"):
        return games[: int(str(end["games"]))]
    target = int(str(end.get("target") or 0))
    if target:
        totals = [0] * (len(games[0]) if games else 0)
        for number, points in enumerate(games, start=1):
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            if any(abs(t) >= target for t in totals):
                return games[:number]
    return games


def sitting_money(plan: SittingPlan) -> tuple[str, dict[str, int]] | None:
    """(currency, each player's balance) of one sitting, ``None`` when it does not play for money."""
    ops = live(plan.ops)
    stakes = [op.data for op in ops if op.what == "stake"]
    if not stakes or not stakes[-1]["amount"]:
        return None
    stake = int(str(stakes[-1]["amount"]))
    currency = str(stakes[-1]["currency"])
    ends = [op.data for op in ops if op.what == "end"]
    end = ends[-1] if ends else None
    n = len(plan.names)
    money = dict.fromkeys(plan.names, 0)
    if plan.game == "table":
        return None  # a followed table plays for nothing: its hands are scored on a sheet, if at all
    if plan.game == "tienlen":
        games = [tienlen_points(game.left) for game in sheet_games(plan)]
        for points in counted_games(games, end):
            for seat, name in enumerate(plan.names):
                money[name] += points[seat] * stake
    elif plan.game == "three_thirteen":
        rounds: dict[int, list[int]] = {}
        for op in ops:
            if op.what == "round":
                rounds[int(str(op.data["number"]))] = list(op.data["points"])  # type: ignore[call-overload]
        if not rounds:
            return currency, money
        totals = [sum(r[seat] for r in rounds.values()) for seat in range(n)]
        if stakes[-1].get("settle") == "each":
            for a in range(n):
                for b in range(n):
                    money[plan.names[a]] += (totals[b] - totals[a]) * stake
        else:
            low = min(totals)
            winners = [seat for seat in range(n) if totals[seat] == low]
            paid = 0
            for seat in range(n):
                if totals[seat] != low:
                    money[plan.names[seat]] -= (totals[seat] - low) * stake
                    paid += (totals[seat] - low) * stake
            for seat in winners:
                money[plan.names[seat]] += paid // len(winners)
            money[plan.names[winners[0]]] += paid % len(winners)
    else:
        wins = [int(str(op.data["seat"])) for op in ops if op.what == "win"]
        for seat in wins:
            money[plan.names[seat]] += stake
            money[plan.names[1 - seat]] -= stake
    return currency, money


def evening_of(plan: SittingPlan, zone: str, plans: list[SittingPlan] | None = None) -> str:
    """The evening a sitting is on: where it was moved, else the evening of the sitting it was
    started from, else the group's local day it began (turning at 06:00)."""
    if plan.moved_to:
        return plan.moved_to
    if plan.started_from is not None and plans is not None:
        return evening_of(plans[plan.started_from], zone, plans)
    return (plan.begun.astimezone(ZoneInfo(zone)) - timedelta(hours=6)).date().isoformat()


def group_evenings(plans: list[SittingPlan], zone: str) -> dict[str, dict[str, dict[str, int]]]:
    """day → currency → person → balance (people who are square kept: the sum of what each says)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for plan in plans:
        got = sitting_money(plan)
        if got is None:
            continue
        currency, money = got
        day = out.setdefault(evening_of(plan, zone, plans), {}).setdefault(currency, {})
        for name, amount in money.items():
            day[name] = day.get(name, 0) + amount
    return out


ROUNDS = 11


@dataclass
class Played:
    """One finished game of a sitting, as the group's end counts it."""

    at: datetime
    money: dict[str, int]
    """What it adds to its sitting's settle-up (empty when the sitting does not play for money)."""
    points: dict[str, int]
    """Its Tiến lên points (empty for the other games)."""
    winners: list[str] = field(default_factory=list)
    """Who won it (an evening's winners are who won the most)."""


def sitting_games(plan: SittingPlan, scored: frozenset[tuple[int, int]] = frozenset(),
                  number: int = -1) -> tuple[str | None, list[Played], dict[str, int]]:
    """A sitting's currency (``None``: it does not play for money), its finished games that its own
    end counts, in order, and the money of what is still being played (a Three Thirteen sheet
    whose rounds are not all in).  A table (plan ``number``) leaves out its hands a sheet
    ``scored``: the sheet's game is that hand."""
    ops = live_indexed(plan.ops)
    stakes = [op.data for _, op in ops if op.what == "stake"]
    stake = int(str(stakes[-1]["amount"])) if stakes else 0
    currency = str(stakes[-1]["currency"]) if stake else None
    ends = [op.data for _, op in ops if op.what == "end"]
    end = ends[-1] if ends else None
    names = plan.names
    if plan.game == "table":
        return None, [Played(at, {}, {}, [names[winner]]) for hand, (at, winner, _) in enumerate(table_hands(plan))
                      if (number, hand) not in scored], {}
    if plan.game == "tienlen":
        games = sheet_games(plan)
        kept = counted_games([tienlen_points(game.left) for game in games], end)
        return currency, [Played(game.at, {n: p * stake for n, p in zip(names, points, strict=True)} if currency else {},
                                 dict(zip(names, points, strict=True)), [names[game.left.index(0)]])
                          for game, points in zip(games, kept, strict=False)], {}
    if plan.game == "trece":
        wins = [(op_time(plan, index), int(str(op.data["seat"]))) for index, op in ops if op.what == "win"]
        won = [0, 0]
        played: list[Played] = []
        for number, (at, seat) in enumerate(wins, start=1):
            won[seat] += 1
            money = {names[seat]: stake, names[1 - seat]: -stake} if currency else {}
            played.append(Played(at, money, {}, [names[seat]]))
            if end and ((end.get("games") and number >= int(str(end["games"])))
                        or (end.get("target") and max(won) >= int(str(end["target"])))):
                break
        return currency, played, {}
    rounds = {int(str(op.data["number"])) for _, op in ops if op.what == "round"}
    got = sitting_money(plan)
    money = got[1] if got is not None else {}
    if rounds == set(range(1, ROUNDS + 1)):
        at = max(op_time(plan, index) for index, op in ops if op.what == "round")
        return currency, [Played(at, money, {}, three_thirteen_winners(plan))], {}
    return currency, [], money


def three_thirteen_totals(plan: SittingPlan) -> list[int]:
    """A Three Thirteen sheet's totals: the rounds in force (a round entered again replaces it)."""
    rounds: dict[int, list[int]] = {}
    for op in live(plan.ops):
        if op.what == "round":
            rounds[int(str(op.data["number"]))] = list(op.data["points"])  # type: ignore[call-overload]
    return [sum(r[seat] for r in rounds.values()) for seat in range(len(plan.names))]


def three_thirteen_winners(plan: SittingPlan) -> list[str]:
    """Its winners: the lowest total (tied winners each win)."""
    totals = three_thirteen_totals(plan)
    return [name for name, total in zip(plan.names, totals, strict=True) if total == min(totals)]


def scored_hands(plans: list[SittingPlan]) -> frozenset[tuple[int, int]]:
    """The tables' hands (table plan, hand) a sheet of the group has scored, in force."""
    return frozenset(game.hand for plan in plans if plan.game == "tienlen"
                     for game in sheet_games(plan) if game.hand is not None)


def counted_evening(plans: list[tuple[int, SittingPlan]], end: dict[str, int] | None,
                    scored: frozenset[tuple[int, int]]) -> tuple[list[tuple[int, str | None, Played]],
                                                                 list[tuple[str | None, dict[str, int]]], bool]:
    """One evening's games that count (``plans``: its sittings with their numbers), in the order
    entered, up to each sitting's own end and then the group's ``end``; what is still being
    played; and whether the group's end came (what was still being played then counts nowhere)."""
    games: list[tuple[datetime, int, str | None, Played]] = []
    unfinished: list[tuple[str | None, dict[str, int]]] = []
    currencies = set()
    for number, plan in plans:
        currency, played, still = sitting_games(plan, scored, number)
        games.extend((p.at, number, currency, p) for p in played)
        unfinished.append((currency, still))
        if currency is not None:
            currencies.add(currency)
    games.sort(key=lambda game: game[0])
    if not end:
        return [(number, currency, game) for _, number, currency, game in games], unfinished, False
    by_money = len(currencies) == 1
    totals: dict[str, int] = {}
    last = None
    for count, (_, _, _, game) in enumerate(games, start=1):
        for name, amount in (game.money if by_money else game.points).items():
            totals[name] = totals.get(name, 0) + amount
        if (end.get("target") and any(abs(t) >= end["target"] for t in totals.values())) \
                or (end.get("games") and count >= end["games"]):
            last = count
            break
    return [(number, currency, game) for _, number, currency, game in games[:last]], unfinished, last is not None


def evening_with_end(plans: list[tuple[int, SittingPlan]], end: dict[str, int],
                     scored: frozenset[tuple[int, int]] = frozenset()) -> dict[str, dict[str, int]]:
    """One evening's currency → person → balance under the group's end (``games`` or ``target``)."""
    games, unfinished, ended = counted_evening(plans, end, scored)
    out: dict[str, dict[str, int]] = {}

    def add(currency: str | None, money: dict[str, int]) -> None:
        if currency is None:
            return
        for name, amount in money.items():
            out.setdefault(currency, {})[name] = out.setdefault(currency, {}).get(name, 0) + amount

    for _, currency, game in games:
        add(currency, game.money)
    if not ended:
        for currency, money in unfinished:
            add(currency, money)
    return out


def evenings(plans: list[SittingPlan], zone: str) -> dict[str, list[tuple[int, SittingPlan]]]:
    """day → its sittings (with their numbers), in the order of the plans."""
    days: dict[str, list[tuple[int, SittingPlan]]] = {}
    for number, plan in enumerate(plans):
        days.setdefault(evening_of(plan, zone, plans), []).append((number, plan))
    return days


def group_evenings_with_end(plans: list[SittingPlan], zone: str,
                            end: dict[str, int] | None) -> dict[str, dict[str, dict[str, int]]]:
    """day → currency → person → balance, with the group's own end applied to each evening."""
    if not end:
        return group_evenings(plans, zone)
    scored = scored_hands(plans)
    return {day: evening_with_end(day_plans, end, scored) for day, day_plans in evenings(plans, zone).items()}


def evening_winners(plans: list[SittingPlan], zone: str, end: dict[str, int] | None) -> dict[str, list[str]]:
    """day → who won the most of the evening's games that count (none when no game counts)."""
    scored = scored_hands(plans)
    out = {}
    for day, day_plans in evenings(plans, zone).items():
        games, _, _ = counted_evening(day_plans, end, scored)
        wins: dict[str, int] = {}
        for _, _, game in games:
            for name in game.winners:
                wins[name] = wins.get(name, 0) + 1
        top = max(wins.values(), default=0)
        out[day] = sorted(name for name, won in wins.items() if won == top and top)
    return out


def page_money(plans: list[SittingPlan], zone: str, end: dict[str, int] | None, number: int) -> dict[str, int]:
    """What sitting ``number``'s own page says each player wins or pays: its own settle-up, or,
    once its group's end came on its evening, only its games up to that end (RULES.md: the
    group's page and the sheets never disagree on an amount; a game past an end counts toward
    nothing, not its sheet's settle-up)."""
    got = sitting_money(plans[number])
    if got is None:
        return {}
    day = evening_of(plans[number], zone, plans)
    games, _, ended = counted_evening(evenings(plans, zone)[day], end, scored_hands(plans))
    if not end or not ended:
        return got[1]
    money = dict.fromkeys(plans[number].names, 0)
    for which, _, game in games:
        if which == number:
            for name, amount in game.money.items():
                money[name] += amount
    return money


def group_stats(plans: list[SittingPlan]) -> dict[str, tuple[int, int, int]]:
    """person → (games played, wins, times frozen) over the whole group (every game in force, past
    an end too: an end leaves a game out of the money and of the evening's winners only)."""
    scored = scored_hands(plans)
    out: dict[str, list[int]] = {}

    def add(names: tuple[str, ...], winners: list[str], left: list[int] | None = None) -> None:
        for seat, name in enumerate(names):
            mine = out.setdefault(name, [0, 0, 0])
            mine[0] += 1
            mine[1] += name in winners
            mine[2] += left is not None and left[seat] == 13

    for number, plan in enumerate(plans):
        if plan.game == "tienlen":
            for game in sheet_games(plan):
                add(plan.names, [plan.names[game.left.index(0)]], game.left)
        elif plan.game == "table":
            for hand, (_, winner, left) in enumerate(table_hands(plan)):
                if (number, hand) not in scored:
                    add(plan.names, [plan.names[winner]], left)
        elif plan.game == "trece":
            for op in live(plan.ops):
                if op.what == "win":
                    add(plan.names, [plan.names[int(str(op.data["seat"]))]])
        elif {int(str(op.data["number"])) for op in live(plan.ops) if op.what == "round"} == set(range(1, ROUNDS + 1)):
            add(plan.names, three_thirteen_winners(plan))
    return {name: (games, wins, frozen) for name, (games, wins, frozen) in out.items()}
