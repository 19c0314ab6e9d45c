"""Everything a page can send, fuzzed (hypothesis): arbitrary JSON and text, oversized and binary
frames, messages with wrong types in every field, and choices that are forged, edited, another
seat's, another game's or already played. The server never fails: each socket keeps answering
(a probe after every frame is answered) or closes cleanly (never 1011, nothing logged as an
error), and neither game's stored version nor moves change. The Mini App login (POST
/api/telegram), the page pass exchange (POST /api/pass) and the picture endpoint are fuzzed too: a
refusal (400, 403, 404), never a 500."""

from __future__ import annotations

import json
import logging
import time

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service.service_helpers import chat, start_game, user
from web_kit import PLAYERS, PROBE, every_choice, serve, stored, token

from bot.web.auth import sign_init_data
from bot.web.guard import VisitorLimits
from bot.web.server import MAX_MESSAGE, WebBoard, WebSettings

BOT_TOKEN = "123456:fuzz-token"
# What is fuzzed here is what a message says, not how many come (test_visitor_bounds.py): no bound is reached.
UNBOUNDED = VisitorLimits(pictures_per_pass=10 ** 6, sockets_per_pass=10 ** 6, sockets_per_address=10 ** 6,
                          messages_per_minute=10 ** 9, logins_per_hour=10 ** 9)
CLEAN_CLOSES = {1000, 1001, 1009}      # normal, going away, message too big
JSON = st.recursive(st.none() | st.booleans() | st.integers(-(10 ** 20), 10 ** 20) | st.floats(allow_nan=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
WEIRD = st.one_of(JSON, st.sampled_from([-1, 10 ** 7 + 1, 2 ** 63, 1.0, 0.5, True, False, "1", "", "\ud800", [0], {}]))
FIELD_VALUE = st.one_of(st.none(), st.integers(0, 40), st.sampled_from(["landscape", "portrait"]), WEIRD)
FIELDS = ("type", "since", "layout", "at", "payload")
TYPES = st.one_of(st.sampled_from(["hello", "act", "review", "state", "reply", "error"]), WEIRD)


class Arena:
    """Two started games on one served board (and one that logs in Telegram users), the pages
    that fuzzing opens on it, and the payloads the games have offered so far."""

    def __init__(self, served, other_game: int, telegram: WebBoard, session) -> None:
        self.served, self.session, self.telegram = served, session, telegram
        self.games = (served.game_id, other_game)
        self.sockets: dict[tuple[int, int | None], aiohttp.ClientWebSocketResponse] = {}
        self.stale: list[str] = []
        self.current: dict[int, tuple[int, list[str]]] = {}    # game -> (acting seat, its payloads)

    def viewer(self, seat: int | None):
        return None if seat is None else user(PLAYERS[seat])

    async def socket(self, game: int, seat: int | None) -> aiohttp.ClientWebSocketResponse:
        ws = self.sockets.get((game, seat))
        if ws is None or ws.closed:
            ws = await self.session.ws_connect(f"{self.served.board.local_url}/live",
                                               params={"t": token(self.served.board, game, self.viewer(seat))})
            self.sockets[(game, seat)] = ws
        return ws

    async def offered(self, game: int) -> tuple[int, list[str]]:
        """The seat to act in ``game`` and its choices, as its page shows them."""
        for seat in range(len(PLAYERS)):
            state = await latest(await self.socket(game, seat))
            if state["state"].get("choices"):
                return seat, every_choice(state)
        raise AssertionError("nobody to act")

    async def play(self, game: int) -> None:
        """One move on ``game`` through its page: the payloads it offered are stale from then on."""
        seat, payloads = await self.offered(game)
        ws = await self.socket(game, seat)
        await ws.send_str(json.dumps({"type": "act", "payload": payloads[0]}))
        while (got := json.loads((await ws.receive(timeout=10)).data))["type"] != "reply":
            pass
        assert got["ok"], got
        self.stale += payloads


@pytest.fixture
async def arena(tmp_path, session):
    served = await serve(str(tmp_path / "games.sqlite3"), settings=WebSettings(port=0, limits=UNBOUNDED))
    other = await start_game(served.service, chat(2), [user(name) for name in PLAYERS], options={"seed": 4})
    telegram = await WebBoard.start(served.service, WebSettings(port=0, telegram_token=BOT_TOKEN, limits=UNBOUNDED))
    got = Arena(served, other, telegram, session)
    for game in got.games:
        await got.play(game)
        await got.play(game)
        got.current[game] = await got.offered(game)
    yield got
    for ws in got.sockets.values():
        await ws.close()
    await telegram.stop()
    await served.board.stop()
    await served.service.close()


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged_errors():
    handler = Errors()
    logging.getLogger().addHandler(handler)
    yield handler.records
    logging.getLogger().removeHandler(handler)


def mangled(payload: str, data) -> str:
    how = data.draw(st.sampled_from(["flip", "cut", "grow", "field", "kind"]))
    if how == "flip":
        i = data.draw(st.integers(0, len(payload) - 1))
        out = payload[:i] + ("x" if payload[i] != "x" else "y") + payload[i + 1:]
    elif how == "cut":
        out = payload[:data.draw(st.integers(0, len(payload) - 1))]
    elif how == "grow":
        out = payload + data.draw(st.text(min_size=1, max_size=8))
    elif how == "field":       # another number in one of its fields, the signature kept
        parts = payload.split("_")
        i = data.draw(st.integers(1, len(parts) - 2))
        parts[i] = str(data.draw(st.integers(0, 99).filter(lambda n: str(n) != parts[i])))
        out = "_".join(parts)
    else:
        out = data.draw(st.sampled_from("obmjaglsptwh")) + payload[1:]
    return out


def payload_for(arena: Arena, game: int, seat: int | None, data) -> str:
    """A choice this page must be refused: never the acting seat's own current one on its own page."""
    kinds = ["forged", "edited", "stale", "other_game", "other_game"]
    acting, current = arena.current[game]
    if seat != acting:
        kinds.append("other_seat")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "forged":
        return data.draw(st.one_of(st.text(max_size=60), st.sampled_from(["c_1_0_0_0_0_0000000000000000", "c_"])))
    if kind == "edited":
        return mangled(data.draw(st.sampled_from(current)), data)
    if kind == "stale":
        return data.draw(st.sampled_from(arena.stale))
    if kind == "other_seat":
        return data.draw(st.sampled_from(current))
    other = next(g for g in arena.games if g != game)
    return data.draw(st.sampled_from(arena.current[other][1]))


def frame(arena: Arena, game: int, seat: int | None, data) -> str | bytes:
    kind = data.draw(st.sampled_from(["text", "json", "message", "act", "big", "binary", "hello", "review"]))
    if kind == "text":
        return data.draw(st.text(max_size=200))
    if kind == "json":
        return json.dumps(data.draw(JSON))
    if kind == "message":
        fields = data.draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=len(FIELDS)))
        message = {name: data.draw(TYPES if name == "type" else FIELD_VALUE) for name in fields}
        if data.draw(st.booleans()):
            message["payload"] = payload_for(arena, game, seat, data)
        return json.dumps(message)
    if kind == "act":
        return json.dumps({"type": "act", "payload": payload_for(arena, game, seat, data)})
    if kind == "big":
        return json.dumps({"type": "act", "payload": "c_" + "1" * data.draw(st.integers(MAX_MESSAGE, 4 * MAX_MESSAGE))})
    if kind == "binary":
        return data.draw(st.binary(max_size=64))
    if kind == "hello":
        return json.dumps({"type": "hello", "since": data.draw(st.one_of(st.none(), st.integers(0, 20))),
                           "layout": data.draw(st.sampled_from(["landscape", "portrait"])),
                           "at": data.draw(st.one_of(st.none(), st.integers(0, 20)))})
    return json.dumps({"type": "review", "at": data.draw(st.integers(0, 20))})


HELLO = json.dumps({"type": "hello", "since": None})


async def exchange(ws, sent: str | bytes) -> list[dict] | None:
    """Send ``sent``, then two probes: an error ("bad_message") and a state answer them, in
    order, after whatever ``sent`` got; those answers (None: the socket closed, cleanly)."""
    if isinstance(sent, bytes):
        await ws.send_bytes(sent)
    else:
        await ws.send_str(sent)
    for probe in (PROBE, HELLO):
        if not ws.closed:
            await ws.send_str(probe)
    got: list[dict] = []
    while True:
        msg = await ws.receive(timeout=10)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED):
            assert ws.close_code in CLEAN_CLOSES, (ws.close_code, sent[:100])
            return None
        assert msg.type == aiohttp.WSMsgType.TEXT, (msg.type, msg.data)
        message = json.loads(msg.data)
        assert message["type"] in ("state", "delta", "reply", "error"), message
        got.append(message)
        if len(got) >= 2 and got[-1]["type"] == "state" and got[-2].get("code") == "bad_message":
            return got[:-2]


async def latest(ws) -> dict:
    """The page's state now (whatever was on its way before is passed over)."""
    await exchange(ws, PROBE)
    await ws.send_str(HELLO)
    return json.loads((await ws.receive(timeout=10)).data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_a_page_cannot_break_the_server_or_change_a_game(arena, logged_errors, data):
    before = [await stored(arena.served.service, game) for game in arena.games]
    for _ in range(data.draw(st.integers(1, 4))):
        game = data.draw(st.sampled_from(arena.games))
        # the seats to act are drawn more often: their pages hold what may not be sent elsewhere
        seat = data.draw(st.sampled_from([None, 0, 1, 2, *(acting for acting, _ in arena.current.values())]))
        sent = frame(arena, game, seat, data)
        answers = await exchange(await arena.socket(game, seat), sent)
        for answer in answers or ():
            assert answer["type"] != "reply" or not answer["ok"], (sent, answer)
        if answers is None and isinstance(sent, str) and len(sent.encode()) <= MAX_MESSAGE:
            raise AssertionError(f"a text frame closed the socket: {sent[:100]!r}")
    assert [await stored(arena.served.service, game) for game in arena.games] == before
    assert not logged_errors, [r.getMessage() for r in logged_errors]


REFUSED = ["forged", "edited", "stale", "other_seat", "other_game", "spectator"]


@pytest.mark.parametrize("case", REFUSED)
async def test_each_kind_of_choice_a_page_may_not_make_is_refused_and_changes_nothing(arena, case):
    game, other = arena.games
    acting, current = arena.current[game]
    other_acting, other_current = arena.current[other]
    page, payload = {
        "forged": (acting, "c_1_0_0_0_0_" + "0" * 16),
        "edited": (acting, current[0][:-1] + ("0" if current[0][-1] != "0" else "1")),
        "stale": (acting, arena.stale[0]),
        "other_seat": ((acting + 1) % len(PLAYERS), current[0]),
        # the same person acts in the other game: its choice, sent from this game's page
        "other_game": (other_acting, other_current[0]),
        "spectator": (None, current[0]),
    }[case]
    before = [await stored(arena.served.service, g) for g in arena.games]
    ws = await arena.socket(game, page)
    await latest(ws)                     # what was on its way to it already
    answers = await exchange(ws, json.dumps({"type": "act", "payload": payload}))
    assert len(answers) == 1
    answer = answers[0]
    if case == "spectator":
        assert answer["type"] == "error" and answer["code"] == "spectator"
    else:
        assert answer["type"] == "reply" and not answer["ok"] and answer["refused"], answer
    assert [await stored(arena.served.service, g) for g in arena.games] == before


def init_data(arena: Arena, data) -> str:
    """Launch data for the Mini App: junk, or signed for this bot with fields of any shape."""
    if data.draw(st.booleans()):
        return data.draw(st.one_of(st.text(max_size=80), st.sampled_from(["", "hash=", "a=1&a=2", "user=%7B%7D"])))
    person = data.draw(st.one_of(
        st.fixed_dictionaries({"id": st.one_of(st.sampled_from(["ann", "bob", 1, 2.5, 1e400, -1, "١٢"]), WEIRD)},
                              optional={"first_name": WEIRD, "last_name": WEIRD, "language_code": WEIRD}),
        JSON))
    fields = {"user": json.dumps(person),
              "auth_date": data.draw(st.one_of(st.just(str(int(time.time()))), st.text(max_size=12),
                                               st.integers(-(10 ** 12), 10 ** 12).map(str)))}
    if data.draw(st.booleans()):
        fields["start_param"] = reference(arena, data)
    return sign_init_data(fields, BOT_TOKEN if data.draw(st.booleans()) else "654321:other")


def reference(arena: Arena, data) -> str:
    """A game reference as a Mini App link carries: the real ones, edited ones, junk."""
    codec = arena.served.service.codec
    real = codec.encode("w", data.draw(st.sampled_from(arena.games)))
    return data.draw(st.one_of(st.just(real), st.just(codec.encode("c", 1, 0, 0, 0, 0)), st.text(max_size=40),
                               st.builds(lambda n: real[:-1] + "xyz0"[n], st.integers(0, 3)),
                               st.just(codec.encode("w", 999))))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_the_mini_app_login_refuses_what_it_cannot_read(arena, session, logged_errors, data):
    shape = data.draw(st.sampled_from(["bytes", "json", "login"]))
    if shape == "bytes":
        body = data.draw(st.binary(max_size=200))
    elif shape == "json":
        body = json.dumps(data.draw(JSON)).encode()
    else:
        login = {"init_data": init_data(arena, data)}
        if data.draw(st.booleans()):
            login["game"] = data.draw(st.one_of(st.just(reference(arena, data)), WEIRD))
        body = json.dumps(login).encode()
    board = data.draw(st.sampled_from([arena.telegram, arena.served.board]))
    async with session.post(f"{board.local_url}/api/telegram", data=body,
                            headers={"Content-Type": "application/json"}) as response:
        answer = await response.json()
    assert response.status in (200, 403), (response.status, body[:200])
    if response.status == 200:
        assert board is arena.telegram and set(answer) == {"pass"}
    else:
        assert set(answer) == {"error", "text"}
    assert not logged_errors, [r.getMessage() for r in logged_errors]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_the_page_pass_exchange_refuses_what_it_cannot_read(arena, session, logged_errors, data):
    """POST /api/pass: junk, JSON of any shape, passes edited or cut: a refusal (403), never a 500;
    a page pass only for a link's own pass."""
    real = token(arena.served.board, arena.games[0], arena.viewer(data.draw(st.sampled_from([None, 0, 1]))))
    shape = data.draw(st.sampled_from(["bytes", "json", "pass"]))
    if shape == "bytes":
        body = data.draw(st.binary(max_size=200))
    elif shape == "json":
        body = json.dumps(data.draw(JSON)).encode()
    else:
        # (the pass's length changes with the clock: the cut is drawn apart from it, or Hypothesis
        # would see a strategy that changes between runs)
        sent = data.draw(st.one_of(st.just(real), st.builds(lambda n: real[:n % len(real)], st.integers(0, 10_000)),
                                   st.builds(lambda extra: real + extra, st.text(min_size=1, max_size=8)), WEIRD))
        body = json.dumps({"pass": sent}).encode()
    async with session.post(f"{arena.served.board.local_url}/api/pass", data=body,
                            headers={"Content-Type": "application/json"}) as response:
        answer = await response.json()
    assert response.status in (200, 403), (response.status, body[:200])
    if response.status == 200:
        assert set(answer) == {"pass", "seconds"} and body == json.dumps({"pass": real}).encode()
    assert not logged_errors, [r.getMessage() for r in logged_errors]


NUMBER = st.one_of(st.integers(0, 4).map(str), st.sampled_from(["-1", "100001", "1_0", " 2", "١", "", "x", "1e3"]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_the_picture_endpoint_refuses_what_it_cannot_draw(arena, session, logged_errors, data):
    game = data.draw(st.sampled_from(arena.games))
    query = {"t": data.draw(st.one_of(
        st.builds(lambda seat: token(arena.served.board, game, arena.viewer(seat)), st.sampled_from([None, 0, 1, 2])),
        st.text(max_size=30)))}
    for name, values in (("kind", st.sampled_from(["map", "final", "seat", "board", ""])), ("moves", NUMBER),
                         ("cycle", NUMBER), ("layout", st.sampled_from(["landscape", "portrait", "x"])),
                         ("seat", NUMBER)):
        if data.draw(st.integers(0, 4)) > 0:
            query[name] = data.draw(values)
    async with session.get(f"{arena.served.board.local_url}/picture", params=query) as response:
        await response.read()
    assert response.status in (200, 400, 403, 404), (response.status, query)
    assert not logged_errors, [r.getMessage() for r in logged_errors]


@pytest.mark.parametrize("person", ['{"id": Infinity}', '{"id": NaN}', '{"id": "ann"}', "[1]", '"1"', "{}"])
async def test_signed_launch_data_naming_nobody_readable_is_refused(arena, session, person):
    body = {"init_data": sign_init_data({"user": person, "auth_date": str(int(time.time()))}, BOT_TOKEN),
            "game": arena.served.service.codec.encode("w", arena.games[0])}
    async with session.post(f"{arena.telegram.local_url}/api/telegram", json=body) as response:
        assert response.status == 403
        assert (await response.json())["error"] == "forged"
