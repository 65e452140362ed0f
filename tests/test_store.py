"""Storage: one transaction per action, and no write silently overwrites another.

Run on a SQLite file and on PostgreSQL (started by ./scripts/test).
"""

import threading

import pytest

from referee.errors import NothingToUndo
from referee.web.extensions import db
from referee.web.models import Event, Game
from referee.web.store import (
    StaleGame,
    append_event,
    clean_names,
    create_game,
    effective_events,
    find_by_token,
    undo_last,
)


def new_game():
    return create_game("tienlen", ["Ann", "Bao", "Chi", "Dan"], rules={}, setup={"first": 0})


def test_a_new_game_keeps_its_players_in_seat_order(any_db_app):
    with any_db_app.app_context():
        game = new_game()
        assert game.player_names == ["Ann", "Bao", "Chi", "Dan"]
        assert game.version == 0
        assert len(game.keeper_token) >= 32 and game.keeper_token != game.watch_token


def test_each_event_bumps_the_version(any_db_app):
    with any_db_app.app_context():
        game = new_game()
        append_event(game, 0, "play", {"cards": "3s"})
        append_event(game, 1, "pass", {})
        assert game.version == 2
        assert [e.seq for e in game.events] == [1, 2]


def test_a_write_from_a_stale_phone_is_refused_and_changes_nothing(any_db_app):
    with any_db_app.app_context():
        game = new_game()
        append_event(game, 0, "play", {"cards": "3s"})
        with pytest.raises(StaleGame) as info:
            append_event(game, 0, "play", {"cards": "4s"})
        assert info.value.game.version == 1
        assert [e.payload for e in db.session.query(Event).all()] == [{"cards": "3s"}]


def test_two_phones_writing_at_once_cannot_both_win(any_db_app):
    with any_db_app.app_context():
        game_id = new_game().id
    results: list[str] = []
    barrier = threading.Barrier(6)

    def phone(n: int) -> None:
        with any_db_app.app_context():
            game = db.session.get(Game, game_id)
            barrier.wait()
            try:
                append_event(game, 0, "play", {"phone": n})
                results.append("won")
            except StaleGame:
                results.append("stale")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["stale"] * 5 + ["won"]
    with any_db_app.app_context():
        assert db.session.get(Game, game_id).version == 1
        assert db.session.query(Event).count() == 1


def test_undo_takes_back_the_latest_event_and_is_kept_in_the_history(any_db_app):
    with any_db_app.app_context():
        game = new_game()
        append_event(game, 0, "play", {"cards": "3s"})
        append_event(game, 1, "pass", {})
        undo_last(game, 2)
        assert [e.kind for e in effective_events(game.events)] == ["play"]
        undo_last(game, 3)
        assert effective_events(game.events) == []
        assert [e.kind for e in game.events] == ["play", "pass", "undo", "undo"]
        with pytest.raises(NothingToUndo):
            undo_last(game, 4)


def test_a_share_link_opens_its_game_with_its_role(any_db_app):
    with any_db_app.app_context():
        game = new_game()
        assert find_by_token(game.keeper_token).role == "keeper"
        assert find_by_token(game.watch_token).role == "watcher"
        assert not find_by_token(game.watch_token).can_write
        assert find_by_token("nope") is None
        assert find_by_token(game.keeper_token, kind="trece") is None


@pytest.mark.parametrize(
    ("names", "needle"),
    [(["Ann"], "2 to 8 players"), (["Ann", "ann"], "both called"), (["Ann", "x" * 41], "longer than 40"),
     ([f"P{i}" for i in range(9)], "not 9")],
)
def test_player_names_are_checked(names, needle):
    with pytest.raises(ValueError, match=needle):
        clean_names(names, least=2)


def test_player_names_are_trimmed():
    assert clean_names(["  Ann  ", "", "Bao   Le"], least=2) == ["Ann", "Bao Le"]


def test_the_migrations_build_exactly_the_models_schema(any_db_app):
    """On SQLite and PostgreSQL, upgrading a fresh database gives the tables the models
    describe, with nothing missing and nothing extra (a model change needs a migration)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with any_db_app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_a_database_made_before_migrations_is_carried_on(tmp_path, make_app):
    from sqlalchemy import inspect

    uri = f"sqlite:///{tmp_path / 'old.sqlite'}"
    old = make_app(uri, AUTO_MIGRATE=False)
    with old.app_context():
        db.create_all()
        create_game("trece", ["Ana", "Ben"], rules={}, setup={})
        db.engine.dispose()
    new = make_app(uri)
    with new.app_context():
        assert "alembic_version" in inspect(db.engine).get_table_names()
        assert [g.kind for g in db.session.query(Game).all()] == ["trece"]
        db.engine.dispose()
