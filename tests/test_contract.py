"""The one contract of the games' state machines (referee.errors), checked once for every game.

The rows are the worked examples of every game of the registry (``tests/worked``: ``Contract``; the
toy game's too)."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, fields

import pytest

from referee import three_thirteen_sheet, tienlen, tienlen_evening, trece
from referee.cards import NotationError
from referee.errors import NothingToUndo, RefereeError, RefusedAction
from referee.records import UnknownRecordError
from referee.text import Message
from tests.games import WORKED
from tests.worked import Contract

GAMES = [contract for worked in WORKED.values() for contract in worked.contracts]  # every game's, the toy's included


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def game(request: pytest.FixtureRequest) -> Contract:
    return request.param  # type: ignore[no-any-return]


def test_a_refused_action_is_a_refused_action_error_carrying_its_message_and_changes_nothing(game: Contract) -> None:
    state = game.new()
    before = game.snapshot(state)
    with pytest.raises(RefusedAction) as info:
        game.refused(state)
    assert isinstance(info.value, ValueError) and isinstance(info.value.reason, Message)
    assert str(info.value) == str(info.value.reason)
    assert game.snapshot(state) == before and not game.can_refused(state)


def test_can_answers_false_for_bad_notation_while_check_raises_it(game: Contract) -> None:
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


def test_an_action_returns_a_frozen_record_appended_to_the_log(game: Contract) -> None:
    state = game.new()
    record = game.act(state)
    assert state.log == [record]
    with pytest.raises(FrozenInstanceError):
        setattr(record, fields(record)[0].name, None)


def test_undo_returns_a_new_state_and_leaves_the_old_one_as_it_was(game: Contract) -> None:
    state = game.new()
    fresh = game.snapshot(state)
    game.act(state)
    after = game.snapshot(state)
    undone = state.undo()
    assert undone is not state and game.snapshot(undone) == fresh and game.snapshot(state) == after
    with pytest.raises(NothingToUndo, match="there is nothing to undo"):
        undone.undo()


def test_records_come_back_from_json_through_the_one_registry(game: Contract) -> None:
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


def _library_classes() -> list[type]:
    import importlib
    import inspect
    import pkgutil

    import referee

    found: list[type] = []
    for info in pkgutil.walk_packages(referee.__path__, "referee."):
        if info.name.startswith("referee.web"):
            continue
        module = importlib.import_module(info.name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass) if c.__module__ == module.__name__]
    return found


def test_every_state_machine_of_the_library_keeps_the_contract_on_the_one_base() -> None:
    """A class with a ``check_x`` and its ``can_x`` (a game's state, the Tiến lên evening, a group)
    is a :class:`~referee.states.StateMachine` (one ``replay`` and ``undo``) and its ``can_x`` is
    :func:`~referee.states.can` of its ``check_x`` (refusals only: a bug in a check is no "no")."""
    from referee.states import StateMachine

    machines = [c for c in _library_classes() if any(name.startswith("can_") for name in vars(c))]
    assert {c.__name__ for c in machines} >= {"Hand", "State", "Sheet", "Evening", "Group"}
    wrong = [c.__qualname__ for c in machines if not issubclass(c, StateMachine)]
    for cls in machines:
        for name in (n for n in vars(cls) if n.startswith("can_")):
            checks = [v for n, v in vars(cls).items() if n.startswith("check_")]
            if not any(getattr(vars(cls)[name], "__wrapped__", None) is check for check in checks):
                wrong.append(f"{cls.__qualname__}.{name}")
    assert not wrong, f"not on the one contract (StateMachine, can_x = can(check_x)): {wrong}"
