"""The end of an evening (RULES.md, "End of an evening"): target, games, until."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.evening_end import EveningEnd, deadline, progress
from referee.switches import SwitchError, rules_from_mapping

NAMES = ("An", "Binh", "Chi")
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def test_no_end_switch_never_ends_and_says_nothing():
    p = progress(EveningEnd(), NAMES, [(30, -10, -20)] * 50)
    assert not p.over and p.to_go == () and p.winners == ()


def test_games_switch_counts_the_games_left():
    p = progress(EveningEnd(games=5), NAMES, [(1, 0, -1)] * 3)
    assert not p.over and [str(m) for m in p.to_go] == ["2 games left"]
    assert str(progress(EveningEnd(games=5), NAMES, [(1, 0, -1)] * 4).to_go[0]) == "1 game left"


def test_games_switch_ends_at_that_game_and_counts_games_past_it():
    running = [(1, 0, -1), (2, 0, -2), (-3, 5, -2), (-4, 6, -2)]
    p = progress(EveningEnd(games=3), NAMES, running)
    assert p.over and p.last_game == 3 and p.past_end == 1
    assert p.totals == (-3, 5, -2) and p.winners == ("Binh",)


def test_target_is_reached_up_or_down():
    # Chi falls to -10: the evening ends though nobody is up 10.
    running = [(2, 3, -5), (4, 6, -10)]
    p = progress(EveningEnd(target=10), NAMES, running)
    assert p.over and p.last_game == 2 and p.why.params["name"] == "Chi"
    assert p.winners == ("Binh",)


def test_target_says_who_is_closest_and_how_far():
    p = progress(EveningEnd(target=10), NAMES, [(2, 3, -7)])
    assert str(p.to_go[0]) == "Chi is 3 points from the target"
    assert str(progress(EveningEnd(target=10), NAMES, [(2, 7, -9)]).to_go[0]) == "Chi is 1 point from the target"


def test_tied_best_totals_are_all_winners():
    p = progress(EveningEnd(games=1), NAMES, [(5, 5, -10)])
    assert p.winners == ("An", "Binh")


def test_lowest_total_wins_when_asked():
    p = progress(EveningEnd(games=1), NAMES, [(5, 2, 9)], lowest_wins=True)
    assert p.winners == ("Binh",)


def test_until_the_game_being_played_when_the_time_passes_is_the_last():
    end = EveningEnd(until="21:00")
    at = [T0 + timedelta(minutes=m) for m in (20, 50, 70, 90)]
    running = [(1, 0, -1), (2, 0, -2), (3, 0, -3), (0, 4, -4)]
    before = progress(end, NAMES, running[:2], at[:2], start=T0, now=at[1])
    assert not before.over
    assert str(before.to_go[0]) == "the evening ends with the game being played at 21:00"
    passed = progress(end, NAMES, running[:2], at[:2], start=T0, now=T0 + timedelta(minutes=65))
    assert not passed.over and str(passed.to_go[0]) == "the game being played at 21:00 is the last"
    over = progress(end, NAMES, running, at, start=T0, now=at[3])
    assert over.over and over.last_game == 3 and over.past_end == 1 and over.winners == ("An",)


def test_until_after_midnight_is_the_next_day():
    assert deadline(EveningEnd(until="00:30"), T0) == datetime(2026, 12, 2, 0, 30, tzinfo=UTC)


def test_until_is_read_on_the_tables_clock():
    # 20:00 UTC is 17:00 in São Paulo (UTC−3): 18:00 there is 21:00 UTC.
    assert deadline(EveningEnd(until="18:00", utc_offset=-180), T0) == datetime(2026, 12, 1, 21, 0, tzinfo=UTC)


def test_the_first_switch_reached_ends_the_evening():
    p = progress(EveningEnd(target=100, games=2), NAMES, [(1, 0, -1), (2, 0, -2), (3, 0, -3)])
    assert p.last_game == 2 and p.why.plural == "the evening is over: {count} games played" and str(p.why).endswith("2 games played")


@pytest.mark.parametrize("switches", [
    {"target": -1}, {"target": 100_001}, {"games": "x"}, {"until": "7pm"}, {"until": "24:00"},
    {"utc_offset": 2000},
])
def test_end_switches_out_of_range_are_refused_naming_the_switch(switches):
    with pytest.raises(SwitchError) as caught:
        rules_from_mapping(EveningEnd, switches)
    assert caught.value.switch in {"", *switches}


def test_end_switches_read_from_a_form():
    read = rules_from_mapping(EveningEnd, {"target": "50", "games": "0", "until": "23:15"})
    assert read == EveningEnd(target=50, until="23:15") and read.is_set
