"""The web board's HTTP server (aiohttp), in the bot's own process: a thin adapter over the service.

Routes:
  GET  /board              the page (plain HTML, an ES module and CSS from /static); a link's
                           ``#t=<pass>`` (read by the page; ``?t=`` from older links) opens a game
                           as its pass says; without one, a Telegram Mini App logs in with
                           initData (``POST /api/telegram``). A link's ``?game=<kind>&lang=<language>``
                           (unsigned, not secret) only names that game's static board in the
                           answer's ``Link`` header, for the browser to fetch beside the script
  POST /api/telegram       initData (and the game's start parameter) -> a pass for that person
  POST /api/pass           a link's pass (in the body) -> a page pass (``passes.Passes.page_pass``);
                           with the page's layout in the body, also its first state ("first": the
                           frame its socket would send first), so the page draws before its socket opens
  GET  /picture?t=..&...   a picture the page shows (the public map, or the viewer's own board)
  GET  /art/<game>/<name>.<digest>.webp   a game's static board or sprite a scene names (``art.py``)
  GET  /live?t=<pass>      the page's WebSocket: its state on every change, and its taps
  GET  /p/<code>           a short link to a board link (``shortlinks.py``)
The page puts only its short-lived page pass in the addresses of ``/picture`` and ``/live``.
Every answer carries the headers of ``hardening.py``; text answers go gzipped (``compression.py``),
and the page names its script and style sheet in a ``Link`` header (fetched before its head is read).

Messages on the WebSocket (JSON, one per frame). The page sends
  {"type": "hello", "since": <version or null>, "layout": "landscape"|"portrait", "at": <move or null>}
  {"type": "act", "payload": <a choice's signed payload, as the page received it>}
  {"type": "review", "at": <move>}               (a finished game, stepped through)
(``protocol.py``: a tagged union, checked as it arrives) and receives
  {"type": "state", "version": n, "state": {...}}   (``bot.pagestate.PageState``), a socket's first
  {"type": "delta", "version": n, "set": {...}, "same": [...], ...}   a later state: what changed (``frames.py``)
  {"type": "reply", "ok": bool, "text": ..., "refused": <code or null>}
  {"type": "error", "code": ..., "text": ...}       (a message it should not have sent; nothing changed)
A page that reconnects says the version it has ("since") and gets the state only if it moved on.

Every door is bounded: per visitor (``guard.py``: pictures on their way per pass, sockets per pass
and per address, messages per socket, logins per Telegram user; past a bound 429 or the socket
closed with a reason) and per connection (``connections.py``: a time for the headers, a cap).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from bot.board import LINK_GAME, LINK_LANGUAGE, BadPass, Pass, PicturesBusy, link_query
from bot.contract import BoardAPI, User
from bot.pagestate import PageState, Picture
from bot.service.tokens.passes import PAGE_PASS_SECONDS, SEAT_PASS_SECONDS
from i18n import normalize_language, t

from . import art, pagefiles, protocol, shortlinks
from .auth import INIT_DATA_SECONDS, telegram_login
from .compression import compressed
from .connections import ConnectionLimits, GuardedSite, body_in_time
from .guard import Bucket, Guard, TooMany, VisitorLimits
from .hardening import (
    board_origins,
    content_security_policy,
    origin_allowed,
    picture_cache_control,
    security_headers,
)
from .hub import Hub, OpenPage
from .ops import OpsService, add_ops_routes
from .protocol import Act, Hello, Review

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
BOARD_HTML = (STATIC / "board.html").read_text(encoding="utf-8")
# The page's scripts and style sheet, asked for with the page's first bytes (before its head is read):
# open.js first, the page's first request (its pass's trade and first state) made before board.js is here.
PRELOAD = ("<static/open.js>; rel=preload; as=script, <static/board.js>; rel=modulepreload, "
           "<static/board.css>; rel=preload; as=style")
MAX_MESSAGE = 4096           # a page's messages are short: a signed payload and a few numbers
# Why a page gets nothing (each a "web.err.<code>" text): a pass, a login or a message refused.
REFUSALS = ("forged", "expired", "unknown_game", "spectator", "bad_message", "no_such_move", "no_link",
            "too_many", "busy")
HUB = web.AppKey("hub", Hub)
GUARD = web.AppKey("guard", Guard)
SETTINGS: web.AppKey[WebSettings] = web.AppKey("settings")
SERVICE: web.AppKey[BoardAPI] = web.AppKey("service")
ART_DRAWING: web.AppKey[asyncio.Future[None]] = web.AppKey("art_drawing")
DRAWING_AHEAD: web.AppKey[set[asyncio.Task[bytes | None]]] = web.AppKey("drawing_ahead")
LAYOUTS = ("landscape", "portrait")
# Which layout a page asks for, as the page's ``layout()`` decides it (board.js: narrower than 700 px).
LAYOUT_MEDIA = {"portrait": "(width < 700px)", "landscape": "(width >= 700px)"}


class BoardService(BoardAPI, OpsService, Protocol):
    """What the board's server is handed: the service's board API, and its health and numbers."""


@dataclass(frozen=True, slots=True)
class WebSettings:
    """``BOARDCHAT_WEB_*``: where the board listens, the public address chat links point to
    (behind an HTTPS reverse proxy: Telegram opens only HTTPS), and, for Telegram's Mini App, the
    bot token that signs initData and the app's short name (``t.me/<bot>/<app>``)."""

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None
    telegram_token: str | None = None
    telegram_app: str | None = None
    init_data_seconds: float = INIT_DATA_SECONDS    # how old a Mini App's initData may be
    page_pass_seconds: float = PAGE_PASS_SECONDS    # how long a page pass lasts
    limits: VisitorLimits = VisitorLimits()
    connections: ConnectionLimits = ConnectionLimits()


def make_app(service: BoardService, settings: WebSettings) -> web.Application:
    app = web.Application(client_max_size=64 * 1024,
                          middlewares=[body_in_time(settings.connections.header_seconds), compressed])
    app[SERVICE] = service
    app[SETTINGS] = settings
    app[HUB] = Hub(service)
    app[GUARD] = Guard(settings.limits)
    app[DRAWING_AHEAD] = set()
    app.router.add_get("/", board_page)
    app.router.add_get("/board", board_page)
    pagefiles.add_routes(app, STATIC)      # the page's script, style sheet and icon (gzipped)
    app.router.add_static("/static", STATIC, append_version=False)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_post("/api/telegram", telegram_pass)
    app.router.add_post("/api/pass", page_pass)
    app.router.add_get("/picture", picture)
    app.router.add_get("/art/{game}/{file}", art_file)
    app.router.add_get("/live", live)
    shortlinks.add_routes(app)      # /p/<code>: short links to the board (the terminal prints them)
    app.on_startup.append(_draw_art)
    app.on_shutdown.append(_close_pages)
    app.on_response_prepare.append(security_headers(content_security_policy(settings.public_url)))
    hub = app[HUB]      # /metrics reads the pages open at each scrape
    add_ops_routes(app, service, lambda: hub.open_pages)      # /healthz, and /metrics when switched on
    return app


async def _draw_art(app: web.Application) -> None:
    # In a thread, not awaited: the board serves meanwhile (a scene's page draws what it lacks itself).
    app[ART_DRAWING] = asyncio.get_running_loop().run_in_executor(None, art.draw_all)


async def _close_pages(app: web.Application) -> None:
    await app[HUB].close()


def _language(request: web.Request) -> str:
    header = request.headers.get("Accept-Language", "")
    return normalize_language(header.split(",")[0].split(";")[0].strip() or None)


def _read_pass(request: web.Request, token: Any) -> Pass:
    return request.app[SERVICE].read_pass(token)


def refusal_page(reason: str, language: str) -> web.Response:
    """A clear page for a link that opens nothing (forged, expired, another game's)."""
    title = t(language, "web.title")
    text = t(language, f"web.err.{reason}")
    body = (f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="static/board.css"><title>{_escape(title)}</title></head>'
            f'<body><main class="refused" role="alert"><h1>{_escape(title)}</h1><p>{_escape(text)}</p></main></body></html>')
    return web.Response(text=body, content_type="text/html", status=403,
                        headers={"Cache-Control": "no-store"})


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


async def favicon(request: web.Request) -> web.FileResponse:
    """The board's icon where browsers look for it without asking the page."""
    return web.FileResponse(STATIC / "icon-32.png", headers={"Cache-Control": "public, max-age=86400",
                                                             "Content-Type": "image/png"})


async def board_page(request: web.Request) -> web.StreamResponse:
    token = request.query.get("t")
    if token is not None:
        try:
            _read_pass(request, token)
        except BadPass as bad:
            return refusal_page(bad.reason, _language(request))
    # The one text a page may need before it knows its viewer: what to do without a link.
    page = BOARD_HTML.replace('<meta name="no-link" content="">',
                              f'<meta name="no-link" content="{_escape(t(_language(request), "web.err.no_link"))}">')
    preload = ", ".join((PRELOAD, *_art_preload(request.query.get(LINK_GAME), request.query.get(LINK_LANGUAGE))))
    return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store", "Link": preload})


def _art_preload(game: str | None, language: str | None) -> list[str]:
    """The static board (and what lies on it in every scene) of a link's game kind, for the
    browser to fetch beside the script, one set per layout, each for the screens that ask for
    that layout. The kind and language come unsigned from the address: they only choose among the
    game's drawn art (``art.opening_urls``: a closed set, nothing drawn here); anything else
    preloads nothing."""
    if game is None:
        return []
    language = normalize_language(language)
    return [f'<{url}>; rel=preload; as=image; media="{media}"'
            for layout, media in LAYOUT_MEDIA.items() for url in art.opening_urls(game, layout, language)]


async def telegram_pass(request: web.Request) -> web.Response:
    """initData (checked first) and the start parameter (a signed game reference) -> a pass."""
    settings: WebSettings = request.app[SETTINGS]
    service = request.app[SERVICE]
    language = _language(request)
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict) or not settings.telegram_token:
        return _refused("forged", language)
    try:
        login = telegram_login(body.get("init_data"), settings.telegram_token, now=service.now(),
                               max_age=settings.init_data_seconds)
    except BadPass as bad:
        return _refused(bad.reason, language)
    language = normalize_language(login.language)
    try:
        request.app[GUARD].login(login.user_id)
    except TooMany:
        return _too_many(language)
    reference = login.start_param or body.get("game")
    game_id = service.board_game(reference) if isinstance(reference, str) else None
    if game_id is None:
        return _refused("forged", language)
    seat, platform = await service.seat_of(game_id, login.user_id)
    if platform != "telegram":
        return _refused("unknown_game", language)
    user_id = login.user_id if seat is not None else None
    # From the login's own moment: the same initData again gets this same pass (auth.py).
    token = service.issue_pass(game_id, "telegram", user_id, login.name, language,
                               now=login.auth_date, seconds=SEAT_PASS_SECONDS)
    return web.json_response({"pass": token})


async def page_pass(request: web.Request) -> web.Response:
    """A link's pass, sent in the body (never in an address), -> a page pass for the addresses of
    the page's socket and pictures (``Passes.page_pass``); a page pass gets no other."""
    service = request.app[SERVICE]
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    try:
        link = _read_pass(request, body.get("pass") if isinstance(body, dict) else None)
    except BadPass as bad:
        return _refused(bad.reason, _language(request))
    if link.page:
        return _refused("forged", link.language)
    seconds = request.app[SETTINGS].page_pass_seconds
    token = service.page_pass(link, seconds=seconds)
    answer = json.dumps({"pass": token, "seconds": seconds})
    layout = body.get("layout") if isinstance(body, dict) else None
    if layout in LAYOUTS:
        # A page opening asks for its first state here: it draws its board a socket's opening and
        # hello (two round trips) sooner. The state is the link's viewer's own, as the socket's.
        opening = await request.app[HUB].opening(link.game_id, (link.user_id, link.language, layout))
        if opening is not None:
            answer = f'{answer[:-1]},"first":{opening.message}}}'
            _draw_ahead(request.app, link, opening.state)
    return web.json_response(text=answer)


def _draw_ahead(app: web.Application, viewer: Pass, state: PageState) -> None:
    """Start drawing the pictures ``state`` names (kept once drawn): the page asks for one as soon
    as it has read the state, and finds it drawn or on its way."""
    service = app[SERVICE]
    for shown_picture in state.pictures or ():
        if isinstance(shown_picture, Picture) and shown_picture.scene is None:
            asked = {key: str(value) for key, value in shown_picture.render.query()}
            task = asyncio.get_running_loop().create_task(
                service.page_picture(viewer.game_id, asked, viewer.language, viewer.user_id))
            app[DRAWING_AHEAD].add(task)
            task.add_done_callback(_drawn_ahead(app))


def _drawn_ahead(app: web.Application) -> Callable[[asyncio.Task[bytes | None]], None]:
    def done(task: asyncio.Task[bytes | None]) -> None:
        app[DRAWING_AHEAD].discard(task)
        if not task.cancelled() and isinstance(task.exception(), Exception):
            # PicturesBusy included: the page's own request draws it, or is told to wait.
            log.debug("drawing a page's picture ahead failed: %r", task.exception())
    return done



def _refused(reason: str, language: str, status: int = 403, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": reason, "text": t(language, f"web.err.{reason}")}, status=status,
                             headers=headers)


def _too_many(language: str) -> web.Response:
    """A visitor past one of its bounds (``guard.py``): nothing was done; try again later."""
    return _refused("too_many", language, 429, {"Retry-After": "5"})


async def picture(request: web.Request) -> web.Response:
    """A picture of the pass's game, as a page names it; never another seat's own board."""
    service = request.app[SERVICE]
    try:
        viewer = _read_pass(request, request.query.get("t"))
    except BadPass as bad:
        return _refused(bad.reason, _language(request))
    asked = {key: value for key, value in request.query.items() if key != "t"}
    name = json.dumps(sorted(asked.items()))
    try:
        with request.app[GUARD].picture(viewer, name):
            image = await service.page_picture(viewer.game_id, asked, viewer.language, viewer.user_id)
    except TooMany:
        return _too_many(viewer.language)
    except PicturesBusy:
        return _refused("busy", viewer.language, 503, {"Retry-After": "2"})
    if image is None:
        return web.Response(status=404, text="no such picture")
    # A picture's name says what it shows: a page stepping back and forth gets it from its cache.
    return web.Response(body=image, content_type="image/png",
                        headers={"Cache-Control": picture_cache_control(asked.get("kind"))})


async def art_file(request: web.Request) -> web.Response:
    """A game's static board or sprite (``art.py``), as the pages' scenes name it: the same for
    every viewer, so no pass; a name outside the game's closed set is 404 before anything is drawn."""
    game, file = request.match_info["game"], request.match_info["file"]
    image = await asyncio.to_thread(art.picture, game, file) if art.known_file(game, file) else None
    if image is None:
        return web.Response(status=404, text="no such picture")
    return web.Response(body=image, content_type="image/webp", headers={"Cache-Control": art.ART_CACHE_CONTROL})


def _own_origin(request: web.Request) -> bool:
    """Whether ``/live`` is asked by one of the board's own pages (``hardening.origin_allowed``)."""
    settings: WebSettings = request.app[SETTINGS]
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    port = sockname[1] if sockname else settings.port
    return origin_allowed(request, board_origins(settings.public_url, settings.host, port))


async def live(request: web.Request) -> web.StreamResponse:
    if not _own_origin(request):
        return _refused("forged", _language(request))
    try:
        viewer = _read_pass(request, request.query.get("t"))
    except BadPass as bad:
        return _refused(bad.reason, _language(request))
    guard: Guard = request.app[GUARD]
    try:
        with guard.socket(viewer, guard.client_address(request)) as messages:
            return await _serve_page(request, viewer, messages)
    except TooMany:
        return _too_many(viewer.language)


async def _serve_page(request: web.Request, viewer: Pass, messages: Bucket) -> web.WebSocketResponse:
    """One page's socket, open until it closes; closed with a reason when its messages come
    faster than ``messages`` lets them (``guard.py``)."""
    hub: Hub = request.app[HUB]
    # No permessage-deflate, though browsers offer it: a page's states are a few KB, and a
    # compressor for each open socket cost 120 KiB of memory a page (python -m bot.web.bench).
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE, compress=False)
    await ws.prepare(request)
    page = OpenPage(ws, viewer.game_id, viewer.user_id, viewer.language)
    hub.join(page)
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            if not messages.take():
                await _error(page, "too_many", viewer.language)
                await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many messages")
                break
            await _heard(request.app, viewer, page, msg.data)
    finally:
        hub.leave(page)
        with contextlib.suppress(Exception):
            await ws.close()
    return ws


async def _heard(app: web.Application, viewer: Pass, page: OpenPage, data: str) -> None:
    """One message from a page (``protocol.py``). Anything malformed gets an error and changes nothing."""
    match protocol.heard(data):
        case Hello(since=since, layout=layout, at=at):
            page.layout = layout
            page.version = -1 if since is None else since
            page.held = None        # (re)starting: its next state is sent whole (``frames``)
            page.at = at
            if not await app[HUB].show(page):
                await _error(page, "unknown_game", viewer.language)
        case Review(at=at):
            # Only a finished game is stepped through; a game under way stays live.
            page.at = at if await app[SERVICE].is_finished(viewer.game_id) else None
            if page.at is None or not await app[HUB].show(page):
                page.at = None
                await _error(page, "no_such_move", viewer.language)
        case Act(payload=payload):
            if viewer.spectator:
                await _error(page, "spectator", viewer.language)
                return
            assert viewer.user_id is not None, "a spectator's pass was refused above"
            user = User(viewer.platform, viewer.user_id, viewer.name, language=viewer.language)
            page.acted = True           # the refresh its move causes sends this page first
            reply = await app[SERVICE].page_press(viewer.game_id, user, payload)
            await _send(page, {"type": "reply", "ok": reply.ok, "text": reply.text, "refused": reply.refused})
        case None:
            await _error(page, "bad_message", viewer.language)


async def _error(page: OpenPage, code: str, language: str) -> None:
    await _send(page, {"type": "error", "code": code, "text": t(language, f"web.err.{code}")})


async def _send(page: OpenPage, message: dict) -> None:
    if not page.ws.closed:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await page.ws.send_str(json.dumps(message, ensure_ascii=False))


class WebBoard:
    """The server running: ``await WebBoard.start(service, settings)``; ``url`` is where it listens."""

    def __init__(self, app: web.Application, runner: web.AppRunner, site: GuardedSite, port: int) -> None:
        self.app = app
        self.runner = runner
        self.site = site
        self.port = port

    @classmethod
    async def start(cls, service: BoardService, settings: WebSettings) -> WebBoard:
        app = make_app(service, settings)
        # Connections bounded (``connections.py``): a time for the headers, a cap, accept errors said rarely.
        runner = web.AppRunner(app, access_log=None, keepalive_timeout=settings.connections.keepalive_seconds)
        await runner.setup()
        site = GuardedSite(runner, settings.host, settings.port, settings.connections)
        await site.start()
        port = runner.addresses[0][1]
        return cls(app, runner, site, port)

    @property
    def hub(self) -> Hub:
        return self.app[HUB]

    @property
    def local_url(self) -> str:
        return f"http://{self.app[SETTINGS].host}:{self.port}"

    def link(self, game_id: int, platform: str, user_id: str | None, name: str, language: str, *,
             seconds: float = SEAT_PASS_SECONDS, base: str | None = None, kind: str | None = None) -> str:
        """A signed link to the game's board for one person (``user_id`` None: a spectator).
        ``kind``: the game's kind (a registry id), said in the link's query with its language so
        the page's answer names the game's static board for preloading; the pass decides the game."""
        service = self.app[SERVICE]
        token = service.issue_pass(game_id, platform, user_id, name, language, seconds=seconds)
        # In the fragment: a browser never sends it, so no proxy's log keeps it (passes.py).
        return f"{(base or self.app[SETTINGS].public_url or self.local_url).rstrip('/')}/board{link_query(kind, language)}#t={token}"

    async def stop(self) -> None:
        await self.runner.cleanup()


async def serve_board(service: BoardService, settings: WebSettings) -> WebBoard:
    """The web board served beside a chat bot (``WebBoard.stop`` when it stops), its pages told of
    other processes' moves too where the database can tell (PostgreSQL; SQLite's are this
    process's own, which the service reports itself)."""
    board = await WebBoard.start(service, settings)
    await service.watch_other_processes()
    log.info("web board: listening on %s, linked as %s", board.local_url, settings.public_url)
    return board
