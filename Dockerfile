# Thirteen, hosted: gunicorn workers on one PostgreSQL (see compose.yaml and the README).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY app.py gunicorn.conf.py babel.cfg ./
COPY referee ./referee
COPY templates ./templates
COPY static ./static
# The translations (es, pt, vi), compiled here as scripts/serve compiles them: .mo files are not in git.
COPY translations ./translations
RUN pybabel compile -d translations

# Not root: the app writes nothing outside instance/ (the SQLite file and the secret, when
# no DATABASE_URL and SECRET_KEY are given).
RUN useradd --system --uid 10001 --no-create-home --home-dir /app thirteen \
    && mkdir -p instance && chown thirteen:thirteen instance
USER thirteen

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

CMD ["gunicorn", "--config", "gunicorn.conf.py"]
