"""One package per game: its pages, forms and API routes side by side.

Everything outside ``referee.web.games`` is what the games share (the store, the followed-game
plumbing in :mod:`referee.web.tables`, sharing, the guard, languages, assets).
"""
