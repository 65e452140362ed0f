"""The one contract of the games' state machines (referee.errors), checked once for every game."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, fields
from typing import Any

import pytest

from referee import three_thirteen_sheet, tienlen, tienlen_evening, trece
from referee.cards import Card, NotationError
from referee.errors import NothingToUndo, RefereeError, RefusedAction
from referee.records import UnknownRecordError
from referee.text import Message


@dataclass
class Game:
    """One game's state machine seen through the contract."""

    name: str
    new: Callable[[], Any]
    act: Callable[[Any], Any]  # an accepted action: returns its record
    refused: Callable[[Any], Any]  # an action the rules refuse as the game stands
    can_refused: Callable[[Any], bool]
    bad_notation: Callable[[Any], Any]
    can_bad_notation: Callable[[Any], bool]
    snapshot: Callable[[Any], Any]
    records: Any  # the game's Records registry
    replay: Callable[[Any, list[Any]], Any]


def _tienlen() -> tienlen.Hand:
    return tienlen.Hand(tienlen.Setup(("Ana", "Bao", "Chi"), leader=0, opening=False))


def _trece() -> trece.State:
    return trece.State(trece.Setup(("Ana", "Ben"), Card.parse("J♦")))


def _sheet() -> three_thirteen_sheet.Sheet:
    return three_thirteen_sheet.Sheet(three_thirteen_sheet.SheetSetup(("Ana", "Bao")))


def _evening() -> tienlen_evening.Evening:
    return tienlen_evening.Evening(tienlen_evening.EveningSetup(("Ana", "Bao")))


GAMES = [
    Game(
        "tienlen", _tienlen,
        act=lambda h: h.play(0, "3s 4s 5h"),
        refused=lambda h: h.play(1, "6s"),  # not Bao's turn
        can_refused=lambda h: h.can_play(1, "6s"),
        bad_notation=lambda h: h.check_play(0, "5x"),
        can_bad_notation=lambda h: h.can_play(0, "5x"),
        snapshot=lambda h: h.to_dict(),
        records=tienlen.RECORDS,
        replay=lambda h, log: tienlen.replay(h.setup, log),
    ),
    Game(
        "trece", _trece,
        act=lambda g: g.play("Q♥"),
        refused=lambda g: g.play("7♣"),  # not one rank from J♦
        can_refused=lambda g: g.can_play("7♣"),
        bad_notation=lambda g: g.check_play("5x"),
        can_bad_notation=lambda g: g.can_play("5x"),
        snapshot=lambda g: g.to_dict(),
        records=trece.RECORDS,
        replay=lambda g, log: trece.replay(g.setup, log),
    ),
    Game(
        "three_thirteen", _sheet,
        act=lambda s: s.enter_round(1, ["9s 9h 9c", ""], ["", "12"], [0]),
        refused=lambda s: s.enter_round(1, ["9s 9h 8c", ""], ["", "12"], [0]),  # the out does not fit
        can_refused=lambda s: s.can_enter_round(1, ["9s 9h 8c", ""], ["", "12"], [0]),
        bad_notation=lambda s: s.check_enter_round(1, ["9s 9h 9x", ""], ["", "12"], [0]),
        can_bad_notation=lambda s: s.can_enter_round(1, ["9s 9h 9x", ""], ["", "12"], [0]),
        snapshot=lambda s: s.to_dict(),
        records=three_thirteen_sheet.RECORDS,
        replay=lambda s, log: three_thirteen_sheet.replay(s.setup, log),
    ),
    Game(
        "tienlen_evening", _evening,
        act=lambda e: e.add_by_hand({"out": "0", "left_1": "5"}),
        refused=lambda e: e.add_by_hand({"out": "0", "left_1": "13", "frozen_1": "no"}),  # 13 left: frozen
        can_refused=lambda e: e.can_add_by_hand({"out": "0", "left_1": "13", "frozen_1": "no"}),
        bad_notation=lambda e: e.check_add_by_hand({"out": "0", "cards_1": "9s 9h 9x"}),
        can_bad_notation=lambda e: e.can_add_by_hand({"out": "0", "cards_1": "9s 9h 9x"}),
        snapshot=lambda e: e.to_dict(),
        records=tienlen_evening.RECORDS,
        replay=lambda e, log: tienlen_evening.replay(e.setup, log),
    ),
]


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    return request.param  # type: ignore[no-any-return]


def test_a_refused_action_is_a_refused_action_error_carrying_its_message_and_changes_nothing(game: Game) -> None:
    state = game.new()
    before = game.snapshot(state)
    with pytest.raises(RefusedAction) as info:
        game.refused(state)
    assert isinstance(info.value, ValueError) and isinstance(info.value.reason, Message)
    assert str(info.value) == str(info.value.reason)
    assert game.snapshot(state) == before and not game.can_refused(state)


def test_can_answers_false_for_bad_notation_while_check_raises_it(game: Game) -> None:
    state = game.new()
    assert game.can_bad_notation(state) is False
    try:
        game.bad_notation(state)
    except NotationError as exc:
        assert isinstance(exc, RefereeError) and isinstance(exc.reason, Message)
    except RefusedAction as exc:  # the sheet keeps the notation mistake beside its seat
        assert "'9x' at position 3 is not a card" in str(exc)
    else:
        pytest.fail("bad notation was accepted")


def test_an_action_returns_a_frozen_record_appended_to_the_log(game: Game) -> None:
    state = game.new()
    record = game.act(state)
    assert state.log == [record]
    with pytest.raises(FrozenInstanceError):
        setattr(record, fields(record)[0].name, None)


def test_undo_returns_a_new_state_and_leaves_the_old_one_as_it_was(game: Game) -> None:
    state = game.new()
    fresh = game.snapshot(state)
    game.act(state)
    after = game.snapshot(state)
    undone = state.undo()
    assert undone is not state and game.snapshot(undone) == fresh and game.snapshot(state) == after
    with pytest.raises(NothingToUndo, match="there is nothing to undo"):
        undone.undo()


def test_records_come_back_from_json_through_the_one_registry(game: Game) -> None:
    state = game.new()
    game.act(state)
    stored = json.loads(json.dumps([r.to_dict() for r in state.log]))
    assert [game.records.from_dict(d) for d in stored] == state.log
    assert game.snapshot(game.replay(state, stored)) == game.snapshot(state)
    with pytest.raises(UnknownRecordError, match="'shuffle' is not a"):
        game.records.from_dict({"action": "shuffle"})


def test_each_games_refusal_error_is_the_shared_one() -> None:
    assert issubclass(tienlen.ActionError, RefusedAction)
    assert issubclass(trece.IllegalActionError, RefusedAction)
    assert issubclass(three_thirteen_sheet.RoundRefused, RefusedAction)
    assert issubclass(tienlen_evening.EntryRefused, RefusedAction)
    assert issubclass(tienlen_evening.EveningRefused, RefusedAction)
