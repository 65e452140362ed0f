"""Issue 27's property: one account of a hand, however it reaches the sheet.

Random hands are dealt and played to the end at a followed table (2–4 players, every switch),
then scored four ways: from the table (the keeper entering each loser's leftover cards, only the
caught 2s and bombs, or nothing), typed by hand from the saved facts with the finishing order and
without it, through the JSON API's body, and corrected unchanged on the sheet.  All of them give
the same points, and so does an independent scorer written from RULES.md (tests/tienlen_reference.py).
"""

from __future__ import annotations

import dataclasses
from itertools import combinations

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from referee.cards import Card
from referee.tienlen import (
    Hand,
    InstantWinAction,
    PassAction,
    PlayAction,
    Setup,
    TienLenRules,
    card_power,
    sort_cards,
)
from referee.tienlen_evening import Evening, EveningSetup
from referee.tienlen_scores import FinishedGame, ScoreRules, finished_game_from_hand, score
from referee.web.games.tienlen.forms import read_game, typed_from_facts
from tests import tienlen_reference as ref
from tests.sizes import examples

NAMES = ("An", "Bao", "Chi", "Dung")
DECK = sort_cards(" ".join(f"{r}{s}" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
                           for s in "scdh"))
TABLE = 7
RUN = tuple(sort_cards("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"))
LATE_BOMBS = [tuple(sort_cards(text)) for text in ("5c 5d 6c 6d 7c 7d", "8c 8d 9c 9d 10c 10d", "4h 4d 5h 5d 6h 6d",
                                                  "Jc Jd Jh Qc Qd Qh")]
BOMBS = [tuple(sort_cards(text)) for text in ("5c 5d 6c 6d 7c 7d", "9s 9c 9d 9h", "Js Jh Qs Qh Ks Kh As Ah")]
TWOS = [tuple(sort_cards(text)) for text in ("2h", "2d 2s", "2c 2h 2d")]

rules_st = st.builds(
    TienLenRules,
    twos_in_sequences=st.booleans(), first_lead=st.sampled_from(["contains_3s", "three_spades_alone", "any"]),
    quad_beats_pair_of_twos=st.booleans(), quad_beats_three_pairs=st.booleans(),
    four_pairs_beat_quad=st.booleans(), bomb_after_pass=st.booleans(), play_on=st.booleans(),
    instant_wins=st.booleans(),
)
amount = st.integers(0, 9)


def candidates(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Plays a player could try from these cards: singles, same-rank groups, runs, pair runs."""
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(hand, key=card_power):
        by_rank.setdefault(ref.rank_of(c), []).append(c)
    found: list[tuple[Card, ...]] = [(c,) for c in hand]
    for cards in by_rank.values():
        for size in range(2, len(cards) + 1):
            found += list(combinations(cards, size))[:3]
    for start in range(13):
        for length in range(3, 14 - start):
            ranks = range(start, start + length)
            if not all(r in by_rank for r in ranks):
                break
            found.append(tuple(by_rank[r][-1] for r in ranks))
            found.append(tuple(by_rank[r][0] for r in ranks))
            if length <= 6 and all(len(by_rank[r]) >= 2 for r in ranks):
                found.append(tuple(c for r in ranks for c in by_rank[r][-2:]))
    return found


def play_a_hand(data, players: int, rules: TienLenRules):  # type: ignore[no-untyped-def]
    """A hand dealt from a shuffled deck and played to its end; its deal and its actions."""
    deck = list(data.draw(st.permutations(DECK)))
    script: dict[int, tuple[Card, ...]] = {}
    if rules.play_on and players >= 3 and rules.first_lead != "three_spades_alone" and data.draw(st.booleans()):
        # The hand, varied: the first out runs 3♠…A♠ and goes out with a 2; after that
        # another 2 and bombs fall (on the first out's 2, or on a 2 still held then).
        w, v, b = data.draw(st.permutations(range(players)))[:3]
        two_w, two_v = data.draw(st.permutations([c for c in DECK if c.rank.symbol == "2"]))[:2]
        bomb = data.draw(st.sampled_from(LATE_BOMBS))
        fixed = {w: [*RUN, two_w], v: [two_v], b: list(bomb)}
        rest = [c for c in deck if not any(c in cards for cards in fixed.values())]
        seats = [list(fixed.get(s, [])) for s in range(players)]
        for s in range(players):
            while len(seats[s]) < 13:
                seats[s].append(rest.pop())
        deck = [c for seat in seats for c in seat]
        script = {w: RUN, v: (two_v,), b: bomb}
        first = w
    elif data.draw(st.booleans()):  # a bomb and 2s dealt on purpose, so chops fall before and after the out
        bombs, twos = data.draw(st.sampled_from(BOMBS)), data.draw(st.sampled_from(TWOS))
        a, b = data.draw(st.permutations(range(players)))[:2]
        rest = [c for c in deck if c not in bombs and c not in twos]
        seats: list[list[Card]] = [[] for _ in range(players)]
        seats[a], seats[b] = list(bombs), list(twos)
        for s in range(players):
            while len(seats[s]) < 13:
                seats[s].append(rest.pop())
        deck = [c for seat in seats for c in seat]
    deal = [tuple(sort_cards(deck[13 * s:13 * (s + 1)])) for s in range(players)]
    lowest = min((c for d in deal for c in d), key=card_power)
    leader = next(s for s in range(players) if lowest in deal[s])
    hand = Hand(Setup(NAMES[:players], rules, leader=leader, lowest_card=lowest))
    if not script and rules.instant_wins and data.draw(st.integers(0, 9)) == 0:
        hand.declare_instant_win(data.draw(st.integers(0, players - 1)), "dragon")
    if script:
        hand.play(first, script.pop(first))
        for seat in range(1, players):
            hand.pass_((first + seat) % players)
        hand.play(first, tuple(c for c in deal[first] if c not in hand.played))  # the 2: out
    for _ in range(400):
        if hand.over:
            break
        seat = hand.turn
        assert seat is not None
        if seat in script and hand.can_play(seat, script[seat]):
            hand.play(seat, script.pop(seat))
            continue
        held = tuple(c for c in deal[seat] if c not in hand.played)
        legal = [c for c in candidates(held) if hand.can_play(seat, c)]
        late = hand.cards_left_at_first_out is not None
        if not late and data.draw(st.integers(0, 9)) > 0:  # keep 2s and bombs for after the first out
            legal = [c for c in legal if not ref.is_twos(c) and not ref.is_bomb(c)] or legal
        bombs = [c for c in legal if ref.is_bomb(c)]
        on_twos_or_bomb = hand.table is not None and (ref.is_twos(hand.table.cards) or ref.is_bomb(hand.table.cards))
        if on_twos_or_bomb and bombs and (late or data.draw(st.integers(0, 3)) == 0):
            hand.play(seat, data.draw(st.sampled_from(bombs)))
        elif legal and (hand.table is None or data.draw(st.integers(0, 2)) > 0):
            twos = [c for c in legal if ref.is_twos(c)]  # 2s draw the bombs out
            pick = twos if twos and (late or data.draw(st.integers(0, 5)) == 0) else legal
            hand.play(seat, pick[data.draw(st.integers(0, min(len(pick) - 1, 6)))])
        else:
            hand.pass_(seat)
    assume(hand.over)
    actions = []
    for a in hand.log:
        if isinstance(a, PlayAction):
            actions.append(("play", a.seat, tuple(a.cards)))
        elif isinstance(a, PassAction):
            actions.append(("pass", a.seat, a.cleared))
        elif isinstance(a, InstantWinAction):
            actions.append(("instant", a.seat))
    return hand, deal, actions


@settings(max_examples=examples(60, 200), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), players=st.integers(2, 4), rules=rules_st, places=st.booleans(),
       amounts=st.tuples(amount, amount, st.integers(1, 4), amount, amount, amount, amount, amount, amount, amount))
def test_a_followed_hand_scores_the_same_from_the_table_by_hand_through_the_api_corrected_and_by_the_reference(
        data, players, rules, places, amounts) -> None:  # type: ignore[no-untyped-def]
    hand, deal, actions = play_a_hand(data, players, rules)
    first, second, frozen, black, red, bomb, chop_black, chop_red, chop_bomb, instant = amounts
    score_rules = ScoreRules(score_by="places" if places and rules.play_on else "cards", play_on=rules.play_on,
                             instant_wins=rules.instant_wins, first_stake=first, second_stake=second, frozen=frozen,
                             two_left_black=black, two_left_red=red, bomb_left=bomb, chop_black=chop_black,
                             chop_red=chop_red, chop_bomb=chop_bomb, instant_stake=instant)
    names = NAMES[:players]
    account = ref.account(players, deal, actions)
    entered = [None if s == account.winner or account.instant else
               data.draw(st.sampled_from([None, "leftover", "caught"])) for s in range(players)]
    leftover = {s: " ".join(map(str, account.held[s])) for s in range(players) if entered[s] == "leftover"}
    caught = {s: " ".join(map(str, ref.caught_cards(account.held[s]))) for s in range(players)
              if entered[s] == "caught" and ref.caught_cards(account.held[s])}
    expected = ref.points(account, score_rules, [e if s in leftover or s in caught else None
                                                 for s, e in enumerate(entered)])
    event(f"{players} players, play_on {rules.play_on}, chops {sum(len(c) for c in account.chains)}, "
          f"after the out {sum(map(sum, account.moments()))}, entered {sorted(map(str, entered))}")

    # From the table, as the sheet adds it.
    evening = Evening(EveningSetup(names, score_rules))
    evening.follow(TABLE, names)
    record = evening.add_from_table(TABLE, [hand], 0, leftover, caught)
    assert list(record.points) == expected
    facts = FinishedGame.from_dict(record.facts, names)
    assert [[s.by, s.on, s.twos] for c in facts.chops for s in c] == \
        [[s.by, s.on, s.twos] for c in account.chains for s in c]

    # Typed by hand from the saved facts: with the finishing order, and (unless places need it) without.
    typed = typed_from_facts(facts)
    again = read_game(names, record.rules, typed)
    assert again.facts is not None, again.errors
    assert list(score(again.facts, record.rules).points) == expected
    if record.rules.score_by == "cards":
        unordered = {k: ("" if k.startswith("place_") else v) for k, v in typed.items()}
        bare = read_game(names, record.rules, unordered)
        assert bare.facts is not None, bare.errors
        assert bare.facts.order is None
        assert list(score(bare.facts, record.rules).points) == expected

    # The JSON API's body.
    assert list(score(FinishedGame.from_dict(facts.to_dict()), record.rules).points) == expected

    # Corrected unchanged on the sheet.
    evening.correct(1, again.facts)
    assert list(evening.totals) == expected


@settings(max_examples=examples(25, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), players=st.integers(3, 4), rules=rules_st)
def test_a_followed_play_on_hand_marks_each_bomb_that_fell_after_the_first_out(data, players, rules) -> None:  # type: ignore[no-untyped-def]
    hand, deal, actions = play_a_hand(data, players, dataclasses.replace(rules, play_on=True, instant_wins=False))
    account = ref.account(players, deal, actions)
    game = finished_game_from_hand(hand)
    marked = [list(chain) for chain in game.after_out] if game.after_out else [[False] * len(c) for c in game.chops]
    assert marked == account.moments()
    event(f"bombs after the out: {sum(map(sum, marked))}")
