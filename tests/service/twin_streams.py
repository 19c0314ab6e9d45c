"""Two services playing twin deals (the same game but one seat's secret, tests/conformance/twins.py)
with the same presses, and what each recipient got, side by side.

Only what the group and the unchanged seats receive is compared: message texts and captions,
button labels, kinds and payload bodies (without their signatures, which differ per database),
the passes of the web board's links (read back: their tokens are signed per database too), and
the inputs of every public picture (the presenter's ``render`` is replaced by a recorder).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from urllib.parse import parse_qs, urlsplit

import msgspec
from conformance.twins import TWINS  # tests/ is on the path (tests/conftest.py)
from service_helpers import FakeTransport, chat, user

from bot.games import kind
from bot.service import GameService
from bot.service.board.page import PageRequest
from bot.service.service import TURN_PRESSES

PNG = b"\x89PNG\r\n\x1a\n"       # what the recording presenter draws
NAMES = ("Ann", "Bob", "Cy")                          # a table of three humans
MORE_NAMES = (*NAMES, "Dee", "Eve", "Fay")            # for games that need more


def seen(message, service: GameService) -> tuple:
    """What a recipient sees of a message or reply (an edit says so; the edited message's id does not matter)."""
    buttons = tuple((b.label, b.kind, opened(b, service), b.colour) for row in message.buttons for b in row)
    extra = (getattr(message, "slot", None), getattr(message, "edit_message_id", None) is not None,
             tuple(u.id for u in getattr(message, "mentions", ())))
    return message.text, buttons, message.image is not None, getattr(message, "image_name", None), extra


def opened(button, service: GameService):
    """What a button opens: a payload without its signature; a link's address and what its pass says
    (or its game reference, without the signature)."""
    if button.kind not in ("link", "web_app"):
        return button.payload.rsplit("_", 1)[0]
    url = urlsplit(button.payload)
    # the address's query and fragment (a link's pass travels in the fragment)
    query = {key: values[0] for part in (url.query, url.fragment) for key, values in parse_qs(part).items()}
    if "t" in query:
        query["t"] = asdict(service.passes.read(query["t"], now=service.clock.now()))
    if "g" in query:
        query["g"] = query["g"].rsplit("_", 1)[0]
    return url.scheme, url.netloc, url.path, tuple(sorted(query.items()))


def turn_buttons(buttons) -> list:
    return [b for row in buttons for b in row if b.kind == "action" and b.payload.split("_")[0] in TURN_PRESSES]


@dataclass
class Side:
    """One of the twins: its service, what its transport got, its pictures' inputs, each user's open menu."""

    service: GameService
    transport: FakeTransport = field(default_factory=FakeTransport)
    pictures: list = field(default_factory=list)
    menus: dict = field(default_factory=dict)
    delivered: int = 0

    async def position(self):
        """The public view and events of the game now (from the service's own copy of the match)."""
        match = (await self.service.store.load(1)).match
        return match.view(None), match.log_for(None)

    def latest_menus(self, u) -> list:
        """The buttons of the newest private message to ``u`` and of the newest group message that
        offer choices (a turn message is edited in place, so the transport holds its last content)."""
        newest = sorted(self.transport.messages.items(), key=lambda item: -int(item[0]))
        mine = [m.buttons for _, m in newest if m.private_to is not None and m.private_to.id == u.id
                and turn_buttons(m.buttons)]
        group = [m.buttons for _, m in newest if m.private_to is None and turn_buttons(m.buttons)]
        return mine[:1] + group[:1]

    async def press(self, c, u, rng_value: float):
        """The user presses a button: of the menu their last press opened, else of their newest
        private turn message, else of the group's turn message, else of the board's menu; a source
        whose press is refused (stale) gives way to the next. Returns the last reply."""
        reply = None
        sources = [self.menus.get(u.id, ()), *self.latest_menus(u)]
        for buttons in [*sources, None]:
            if buttons is None:
                buttons = (await self.service.board(c, u)).buttons
            choices = turn_buttons(buttons)
            if choices:
                reply = await self.service.press(c, u, choices[int(rng_value * len(choices))].payload)
                self.menus[u.id] = reply.buttons
                if reply.ok:
                    break
        return reply


def unsigned(value):
    """A page's state without the signatures of its payloads (each database signs with its own key)."""
    if isinstance(value, dict):
        return {key: (item.rsplit("_", 1)[0] if key == "act" else unsigned(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [unsigned(item) for item in value]
    return value


async def pages_seen(side: Side, seats) -> list:
    """The web board's page of each of ``seats`` (None: a spectator's), in both layouts."""
    return [unsigned(msgspec.to_builtins(await side.service.page(PageRequest(1, seat, "en", layout))))
            for seat in seats for layout in ("landscape", "portrait")]


async def start_twins(tmp_path, clock, monkeypatch, game_id: str, players: int, seat: int, seed: int,
                      **service_options):
    """Two services, each with a started game of ``game_id`` for ``players`` humans (Ann, Bob...); the
    second dealt the twin in which ``seat``'s secret differs. Returns the sides and the changed seats.
    ``service_options`` go to ``GameService.open`` (the web board's address, say)."""
    definition = kind(game_id).definition
    real = definition.new_match
    sides, changed = [], frozenset()

    def twin_deal(players, *, seed, options=None):
        nonlocal changed
        setup = real(players, seed=seed, options=options).stored_setup()
        setup, changed = TWINS[game_id](setup, seat, random.Random(seed))
        return definition.resume(setup, [])

    for twin in (False, True):
        svc = await GameService.open(str(tmp_path / f"twin{int(twin)}.sqlite3"), clock=clock, **service_options)
        with monkeypatch.context() as patch:
            if twin:
                patch.setattr(definition, "new_match", twin_deal)
            users = [user(name) for name in MORE_NAMES[:players]]
            c = chat(1)
            assert (await svc.new_game(c, users[0], options={"game": game_id, "seed": seed})).ok
            for u in users[1:]:
                assert (await svc.join(c, u)).ok
            assert (await svc.start(c, users[0])).ok
        sides.append(Side(svc))
    return sides, changed


def record_pictures(monkeypatch, game_id: str, sides: list[Side]) -> list:
    """The presenter's public pictures go to a recorder: ``current[0]`` is the side delivering."""
    current: list[Side] = [sides[0]]

    def render(kind_, view, events, language, *, layout="landscape"):
        current[0].pictures.append((kind_, view, tuple(events), language, layout))
        return PNG

    monkeypatch.setattr(kind(game_id).presenter, "render", render)
    return current


async def play_twins(tmp_path, clock, monkeypatch, game_id: str, players: int, seat: int, seed: int,
                     **service_options) -> tuple[int, int]:
    """Twin games of ``game_id`` (``seat``'s secret differs) played with the same random presses until
    the public view parts (the game revealed the secret) or 150 presses; after every press what the
    group and the unchanged seats got must be the same (AssertionError otherwise). Returns the presses
    compared and the moves made."""
    sides, changed = await start_twins(tmp_path, clock, monkeypatch, game_id, players, seat, seed,
                                       **service_options)
    current = record_pictures(monkeypatch, game_id, sides)
    users = {u.id: u for u in map(user, MORE_NAMES[:players])}
    seated = (await sides[0].service.game_info(chat(1))).seats
    watchers = {s.user_id for i, s in enumerate(seated) if i not in changed}
    rng, compared, moves = random.Random(seed), 0, 0
    try:
        for _ in range(150):        # presses (Paris Connection reveals nothing before its end)
            if await sides[0].position() != await sides[1].position():
                break                                   # the game revealed the secret: streams may part
            got = []
            for side in sides:
                current[0] = side
                await side.service.deliver_pending(side.transport)
                new = side.transport.sent[side.delivered:]
                side.delivered = len(side.transport.sent)
                got.append([(m.private_to.id if m.private_to else "group", seen(m, side.service)) for m in new
                            if m.private_to is None or m.private_to.id in watchers])
            assert got[0] == got[1], f"after {compared} presses the group or an opponent got different messages"
            assert sides[0].pictures == sides[1].pictures, f"after {compared} presses a picture's inputs differ"
            viewers = [None, *(i for i in range(players) if i not in changed)]
            assert await pages_seen(sides[0], viewers) == await pages_seen(sides[1], viewers), (
                f"after {compared} presses a web page of the group or an opponent differs")
            compared += 1
            info = await sides[0].service.game_info(game_id=1)
            moves = info.moves
            if not info.to_act:
                break
            presser = users[info.seats[rng.choice(info.to_act)].user_id]
            value = rng.random()
            replies = [await side.press(chat(1), presser, value) for side in sides]
            if presser.id in watchers:
                first, second = (r and seen(r, side.service) for r, side in zip(replies, sides, strict=True))
                assert first == second, (
                    "an opponent's own press was answered differently")
    finally:
        for side in sides:
            await side.service.close()
    return compared, moves
