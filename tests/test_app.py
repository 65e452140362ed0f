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


def _copy_of_app(tmp_path):  # type: ignore[no-untyped-def]
    """app.py alone in an empty folder (its instance/ would be made there), and an env to run it."""
    import os
    import shutil
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    shutil.copy(repo / "app.py", tmp_path / "app.py")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(repo)])}
    env.pop("DATABASE_URL", None)
    return env


def test_importing_app_builds_no_app_and_writes_nothing(tmp_path):
    import subprocess
    import sys

    env = _copy_of_app(tmp_path)
    code = "import app, sys; assert not hasattr(app, 'app'), 'app.py builds an app on import'; print(app.create_app)"
    done = subprocess.run([sys.executable, "-B", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.py"]


def test_flasks_command_line_finds_the_factory(tmp_path):
    import subprocess
    import sys

    env = _copy_of_app(tmp_path)
    env.update(SECRET_KEY="x", DATABASE_URL=f"sqlite:///{tmp_path / 'cli.sqlite'}")
    done = subprocess.run([sys.executable, "-B", "-m", "flask", "--app", "app", "routes"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "/trece/g/<token>" in done.stdout and "/three-thirteen/g/<token>/undo" in done.stdout
