"""What every answer of the app says about itself: the content policy (with the hash of the one
inline line, base.html's ``JS_ON``) and how long a client waits before it tries a 503 again.

A leaf module: the package, the static files (:mod:`referee.web.assets`) and the health check
(:mod:`referee.web.views`) read it without importing one another.
"""

from __future__ import annotations

import base64
import hashlib

from markupsafe import Markup

# Everything comes from this server (the table may be offline): the policy enforces it in the
# browser too. Share links carry their token in the URL, so no Referer ever leaves the page.
# No inline script or style is allowed, but the one line that marks the page as scripted before
# it is drawn (base.html), named by its hash.
JS_ON = Markup('document.documentElement.classList.replace("no-js", "js");')
_JS_ON_HASH = base64.b64encode(hashlib.sha256(JS_ON.encode()).digest()).decode()
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    # 'wasm-unsafe-eval': the phone's engine compiles WebAssembly (Pyodide); no JavaScript eval.
    f"script-src 'self' 'sha256-{_JS_ON_HASH}' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

DATABASE_RETRY_SECONDS = 5
"""``Retry-After`` of every 503 the database causes (and of ``/healthz``'s)."""

IMPORT_MAX_BYTES = 16 * 1024 * 1024
"""The largest file an import takes (a group of a few hundred evenings), on every server: the
app refuses more from ``Content-Length`` (413, :mod:`referee.web.guard`), and the LAN server's
waitress reads bodies up to this size (``referee.web.serve.MAX_BODY``) so that it never refuses
first a file gunicorn would take."""
