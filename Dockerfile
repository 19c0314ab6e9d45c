# Boardchat in a container: one bot process (telegram or discord) on a SQLite file kept in the
# volume /data. See docs/deployment.md, "In a container" (not built on the development machine:
# no Docker there).
#   docker build -t boardchat .
#   docker run -d --restart unless-stopped --env-file .env -v boardchat-data:/data boardchat telegram
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BOARDCHAT_DB=/data/boardchat.sqlite3

WORKDIR /app
# What the package needs to install, and nothing else (.dockerignore keeps the rest out).
COPY pyproject.toml README.md constraints.txt ./
COPY engine ./engine
COPY renderers ./renderers
COPY bot ./bot
# The versions the suite passed with (constraints.txt; docs/dependencies.md).
RUN pip install -c constraints.txt . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin boardchat \
    && mkdir -p /data && chown boardchat /data

USER boardchat
WORKDIR /data
VOLUME ["/data"]

# Unhealthy when the database does not answer or messages and timers fall more than 5 minutes behind.
HEALTHCHECK --interval=60s --timeout=20s --start-period=60s --retries=3 \
    CMD ["boardchat", "health", "--late", "300"]

ENTRYPOINT ["boardchat"]
CMD ["telegram"]
