# Thirteen, hosted: gunicorn workers on one PostgreSQL (see compose.yaml and the README).
# Everything the app serves is built here from the pinned lock files: the Python packages
# (requirements.txt), the service worker's Workbox libraries (package-lock.json, `npm ci` in the
# first stage) and the compiled translations.  tests/test_hosting.py runs these steps on a clean
# checkout (without Docker) and checks that /sw.js and every language are served.

# --- the browser libraries the app serves itself (Workbox), exactly as package-lock.json pins them
FROM node:22-slim AS browser-libraries
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error

# --- the app
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    LISTEN_HOST=0.0.0.0

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY app.py gunicorn.conf.py babel.cfg ./
COPY referee ./referee
COPY templates ./templates
COPY static ./static
COPY --from=browser-libraries /build/node_modules ./node_modules
# The translations (es, pt, vi), compiled here as scripts/serve compiles them: .mo files are not in git.
COPY translations ./translations
RUN pybabel compile -d translations

# Not root: the app writes nothing outside instance/ (the built static files, and the SQLite
# file and the secret when no database and SECRET_KEY are given).
RUN useradd --system --uid 10001 --no-create-home --home-dir /app thirteen \
    && mkdir -p instance && chown thirteen:thirteen instance
USER thirteen

EXPOSE 8000
# The port gunicorn listens on (gunicorn.conf.py reads PORT too).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4).status != 200)"]

CMD ["gunicorn", "--config", "gunicorn.conf.py"]
