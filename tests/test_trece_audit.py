"""Trece: an independent audit of the referee against RULES.md, one probe per rule.

Each test is named after the rule it checks; verdicts are checked together with
their reason sentence, because a right verdict with a wrong reason still loses
the table's trust.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import BLACK_JOKER, RED_JOKER, AnyCard, Card, Joker, Rank, Suit, full_deck, parse_cards
from referee.trece import (
    DECK_SIZE,
    Draw,
    DuplicateCardError,
    IllegalActionError,
    IllegalPlayError,
    Setup,
    State,
    TreceRules,
    check_play,
    replay,
)
from tests.sizes import examples
from tests.trece_games import ben_down_to_one, new_game, total

ON = TreceRules(run_after_joker=True)
OFF = TreceRules()
DECK: tuple[AnyCard, ...] = (*full_deck(), RED_JOKER, BLACK_JOKER)


def verdict(top: str, play: str, must_follow: Suit | None = None, rules: TreceRules = OFF) -> tuple[bool, str]:
    v = check_play(top, play, must_follow, rules)
    return v.legal, str(v.reason)


# ---------------------------------------------------------------- single cards and the wrap


@pytest.mark.parametrize(
    "top, card",
    [("K♣", "A♥"), ("2♣", "A♠"), ("A♦", "K♠"), ("A♦", "2♥"), ("K♥", "Q♠"), ("Q♠", "J♥"), ("Q♣", "K♦"), ("10♦", "J♦")],
)
def test_single_card_one_rank_either_way_with_the_ace_between_king_and_two(top: str, card: str) -> None:
    assert verdict(top, card) == (True, f"{card} is one rank from {top}")


@pytest.mark.parametrize("top, card", [("K♦", "2♦"), ("2♠", "K♥"), ("A♠", "3♠"), ("A♠", "Q♠"), ("7♣", "7♥")])
def test_single_card_two_ranks_away_or_the_same_rank_is_refused(top: str, card: str) -> None:
    assert verdict(top, card) == (False, f"{card} is not one rank from {top}")


def test_every_single_card_on_every_top_is_legal_exactly_when_one_rank_apart_round_the_wrap() -> None:
    order = list(Rank)  # A 2 ... K
    for top in full_deck():
        for card in full_deck():
            if card == top:
                continue
            gap = (order.index(card.rank) - order.index(top.rank)) % 13
            assert check_play(top, [card]).legal == (gap in (1, 12)), (top, card)


# ---------------------------------------------------------------- runs


def test_run_first_card_follows_the_single_card_rule_against_the_top() -> None:
    assert verdict("4♥", "6♠ 7♠") == (False, "6♠ is not one rank from 4♥")
    assert verdict("K♥", "2♠ 3♠") == (False, "2♠ is not one rank from K♥")
    assert verdict("K♥", "A♠ 2♠ 3♠")[0]  # the ace goes on the king, then the run climbs


def test_run_through_ace_and_king_both_ways() -> None:
    assert verdict("J♠", "Q♠ K♠ A♠ 2♠ 3♠")[0]  # up through the wrap
    assert verdict("4♣", "3♣ 2♣ A♣ K♣ Q♣")[0]  # down through the wrap
    assert verdict("2♦", "A♦ K♦")[0]
    assert verdict("Q♦", "K♦ A♦")[0]


def test_run_turns_direction_after_a_king() -> None:
    assert verdict("10♥", "J♥ Q♥ K♥ Q♠ J♠ 10♠")[0]  # up, then down in spades
    assert verdict("4♥", "3♣ 2♣ A♣ K♣ A♦ 2♦ 3♦")[0]  # down, then up in diamonds


def test_run_keeps_the_suit_of_the_card_before() -> None:
    assert verdict("4♥", "5♠ 6♠ 7♥") == (
        False,
        "7♥ is not a ♠: each card of a run is the suit of the card before it",
    )


def test_run_steps_one_rank() -> None:
    assert verdict("4♥", "5♠ 7♠") == (False, "7♠ is not one rank from 5♠")


def test_sheet_example_is_one_run() -> None:
    assert verdict("J♦", "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣") == (True, "Q♥ K♥ A♠ K♠ Q♣ J♣ 10♣ is a run on J♦")


# ---------------------------------------------------------------- the king exception


@pytest.mark.parametrize("after", ["Q♥", "Q♠", "Q♣", "Q♦", "A♥", "A♠", "A♣", "A♦"])
def test_after_a_king_reached_through_an_ace_any_queen_or_ace_may_follow(after: str) -> None:
    # A♠ K♠ steps down through the wrap; the king is still a king.
    play = f"A♠ K♠ {after}" if after != "A♠" else "A♣ K♣ A♠"
    assert verdict("2♦", play)[0], play


def test_after_a_king_any_queen_or_ace_also_when_the_king_is_the_first_card() -> None:
    assert verdict("Q♦", "K♣ Q♥ J♥")[0]
    assert verdict("A♦", "K♣ A♥ 2♥")[0]


@pytest.mark.parametrize("after", ["J♠", "2♠", "K♦", "10♥", "3♣"])
def test_after_a_king_nothing_but_a_queen_or_an_ace(after: str) -> None:
    assert verdict("Q♦", f"K♠ {after}") == (False, f"after a king any queen or ace may follow, not {after}")


def test_the_exception_is_after_a_king_only_not_after_an_ace_or_a_queen() -> None:
    assert verdict("Q♦", "K♦ A♠ K♥") == (False, "K♥ is not a ♠: each card of a run is the suit of the card before it")
    assert verdict("J♦", "Q♥ Q♠")[0] is False
    assert verdict("3♦", "2♥ A♥ A♠")[0] is False


def test_a_king_on_top_of_the_pile_takes_any_queen_or_ace_as_a_single_card() -> None:
    for card in ("Q♠", "Q♥", "A♣", "A♦"):
        assert verdict("K♥", card)[0]


# ---------------------------------------------------------------- jokers


@pytest.mark.parametrize("king, joker", [("K♥", "RJ"), ("K♦", "RJ"), ("K♠", "BJ"), ("K♣", "BJ")])
def test_joker_alone_on_a_king_of_its_colour_demands_the_kings_suit(king: str, joker: str) -> None:
    v = check_play(king, joker)
    suit = Card.parse(king).suit
    assert v.legal and v.joker and v.demands_suit is suit
    assert str(v.reason) == f"{joker} on {king}: the other player must play a {suit.symbol}"


@pytest.mark.parametrize("king, joker", [("K♥", "BJ"), ("K♦", "BJ"), ("K♠", "RJ"), ("K♣", "RJ")])
def test_joker_alone_on_a_king_of_the_other_colour_is_refused(king: str, joker: str) -> None:
    colour = "red" if joker == "RJ" else "black"
    assert verdict(king, joker) == (False, f"a {colour} joker goes only on a {colour} king, not on {king}")


def test_joker_as_the_last_card_right_after_a_king_in_a_run() -> None:
    v = check_play("J♦", "Q♥ K♥ A♠ K♠ BJ")
    assert v.legal and v.demands_suit is Suit.SPADES
    v = check_play("Q♣", "K♦ RJ")
    assert v.legal and v.demands_suit is Suit.DIAMONDS


@pytest.mark.parametrize(
    "top, play, reason",
    [
        ("Q♥", "RJ", "a red joker goes only on a red king, not on Q♥"),
        ("A♠", "BJ", "a black joker goes only on a black king, not on A♠"),
        ("J♦", "Q♥ RJ", "a red joker goes only on a red king, not on Q♥"),
        ("K♥", "RJ A♥", "a joker ends the run: nothing may follow RJ"),
        ("Q♥", "K♥ RJ A♥ 2♥", "a joker ends the run: nothing may follow RJ"),
        ("K♥", "RJ BJ", "a joker ends the run: nothing may follow RJ"),
        ("Q♠", "K♠ BJ RJ", "a joker ends the run: nothing may follow BJ"),
        ("Q♥", "K♥ BJ", "a black joker goes only on a black king, not on K♥"),
    ],
)
def test_joker_anywhere_but_on_a_king_of_its_colour_at_the_end_is_refused(top: str, play: str, reason: str) -> None:
    assert verdict(top, play) == (False, reason)


def test_a_joker_does_not_go_on_a_joker() -> None:
    assert verdict("RJ", "BJ", Suit.HEARTS) == (False, "you must play a ♥, not BJ")
    assert verdict("BJ", "RJ", Suit.SPADES) == (False, "you must play a ♠, not RJ")


# ---------------------------------------------------------------- the demand


@pytest.mark.parametrize("rank", [r.symbol for r in Rank])
def test_any_card_of_the_demanded_suit_meets_the_demand(rank: str) -> None:
    assert verdict("RJ", f"{rank}♦", Suit.DIAMONDS) == (True, f"{rank}♦ is a ♦, as the joker demands")


def test_another_suit_does_not_meet_the_demand_even_one_rank_from_the_king() -> None:
    assert verdict("BJ", "Q♥", Suit.CLUBS) == (False, "you must play a ♣, not Q♥")
    assert verdict("BJ", "A♠", Suit.CLUBS) == (False, "you must play a ♣, not A♠")


def test_the_card_meeting_the_demand_is_played_alone_by_default() -> None:
    assert verdict("RJ", "9♦ 10♦", Suit.DIAMONDS) == (False, "the ♦ that meets a joker's demand is played alone")
    assert verdict("RJ", "K♦ A♠", Suit.DIAMONDS) == (False, "the ♦ that meets a joker's demand is played alone")


def test_run_after_joker_lets_the_demanded_card_begin_a_run_by_the_run_rules() -> None:
    assert verdict("RJ", "9♦ 10♦ J♦", Suit.DIAMONDS, ON) == (True, "9♦ 10♦ J♦ starts with a ♦, as the joker demands")
    assert verdict("RJ", "K♦ A♠ 2♠", Suit.DIAMONDS, ON)[0]  # the king exception inside it
    assert verdict("RJ", "9♦ 10♥", Suit.DIAMONDS, ON)[0] is False
    assert verdict("RJ", "9♣ 10♣", Suit.DIAMONDS, ON) == (False, "you must play a ♦, not 9♣")


def test_run_after_joker_a_run_meeting_the_demand_may_end_with_the_other_joker() -> None:
    v = check_play("RJ", "Q♦ K♦ A♣ K♣ BJ", Suit.DIAMONDS, ON)
    assert v.legal and v.demands_suit is Suit.CLUBS
    assert str(v.reason) == "BJ on K♣: the other player must play a ♣"


# ---------------------------------------------------------------- the 13-card penalty and the draws


def test_penalty_thirteen_then_one_card_each_until_someone_plays_the_suit() -> None:
    game = new_game("Q♠")
    game.play(None, "K♣ BJ")  # Ben: Ana must play a club
    assert game.demand is Suit.CLUBS and game.next_draw == 13 and game.turn_name == "Ana"
    assert game.draw() == Draw(0, 13, True, ())
    assert game.counts == (26, 11) and game.demand is Suit.CLUBS and game.next_draw == 1
    assert game.draw() == Draw(1, 1, False, ())  # the joker's player
    assert game.draw() == Draw(0, 1, False, ())
    assert game.draw() == Draw(1, 1, False, ())
    assert game.demand is Suit.CLUBS and game.turn_name == "Ana"
    with pytest.raises(IllegalPlayError, match="you must play a ♣, not 4♥"):
        game.play(None, "4♥")
    game.play(None, "4♣")
    assert game.demand is None and game.next_draw == 1 and game.top == Card.parse("4♣")
    assert game.can_play(None, "5♥") and not game.can_play(None, "6♣")  # the single-card rule is back
    assert total(game) == DECK_SIZE


def test_a_player_who_cannot_play_picks_up_one_and_the_turn_passes() -> None:
    game = new_game()
    assert game.draw() == Draw(1, 1, False, ())
    assert game.turn_name == "Ana" and game.counts == (13, 14) and game.stock == 26
    assert game.top == Card.parse("J♦")


def test_a_second_joker_demand_starts_a_new_penalty_of_thirteen() -> None:
    game = new_game("Q♥")
    game.play(None, "K♦ RJ")  # Ben: Ana must play a diamond
    game.draw()  # Ana 13
    game.draw()  # Ben 1
    game.play(None, "3♦")  # Ana meets it
    game.play(None, "2♦")
    game.play(None, "A♦")
    game.play(None, "K♠ BJ")  # Ben: a new demand
    assert game.demand is Suit.SPADES and game.next_draw == 13 and game.turn_name == "Ana"


# ---------------------------------------------------------------- the reshuffle


def test_the_pile_except_its_top_becomes_the_stock_when_the_last_card_is_taken() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    while game.stock > 1:
        game.draw()
    rec = game.draw()
    assert rec.returned == tuple(parse_cards("J♦ Q♥ K♥ A♥"))
    assert game.pile == (Card.parse("2♥"),) and game.stock == 4 and total(game) == DECK_SIZE
    with pytest.raises(DuplicateCardError, match="2♥ is the top"):
        game.play(None, "A♠ 2♥")



def test_a_card_shuffled_back_into_the_stock_is_played_again_only_once_its_player_may_have_drawn_it() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    while game.stock > 1:
        game.draw()
    game.draw()  # the last stock card: J♦ Q♥ K♥ A♥ become the stock, face down
    assert game.turn_name == "Ana" and game.stock == 4
    before = game.to_dict()
    with pytest.raises(DuplicateCardError) as info:
        game.play(None, "A♥")
    assert str(info.value) == "A♥ went back into the stock with the pile, and Ana has not drawn it since"
    assert game.to_dict() == before
    game.draw()  # Ana takes one of the four
    with pytest.raises(DuplicateCardError, match="A♥ went back into the stock with the pile, and Ben has not"):
        game.play(None, "A♥")  # Ben took none of them
    game.draw()  # Ben takes one
    game.play(None, "A♥")  # Ana may hold it now
    with pytest.raises(DuplicateCardError) as info:
        game.play(None, "K♥ Q♥")
    assert str(info.value) == "K♥ Q♥ went back into the stock with the pile, and Ben can hold only 1 of those cards"
    game.play(None, "K♥")
    assert game.top == Card.parse("K♥") and total(game) == DECK_SIZE
    with pytest.raises(DuplicateCardError, match="and Ana has not drawn it since"):
        game.play(None, "Q♥")  # Ana played the one she took


# ---------------------------------------------------------------- "last card" and "thirteen"


def test_last_card_only_with_one_card_and_once() -> None:
    game = ben_down_to_one()
    with pytest.raises(IllegalActionError) as info:
        game.call_last_card("Ana")
    assert str(info.value) == "Ana holds 4 cards, not one: only a player with one card says last card"
    game.call_last_card("Ben")
    with pytest.raises(IllegalActionError, match="Ben said last card already"):
        game.call_last_card("Ben")


def test_thirteen_only_by_the_other_player_against_one_uncalled_card() -> None:
    game = ben_down_to_one()
    with pytest.raises(IllegalActionError) as info:
        game.call_thirteen("Ben")  # Ben cannot catch himself, and Ana holds four
    assert str(info.value) == "Ana holds 4 cards, not one: thirteen catches only a player with one card"
    assert game.can_call_thirteen("Ana")
    game.call_last_card("Ben")
    with pytest.raises(IllegalActionError) as info:
        game.call_thirteen("Ana")
    assert str(info.value) == "Ben said last card in time, so thirteen costs nothing"


def test_thirteen_costs_thirteen_cards_once_and_keeps_the_turn() -> None:
    game = ben_down_to_one()
    rec = game.call_thirteen("Ana")
    assert rec.count == 13 and game.counts == (4, 14) and game.turn_name == "Ana"
    assert not game.can_call_thirteen("Ana") and not game.can_call_last_card("Ben")
    assert total(game) == DECK_SIZE


def test_last_card_again_after_drawing_back_up_and_coming_down_to_one() -> None:
    game = ben_down_to_one()
    game.call_last_card("Ben")
    game.draw()  # Ana
    game.draw()  # Ben: two cards, no longer at one
    assert game.last_card_called == (False, False)
    assert not game.can_call_thirteen("Ana") and not game.can_call_last_card("Ben")
    game.draw()  # Ana
    game.play(None, "7♦")  # Ben back to one card
    assert game.can_call_thirteen("Ana") and game.can_call_last_card("Ben")


def test_calls_are_not_turns_and_either_player_may_call_on_either_turn() -> None:
    game = ben_down_to_one()
    game.draw()  # Ana; now Ben's turn
    game.call_last_card("Ben")
    assert game.turn_name == "Ben" and game.last_card_called == (False, True)


# ---------------------------------------------------------------- the winner


def test_first_with_no_cards_wins_and_a_finished_game_refuses_everything() -> None:
    game = ben_down_to_one()
    game.draw()  # Ana
    rec = game.play(None, "7♦")
    assert rec.won and game.winner == 1 and game.turn is None and game.counts == (5, 0)
    over = "the game is over: Ben has no cards left"
    for attempt in (
        game.draw,
        lambda: game.play(None, "8♦"),
        lambda: game.play("Ana", "6♣"),
        lambda: game.call_last_card("Ana"),
        lambda: game.call_thirteen("Ben"),
    ):
        with pytest.raises(IllegalActionError, match=over):
            attempt()
    assert not game.can_play(None, "8♦") and not game.can_draw()


def test_a_player_cannot_play_more_cards_than_they_hold() -> None:
    game = ben_down_to_one()
    game.draw()  # Ana
    with pytest.raises(IllegalActionError) as info:
        game.play(None, "7♦ 8♦")
    assert str(info.value) == "Ben holds 1 card, too few to play 7♦ 8♦"
    game.draw()  # Ben: two cards
    game.draw()  # Ana
    with pytest.raises(IllegalActionError) as info:
        game.play(None, "7♦ 8♦ 9♦")
    assert str(info.value) == "Ben holds 2 cards, too few to play 7♦ 8♦ 9♦"


# ---------------------------------------------------------------- a card played twice


def test_a_card_lying_in_the_pile_cannot_be_played_again() -> None:
    game = new_game()
    game.play(None, "Q♥ K♥")
    game.play(None, "A♥ 2♥")
    with pytest.raises(DuplicateCardError, match="K♥ is already in the pile"):
        game.play(None, "A♣ K♥")
    with pytest.raises(DuplicateCardError, match="J♦ is already in the pile"):
        game.play(None, "3♦ 2♦ A♦ K♦ Q♦ J♦")  # the turned card is in the pile too


# ---------------------------------------------------------------- undo, replay, conservation


def test_undo_and_replay_rebuild_every_step_and_54_cards_are_always_accounted_for() -> None:
    game = new_game("Q♠")
    steps = [
        lambda: game.play(None, "K♣ BJ"),
        game.draw,
        game.draw,
        lambda: game.play(None, "5♣"),
        lambda: game.play(None, "6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♦ 2♦ 3♦"),
    ]
    states = [game.to_dict()]
    for step in steps:
        step()
        assert total(game) == DECK_SIZE
        states.append(game.to_dict())
    assert game.counts == (25, 1)
    again = replay(game.setup.to_dict(), [r.to_dict() for r in game.log])
    assert again.to_dict() == game.to_dict()
    for expected in reversed(states[:-1]):
        game = game.undo()
        assert game.to_dict() == expected and total(game) == DECK_SIZE


# ---------------------------------------------------------------- the whole game against a plain model


class Model:
    """RULES.md's game written out again, plainly: counts, stock, pile, turn, demand, calls."""

    def __init__(self, turned: Card, first: int) -> None:
        self.counts = [13, 13]
        self.stock = 27
        self.pile: list[AnyCard] = [turned]
        self.turn = first
        self.demand: Suit | None = None
        self.penalty_due = False
        self.called = [False, False]
        self.winner: int | None = None

    def take(self, n: int) -> int:
        got = 0
        for _ in range(n):
            if self.stock == 0:
                self.stock, self.pile = len(self.pile) - 1, self.pile[-1:]
            if self.stock == 0:
                break
            self.stock -= 1
            got += 1
        if self.stock == 0:  # the last face-down card was taken: turn the pile over at once
            self.stock, self.pile = len(self.pile) - 1, self.pile[-1:]
        return got

    def play(self, cards: list[AnyCard], demands: Suit | None) -> None:
        p = self.turn
        self.pile += cards
        self.counts[p] -= len(cards)
        if self.counts[p] == 1:
            self.called[p] = False
        if self.counts[p] == 0:
            self.winner = p
        self.demand, self.penalty_due = demands, demands is not None
        self.turn = 1 - p

    def draw(self) -> None:
        self.counts[self.turn] += self.take(13 if self.penalty_due else 1)
        self.penalty_due = False
        self.turn = 1 - self.turn

    def thirteen(self, caller: int) -> None:
        self.counts[1 - caller] += self.take(13)

    def view(self) -> tuple[object, ...]:
        turn = None if self.winner is not None else self.turn
        return (tuple(self.counts), self.stock, tuple(self.pile), turn, self.demand, self.winner)


def view(game: State) -> tuple[object, ...]:
    return (game.counts, game.stock, game.pile, game.turn, game.demand, game.winner)


@settings(max_examples=examples(20, 60), deadline=None)
@given(st.data(), st.sampled_from(full_deck()), st.booleans())
def test_random_games_follow_the_plain_model_step_by_step(data: st.DataObject, turned: Card, run_on: bool) -> None:
    rules = TreceRules(run_after_joker=run_on)
    game = State(Setup(("Ana", "Ben"), turned, rules=rules))
    model = Model(turned, game.setup.first)  # type: ignore[arg-type]
    for _ in range(data.draw(st.integers(1, 150), label="steps")):
        if game.is_over:
            break
        who = data.draw(st.sampled_from([0, 1]), label="caller")
        if game.can_call_thirteen(who) and data.draw(st.booleans(), label="thirteen"):
            assert model.counts[1 - who] == 1 and not model.called[1 - who]
            game.call_thirteen(who)
            model.thirteen(who)
        elif game.can_call_last_card(who) and data.draw(st.booleans(), label="last"):
            assert model.counts[who] == 1 and not model.called[who]
            game.call_last_card(who)
            model.called[who] = True
        singles = [[c] for c in DECK if game.can_play(None, [c])]
        if singles and data.draw(st.integers(0, 2), label="play?"):
            play = data.draw(st.sampled_from(singles), label="card")
            while data.draw(st.booleans(), label="longer"):
                nexts = [c for c in DECK if c not in play and game.can_play(None, [*play, c])]
                if not nexts:
                    break
                play.append(data.draw(st.sampled_from(nexts), label="next"))
            rec = game.play(None, play)
            top = model.pile[-1]
            demands = None
            if isinstance(play[-1], Joker):
                king = top if len(play) == 1 else play[-2]
                assert isinstance(king, Card) and king.rank is Rank.KING
                demands = king.suit
            if model.demand is not None:
                assert isinstance(play[0], Card) and play[0].suit is model.demand
                assert len(play) == 1 or run_on
            model.play(play, demands)
            assert rec.demands_suit is demands
        else:
            assert game.next_draw == (13 if model.penalty_due else 1)
            game.draw()
            model.draw()
        assert view(game) == model.view()
        assert total(game) == DECK_SIZE
