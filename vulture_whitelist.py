"""What the dead-code finder (vulture, tests/test_lint.py) cannot see used: each name with who uses it.

Vulture reads Python only; a name used from a template counts already (the lint test gives it
every identifier of the templates).  A name here is used by a framework, a string or a file
format; it is not dead code.
"""

# ruff: noqa
_ = object()

# Phone screens: reached through their registry entry's "module:function" string (PhoneScreen.answer).
_.phone_check, _.phone_table, _.phone_score, _.phone_preview, _.phone_round

# zipfile reads it when it writes the entry (the engine's zip: a file readable by everyone).
_.external_attr

# Werkzeug's converter reads the class attribute (referee.web.guard.AsciiIntegerConverter).
_.regex

# Flask-Babel: a Domain's cache hook, and the Babel object's domain (referee.web.i18n).
_.get_translations_cache, _.domain_instance

# A database column, written by store.append_event's UPDATE (values(updated_at=...)).
_.updated_at

# The rules library's public names: the ranks of a deck (Rank.FOUR ... Rank.NINE).  (The
# contract's can_x of every action are left alone by the lint itself: --ignore-names can_*.)
_.FOUR, _.FIVE, _.SIX, _.SEVEN, _.EIGHT, _.NINE

# Dead in the rules library, left to its owners (issue 30: the modules being split), to be
# deleted with it: referee/three_thirteen_solver.py _face_points, referee/tienlen.py pass_turn
# (an alias of pass_, twice), referee/tienlen_evening.py GameAdded.finished_game.
_._face_points, _.pass_turn, _.finished_game

# The errors of referee.tienlen_scores print as that package's (their __module__ set on re-export).
_.__module__

# Framework hooks the database module installs: SQLAlchemy's do_connect listener's arguments, the
# exception's is_disconnect flag set for the pool, the teardown Flask calls, the form parser's limit
# (guard), the traceback text a log handler prints (logs), the `flask games forget` command.
_.cargs, _.conn_rec, _.cparams, _.is_disconnect, _._remove_session, _.max_content_length, _.exc_text
_.forget_command

# gunicorn reads them: the worker class named in gunicorn.conf.py, its count of open connections,
# the method its loop hands a connection to a thread with; waitress reads a channel's "connected"
# (referee.web.serve.live_dispatcher, referee/web/live_worker.py).
_.LiveThreadWorker, _.nr_conns, _.connected, _.enqueue_req
# Jinja reads the environment's bytecode cache the app sets (referee.web: compiled templates kept).
_.bytecode_cache
