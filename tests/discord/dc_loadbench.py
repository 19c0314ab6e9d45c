"""``python tests/discord/dc_loadbench.py --channels 50``: many busy channels under Discord's rate limits.

The bot as it runs in production (BoardchatBot with the service's background delivery loop,
a GameService on SQLite, the paced outbox) in simcord's offline Discord. simcord itself models
no rate limit: it replaces discord.py's ``HTTPClient.request``, where discord.py keeps its
buckets and waits out 429s, with a call into its in-memory backend. So this bench puts
Discord's limits in front of that call (``RateModel``: 50 requests a second for the bot, 5 in
5 s per channel, counted per route's major parameter as Discord does) and, past them, does
what discord.py does with a 429: counts it (a 429 Discord would have served) and waits its
``retry_after`` before trying again.

Every channel is one person and one AI seat (the AI plays its first legal choice, at once).
After a quiet start (budgets full), every channel's player presses at the same moment, which
ends a round in most channels (a closing edit, the round's picture, the next prompt);
meanwhile in one more channel, a table of four people, the player named presses 3 s after
their prompt shows (quick players). Printed: 429s served (goal 0), calls a second, the time
until every channel has its messages, press-to-prompt p50/p99 in the extra channel, and lost,
doubled and reordered messages per channel (goal 0).

The suite runs it small (tests/discord/test_dc_load.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import dataclasses
import random
import re
import sys
import tempfile
import time
from collections import defaultdict, deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/: the shared kits

import simcord  # noqa: E402
from outbox_gone import ALL_OUTBOX, keep_replaced_rows  # noqa: E402

from bot.contract import Budget, PaceLimits  # noqa: E402
from bot.discord import BoardchatBot  # noqa: E402
from bot.discord.transport import DISCORD_PACE  # noqa: E402
from bot.service import GameService  # noqa: E402

MENTION = re.compile(r"<@(\d+)>")
CHOICE = ("pp:c_", "pp:o_")


def first_choice(match, seat, **_):
    """A quick AI: its first legal choice."""
    return match.legal_choices(seat)[0]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# ---- Discord's limits ---------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class DiscordLimits:
    """Requests allowed per sliding window ``(calls, seconds)``: the bot's global limit, and each
    route's bucket per major parameter (posting messages in one channel, editing them, deleting
    them: a bucket each, as Discord counts them)."""

    bot: tuple[int, float] = (50, 1.0)
    route: tuple[int, float] = (5, 5.0)


@dataclasses.dataclass
class RateModel:
    limits: DiscordLimits
    sent: deque = dataclasses.field(default_factory=deque)
    by_route: dict[tuple, deque] = dataclasses.field(default_factory=lambda: defaultdict(deque))
    calls: list[tuple[float, tuple]] = dataclasses.field(default_factory=list)     # accepted
    refused: list[tuple[tuple, float]] = dataclasses.field(default_factory=list)   # 429s served

    def admit(self, route: tuple, now: float) -> float | None:
        """None when the request to ``route`` (method, path template, major parameter) may go,
        else the seconds of its 429's ``retry_after``."""
        windows = [(self.sent, self.limits.bot)]
        if route[2] is not None:
            windows.append((self.by_route[route], self.limits.route))
        wait = 0.0
        for times, (calls, seconds) in windows:
            while times and times[0] <= now - seconds:
                times.popleft()
            if len(times) >= calls:
                wait = max(wait, times[len(times) - calls] + seconds - now)
        if wait > 0:
            self.refused.append((route, wait))
            return wait
        for times, _ in windows:
            times.append(now)
        self.calls.append((now, route))
        return None


def limit_requests(bot: BoardchatBot, model: RateModel) -> None:
    """Put ``model`` in front of simcord's ``request``, doing what discord.py does with a 429."""
    original = bot.http.request

    async def request(route, **kwargs):
        if model.limits is not None:
            major = route.channel_id or route.guild_id or route.webhook_id
            while (wait := model.admit((route.method, route.path, major), time.monotonic())) is not None:
                await asyncio.sleep(wait)
        return await original(route, **kwargs)

    bot.http.request = request


# ---- the world ----------------------------------------------------------------------------

@dataclasses.dataclass
class Group:
    channel: object
    players: list


def buttons(message) -> list:
    return [child for row in message.components for child in row.children]


def prompt_of(channel):
    for message in reversed(channel.history()):
        if any(getattr(b, "custom_id", "") and b.custom_id.startswith(CHOICE) for b in buttons(message)):
            return message
    return None


def shown(message) -> tuple:
    return () if message is None else (message.id, tuple(b.custom_id for b in buttons(message)))


def to_act(message, group: Group):
    named = set(MENTION.findall(message.content))
    return next((p for p in group.players if str(p.id) in named), None)


async def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


class World:
    def __init__(self, env: simcord.Env, bot: BoardchatBot, service: GameService, model: RateModel,
                 pace: PaceLimits):
        self.env, self.bot, self.service, self.model, self.pace = env, bot, service, model, pace
        self.guild = env.create_guild()

    def quiet(self) -> None:
        self.bot.transport.pace = None
        self.service.delivery.reset_pacing()

    def limited(self, limits: DiscordLimits) -> None:
        self.model.limits = limits
        self.bot.transport.pace = self.pace
        self.service.delivery.reset_pacing()

    async def seat(self, index: int, humans: int) -> Group:
        channel = self.guild.create_text_channel(f"table-{index}")
        players = [self.guild.add_member(self.env.create_user(f"p{index}x{k}")) for k in range(humans)]
        await players[0].slash(channel, "boardchat new")
        for player in players[1:]:
            await player.slash(channel, "boardchat join")
        if humans == 1:
            await players[0].slash(channel, "boardchat addbot")
        await players[0].slash(channel, "boardchat start")
        return Group(channel, players)

    async def unsent(self) -> int:
        return len(await self.service.storage.unsent("discord", limit=100_000))

    async def settle(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while await self.unsent():
            if time.monotonic() > deadline:
                raise AssertionError("the outbox did not drain")
            await asyncio.sleep(0.05)


async def press(group: Group, rng: random.Random) -> tuple | None:
    message = prompt_of(group.channel)
    player = to_act(message, group) if message is not None else None
    if player is None:
        return None
    ids = [b.custom_id for b in buttons(message) if b.custom_id.startswith("pp:c_")] or \
          [b.custom_id for b in buttons(message) if b.custom_id.startswith("pp:o_")]
    await player.click(message, custom_id=rng.choice(ids))
    return shown(message)




def check_channels(groups: list[Group], rows) -> dict[str, int]:
    """Lost, doubled, reordered per channel: every outbox message sent and shown once, in order.
    A prompt that pings someone new is posted afresh and its old copy deleted (Discord does not
    ping on an edit): a message gone for a later one of its slot is not lost."""
    counts = {"lost": 0, "doubled": 0, "reordered": 0}
    for group in groups:
        dest = f"c:{group.channel.id}"
        mine = [r for r in rows if r.dest == dest]
        shown_ids = {m.id for m in group.channel.history() if m.author.bot}
        last_of_slot = {r.slot: i for i, r in enumerate(mine) if r.slot is not None}
        posted: list[int] = []
        for i, row in enumerate(mine):
            superseded = row.slot is not None and last_of_slot[row.slot] > i
            if row.state != "sent" or (int(row.message_id) not in shown_ids and not superseded):
                counts["lost"] += 1
            elif int(row.message_id) not in shown_ids:
                continue
            elif int(row.message_id) not in posted:
                posted.append(int(row.message_id))
        counts["doubled"] += len(shown_ids - set(posted))
        counts["reordered"] += sum(1 for a, b in zip(posted, posted[1:], strict=False) if b < a)
    return counts


async def _sent_rows(storage) -> list:
    async with storage.db.execute(f"SELECT dest, state, message_id, slot FROM {ALL_OUTBOX} WHERE platform = 'discord' "
                                  "ORDER BY id") as cur:
        return [SimpleRow(*r) for r in await cur.fetchall()]


@dataclasses.dataclass
class SimpleRow:
    dest: str
    state: str
    message_id: str | None
    slot: str | None


# ---- one run ------------------------------------------------------------------------------

async def run_load(channels: int, *, limits: DiscordLimits = DiscordLimits(), pace_total: Budget | None = None,
                   min_presses: int = 5, think: float = 3.0, seed: int = 1, timeout: float = 600.0,
                   drawing_processes: int = 0) -> dict:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        service = await GameService.open(f"{tmp}/load.sqlite3", ai=first_choice, drawing_processes=drawing_processes)
        await keep_replaced_rows(service.storage.db)
        # The timer loop idles on an event simcord cannot settle: started here, outside the bot.
        service._timer_task = asyncio.create_task(service.run_timers())
        holder: dict[str, simcord.Env] = {}

        class Bot(BoardchatBot):
            async def _run_delivery(self) -> None:
                # The delivery loop idles until a commit wakes it: run outside simcord's own work,
                # with the wait declared (as tests/discord/test_background.py does).
                loop = asyncio.get_running_loop()
                task = contextvars.Context().run(loop.create_task, super()._run_delivery())
                await holder["env"].external_wait(task, reason="the service's delivery loop")

        bot = Bot(service)                       # background delivery, paced: as in production
        env = holder["env"] = simcord.Env(bot, settle_timeout=60.0)
        await env.start()
        model = RateModel(None)
        limit_requests(bot, model)
        pace = DISCORD_PACE if pace_total is None else dataclasses.replace(DISCORD_PACE, total=pace_total)
        world = World(env, bot, service, model, pace)
        try:
            world.quiet()
            busy = [await world.seat(i, 1) for i in range(channels)]
            extra = await world.seat(channels, 4)
            await world.settle(timeout)
            world.limited(limits)
            started = time.monotonic()
            for group in busy:
                await press(group, rng)
            waits: list[float] = []
            done = asyncio.Event()

            async def extra_player() -> None:
                while not done.is_set() or len(waits) < min_presses:
                    before = await press(extra, rng)
                    if before is None:
                        return
                    pressed = time.monotonic()

                    def ready(before: tuple = before) -> bool:
                        msg = prompt_of(extra.channel)
                        return msg is not None and shown(msg) != before and to_act(msg, extra) is not None
                    await wait_until(ready, timeout, "the extra channel's next prompt")
                    waits.append(time.monotonic() - pressed)
                    await asyncio.sleep(think)
            player = asyncio.create_task(extra_player())
            await world.settle(timeout)
            everything = time.monotonic() - started
            done.set()
            await player
            await world.settle(timeout)
            calls = [at for at, _ in model.calls if at >= started]
            return {"channels": channels, "refused": len(model.refused), "calls": len(calls),
                    "seconds": everything, "per_second": len(calls) / everything,
                    "press_p50": pct(waits, 50), "press_p99": pct(waits, 99), "presses": len(waits),
                    **check_channels(busy + [extra], await _sent_rows(service.storage))}
        finally:
            await env.shutdown()
            await service.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python tests/discord/dc_loadbench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=50, help="channels pressing at the same moment")
    parser.add_argument("--drawing-processes", type=int, default=2, metavar="N",
                        help="processes drawing the pictures, as BOARDCHAT_DRAWING_PROCESSES (0: a thread)")
    args = parser.parse_args(argv)
    r = asyncio.run(run_load(args.channels, drawing_processes=args.drawing_processes))
    print(f"{r['channels']} channels pressing at once, one more pressing meanwhile (Discord in simcord):\n"
          f"  429s Discord would have served: {r['refused']} (goal 0)\n"
          f"  requests: {r['calls']}, {r['per_second']:.1f} a second (the outbox paces to 40 of the 50 allowed)\n"
          f"  every channel has its messages after {r['seconds']:.1f} s\n"
          f"  press to prompt in the extra channel: p50 {r['press_p50']:.2f} s, p99 {r['press_p99']:.2f} s "
          f"over {r['presses']} presses\n"
          f"  lost {r['lost']}, doubled {r['doubled']}, reordered {r['reordered']} (goal 0)")


if __name__ == "__main__":
    main()
