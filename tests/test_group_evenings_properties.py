"""Random groups' evenings against a settle-up worked out by hand from RULES.md
(:mod:`tests.reference_group_evening`): several Tiến lên sheets, Three Thirteen sheets (some with
all eleven rounds in) and Trece tables, stakes in several currencies, each sheet's and table's own
end, the group's own end over its evenings, undos, corrections and games moved between evenings.
The group's evening and each sheet's and table's own page must both say the reference's amounts."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from referee import trece
from referee.cards import Card
from referee.group import GroupSetup
from referee.three_thirteen_sheet import Sheet, SheetSetup
from referee.three_thirteen_sheet import replay as replay_sheet
from referee.tienlen_evening import Evening, EveningSetup
from referee.tienlen_evening import replay as replay_evening
from referee.web import store
from referee.web.extensions import db
from referee.web.games.tienlen.forms import read_game
from referee.web.groups.evenings import build_group, evening_money, evenings_of
from referee.web.models import Event, Game
from tests.reference_group_evening import (
    ROUNDS,
    Op,
    SittingPlan,
    group_evenings,
    group_evenings_with_end,
    live,
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


def _stored_events(plan: SittingPlan) -> tuple[str, dict[str, Any], dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """The stored game (kind, rules, setup, events) of a plan, each record made by the game's own
    state machine from what was played (an undo stored as the app stores it)."""
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
@given(plans=st.lists(sitting_plans(), min_size=1, max_size=6), zone=st.sampled_from(ZONES),
       moves=st.lists(st.tuples(st.integers(0, 5), st.sampled_from(("2026-10-01", "2026-11-03"))), max_size=2),
       group_end=st.one_of(st.none(), st.builds(dict, games=st.integers(1, 3)),
                           st.builds(dict, target=st.sampled_from((5, 20, 100, 1000, 5000)))))
def test_a_groups_evenings_say_what_each_sheet_says_and_what_rules_md_adds_up(
        client: Any, plans: list[SittingPlan], zone: str, moves: list[Any], group_end: dict[str, int] | None) -> None:
    for number, plan in enumerate(plans):  # no two games of a group entered at the same moment
        plan.begun += timedelta(seconds=number)
    with client.application.app_context():
        owner = store.create_game(store.GROUP, [], rules={}, setup=GroupSetup("Fridays", PEOPLE, zone).to_dict())
        games = []
        for plan in plans:
            kind, rules, setup, events = _stored_events(plan)
            game = store.create_game(kind, list(plan.names), rules=rules, setup=setup, events=events, group=owner)
            for seq, event in enumerate(sorted(game.events, key=lambda e: e.seq), start=1):
                event.created_at = plan.begun + timedelta(minutes=seq)
                if event.kind == "undo":  # as store.undo_last stores it: the seq of the event it takes back
                    taken = [e.seq for e in store.effective_events([e for e in game.events if e.seq < event.seq])]
                    event.payload = {**event.payload, "undoes": taken[-1]}
            game.created_at = plan.begun
            games.append(game)
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
        expected = _nonzero(group_evenings_with_end(plans, zone, group_end))
        if group_end is not None:
            tally("the group's end changed an evening" if expected != _nonzero(group_evenings(plans, zone))
                  else "the group's end changed nothing")
        group = build_group(owner)
        said = _nonzero({e.day: evening_money(e, group) for e in evenings_of(owner, group)})
        assert said == expected
        for plan, game in zip(plans, games, strict=True):  # each page says the same as the reference
            mine = group_evenings([SittingPlan(plan.game, plan.names, plan.begun, plan.ops)], "UTC")
            figures = {n: a for day in mine.values() for people in day.values() for n, a in people.items()}
            on_page = _page_amounts(client, game)
            assert {n: a for n, a in on_page.items() if a} == {n: a for n, a in figures.items() if a}, plan
