"""``python tests/telegram/bench_duplicate_window.py [N]``: how long a Telegram message is exposed
to being posted twice.

Telegram's Bot API has no idempotency key: a crash after Telegram accepted a message and
before the outbox recorded it as sent leaves the row 'sending', and the restarted bot posts
it again. This measures that window for the real delivery path (``Delivery`` ->
``TelegramTransport`` -> python-telegram-bot -> HTTP) against the fake Bot API on 127.0.0.1,
with the outbox in SQLite (WAL, synchronous=FULL): from the moment the server stored the
message (what Telegram shows the chat) until the ``sent`` commit returned. Over the real
network the answer's trip from Telegram to the bot comes on top.

Prints p50 / p99 / max per kind: a short text, a map (a 130 KB PNG upload), and a text long
enough to be split in two messages (there the window starts when the first part is stored).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fakebotapi import FakeBotAPI  # noqa: E402
from PIL import Image  # noqa: E402
from telegram import Bot  # noqa: E402

from bot.contract import Chat, Outgoing  # noqa: E402
from bot.service.clock import SystemClock  # noqa: E402
from bot.service.delivery.outbox import Delivery  # noqa: E402
from bot.service.game.model import Changes, OutRow, StoredOut  # noqa: E402
from bot.service.game.outmessage import MessageBody, RenderRequest  # noqa: E402
from bot.service.storage import SqliteStorage  # noqa: E402
from bot.telegram.transport import TelegramTransport  # noqa: E402

GROUP = -100777


def _noise_png() -> bytes:
    import io

    image = Image.frombytes("RGB", (210, 210), os.urandom(210 * 210 * 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def measure(count: int) -> dict[str, list[float]]:
    png = _noise_png()
    bodies = {"text": "Round 3/15 · your turn: pick a tile.", "map": "Round 3/15 ends.",
              "split text": ("A long closing text. " * 200).strip()}
    windows: dict[str, list[float]] = {}
    for kind in bodies:
        windows[kind], windows[f"{kind}: of which the commit"] = [], []
    async with FakeBotAPI() as api:
        api.add_group(GROUP, "Bench")
        stored_at: dict[int, float] = {}          # message id -> when the server stored it
        store = api._store

        def timed_store(chat, **fields):
            result = store(chat, **fields)
            stored_at[result["message_id"]] = time.perf_counter()
            return result

        api._store = timed_store
        with tempfile.TemporaryDirectory() as tmp:
            storage = SqliteStorage(os.path.join(tmp, "bench.sqlite3"))
            await storage.open()
            recorded: dict[int, float] = {}       # outbox id -> when 'sent' was committed
            answered: dict[int, float] = {}       # outbox id -> when the answer was back (before the commit)
            mark_sent = storage.mark_sent

            async def timed_mark_sent(out: StoredOut, message_id: str, now: float) -> None:
                answered[out.id] = time.perf_counter()
                await mark_sent(out, message_id, now)
                recorded[out.id] = time.perf_counter()

            storage.mark_sent = timed_mark_sent

            async def materialise(row: StoredOut) -> Outgoing:
                return Outgoing(id=row.id, text=row.body.text, chat=Chat("telegram", str(GROUP), "Bench"),
                                image=png if row.body.render is not None else None)

            async def ignore(game_id: int, user_id: str) -> None:
                return None

            delivery = Delivery(storage, SystemClock(), materialise=materialise, private_closed=ignore)
            async with Bot(api.token, base_url=api.base_url, base_file_url=api.base_file_url) as bot:
                transport = TelegramTransport(bot, "ParisTestBot")
                for _ in range(count):
                    for kind, text in bodies.items():
                        before = max(stored_at, default=0)
                        [out_id] = await storage.commit(Changes(outbox=[OutRow(
                            None, "telegram", f"c:{GROUP}", MessageBody(text, render=RenderRequest("map", 0, 0) if kind == "map" else None))]),
                            time.time())
                        await delivery.deliver_pending(transport)
                        first = min(mid for mid in stored_at if mid > before)
                        windows[kind].append((recorded[out_id] - stored_at[first]) * 1000)
                        windows[f"{kind}: of which the commit"].append((recorded[out_id] - answered[out_id]) * 1000)
            await storage.close()
    return windows


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for kind, ms in asyncio.run(measure(count)).items():
        print(f"{kind}: n={len(ms)} p50={_pct(ms, 50):.2f} ms  p99={_pct(ms, 99):.2f} ms  "
              f"max={max(ms):.2f} ms  mean={statistics.fmean(ms):.2f} ms")


if __name__ == "__main__":
    main()
