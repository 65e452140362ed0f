"""Stats per person (referee.stats) and the group's state machine (referee.group).

The property test plays random histories (50 evenings, each with a Tiến lên sheet, a Three
Thirteen sheet and a Trece table, undos and corrections included) through the games' own state
machines, keeps its own account of what stands, and checks that the stats agree with a count
made from that account alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import stats, trece
from referee.cards import Card
from referee.errors import NothingToUndo
from referee.group import Group, GroupSetup, NameTakenError, NoSuchPersonError, replay
from referee.three_thirteen import ThreeThirteenRules
from referee.three_thirteen_sheet import Sheet, SheetSetup
from referee.tienlen import Game as TienLenTable
from referee.tienlen import Setup as TienLenSetup
from referee.tienlen_evening import Evening, EveningSetup
from referee.tienlen_scores import FinishedGame
from referee.web.games.tienlen.forms import read_game
from tests.sizes import examples


def typed(evening: Evening, form: dict[str, str]) -> FinishedGame | dict[str, object]:
    """A game typed on the by-hand form, read into its facts as the web does (the library takes
    facts); a form that does not read gives facts the library refuses."""
    facts = read_game(evening.names, evening.rules, form).facts
    return facts if facts is not None else {}

POOL = ("An", "Binh", "Chi", "Dung", "Em")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# --------------------------------------------------------------------------- unit tests


def test_a_game_of_a_tienlen_sheet_ranks_the_winner_first_and_the_others_by_its_points() -> None:
    evening = Evening(EveningSetup(("An", "Binh", "Chi")))
    evening.add_by_hand(typed(evening, {"out": "2", "left_0": "5", "left_1": "3"}))
    (result,) = stats.tienlen_sheet_results(evening)
    assert result.winners == (2,) and result.places == (3, 2, 1)


def test_a_chop_counts_a_bomb_and_the_2s_for_the_bomber_and_against_the_chopped() -> None:
    evening = Evening(EveningSetup(("An", "Binh", "Chi")))
    evening.add_by_hand(typed(evening, {"out": "0", "left_1": "5", "left_2": "6",
                         "chop_by_0": "0", "chop_on_0": "1", "chop_twos_0": "2h"}))
    (result,) = stats.tienlen_sheet_results(evening)
    assert result.counts[0].bombs == 1 and result.counts[0].twos_chopped == 1
    assert result.counts[1].chopped_from == 1 and result.counts[2] == stats.Counts()


def test_a_correction_replaces_the_game_in_the_stats() -> None:
    evening = Evening(EveningSetup(("An", "Binh")))
    evening.add_by_hand(typed(evening, {"out": "0", "left_1": "5"}))
    evening.correct(1, typed(evening, {"out": "1", "left_0": "4"}))
    assert stats.tally([stats.tienlen_sheet_results(evening)])["Binh"].wins == 1


def test_an_unfinished_three_thirteen_sheet_counts_its_rounds_but_no_game() -> None:
    sheet = Sheet(SheetSetup(("An", "Bo")))
    sheet.enter_round(1, cards=["As 2s 3s", ""], points=["", "12"], out=[0])
    an, bo = stats.tally([stats.three_thirteen_results(sheet)]).values()
    assert (an.games, an.rounds, an.counts.rounds_out, an.best_round) == (0, 1, 1, 0)
    assert (bo.worst_round, bo.average_round) == (12, 12)


def test_a_false_out_is_counted_and_is_not_a_round_gone_out() -> None:
    sheet = Sheet(SheetSetup(("An", "Bo"), ThreeThirteenRules(false_out=True)))
    sheet.enter_round(1, cards=["Ah 5s 9h", "As 2s 3s"], points=["", ""], out=[0, 1])
    an, bo = stats.tally([stats.three_thirteen_results(sheet)]).values()
    assert (an.counts.false_outs, an.counts.rounds_out, bo.counts.rounds_out) == (1, 0, 1)


def test_a_trece_table_is_one_game_won_by_the_first_with_no_cards() -> None:
    table = trece.State(trece.Setup(("An", "Bo"), Card.parse("5d")))
    assert stats.trece_results(table)[0].finished is False
    table.play(None, "6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h 4h 5h")
    bo = stats.tally([stats.trece_results(table)])["Bo"]
    assert (bo.trece_games, bo.trece_wins, bo.wins, bo.average_place) == (1, 1, 1, 1.0)


def test_a_followed_tienlen_table_counts_its_finished_hands_unscored() -> None:
    table = TienLenTable(TienLenSetup(("An", "Bo"), leader=0, opening=False, hand_size=1))
    table.play(0, "3s")
    (result,) = stats.tienlen_table_results(table)
    assert result.winners == (0,) and not result.scored
    assert stats.tally([(result,)])["An"].points_won == 0


def test_the_evening_winners_are_the_most_wins_and_a_guest_counts_as_themself() -> None:
    results = [stats.Result(stats.TRECE, ("An", "Guest"), True, (1,), (2, 1)),
               stats.Result(stats.TRECE, ("An", "Guest"), True, (1,), (2, 1))]
    assert stats.winners(results) == ("Guest",)
    tallied = stats.tally([results], people=["An", "Dung"])
    assert list(tallied) == ["An", "Dung", "Guest"] and tallied["Dung"].evenings == 0


def test_a_group_refuses_a_name_someone_had_before_a_rename() -> None:
    group = Group(GroupSetup("G", ("An", "Binh")))
    group.rename_person(0, "Anh")
    with pytest.raises(NameTakenError):
        group.add_person("an")
    assert group.person_of("An") == 0


def test_a_removed_person_is_no_longer_offered_but_keeps_their_name() -> None:
    group = Group(GroupSetup("G", ("An", "Binh")))
    group.remove_person(1)
    assert [p.name for p in group.people] == ["An"] and group.person_of("Binh") == 1
    with pytest.raises(NoSuchPersonError):
        group.remove_person(1)


def test_a_group_undoes_its_last_record_and_replays_from_its_log() -> None:
    group = Group(GroupSetup("G", ("An",)))
    with pytest.raises(NothingToUndo):
        group.undo()
    group.add_person("Bo")
    assert [p.name for p in group.undo().people] == ["An"]
    assert replay(group.setup, [r.to_dict() for r in group.log]).to_dict() == group.to_dict()


# --------------------------------------------------------------------------- the property test


@dataclass
class Expected:
    """What a history should count, kept from the entries alone (no state machine)."""

    evenings: dict[str, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    frozen: dict[str, int] = field(default_factory=dict)
    chopped: dict[str, int] = field(default_factory=dict)
    chopped_from: dict[str, int] = field(default_factory=dict)
    rounds_out: dict[str, int] = field(default_factory=dict)
    rounds: dict[str, list[int]] = field(default_factory=dict)
    trece_wins: dict[str, int] = field(default_factory=dict)

    def add(self, counter: dict[str, int], who: str, n: int = 1) -> None:
        counter[who] = counter.get(who, 0) + n


def tienlen_entry(draw: st.DrawFn, n: int) -> tuple[dict[str, str], dict[str, int]]:
    """A game typed by hand, and its facts: winner, cards left, one chop or none."""
    winner = draw(st.integers(0, n - 1))
    left = {s: draw(st.integers(1, 13)) for s in range(n) if s != winner}
    form = {"out": str(winner)} | {f"left_{s}": str(c) for s, c in left.items()}
    chop = -1
    if draw(st.booleans()):
        candidates = [s for s, c in left.items() if c <= 12]
        if candidates:
            chop = draw(st.sampled_from(candidates))
            form |= {"chop_by_0": str(winner), "chop_on_0": str(chop), "chop_twos_0": "2h"}
    return form, {"winner": winner, "chop": chop, **{f"left{s}": c for s, c in left.items()}}


@st.composite
def histories(draw: st.DrawFn) -> list[dict[str, object]]:
    nights = []
    for _ in range(50):
        n = draw(st.integers(2, 4))
        names = tuple(draw(st.permutations(POOL))[:n])
        ops = draw(st.lists(st.sampled_from(["add", "add", "add", "correct", "undo"]), max_size=5))
        entries = [tienlen_entry(draw, n) for _ in ops]
        rounds = draw(st.integers(0, 11))
        round_points = [(draw(st.integers(0, n - 1)), [draw(st.integers(0, 60)) for _ in range(n)])
                        for _ in range(rounds)]
        undo_round = draw(st.booleans())
        correct_round = draw(st.booleans())
        corrected_points = [draw(st.integers(0, 60)) for _ in range(n)]
        trece_names = names[:2]
        trece_dealer = draw(st.integers(0, 1))
        trece_finished = draw(st.booleans())
        nights.append({"names": names, "ops": list(zip(ops, entries, strict=True)), "rounds": round_points,
                       "undo_round": undo_round, "correct_round": correct_round,
                       "corrected": corrected_points, "trece": (trece_names, trece_dealer, trece_finished)})
    return nights


def _round_form(n: int, number: int, out: int, points: list[int]) -> dict[str, object]:
    run = " ".join(f"{RANKS[i]}s" for i in range(number + 2))
    return {"cards": [run if s == out else "" for s in range(n)],
            "points": ["" if s == out else str(points[s]) for s in range(n)], "out": [out]}


def play_night(night: dict[str, object], expected: Expected) -> list[stats.Result]:
    names = night["names"]
    assert isinstance(names, tuple)
    n = len(names)
    played: set[str] = set()
    # Tiến lên: each add, correction and undo through the sheet; the account keeps the facts.
    evening = Evening(EveningSetup(names))
    kept: list[dict[str, int]] = []  # the facts of each game standing
    history: list[tuple[str, int, dict[str, int] | None]] = []  # what each record did, to undo it
    ops = night["ops"]
    assert isinstance(ops, list)
    for op, (form, facts) in ops:
        if op == "undo":
            if not history:
                continue
            evening = evening.undo()
            kind, number, before = history.pop()
            if kind == "add":
                kept.pop()
            else:
                assert before is not None
                kept[number - 1] = before
        elif op == "correct":
            if not kept or not evening.can_correct(len(kept), typed(evening, form)):
                continue
            evening.correct(len(kept), typed(evening, form))
            history.append(("correct", len(kept), kept[-1]))
            kept[-1] = facts
        else:
            if not evening.can_add_by_hand(typed(evening, form)):
                continue
            evening.add_by_hand(typed(evening, form))
            kept.append(facts)
            history.append(("add", len(kept), None))
    for facts in kept:
        played.update(names)
        for s in range(n):
            expected.add(expected.games, names[s])
        expected.add(expected.wins, names[facts["winner"]])
        for s in range(n):
            if facts.get(f"left{s}") == 13:
                expected.add(expected.frozen, names[s])
        if facts["chop"] >= 0:
            expected.add(expected.chopped, names[facts["winner"]])
            expected.add(expected.chopped_from, names[facts["chop"]])
    # Three Thirteen: the rounds by points, the last one corrected or undone.
    sheet = Sheet(SheetSetup(names))
    rounds = night["rounds"]
    assert isinstance(rounds, list)
    standing: list[tuple[int, list[int]]] = []
    for number, (out, points) in enumerate(rounds, start=1):
        sheet.enter_round(number, **_round_form(n, number, out, points))  # type: ignore[arg-type]
        standing.append((out, [0 if s == out else points[s] for s in range(n)]))
    if standing and night["correct_round"]:
        out, _ = standing[-1]
        corrected = night["corrected"]
        assert isinstance(corrected, list)
        sheet.enter_round(len(standing), **_round_form(n, len(standing), out, corrected))  # type: ignore[arg-type]
        standing[-1] = (out, [0 if s == out else corrected[s] for s in range(n)])
    if standing and night["undo_round"]:
        sheet = sheet.undo()
        if night["correct_round"]:  # the undo takes back the correction
            out, _ = standing[-1]
            _, first = rounds[len(standing) - 1]
            standing[-1] = (out, [0 if s == out else first[s] for s in range(n)])
        else:
            standing.pop()
    if standing:
        played.update(names)
    for out, points in standing:
        expected.add(expected.rounds_out, names[out])
        for s in range(n):
            expected.rounds.setdefault(names[s], []).append(points[s])
    if len(standing) == 11:
        totals = [sum(p[s] for _, p in standing) for s in range(n)]
        for s in range(n):
            expected.add(expected.games, names[s])
            if totals[s] == min(totals):
                expected.add(expected.wins, names[s])
    # Trece: one game, won by a run of all thirteen cards, or taken back.
    trece_names, dealer, finished = night["trece"]  # type: ignore[misc]
    table = trece.State(trece.Setup(trece_names, Card.parse("5d"), dealer=dealer))
    first = table.turn
    assert first is not None
    table.play(None, "6s 7s 8s 9s 10s Js Qs Ks Ah 2h 3h 4h 5h")
    if not finished:
        table = table.undo()
    else:
        for who in trece_names:
            expected.add(expected.games, who)
        expected.add(expected.wins, trece_names[first])
        expected.add(expected.trece_wins, trece_names[first])
        played.update(trece_names)
    for who in played:
        expected.add(expected.evenings, who)
    return [*stats.tienlen_sheet_results(evening), *stats.three_thirteen_results(sheet), *stats.trece_results(table)]


@settings(max_examples=examples(3, 8), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(histories())
def test_stats_agree_with_a_count_made_from_the_entries_over_fifty_evenings(nights: list[dict[str, object]]) -> None:
    expected = Expected()
    evenings = [play_night(night, expected) for night in nights]
    tallied = stats.tally(evenings)
    for who, s in tallied.items():
        assert s.evenings == expected.evenings.get(who, 0), who
        assert s.games == expected.games.get(who, 0), who
        assert s.wins == expected.wins.get(who, 0), who
        assert s.counts.frozen == expected.frozen.get(who, 0), who
        assert s.counts.twos_chopped == expected.chopped.get(who, 0), who
        assert s.counts.chopped_from == expected.chopped_from.get(who, 0), who
        assert s.counts.bombs == expected.chopped.get(who, 0), who
        assert s.counts.rounds_out == expected.rounds_out.get(who, 0), who
        mine = expected.rounds.get(who, [])
        assert s.rounds == len(mine) and s.round_sum == sum(mine), who
        assert s.best_round == (min(mine) if mine else None) and s.worst_round == (max(mine) if mine else None)
        assert s.trece_wins == expected.trece_wins.get(who, 0), who
    assert set(expected.evenings) <= set(tallied)
