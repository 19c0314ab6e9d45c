# Boardchat in a container: one bot process (telegram or discord) on a SQLite file kept in the
# volume /data, serving the web board on port 8080 when BOARDCHAT_WEB_URL is set. See
# docs/deployment.md, "In a container" (not built on the development machine: no Docker there;
# tests/product/test_container.py checks what it can), and deploy/compose.yaml for the bot with
# PostgreSQL and Caddy (HTTPS) beside it.
#   docker build -t boardchat .
#   docker run -d --restart unless-stopped --env-file .env -v boardchat-data:/data -p 127.0.0.1:8080:8080 boardchat telegram
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BOARDCHAT_DB=/data/boardchat.sqlite3 \
    BOARDCHAT_WEB_HOST=0.0.0.0 \
    BOARDCHAT_WEB_PORT=8080

WORKDIR /app
# What the package needs to install, and nothing else (.dockerignore keeps the rest out).
COPY pyproject.toml README.md constraints.txt ./
COPY engine ./engine
COPY i18n ./i18n
COPY renderers ./renderers
COPY bot ./bot
# The versions the suite passed with (constraints.txt; docs/dependencies.md).
RUN pip install -c constraints.txt . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin boardchat \
    && mkdir -p /data && chown boardchat /data

USER boardchat
WORKDIR /data
VOLUME ["/data"]

# Inside the container the board (and /healthz, /metrics) listens on every interface (ENV above:
# a proxy in another container must reach it); outside, publish it to the proxy only. 8443: the
# Telegram webhook (TELEGRAM_WEBHOOK_PORT), when TELEGRAM_WEBHOOK_URL is set.
EXPOSE 8080 8443

# Unhealthy when the database does not answer, messages and timers fall more than 5 minutes
# behind, or the board (when BOARDCHAT_WEB_URL is set) does not answer its /healthz here.
HEALTHCHECK --interval=60s --timeout=20s --start-period=60s --retries=3 \
    CMD ["boardchat", "health", "--late", "300", "--local"]

ENTRYPOINT ["boardchat"]
CMD ["telegram"]
