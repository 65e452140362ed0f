"""Random groups' evenings against a settle-up worked out by hand from RULES.md
(:mod:`tests.reference_group_evening`): several Tiến lên sheets, Three Thirteen sheets (some with
all eleven rounds in) and Trece tables, stakes in several currencies, each sheet's and table's own
end, the group's own end over its evenings, undos, corrections and games moved between evenings;
and followed Tiến lên tables whose hands are scored onto a sheet ("Score this hand": a sheet made
for the table; or the group's sheet that started the table), scored hands undone and corrected.
The group's evening and each sheet's and table's own page (with the group's end, up to it) must
both say the reference's amounts,
and the group's stats (games, wins, times frozen per person) and each evening's winners the
reference's: a table's hand scored on a sheet is one game."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, note, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from referee import tienlen, trece
from referee.cards import Card
from referee.group import GroupSetup
from referee.three_thirteen_sheet import Sheet, SheetSetup
from referee.three_thirteen_sheet import replay as replay_sheet
from referee.tienlen_evening import Evening, EveningSetup
from referee.tienlen_evening import replay as replay_evening
from referee.web import store
from referee.web.extensions import db
from referee.web.games.tienlen.forms import read_game
from referee.web.groups.evenings import build_group, evening_money, evenings_of, people_stats
from referee.web.models import Event, Game
from tests.reference_group_evening import (
    ROUNDS,
    Op,
    SittingPlan,
    evening_winners,
    group_evenings,
    group_evenings_with_end,
    group_stats,
    live,
    op_time,
    page_money,
    scored_hands,
)

PEOPLE = ("An", "Binh", "Chi", "Dung")
CURRENCIES = ("USD", "VND", "EUR")
ZONES = ("Asia/Ho_Chi_Minh", "America/Bogota", "UTC")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
WIN = "6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h 4h 5h"
START = datetime(2026, 11, 2, 10, 0, tzinfo=UTC)


@st.composite
def sitting_plans(draw: Any) -> SittingPlan:
    game = draw(st.sampled_from(("tienlen", "three_thirteen", "trece")))
    size = 2 if game == "trece" else draw(st.integers(2, 4))
    names = tuple(draw(st.permutations(PEOPLE))[:size])
    hours = draw(st.one_of(st.integers(8, 11), st.integers(0, 72)))  # most often one evening with several games
    begun = START + timedelta(hours=hours, minutes=draw(st.integers(0, 59)))
    ops: list[Op] = []
    if draw(st.integers(0, 3)):  # most sittings play for money from the start
        ops.append(Op("stake", {"amount": draw(st.integers(1, 500)), "currency": draw(st.sampled_from(CURRENCIES)),
                                "settle": draw(st.sampled_from(("winner", "each")))}))
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(("play", "play", "play", "stake", "end", "undo", "correct", "finish")))
        now = live(ops)
        if kind == "stake":
            ops.append(Op("stake", {"amount": draw(st.integers(0, 500)), "currency": draw(st.sampled_from(CURRENCIES)),
                                    "settle": draw(st.sampled_from(("winner", "each")))}))
        elif kind == "end" and game != "three_thirteen":
            ops.append(Op("end", draw(st.sampled_from(({"games": 1}, {"games": 2}, {"target": 10}, {"target": 30})))))
        elif kind == "undo" and now:
            ops.append(Op("undo"))
        elif game == "tienlen" and kind in ("play", "correct"):
            winner = draw(st.integers(0, size - 1))
            left = [0 if seat == winner else draw(st.integers(1, 13)) for seat in range(size)]
            games = sum(1 for op in now if op.what == "game")
            if kind == "correct" and games:
                ops.append(Op("correct", {"number": draw(st.integers(1, games)), "left": left}))
            elif kind == "play":
                ops.append(Op("game", {"left": left}))
        elif game == "three_thirteen" and kind == "finish":  # every round still missing, one after another
            entered = {int(str(op.data["number"])) for op in now if op.what == "round"}
            for number in sorted(set(range(1, ROUNDS + 1)) - entered):
                out = draw(st.integers(0, size - 1))
                ops.append(Op("round", {"number": number, "out": out,
                                        "points": [0 if s == out else draw(st.integers(0, 60)) for s in range(size)]}))
        elif game == "three_thirteen" and kind in ("play", "correct"):
            entered = sorted({int(str(op.data["number"])) for op in now if op.what == "round"})
            if kind == "correct" and entered:
                number = draw(st.sampled_from(entered))
            else:
                number = len(entered) + 1 if kind == "play" and len(entered) < 11 else 0
            if number:
                out = draw(st.integers(0, size - 1))
                ops.append(Op("round", {"number": number, "out": out,
                                        "points": [0 if s == out else draw(st.integers(0, 60)) for s in range(size)]}))
        elif game == "trece" and kind == "play" and not any(op.what == "win" for op in now):
            ops.append(Op("win", {"seat": 1}))  # dealer 0: the other player plays first, and goes out at once
    return SittingPlan(game, names, begun, ops)


STRAIGHT = "3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd Ah"
RUN = "5c 6c 7c 8c 9c 10c Jc Qc Kc Ac"
TABLE_RULES = tienlen.TienLenRules(play_on=False)


def _play_hand(table: tienlen.Game, answered: bool) -> list[Any]:
    """One hand on a followed table, played out: the leader plays 3♠ to A♥ and then a 2, all the
    others frozen; or (``answered``) the next seat beats the leader's 3♠, plays a run and a pair of
    2s and is out, the leader with 12 cards left and the rest frozen.  Its records."""
    n = len(table.setup.players)
    lead = table.hand.turn
    assert lead is not None
    out = (lead + 1) % n if answered else lead
    records: list[Any] = [table.play(lead, "3s" if answered else STRAIGHT)]
    if answered:
        records.append(table.play(out, "4s"))
    for turn in ((RUN, "2s 2c") if answered else ("2s",)):
        records.extend(table.pass_((out + i) % n) for i in range(1, n))
        records.append(table.play(out, turn))
    assert table.hand.over and table.hand.winner == out
    return records


def hand_of(table: tienlen.Game, answered: bool) -> dict[str, Any]:
    """What the reference reads of a hand about to be played: who goes out, the cards left."""
    n = len(table.setup.players)
    lead = table.hand.turn if not table.hand.over else table.hand.winner
    assert lead is not None
    out = (lead + 1) % n if answered else lead
    return {"answered": answered, "winner": out,
            "left": [0 if s == out else 12 if answered and s == lead else 13 for s in range(n)]}


@st.composite
def table_plans(draw: Any, plans: list[SittingPlan]) -> list[SittingPlan]:
    """A followed Tiến lên table of the group, its hands, and the sheet that scores some of them:
    the group's sheet that started it ("Start a table with these players"), or the sheet "Score
    this hand" makes for it (a new plan, started from the table).  Appended plans."""
    sheets = [i for i, p in enumerate(plans) if p.game == "tienlen"]
    from_sheet = draw(st.sampled_from(sheets)) if sheets and draw(st.booleans()) else None
    if from_sheet is not None:
        names = plans[from_sheet].names
        begun = plans[from_sheet].begun + timedelta(minutes=draw(st.integers(0, 90)))
    else:
        size = draw(st.integers(2, 4))
        names = tuple(draw(st.permutations(PEOPLE))[:size])
        begun = START + timedelta(hours=draw(st.one_of(st.integers(8, 11), st.integers(0, 72))),
                                  minutes=draw(st.integers(0, 59)))
    table = tienlen.Game(tienlen.Setup(names, TABLE_RULES, leader=draw(st.integers(0, len(names) - 1))))
    hands = []
    for _ in range(draw(st.integers(1, 3))):
        if table.hand.over:
            table.next_hand()
        hands.append(Op("hand", hand_of(table, answered := draw(st.booleans()))))
        _play_hand(table, answered)
    number = len(plans)
    table_plan = SittingPlan("table", names, begun, hands, started_from=from_sheet)
    if from_sheet is None:
        sheet = SittingPlan("tienlen", names, begun + timedelta(minutes=len(hands) + 1),
                            [Op("follow", {"table": number})], started_from=number)
        if draw(st.booleans()):
            sheet.ops.append(Op("stake", {"amount": draw(st.integers(1, 500)),
                                          "currency": draw(st.sampled_from(CURRENCIES)), "settle": "winner"}))
        added = [table_plan, sheet]
    else:
        sheet = plans[from_sheet]
        sheet.ops.append(Op("follow", {"table": number}))
        added = [table_plan]
    for hand, op in enumerate(hands):
        if not draw(st.integers(0, 3)):
            continue  # most hands are scored
        left = list(op.data["left"])  # type: ignore[call-overload]
        sheet.ops.append(Op("game", {"left": left, "table": number, "hand": hand}))
        what = draw(st.sampled_from(("keep", "keep", "undo", "correct", "end")))
        if what == "undo":
            sheet.ops.append(Op("undo"))
        elif what == "correct":  # entered again by hand: it still stands for the table's hand
            games = sum(1 for o in live(sheet.ops) if o.what == "game")
            winner = draw(st.integers(0, len(names) - 1))
            sheet.ops.append(Op("correct", {"number": games, "left": [
                0 if s == winner else draw(st.integers(1, 13)) for s in range(len(names))]}))
        elif what == "end":
            sheet.ops.append(Op("end", draw(st.sampled_from(({"games": 1}, {"target": 10})))))
    return added


@st.composite
def group_plans(draw: Any) -> list[SittingPlan]:
    plans: list[SittingPlan] = draw(st.lists(sitting_plans(), min_size=1, max_size=5))
    for _ in range(draw(st.integers(0, 2))):
        plans.extend(draw(table_plans(plans)))
    return plans


def _table_events(plan: SittingPlan) -> tuple[tienlen.Game, list[tuple[str, dict[str, Any]]], list[int]]:
    """A table plan's stored events, made by the table's own state machine, and the op each came from."""
    table = tienlen.Game(tienlen.Setup(plan.names, TABLE_RULES, leader=_leader(plan)))
    events: list[tuple[str, dict[str, Any]]] = []
    ops: list[int] = []
    for index, op in enumerate(plan.ops):
        records = [table.next_hand()] if table.hand.over else []
        records += _play_hand(table, bool(op.data["answered"]))
        for record in records:  # stored as the table stores them: the action in the payload too
            payload = record.to_dict()
            events.append((str(payload["action"]), payload))
            ops.append(index)
    return table, events, ops


def _leader(plan: SittingPlan) -> int:
    """Who led a table's first hand: read back from its first hand (the winner, or the seat before)."""
    first = plan.ops[0].data
    return (int(str(first["winner"])) - 1) % len(plan.names) if first["answered"] else int(str(first["winner"]))


def _stored_events(plan: SittingPlan, tables: dict[int, tuple[int, tienlen.Game]] | None = None) -> tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """The stored game (kind, rules, setup, events) of a plan, each record made by the game's own
    state machine from what was played (an undo stored as the app stores it); ``tables``: each
    table plan's stored id and state, by plan number."""
    events: list[tuple[str, dict[str, Any]]] = []
    live_records: list[tuple[str, dict[str, Any]]] = []  # (kind, payload) in force, for the next record
    stack: list[int] = []  # indexes into events still in force
    if plan.game == "trece":
        setup = trece.Setup((plan.names[0], plan.names[1]), Card.parse("5d"), dealer=0)
        kind, rules, setup_dict = "trece", setup.rules.to_dict(), setup.to_dict()
    elif plan.game == "tienlen":
        kind, rules, setup_dict = "tienlen_scores", Evening(EveningSetup(plan.names)).rules.to_dict(), {}
    else:
        kind, rules, setup_dict = "three_thirteen", {}, {"first_dealer": 0}
    for op in plan.ops:
        if op.what == "undo":
            undone = events[stack.pop()]
            events.append(("undo", {"undoes": 0, "kind": undone[0]}))
            live_records = [events[i] for i in stack]
            continue
        if op.what == "stake":
            made = ("money", {"stake": op.data["amount"], "currency": op.data["currency"], "settle": op.data["settle"]})
        elif op.what == "end":
            made = ("end", {"target": 0, "games": 0, "until": "", "utc_offset": 0, **op.data})
        elif plan.game == "tienlen" and (op.what == "follow" or "table" in op.data):
            sheet = replay_evening(EveningSetup(plan.names), [{**p, "action": k} for k, p in live_records
                                                             if k not in ("money", "end")])
            assert tables is not None
            table_id, state = tables[int(str(op.data["table"]))]
            if op.what == "follow":
                made_record: Any = sheet.follow(table_id, plan.names)
            else:
                made_record = sheet.add_from_table(table_id, state.hands, int(str(op.data["hand"])), {}, {})
            payload = made_record.to_dict()
            made = (str(payload.pop("action")), payload)
        elif plan.game == "tienlen":
            sheet = replay_evening(EveningSetup(plan.names), [{**p, "action": k} for k, p in live_records
                                                             if k not in ("money", "end")])
            left = list(op.data["left"])  # type: ignore[call-overload]
            form = {"out": str(left.index(0))} | {f"left_{s}": str(n) for s, n in enumerate(left) if n}
            facts = read_game(sheet.names, sheet.rules, form).facts
            assert facts is not None
            record = sheet.correct(int(str(op.data["number"])), facts) if op.what == "correct" else sheet.add_by_hand(facts)
            payload = record.to_dict()
            made = (str(payload.pop("action")), payload)
        elif plan.game == "three_thirteen":
            rummy: Sheet = replay_sheet(SheetSetup(plan.names), [{**p, "action": k} for k, p in live_records
                                                                 if k not in ("money", "end")])
            number, out = int(str(op.data["number"])), int(str(op.data["out"]))
            run = " ".join(f"{RANKS[i]}s" for i in range(number + 2))
            points = list(op.data["points"])  # type: ignore[call-overload]
            got = rummy.enter_round(number, cards=[run if s == out else "" for s in range(len(plan.names))],
                                    points=["" if s == out else str(p) for s, p in enumerate(points)], out=[out])
            payload = got.to_dict()
            made = (str(payload.pop("action")), payload)
        else:
            table = trece.State(trece.Setup((plan.names[0], plan.names[1]), Card.parse("5d"), dealer=0))
            record = table.play(None, WIN)
            made = (record.action, record.to_dict())
        stack.append(len(events))
        events.append(made)
        live_records = [events[i] for i in stack]
    return kind, rules, setup_dict, events


def _page_amounts(client: Any, game: Game) -> dict[str, int]:
    path = {"tienlen_scores": "/tienlen/scores/g/", "three_thirteen": "/three-thirteen/g/", "trece": "/trece/g/"}
    html = client.get(path[game.kind] + game.keeper_token).get_data(as_text=True)
    block = html.split('class="settle-up"', 1)
    if len(block) < 2:
        return {}
    rows = re.findall(r'<li data-state="\w+" data-amount="(-?\d+)">([^<]*)</li>', block[1].split("</section>", 1)[0])
    out = {}
    for amount, words in rows:
        name = next(n for n in sorted(game.player_names, key=len, reverse=True) if words.startswith(n))
        out[name] = int(amount)
    return out


def _nonzero(evenings: dict[str, dict[str, dict[str, int]]]) -> dict[str, dict[str, dict[str, int]]]:
    out: dict[str, dict[str, dict[str, int]]] = {}
    for day, currencies in evenings.items():
        for currency, people in currencies.items():
            kept = {p: a for p, a in people.items() if a}
            if kept:
                out.setdefault(day, {})[currency] = kept
    return out


# The group's evening ended by a game of a sheet with no stake while a Three Thirteen sheet was being
# played for money: its rounds were played past the end and count nowhere (they counted before).
@example(plans=[SittingPlan("tienlen", ("An", "Binh"), START, [Op("game", {"left": [0, 1]})]),
                SittingPlan("three_thirteen", ("An", "Binh"), START, [
                    Op("round", {"number": 1, "out": 0, "points": [0, 1]}),
                    Op("stake", {"amount": 1, "currency": "USD", "settle": "winner"}),
                    Op("round", {"number": 2, "out": 0, "points": [0, 0]})])],
         zone="Asia/Ho_Chi_Minh", moves=[], group_end={"games": 1})
@settings(max_examples=120, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink], suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(plans=group_plans(), zone=st.sampled_from(ZONES),
       moves=st.lists(st.tuples(st.integers(0, 5), st.sampled_from(("2026-10-01", "2026-11-03"))), max_size=2),
       group_end=st.one_of(st.none(), st.builds(dict, games=st.integers(1, 3)),
                           st.builds(dict, target=st.sampled_from((5, 20, 100, 1000, 5000)))))
def test_a_groups_evenings_say_what_each_sheet_says_and_what_rules_md_adds_up(
        client: Any, plans: list[SittingPlan], zone: str, moves: list[Any], group_end: dict[str, int] | None) -> None:
    for number, plan in enumerate(plans):  # no two games of a group entered at the same moment
        plan.begun += timedelta(seconds=number)
    note(f"{plans!r} zone={zone} moves={moves} group_end={group_end}")
    with client.application.app_context():
        owner = store.create_game(store.GROUP, [], rules={}, setup=GroupSetup("Fridays", PEOPLE, zone).to_dict())
        games: dict[int, Game] = {}
        tables: dict[int, tuple[int, tienlen.Game]] = {}
        for number, plan in enumerate(plans):  # the tables first: their sheets name their ids
            if plan.game == "table":
                state, events, made_by = _table_events(plan)
                setup = tienlen.Setup(plan.names, TABLE_RULES, leader=_leader(plan)).to_dict()
                game = store.create_game("tienlen", list(plan.names), rules=TABLE_RULES.to_dict(), setup=setup,
                                         events=events, group=owner)
                for event in game.events:  # every record of a hand when the hand was played
                    event.created_at = op_time(plan, made_by[event.seq - 1])
                game.created_at = plan.begun
                games[number] = game
                tables[number] = (game.id, state)
        for number, plan in enumerate(plans):
            if plan.game == "table":
                continue
            kind, rules, setup, events = _stored_events(plan, tables)
            source = games.get(plan.started_from) if plan.started_from is not None else None
            game = store.create_game(kind, list(plan.names), rules=rules, setup=setup, events=events, group=owner,
                                     started_from=source)
            for seq, event in enumerate(sorted(game.events, key=lambda e: e.seq), start=1):
                event.created_at = plan.begun + timedelta(minutes=seq)
                if event.kind == "undo":  # as store.undo_last stores it: the seq of the event it takes back
                    taken = [e.seq for e in store.effective_events([e for e in game.events if e.seq < event.seq])]
                    event.payload = {**event.payload, "undoes": taken[-1]}
            game.created_at = plan.begun
            games[number] = game
        for number, plan in enumerate(plans):  # a table started from a group's sheet
            if plan.game == "table" and plan.started_from is not None:
                games[number].started_from = games[plan.started_from].id
        for index, day in moves:
            if index < len(plans):
                plans[index].moved_to = day
                db.session.add(Event(game_id=owner.id, seq=owner.version + 1, kind="move",
                                     payload={"action": "move", "game": games[index].watch_token, "day": day}))
                owner.version += 1
        if group_end is not None:  # the group's own end, over each of its evenings
            db.session.add(Event(game_id=owner.id, seq=owner.version + 1, kind="end",
                                 payload={"action": "end", "target": 0, "games": 0, "until": "", "utc_offset": 0,
                                          **group_end}))
            owner.version += 1
        db.session.commit()
        if any(plan.game == "table" for plan in plans):
            tally("a table's hands, scored on a sheet" if scored_hands(plans) else "a table's hands, none scored")
        expected = _nonzero(group_evenings_with_end(plans, zone, group_end))
        if group_end is not None:
            tally("the group's end changed an evening" if expected != _nonzero(group_evenings(plans, zone))
                  else "the group's end changed nothing")
        group = build_group(owner)
        evenings = evenings_of(owner, group)
        said = _nonzero({e.day: evening_money(e, group) for e in evenings})
        assert said == expected
        assert {e.day: sorted(e.winners) for e in evenings} == evening_winners(plans, zone, group_end)
        counted = {name: (got.games, got.wins, got.frozen) for name, got in people_stats(group, evenings).items()
                   if got.games or got.frozen}
        assert counted == group_stats(plans)
        for number, plan in enumerate(plans):  # each page says the same as the reference
            if plan.game == "table":
                continue  # a followed table plays for nothing
            figures = page_money(plans, zone, group_end, number)
            on_page = _page_amounts(client, games[number])
            assert {n: a for n, a in on_page.items() if a} == {n: a for n, a in figures.items() if a}, plan
