"""``python tests/telegram/loadbench.py --groups 50``: many busy groups under Telegram's flood limits.

The bot as it runs (the real python-telegram-bot Application, a GameService on SQLite, the
outbox with its pacing) against the fake Bot API with Telegram's limits modelled
(``flood.FloodLimits``: 429 with ``retry_after`` past them). Every group is one person and
one AI seat (the AI plays its first legal choice, at once). After a quiet start (budgets
full), every group's player presses at the same moment, which ends a round in most groups
(a closing edit, the round's picture, the next prompt); meanwhile in one more group, a table
of four people, the player named presses 3 s after their prompt shows up (quick players):
three presses in four edit the prompt, the fourth ends a round. Printed:

- 429s served (goal 0), sends and edits accepted, and messages delivered per second;
- the time until every group has its messages;
- press-to-prompt p50/p99 in the extra group under that load (goal p99 <= 3 s), and in the busy
  groups (how many of them had the prompt before the round's picture: the bot was behind);
- lost, doubled and reordered messages, per chat (goal 0).

``--table`` instead plays one group of four people for each game at full speed (each
presses as soon as the prompt names them) and prints sends and edits per action and the
429s served (goal 0).

``--quick GROUPS`` plays that many tables of ``--humans`` people (2) at once, each pressing as
soon as the prompt names them, ``--presses`` times (6): press to the next prompt p50/p99, group
calls per press (goal <= 1.5), 429s (goal 0).

``--private-game`` plays a whole Papà Paolo game of three people and an AI, each tapping in
their private chat ``--think`` seconds (1) after their menu shows: tap to answer p50/p90 (goal
p90 <= 1 s), private calls per tap, 429s (goal 0).

The suite runs both small (tests/telegram/test_tg_pacing.py); ``speed`` scales every
window of the limits and the bot's pace alike, so a test sees a minute in a few seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/: the shared kits

from fakebotapi import FakeBotAPI, FakeChat, FakeUser, Msg  # noqa: E402
from flood import FloodLimits, FloodModel  # noqa: E402
from outbox_gone import ALL_OUTBOX, keep_replaced_rows  # noqa: E402
from tgharness import Bot  # noqa: E402

from bot.contract import Budget, Chat, PaceLimits, User, Window  # noqa: E402
from bot.service.delivery.pictures import Drawn  # noqa: E402
from bot.telegram.app import runtime  # noqa: E402
from bot.telegram.transport import TELEGRAM_PACE  # noqa: E402

GAMES = ("paris-paris", "paris-connection")
TABLE_GAMES = (*GAMES, "papa-paolo")       # Papà Paolo's choices are made in private chats
TELEGRAM = FloodLimits()       # the limits as documented


def first_choice(match, seat, **_):
    """A quick AI: its first legal choice."""
    return match.legal_choices(seat)[0]


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# ---- limits at a speed ----------------------------------------------------------------

def flood_at(limits: FloodLimits, speed: float) -> FloodLimits:
    """``limits`` with every window ``speed`` times shorter."""
    return FloodLimits(**{f.name: (getattr(limits, f.name)[0], getattr(limits, f.name)[1] / speed)
                          for f in dataclasses.fields(limits)})


def pace_at(pace: PaceLimits, speed: float) -> PaceLimits:
    def fast(budget: Budget | Window | None) -> Budget | Window | None:
        if isinstance(budget, Window):
            return Window(budget.calls, budget.seconds / speed)
        return None if budget is None else Budget(budget.burst, budget.per_second * speed)
    return PaceLimits(**{f.name: fast(getattr(pace, f.name)) for f in dataclasses.fields(pace)})


# ---- the world ------------------------------------------------------------------------

@dataclasses.dataclass
class Group:
    chat: FakeChat
    players: list[FakeUser]


def prompt_of(api: FakeBotAPI, chat: FakeChat) -> Msg | None:
    """The group's turn message: its latest bot message with choice buttons."""
    for msg in reversed(api.bot_messages(chat)):
        if any(b.get("callback_data", "")[:2] in ("c_", "o_") for b in msg.buttons()):
            return msg
    return None


def shown(msg: Msg | None) -> tuple:
    """What a prompt offers now (its buttons encode the move number)."""
    return () if msg is None else (msg.message_id, tuple(b.get("callback_data", "") for b in msg.buttons()))


def to_act(msg: Msg, group: Group) -> FakeUser | None:
    named = {e["user"]["id"] for e in msg.entities if e.get("type") == "text_mention"}
    return next((p for p in group.players if p.id in named), None)


async def seat_group(bot: Bot, api: FakeBotAPI, index: int, *, humans: int, ais: int, game: str) -> Group:
    chat = api.add_group(-1_000_000 - index, f"Table {index}")
    players = [api.add_user(100_000 * (index + 1) + k, f"P{index}x{k}", started=True) for k in range(humans)]
    where = Chat("telegram", str(chat.id), chat.title)
    users = [User("telegram", str(p.id), p.first_name, language="en") for p in players]
    service = bot.service
    await service.new_game(where, users[0], options={"seed": index + 1, "game": game})
    for user in users[1:]:
        await service.join(where, user)
    for _ in range(ais):
        await service.add_ai(where, users[0])
    reply = await service.start(where, users[0])
    assert reply.ok, reply.text
    return Group(chat, players)


def press(api: FakeBotAPI, group: Group, rng: random.Random) -> tuple | None:
    """The player named by the group's prompt presses one of its choices; what it showed before."""
    msg = prompt_of(api, group.chat)
    player = to_act(msg, group) if msg is not None else None
    if player is None:
        return None
    buttons = msg.buttons()
    choices = [b for b in buttons if b.get("callback_data", "").startswith("c_")] or \
              [b for b in buttons if b.get("callback_data", "").startswith("o_")]
    api.press(player, msg, rng.choice(choices))
    return shown(msg)


def private_turn(api: FakeBotAPI, player: FakeUser) -> Msg | None:
    """The player's own turn message in their private chat: the latest with choice buttons."""
    for msg in reversed(api.bot_messages(player)):
        if any(b.get("callback_data", "")[:2] in ("c_", "o_") for b in msg.buttons()):
            return msg
    return None


def press_private(api: FakeBotAPI, group: Group, rng: random.Random) -> tuple[FakeUser, tuple] | None:
    """A player who has choices in private presses one of them (a choice or a submenu, never
    back); who pressed, and what their turn message showed before."""
    ready = [(p, m) for p in group.players if (m := private_turn(api, p)) is not None]
    if not ready:
        return None
    player, msg = rng.choice(ready)
    buttons = [b for b in msg.buttons() if b.get("callback_data", "")[:2] in ("c_", "o_")]
    api.press(player, msg, rng.choice(buttons))
    return player, shown(msg)


async def next_prompt(api: FakeBotAPI, group: Group, before: tuple, timeout: float) -> None:
    """Until the group's prompt offers something new to someone."""
    def ready() -> bool:
        msg = prompt_of(api, group.chat)
        return msg is not None and shown(msg) != before and to_act(msg, group) is not None
    await api.wait_for(ready, timeout, f"the next prompt in {group.chat.title}")


_PNG: list[bytes] = []


async def _small_picture(render: dict, language: str, platform: str, rank: int = 2) -> Drawn:
    if not _PNG:
        import io

        from PIL import Image
        out = io.BytesIO()
        Image.new("RGB", (64, 48), "white").save(out, "PNG")
        _PNG.append(out.getvalue())
    return Drawn(_PNG[0])


# ---- one run --------------------------------------------------------------------------

class World:
    """A fake Bot API with flood limits, the bot against it, and how to switch limits on."""

    def __init__(self, api: FakeBotAPI, bot: Bot, limits: FloodLimits | None, pace: PaceLimits | None):
        self.api, self.bot, self.limits, self.pace = api, bot, limits, pace

    @property
    def transport(self):
        return runtime(self.bot.app).transport

    def quiet(self) -> None:
        """No limits: for setting the groups up."""
        self.api.flood = None
        self.transport.pace = None
        self.bot.service.delivery.reset_pacing()

    def limited(self) -> None:
        """Telegram's limits from now on, every budget full (the groups were quiet a while)."""
        self.api.flood = FloodModel(self.limits) if self.limits is not None else None
        self.transport.pace = self.pace
        self.bot.service.delivery.reset_pacing()

    async def unsent_in(self, chats: set[str] | None) -> int:
        """Unsent messages to ``chats`` (None: to anyone, private chats included)."""
        rows = await self.bot.service.storage.unsent("telegram", limit=100_000)
        return sum(1 for r in rows if chats is None or r.dest in chats)




async def _overtaken(bot: Bot, extra: str, busy: set[str], since: float) -> list[int]:
    """For each prompt of ``extra`` sent while ``busy`` chats still had messages to send: how
    many of theirs went out between its commit and its send that it should have gone before:
    pictures and edits (priority 1), and prompts committed after it (with prompts first, about
    the sends already in flight when it was committed). Prompts committed before it go first."""
    async with bot.service.storage.db.execute(
            f"SELECT dest, priority, created, sent_at FROM {ALL_OUTBOX} WHERE state = 'sent' AND platform = 'telegram'") as cur:
        rows = await cur.fetchall()
    sent = [(priority, created, at) for dest, priority, created, at in rows if dest in busy and created >= since]
    last = max((at for _, _, at in sent), default=0.0)
    return [sum(1 for p, c, at in sent if created < at < done and (p != 0 or c > created))
            for dest, priority, created, done in rows
            if dest == extra and priority == 0 and since <= created and done < last]


async def _new_prompts(bot: Bot, dests: set[str], since: float) -> tuple[list[float], int, int]:
    """The new prompts posted to ``dests`` since ``since`` with a round's picture (a round's end):
    the seconds from ``since`` to each one's send, how many there were and how many of them went
    before the round's picture (posted first: the bot was behind)."""
    async with bot.service.storage.db.execute(
            f"SELECT id, dest, priority, mode, body, created, sent_at FROM {ALL_OUTBOX} WHERE platform = 'telegram' "
            "AND created >= ? ORDER BY id", (since,)) as cur:
        rows = await cur.fetchall()
    prompts: dict[tuple[str, float], tuple[int, float]] = {}     # (chat, commit time): its new prompt
    pictures: dict[tuple[str, float], int] = {}
    for out_id, dest, priority, mode, body, created, sent_at in rows:
        if dest in dests and priority == 0 and mode == "new" and sent_at is not None:
            prompts[dest, created] = (out_id, sent_at - since)
        elif dest in dests and json.loads(body).get("render"):      # a picture, as the outbox reads it
            pictures.setdefault((dest, created), out_id)
    ends = [key for key in prompts if key in pictures]
    first = sum(1 for key in ends if prompts[key][0] < pictures[key])
    return [prompts[key][1] for key in ends], len(ends), first


def _chat_of(call) -> int | None:
    try:
        return int(call.params.get("chat_id"))
    except (TypeError, ValueError):
        return None


async def check_chats(bot: Bot, api: FakeBotAPI, groups: list[Group], replies: frozenset = frozenset()) -> dict[str, int]:
    """Lost, doubled and reordered messages per chat: every outbox message sent, every message
    the group shows recorded by exactly one outbox message, posts in the outbox's order.
    ``replies``: (chat, message id) of messages the adapter posted itself (a command's reply)."""
    async with bot.service.storage.db.execute(
            f"SELECT dest, state, message_id FROM {ALL_OUTBOX} WHERE platform = 'telegram' ORDER BY id") as cur:
        rows = await cur.fetchall()
    counts = {"lost": 0, "doubled": 0, "reordered": 0}
    for group in groups:
        dest = f"c:{group.chat.id}"
        mine = [r for r in rows if r[0] == dest]
        shown_ids = {m.message_id for m in api.bot_messages(group.chat)}
        posted: list[int] = []
        for _, state, message_id in mine:
            if state != "sent" or int(message_id) not in shown_ids:
                counts["lost"] += 1
            elif int(message_id) not in posted:
                posted.append(int(message_id))
        counts["doubled"] += len(shown_ids - set(posted) - {m for chat, m in replies if chat == group.chat.id})
        counts["reordered"] += sum(1 for a, b in zip(posted, posted[1:], strict=False) if b < a)
    return counts


async def open_world(tmp: str, *, speed: float, limits: FloodLimits | None,
                     pace_total: Budget | None = None, pace_chat: Budget | None = None,
                     drawing_processes: int = 0) -> tuple[FakeBotAPI, Bot, World]:
    """``pace_total``: the bot's overall pace when the limits say other than Telegram's 30 a second;
    ``pace_chat``: a chat's pace (a group's too) when they say other than Telegram's;
    ``drawing_processes``: as ``BOARDCHAT_DRAWING_PROCESSES`` (the suite draws in a thread)."""
    api = await FakeBotAPI(max_poll=0.2).start()
    bot = Bot(api, f"{tmp}/load.sqlite3", ai=first_choice, drawing_processes=drawing_processes)
    await bot.start()
    await keep_replaced_rows(bot.service.storage.db)
    pace = TELEGRAM_PACE if pace_total is None else dataclasses.replace(TELEGRAM_PACE, total=pace_total)
    if pace_chat is not None:
        pace = dataclasses.replace(pace, chat=pace_chat, group=pace_chat)
    world = World(api, bot, flood_at(limits, speed) if limits else None, pace_at(pace, speed))
    return api, bot, world


async def settle(world: World, chats: set[str] | None, timeout: float) -> None:
    """Until every press was handled and ``chats`` (None: every chat) have nothing left to send."""
    deadline = time.monotonic() + timeout
    bot = world.bot
    while not bot.api.injected <= bot.handled or await world.unsent_in(chats):
        if time.monotonic() > deadline:
            raise AssertionError("the outbox did not drain")
        await asyncio.sleep(0.05)


async def run_load(groups: int, *, speed: float = 1.0, limits: FloodLimits = TELEGRAM,
                   pace_total: Budget | None = None, pace_chat: Budget | None = None,
                   min_presses: int = 5, think: float = 3.0, seed: int = 1,
                   timeout: float = 600.0, pictures: bool = True, drawing_processes: int = 0) -> dict:
    """``groups`` groups pressing at once, presses in one more group meanwhile: the figures.
    ``pictures=False``: every picture is one small PNG drawn once (the delivery alone, without
    the CPU that drawing the rounds' maps takes)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        api, bot, world = await open_world(tmp, speed=speed, limits=limits, pace_total=pace_total, pace_chat=pace_chat,
                                           drawing_processes=drawing_processes)
        if not pictures:
            bot.service.pictures.render = _small_picture
        try:
            world.quiet()
            busy = [await seat_group(bot, api, i, humans=1, ais=1, game=GAMES[0]) for i in range(groups)]
            extra = await seat_group(bot, api, groups, humans=4, ais=0, game=GAMES[0])
            chats = {f"c:{g.chat.id}" for g in busy}
            # Everything set up delivered, the players' private messages too: a pass still
            # sending them unpaced when the limits come on would send the load unpaced as well.
            await settle(world, None, timeout)
            world.limited()
            started, since = time.monotonic(), bot.service.clock.now()
            for group in busy:
                press(api, group, rng)
            waits: list[float] = []
            round_ends: list[float] = []        # the presses that ended a round (a new prompt was posted)
            prompted: list[float] = []          # when each of the extra group's prompts showed
            edited: list[tuple[float, float]] = []   # (pressed, prompt shown) of the presses that edited it
            done = asyncio.Event()

            async def extra_player() -> None:
                while not done.is_set() or len(waits) + len(round_ends) < min_presses:
                    before = press(api, extra, rng)
                    if before is None:
                        return
                    pressed = time.monotonic()
                    await next_prompt(api, extra, before, timeout)
                    prompted.append(time.monotonic())
                    new_message = shown(prompt_of(api, extra.chat))[0] != before[0]
                    (round_ends if new_message else waits).append(prompted[-1] - pressed)
                    if not new_message:
                        edited.append((pressed, prompted[-1]))
                    await asyncio.sleep(think / speed)      # a quick player reads and picks
            player = asyncio.create_task(extra_player())
            await asyncio.sleep(0.2)
            await settle(world, chats, timeout)
            everything = time.monotonic() - started
            done.set()
            await player
            await settle(world, chats | {f"c:{extra.chat.id}"}, timeout)
            flood = api.flood
            calls = sum(sum(c.values()) for c in flood.flood_counts.values())
            busy_ids = {g.chat.id for g in busy}
            last_busy = max(c.at for c in api.calls if c.ok and _chat_of(c) in busy_ids)
            # each busy group's press to its last message (its next prompt): what the others waited
            finished: dict[int, float] = {}
            for c in api.calls:
                if c.ok and c.at >= started and _chat_of(c) in busy_ids:
                    finished[_chat_of(c)] = max(finished.get(_chat_of(c), 0.0), c.at - started)
            overtaken = await _overtaken(bot, f"c:{extra.chat.id}", {f"c:{g.chat.id}" for g in busy}, since)
            prompts, _, prompt_first = await _new_prompts(bot, {f"c:{g.chat.id}" for g in busy}, since)
            _, extra_ends, extra_first = await _new_prompts(bot, {f"c:{extra.chat.id}"}, since)
            return {"extra_prompts_during_load": sum(1 for t in prompted if t < last_busy), "groups": groups,
                    "overtaken_max": max(overtaken, default=0), "prompts_during_load": len(overtaken), "refused": len(flood.refused), "calls": calls - len(flood.refused),
                    "seconds": everything, "per_second": (calls - len(flood.refused)) / everything,
                    "press_p50": pct(waits + round_ends, 50), "press_p99": pct(waits + round_ends, 99),
                    "presses": len(waits) + len(round_ends), "edit_p99": pct(waits, 99), "edits": len(waits),
                    "round_end_max": max(round_ends, default=float("nan")), "round_ends": len(round_ends),
                    "busy_p50": pct(list(finished.values()), 50), "busy_p99": pct(list(finished.values()), 99),
                    "busy_prompt_p50": pct(prompts, 50), "busy_prompt_p99": pct(prompts, 99),
                    "busy_prompts": len(prompts), "prompt_first": prompt_first,
                    "extra_round_ends": extra_ends, "extra_prompt_first": extra_first,
                    **await check_chats(bot, api, busy + [extra])}
        finally:
            await bot.stop()
            await api.stop()


async def run_table(game: str, actions: int, *, speed: float = 1.0, limits: FloodLimits = TELEGRAM,
                    seed: int = 1, timeout: float = 120.0) -> dict:
    """One group of four people playing ``game`` at full speed: calls per action, 429s."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        api, bot, world = await open_world(tmp, speed=speed, limits=limits)
        try:
            world.quiet()
            table = await seat_group(bot, api, 0, humans=4, ais=0, game=game)
            await settle(world, None, timeout)
            world.limited()
            started, done = time.monotonic(), 0
            for _ in range(actions):
                before = press(api, table, rng)
                if before is not None:
                    await next_prompt(api, table, before, timeout)
                else:               # the group's prompt names nobody: the choices are in private
                    pressed = press_private(api, table, rng)
                    if pressed is None:     # until someone's next private turn shows (or the game is over)
                        await settle(world, None, timeout)
                        pressed = press_private(api, table, rng)
                    if pressed is None:
                        break
                    player, shown_before = pressed
                    await api.wait_for(lambda p=player, b=shown_before: shown(private_turn(api, p)) != b,
                                       timeout, f"{player.first_name}'s next private turn")
                done += 1
            seconds = time.monotonic() - started
            await settle(world, {f"c:{table.chat.id}"}, timeout)
            flood = api.flood
            group = flood.flood_counts[table.chat.id]
            private = sum(c["send"] + c["edit"] for chat, c in flood.flood_counts.items() if chat != table.chat.id)
            return {"game": game, "actions": done, "refused": len(flood.refused),
                    "sends": group["send"] / max(done, 1), "edits": group["edit"] / max(done, 1),
                    "private": private / max(done, 1), "per_minute": done / seconds * 60 * 1 / speed,
                    **await check_chats(bot, api, [table])}
        finally:
            await bot.stop()
            await api.stop()


async def run_quick_tables(groups: int, *, humans: int = 2, ais: int = 0, presses: int = 6,
                           think: float = 0.0, game: str = GAMES[0], speed: float = 1.0,
                           limits: FloodLimits = TELEGRAM, seed: int = 1, timeout: float = 900.0,
                           pictures: bool = True, drawing_processes: int = 0) -> dict:
    """``groups`` tables of ``humans`` people (and ``ais`` AI seats) playing ``game`` as fast as
    people can press: in every group, the player the prompt names presses one of its choices
    ``think`` seconds after it shows them, ``presses`` times. Press to prompt: from a press until
    the group's prompt offers something new to someone. Group calls per press: the sends and
    edits the groups got meanwhile (closing edits, pictures, prompts) over the presses."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        api, bot, world = await open_world(tmp, speed=speed, limits=limits, drawing_processes=drawing_processes)
        if not pictures:
            bot.service.pictures.render = _small_picture
        try:
            world.quiet()
            tables = [await seat_group(bot, api, i, humans=humans, ais=ais, game=game) for i in range(groups)]
            await settle(world, None, timeout)
            world.limited()
            waits: list[float] = []
            started = time.monotonic()

            async def players(table: Group) -> None:
                for _ in range(presses):
                    await asyncio.sleep(think / speed)
                    before = press(api, table, rng)
                    if before is None:
                        return
                    pressed = time.monotonic()
                    await next_prompt(api, table, before, timeout)
                    waits.append((time.monotonic() - pressed) * speed)
            await asyncio.gather(*(players(t) for t in tables))
            seconds = time.monotonic() - started
            await settle(world, None, timeout)
            flood = api.flood
            ids = {t.chat.id for t in tables}
            group_calls = sum(sum(c.values()) for chat, c in flood.flood_counts.items() if chat in ids)
            # each round's picture: (its summary, the caption its message shows now)
            async with bot.service.storage.db.execute(
                    f"SELECT dest, body, message_id FROM {ALL_OUTBOX} WHERE platform = 'telegram' AND state = 'sent'") as cur:
                rows = await cur.fetchall()
            pictures = [(json.loads(body).get("text", ""), api.messages[(int(dest[2:]), int(mid))].caption or "")
                        for dest, body, mid in rows if dest[2:].lstrip("-").isdigit() and int(dest[2:]) in ids
                        and json.loads(body).get("render") and (int(dest[2:]), int(mid)) in api.messages]
            return {"groups": groups, "humans": humans, "ais": ais, "presses": len(waits),
                    "p50": pct(waits, 50), "p99": pct(waits, 99), "group_calls_per_press": group_calls / max(len(waits), 1),
                    "refused": len(flood.refused), "seconds": seconds * speed, "pictures": pictures,
                    **await check_chats(bot, api, tables)}
        finally:
            await bot.stop()
            await api.stop()


def lobby_of(api: FakeBotAPI, chat: FakeChat) -> Msg | None:
    """The group's lobby: its latest bot message with a Join button."""
    for msg in reversed(api.bot_messages(chat)):
        if any("?start=j_" in b.get("url", "") for b in msg.buttons()):
            return msg
    return None


async def start_group(api: FakeBotAPI, index: int, humans: int, game: str,
                      timeout: float) -> tuple[Group, int, float]:
    """A group's set-up as people do it, through the Bot API: the first person writes /newgame,
    the others tap Join as soon as the lobby shows, and the first taps Start once they are all
    in. The group, the adapter's own answer to /newgame (not the outbox's) and the moment Start
    was tapped."""
    chat = api.add_group(-1_000_000 - index, f"Table {index}")
    players = [api.add_user(100_000 * (index + 1) + k, f"P{index}x{k}", started=True) for k in range(humans)]
    command = api.send_text(chat, players[0], f"/newgame {game}")
    await api.wait_for(lambda: lobby_of(api, chat) is not None, timeout, f"the lobby in {chat.title}")
    await api.wait_for(lambda: any(m.reply_to == command.message_id for m in api.bot_messages(chat)), timeout,
                       f"the answer to /newgame in {chat.title}")
    answer = next(m for m in api.bot_messages(chat) if m.reply_to == command.message_id)
    for player in players[1:]:
        api.follow_url(player, lobby_of(api, chat).button("Join")["url"])
        await api.wait_for(lambda p=player: p.first_name in lobby_of(api, chat).body, timeout,
                           f"{player.first_name} in the lobby")
    lobby = lobby_of(api, chat)
    api.press(players[0], lobby, lobby.button("Start"))
    return Group(chat, players), answer.message_id, time.monotonic()


async def run_starts(groups: int, *, humans: int = 2, presses: int = 6, think: float = 1.0,
                     speed: float = 1.0, limits: FloodLimits = TELEGRAM, pace_total: Budget | None = None,
                     game: str = GAMES[0], seed: int = 1, timeout: float = 600.0, pictures: bool = True,
                     drawing_processes: int = 0) -> dict:
    """``groups`` groups of ``humans`` people set up and start a game in the same second, under the
    limits from the first call on (set-up included), then play: each person presses ``think``
    seconds after the prompt names them, ``presses`` times a group. Start to the first prompt,
    press to the next prompt (seconds of the game's clock), and the 429s served at set-up (until
    every group had its first prompt) and in play."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        api, bot, world = await open_world(tmp, speed=speed, limits=limits, pace_total=pace_total,
                                           drawing_processes=drawing_processes)
        if not pictures:
            bot.service.pictures.render = _small_picture
        try:
            await bot.service.pictures.warm_up()       # a bot that has been up a while: its drawing processes too
            world.limited()
            firsts: list[float] = []
            waits: list[float] = []
            setup_over = asyncio.Event()
            setup_refused = 0
            answers: list[tuple[int, int]] = []

            async def table(index: int) -> None:
                group, answer, pressed = await start_group(api, index, humans, game, timeout)
                answers.append((group.chat.id, answer))
                await api.wait_for(lambda: prompt_of(api, group.chat) is not None
                                   and to_act(prompt_of(api, group.chat), group) is not None,
                                   timeout, f"the first prompt in {group.chat.title}")
                firsts.append((time.monotonic() - pressed) * speed)
                if len(firsts) == groups:
                    setup_over.set()
                await setup_over.wait()
                for _ in range(presses):
                    await asyncio.sleep(think / speed)
                    before = press(api, group, rng)
                    if before is None:
                        return
                    pressed = time.monotonic()
                    await next_prompt(api, group, before, timeout)
                    waits.append((time.monotonic() - pressed) * speed)

            async def count_setup() -> None:
                nonlocal setup_refused
                await setup_over.wait()
                setup_refused = len(api.flood.refused)
            counter = asyncio.create_task(count_setup())
            started = time.monotonic()
            await asyncio.gather(*(table(i) for i in range(groups)))
            seconds = (time.monotonic() - started) * speed
            await counter
            await settle(world, None, timeout)
            flood = api.flood
            tables = [Group(api.chats[-1_000_000 - i], []) for i in range(groups)]
            return {"groups": groups, "humans": humans, "first_p50": pct(firsts, 50), "first_max": max(firsts),
                    "press_p50": pct(waits, 50), "press_p90": pct(waits, 90), "press_max": max(waits, default=0.0),
                    "presses": len(waits), "setup_refused": setup_refused,
                    "play_refused": len(flood.refused) - setup_refused, "seconds": seconds,
                    "refused_calls": sorted({method for _, method, _ in flood.refused}),
                    **await check_chats(bot, api, tables, frozenset(answers))}
        finally:
            await bot.stop()
            await api.stop()


def _private_state(api: FakeBotAPI, player: FakeUser) -> tuple:
    """What the player's private chat shows now: each bot message with its edits."""
    return tuple((m.message_id, m.edits) for m in api.bot_messages(player))


async def run_private_game(game: str = "papa-paolo", *, humans: int = 3, ais: int = 1, think: float = 1.0,
                           speed: float = 1.0, limits: FloodLimits = TELEGRAM, seed: int = 1,
                           max_taps: int = 10**6, timeout: float = 900.0, pictures: bool = True) -> dict:
    """One group of ``humans`` people and ``ais`` AI seats playing ``game``, whose decisions are
    taps in the players' private chats: each person taps one of their choices ``think`` seconds
    after their turn message shows them (a quick person reads, then taps). Tap to answer: from
    the tap until the player's private chat shows something new (the turn message edited, or a
    new message). Seconds are the game's (a run at ``speed`` 10 takes a tenth of the time)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        api, bot, world = await open_world(tmp, speed=speed, limits=limits)
        if not pictures:
            bot.service.pictures.render = _small_picture
        try:
            world.quiet()
            table = await seat_group(bot, api, 0, humans=humans, ais=ais, game=game)
            await settle(world, None, timeout)
            world.limited()
            game_id = await bot.service.storage.active_game_id("telegram", str(table.chat.id))
            answers: list[float] = []
            started = time.monotonic()
            over = asyncio.Event()

            async def person(player: FakeUser) -> None:
                while not over.is_set() and len(answers) < max_taps:
                    msg = private_turn(api, player)
                    if msg is None or not any(b.get("callback_data", "")[:2] in ("c_", "o_")
                                              for b in msg.buttons()):
                        await asyncio.sleep(0.05 / speed)
                        continue
                    await asyncio.sleep(think / speed)
                    msg = private_turn(api, player)
                    if msg is None:
                        continue
                    buttons = [b for b in msg.buttons() if b.get("callback_data", "")[:2] in ("c_", "o_")]
                    before = _private_state(api, player)
                    api.press(player, msg, rng.choice(buttons))
                    pressed = time.monotonic()
                    try:
                        await api.wait_for(lambda b=before: _private_state(api, player) != b or over.is_set(),
                                           timeout, f"{player.first_name}'s answer")
                    except AssertionError:
                        continue        # a stale tap (the phase moved on meanwhile): nothing to answer
                    if not over.is_set():
                        answers.append((time.monotonic() - pressed) * speed)

            async def referee() -> None:
                while len(answers) < max_taps:
                    if await bot.service.storage.active_game_id("telegram", str(table.chat.id)) != game_id:
                        break
                    await asyncio.sleep(0.2)
                over.set()
            await asyncio.wait_for(asyncio.gather(referee(), *(person(p) for p in table.players)), timeout)
            seconds = (time.monotonic() - started) * speed
            await settle(world, None, timeout)
            flood = api.flood
            private = sum(c["send"] + c["edit"] for chat, c in flood.flood_counts.items() if chat != table.chat.id)
            return {"game": game, "taps": len(answers), "refused": len(flood.refused),
                    "answer_p50": pct(answers, 50), "answer_p90": pct(answers, 90), "answer_max": max(answers),
                    "answers": answers,
                    "private_per_tap": private / max(len(answers), 1), "minutes": seconds / 60,
                    **await check_chats(bot, api, [table])}
        finally:
            await bot.stop()
            await api.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python tests/telegram/loadbench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=50, help="groups pressing at the same moment")
    parser.add_argument("--table", type=int, default=0, metavar="ACTIONS",
                        help="instead: one table of four per game, this many actions at full speed")
    parser.add_argument("--game", choices=TABLE_GAMES, action="append",
                        help="with --table: only this game (may be repeated; default: all three)")
    parser.add_argument("--no-limits", action="store_true", help="the fake Bot API without flood limits")
    parser.add_argument("--small-pictures", action="store_true",
                        help="one small PNG for every picture: the delivery without drawing the maps")
    parser.add_argument("--drawing-processes", type=int, default=2, metavar="N",
                        help="processes drawing the pictures, as BOARDCHAT_DRAWING_PROCESSES (0: a thread)")
    parser.add_argument("--quick", type=int, default=0, metavar="GROUPS",
                        help="instead: this many tables of people pressing as soon as the prompt names them")
    parser.add_argument("--humans", type=int, default=2, help="with --quick: people at each table")
    parser.add_argument("--presses", type=int, default=6, help="with --quick: presses at each table")
    parser.add_argument("--starts", type=int, default=0, metavar="GROUPS",
                        help="instead: this many groups of --humans people set up and start a game in the same "
                             "second, then play (--presses each, --think seconds after the prompt names them)")
    parser.add_argument("--private-game", action="store_true",
                        help="instead: a whole Papà Paolo game of three people and an AI, decided in private")
    parser.add_argument("--think", type=float, default=1.0,
                        help="with --private-game: seconds a person takes to tap after the menu shows")
    args = parser.parse_args(argv)
    limits = FloodLimits(bot=(10**6, 1.0), group=(10**6, 1.0), chat=(10**6, 1.0)) if args.no_limits else FloodLimits()
    if args.private_game:
        r = asyncio.run(run_private_game(think=args.think, limits=limits, pictures=not args.small_pictures))
        print(f"Papà Paolo, 3 people and an AI, each tapping {args.think:g} s after their menu shows:\n"
              f"  {r['taps']} taps, tap to answer p50 {r['answer_p50']:.2f} s, p90 {r['answer_p90']:.2f} s, "
              f"max {r['answer_max']:.2f} s (goal p90 <= 1 s)\n"
              f"  {r['private_per_tap']:.2f} private calls a tap, the game took {r['minutes']:.1f} min\n"
              f"  429s served: {r['refused']} (goal 0); lost {r['lost']}, doubled {r['doubled']}, "
              f"reordered {r['reordered']}")
        return
    if args.starts:
        r = asyncio.run(run_starts(args.starts, humans=args.humans, presses=args.presses, think=args.think,
                                   limits=limits, pictures=not args.small_pictures,
                                   drawing_processes=args.drawing_processes))
        print(f"{r['groups']} groups of {r['humans']} people starting a game in the same second, then pressing "
              f"{args.think:g} s after the prompt names them:\n"
              f"  start to the first prompt: p50 {r['first_p50']:.2f} s, max {r['first_max']:.2f} s (goal p50 < 5 s)\n"
              f"  press to the next prompt: p50 {r['press_p50']:.2f} s, p90 {r['press_p90']:.2f} s, "
              f"max {r['press_max']:.2f} s over {r['presses']} presses (goal p50 < 5 s)\n"
              f"  429s served: {r['setup_refused']} at set-up, {r['play_refused']} in play (goal 0)"
              f"{' (' + ', '.join(r['refused_calls']) + ')' if r['refused_calls'] else ''}; took {r['seconds']:.1f} s\n"
              f"  lost {r['lost']}, doubled {r['doubled']}, reordered {r['reordered']}")
        return
    if args.quick:
        r = asyncio.run(run_quick_tables(args.quick, humans=args.humans, presses=args.presses, limits=limits,
                                         pictures=not args.small_pictures,
                                         drawing_processes=args.drawing_processes))
        print(f"{r['groups']} tables of {r['humans']} people pressing as soon as the prompt names them:\n"
              f"  press to the next prompt: p50 {r['p50']:.2f} s, p99 {r['p99']:.2f} s over {r['presses']} presses\n"
              f"  group calls a press: {r['group_calls_per_press']:.2f} (goal <= 1.5); took {r['seconds']:.1f} s\n"
              f"  429s served: {r['refused']} (goal 0); lost {r['lost']}, doubled {r['doubled']}, "
              f"reordered {r['reordered']}")
        return
    if args.table:
        print("| game | actions | sends/action | edits/action | private/action | actions/min | 429s | lost/doubled/reordered |")
        print("|---|---|---|---|---|---|---|---|")
        for game in args.game or TABLE_GAMES:
            r = asyncio.run(run_table(game, args.table, limits=limits))
            print(f"| {game} | {r['actions']} | {r['sends']:.2f} | {r['edits']:.2f} | {r['private']:.2f} | "
                  f"{r['per_minute']:.1f} | {r['refused']} | {r['lost']}/{r['doubled']}/{r['reordered']} |", flush=True)
        return
    r = asyncio.run(run_load(args.groups, limits=limits, pictures=not args.small_pictures,
                             drawing_processes=args.drawing_processes))
    print(f"{r['groups']} groups pressing at once, one more pressing meanwhile"
          f"{' (small pictures)' if args.small_pictures else ''}:\n"
          f"  429s served: {r['refused']} (goal 0)\n"
          f"  sends and edits delivered: {r['calls']}, {r['per_second']:.1f} a second (goal about 30)\n"
          f"  every group has its messages after {r['seconds']:.1f} s\n"
          f"  press to prompt in the extra group: p50 {r['press_p50']:.2f} s, p99 {r['press_p99']:.2f} s "
          f"over {r['presses']} presses (goal p99 <= 3 s)\n"
          f"    of which {r['edits']} edited the prompt (p99 {r['edit_p99']:.2f} s) and {r['round_ends']} ended a "
          f"round (new prompt, closing edit, picture: at most {r['round_end_max']:.2f} s); of its "
          f"{r['extra_round_ends']} round ends, {r['extra_prompt_first']} had the prompt before the picture\n"
          f"  the busy groups' presses to their new prompt: p50 {r['busy_prompt_p50']:.2f} s, "
          f"p99 {r['busy_prompt_p99']:.2f} s over {r['busy_prompts']} groups, of which {r['prompt_first']} "
          f"had it before the round's picture (the bot was behind)\n"
          f"  the busy groups' presses to their last message: p50 {r['busy_p50']:.2f} s, p99 {r['busy_p99']:.2f} s\n"
          f"  other groups' pictures, edits and later prompts sent between a prompt's commit and its send: "
          f"at most {r['overtaken_max']} "
          f"(over {r['prompts_during_load']} prompts during the load)\n"
          f"  lost {r['lost']}, doubled {r['doubled']}, reordered {r['reordered']} (goal 0)")


if __name__ == "__main__":
    main()
