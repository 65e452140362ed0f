"""The Tiến lên score sheet: an evening of games for points (RULES.md, "Tiến lên scores").

Also registers ``POST /api/tienlen/score`` (:mod:`referee.web.tienlen_scores_api`).
"""

from __future__ import annotations

from flask import Blueprint

from referee.web import tienlen_scores_api  # noqa: F401  (the API routes and their OpenAPI paths)

bp = Blueprint("tienlen_scores", __name__, url_prefix="/tienlen/scores")
