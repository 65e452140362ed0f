"""Trece: property tests — check_play against an independent re-implementation, and the
invariants of the game state over random games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import BLACK_JOKER, RED_JOKER, AnyCard, Card, Joker, Rank, Suit, full_deck
from referee.trece import DECK_SIZE, IllegalActionError, Setup, State, TreceRules, check_play, replay
from tests.sizes import examples

DECK: tuple[AnyCard, ...] = (*full_deck(), RED_JOKER, BLACK_JOKER)
# A small corner of the deck where kings, aces, queens and jokers meet, so runs are often legal.
CORNER: tuple[AnyCard, ...] = tuple(
    c for c in DECK if isinstance(c, Joker) or c.rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO)
)


def reference_legal(top: AnyCard, play: list[AnyCard], must_follow: Suit | None, run_after_joker: bool) -> bool:
    """The rules of RULES.md written out again, plainly."""

    def near(a: Card, b: Card) -> bool:
        return abs(int(a.rank) - int(b.rank)) in (1, 12)  # 12: the ace and the king touch

    def joker_ok(joker: Joker, under: AnyCard) -> bool:
        return isinstance(under, Card) and under.rank == Rank.KING and under.suit.is_red == joker.is_red

    first = play[0]
    if must_follow is not None:
        if isinstance(first, Joker) or first.suit != must_follow:
            return False
        if len(play) > 1 and not run_after_joker:
            return False
    elif isinstance(first, Joker):
        if not joker_ok(first, top):
            return False
    elif not (isinstance(top, Card) and near(first, top)):
        return False
    for a, b in zip(play, play[1:], strict=False):
        if isinstance(a, Joker):
            return False
        if isinstance(b, Joker):
            if not joker_ok(b, a):
                return False
        elif a.rank == Rank.KING:
            if b.rank not in (Rank.QUEEN, Rank.ACE):
                return False
        elif not (a.suit == b.suit and near(a, b)):
            return False
    return True


@st.composite
def situations(draw: st.DrawFn) -> tuple[AnyCard, list[AnyCard], Suit | None, bool]:
    pool = draw(st.sampled_from([DECK, CORNER]))
    top = draw(st.sampled_from(DECK))
    must_follow = None
    if isinstance(top, Joker):
        must_follow = draw(st.sampled_from([s for s in Suit if s.is_red == top.is_red]))
    play = draw(st.lists(st.sampled_from([c for c in pool if c != top]), min_size=1, max_size=6, unique=True))
    return top, play, must_follow, draw(st.booleans())


@settings(max_examples=examples(250, 600), deadline=None)
@given(situations())
def test_check_play_agrees_with_a_plain_reimplementation_of_the_rules(
    case: tuple[AnyCard, list[AnyCard], Suit | None, bool],
) -> None:
    top, play, must_follow, run_after_joker = case
    v = check_play(top, play, must_follow, TreceRules(run_after_joker=run_after_joker))
    assert v.legal == reference_legal(top, play, must_follow, run_after_joker)
    assert v.joker == isinstance(play[-1], Joker)
    if v.legal and v.joker:
        king = top if len(play) == 1 else play[-2]
        assert isinstance(king, Card) and v.demands_suit is king.suit
    else:
        assert v.demands_suit is None
    assert str(v.reason)


def test_every_single_card_and_every_pair_on_kings_aces_and_a_seven_agree_with_the_reference() -> None:
    for top in full_deck():
        for card in DECK:
            if card != top:
                assert check_play(top, [card]).legal == reference_legal(top, [card], None, False)
    for top in (Card.parse(t) for t in ("K♥", "K♠", "A♦", "7♣", "Q♠", "2♥")):
        for a in DECK:
            for b in DECK:
                if len({a, b, top}) == 3:
                    assert check_play(top, [a, b]).legal == reference_legal(top, [a, b], None, False)


# ---------------------------------------------------------------- random games


def legal_plays(game: State) -> list[list[AnyCard]]:
    return [[c] for c in DECK if game.can_play(None, [c])]


def extend(game: State, data: st.DataObject, start: list[AnyCard]) -> list[AnyCard]:
    """Grow a legal play into a longer run by random legal steps."""
    play = list(start)
    while data.draw(st.booleans(), label="longer"):
        nexts = [c for c in DECK if c not in play and game.can_play(None, [*play, c])]
        if not nexts:
            break
        play.append(data.draw(st.sampled_from(nexts), label="next"))
    return play


def check_invariants(game: State) -> None:
    assert sum(game.counts) + game.stock + len(game.pile) == DECK_SIZE
    assert min(game.counts) >= 0 and game.stock >= 0 and len(game.pile) >= 1
    assert len(set(game.pile)) == len(game.pile)  # one of each card in the pile
    assert not (game.returned & set(game.pile))
    assert game.top.is_joker == (game.demand is not None) or game.is_over
    if game.is_over:
        assert game.counts[game.winner] == 0  # type: ignore[index]


@settings(max_examples=examples(15, 40), deadline=None)
@given(st.data(), st.booleans(), st.sampled_from(full_deck()))
def test_random_games_conserve_54_cards_and_replay_to_the_same_state(
    data: st.DataObject, run_after_joker: bool, turned: Card
) -> None:
    setup = Setup(("Ana", "Ben"), turned, rules=TreceRules(run_after_joker=run_after_joker))
    game = State(setup)
    steps = data.draw(st.integers(min_value=1, max_value=120), label="steps")
    # some games are mostly plays (they end quickly), some mostly draws (the stock runs out)
    mix = data.draw(st.sampled_from([("play", "play", "draw"), ("play", "draw", "draw", "draw", "draw")]))
    for _ in range(steps):
        if game.is_over:
            break
        before = (game.to_dict(), list(game.log))
        # an illegal attempt changes nothing
        wild = data.draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=3), label="attempt")
        if not game.can_play(None, wild):
            try:
                game.play(None, wild)
            except ValueError:
                pass
            assert (game.to_dict(), list(game.log)) == before
        for who in (0, 1):
            if game.can_call_last_card(who) and data.draw(st.booleans(), label="remembers"):
                game.call_last_card(who)
            if game.can_call_thirteen(who) and data.draw(st.booleans(), label="catches"):
                game.call_thirteen(who)
                check_invariants(game)
        choice = data.draw(st.sampled_from(mix), label="action")
        plays = legal_plays(game)
        if choice == "play" and plays:
            game.play(None, extend(game, data, data.draw(st.sampled_from(plays), label="first")))
        else:
            game.draw()
        check_invariants(game)
    again = replay(setup.to_dict(), [r.to_dict() for r in game.log])
    assert again.to_dict() == game.to_dict() and again.log == game.log
    if game.log:
        previous = replay(setup, game.log[:-1]).to_dict()
        game = game.undo()
        assert game.to_dict() == previous
        check_invariants(game)


def test_a_finished_game_refuses_every_action() -> None:
    game = State(Setup(("Ana", "Ben"), Card.parse("Q♦")))
    game.play(None, "K♦ A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦")
    game.play(None, "J♣ Q♣")
    game.play(None, "K♥ RJ")
    assert game.is_over
    assert not any(game.can_play(None, [c]) for c in DECK)
    assert not game.can_draw() and not game.can_call_thirteen(0) and not game.can_call_last_card(0)
    with pytest.raises(IllegalActionError, match="game is over"):
        game.draw()
