"""A live board in a real browser: Playwright driving Debian's chromium against a real service.

Playwright cannot download its own browser here, so it drives the system's chromium
(``/usr/bin/chromium``, the Debian package ``.ci/run`` installs). Without it these tests skip
with a reason, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot.contract import Chat, User
from bot.service import GameService
from bot.web.server import WebBoard, WebSettings

CHROMIUM = os.environ.get("BOARDCHAT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 900}
# Conditions are waited for as functions ("() => ..."), never bare expressions: Playwright evals an
# expression in the page each time it polls, which the board's policy (no 'unsafe-eval') refuses.
# What the page shows once it is the viewer's turn, or once the game is over.
READY = ("document.querySelector('#final:not([hidden])') || "
         "document.querySelector('[data-act]:not([disabled]), [data-open]')")


def chromium_or_skip() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    reason = f"no chromium at {CHROMIUM} (apt-get install chromium, or set BOARDCHAT_CHROMIUM)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true needs chromium: {reason}")
    pytest.skip(reason)


@dataclass
class Table:
    """A service and its live board, with games set up as a chat would."""

    service: GameService
    board: WebBoard
    chats: int = 0
    users: dict[str, User] = field(default_factory=dict)

    def user(self, name: str, platform: str = "terminal", language: str = "en") -> User:
        return self.users.setdefault(name, User(platform, f"id-{name.lower()}", name, language=language))

    async def game(self, game: str, humans: list[str], ai: int = 0, *, platform: str = "terminal",
                   options: dict | None = None, seed: int = 1) -> int:
        self.chats += 1
        chat = Chat(platform, f"chat{self.chats}", f"Table {self.chats}")
        host = self.user(humans[0], platform)
        settings = {"game": game, "seed": seed, **(options or {})}
        reply = await self.service.new_game(chat, host, options=settings)
        assert reply.ok, reply.text
        for name in humans[1:]:
            assert (await self.service.join(chat, self.user(name, platform))).ok
        for _ in range(ai):
            assert (await self.service.add_ai(chat, host)).ok
        reply = await self.service.start(chat, host)
        assert reply.ok, reply.text
        return (await self.service.game_info(chat))["game_id"]

    def link(self, game_id: int, name: str | None, *, language: str = "en", seconds: float = 3600) -> str:
        """A seat's link (``name``: a player), or a spectator's (None)."""
        user = self.users[name] if name else None
        return self.board.link(game_id, user.platform if user else "terminal", user.id if user else None,
                               name or "", language, seconds=seconds)


async def start_table(tmp_path) -> Table:
    service = await GameService.open(str(tmp_path / "games.sqlite3"))
    board = await WebBoard.start(service, WebSettings(port=0))
    return Table(service, board)


async def play_by_taps(page, *, seed: int = 0, limit: int = 800, until: str | None = None) -> int:
    """Tap lit targets and menu buttons until the game is over (or the page makes the script
    ``until`` true); returns the taps made. A spot is preferred where the page lights one, so the
    board's targets are what play the game."""
    rng = random.Random(seed)
    ready = READY if until is None else f"({until}) || {READY}"
    for taps in range(limit):
        await page.wait_for_function(f"() => {ready}", timeout=30_000)
        if await page.locator("#final").is_visible() or (until and await page.evaluate(until)):
            return taps
        spots = page.locator(".spot:not([disabled])")
        targets = spots if await spots.count() else page.locator("[data-act]:not([disabled]), [data-open]")
        count = await targets.count()
        if not count:
            continue          # the page drew a new state between the two looks
        try:
            await targets.nth(rng.randrange(count)).click(timeout=3_000)
        except PlaywrightTimeout:
            continue          # the target went with a new state: look again
    raise AssertionError(f"the game was not over after {limit} taps")
