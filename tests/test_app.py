"""The application factory: configuration, the hosted-PostgreSQL URL, the instance secret."""

import pytest

from app import _instance_secret, _normalise_db_url, create_app


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db.example/thirteen", "postgresql+psycopg://u:p@db.example/thirteen"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
    ],
)
def test_hosted_postgres_urls_get_the_psycopg_driver(given, used):
    assert _normalise_db_url(given) == used


def test_tests_get_their_own_in_memory_database():
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"
    assert app.testing


def test_the_instance_secret_is_made_once_and_kept(tmp_path):
    first = _instance_secret(tmp_path)
    assert len(first) >= 32
    assert _instance_secret(tmp_path) == first
