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
        return (await self.service.game_info(chat)).game_id

    def link(self, game_id: int, name: str | None, *, language: str = "en", seconds: float = 3600) -> str:
        """A seat's link (``name``: a player), or a spectator's (None)."""
        user = self.users[name] if name else None
        return self.board.link(game_id, user.platform if user else "terminal", user.id if user else None,
                               name or "", language, seconds=seconds)


async def start_table(tmp_path) -> Table:
    service = await GameService.open(str(tmp_path / "games.sqlite3"))
    board = await WebBoard.start(service, WebSettings(port=0))
    return Table(service, board)


# What is out of reach on the page now, as a list of words (empty: all is well). The decision
# (the prompt, a notice and every choice) is on the screen (the visual viewport: what a pinch of the
# page leaves in sight) and inside the bar, not scrolled out of it; every lit target measures at
# least 24x24 CSS px (WCAG 2.2 target size) and sits on the board's part of the screen.
OUT_OF_VIEW = """() => {
  const problems = [];
  const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1
                             && r.bottom <= box.bottom + 1;
  const seen = window.visualViewport;
  const screen = { left: seen.offsetLeft, top: seen.offsetTop, right: seen.offsetLeft + seen.width,
                   bottom: seen.offsetTop + seen.height };
  const bar = document.getElementById('bar').getBoundingClientRect();
  const prompt = document.getElementById('prompt');
  if (prompt.textContent && !(inside(prompt.getBoundingClientRect(), screen) && inside(prompt.getBoundingClientRect(), bar))) problems.push('prompt out of view');
  const notice = document.getElementById('notice');
  if (!notice.hidden && !(inside(notice.getBoundingClientRect(), screen) && inside(notice.getBoundingClientRect(), bar))) problems.push('notice out of view');
  for (const button of document.querySelectorAll('#menu button')) {
    const r = button.getBoundingClientRect();
    if (!inside(r, screen) || !inside(r, bar)) problems.push('choice out of view: ' + button.textContent);
    if (r.width < 24 || r.height < 24) problems.push('choice too small: ' + button.textContent);
  }
  const stage = document.getElementById('stage').getBoundingClientRect();
  const targets = [];
  for (const spot of document.querySelectorAll('.spot:not([hidden])')) {
    const r = spot.getBoundingClientRect();
    if (r.width < 23.9 || r.height < 23.9) problems.push(`target ${r.width.toFixed(1)}x${r.height.toFixed(1)} px`);
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    if (x < stage.left || x > stage.right || y < stage.top || y > stage.bottom) problems.push('target off the board: ' + spot.getAttribute('aria-label'));
    targets.push([r, x, y, spot.getAttribute('aria-label')]);
  }
  for (const [r, , , name] of targets) {
    for (const [, x, y, other] of targets) {
      if (name !== other && x > r.left && x < r.right && y > r.top && y < r.bottom) problems.push(`${name} covers ${other}`);
    }
  }
  return problems;
}"""
DRAWN = "window.boardState && window.boardDrawn === window.boardVersion"


async def out_of_view(page) -> list[str]:
    """What of the decision and its targets is out of reach once the page has drawn its state."""
    await page.wait_for_function(f"() => {DRAWN}", timeout=30_000)
    return await page.evaluate(OUT_OF_VIEW)


async def play_by_taps(page, *, seed: int = 0, limit: int = 800, until: str | None = None,
                       check_view: bool = False) -> int:
    """Tap lit targets and menu buttons until the game is over (or the page makes the script
    ``until`` true); returns the taps made. A spot is preferred where the page lights one, so the
    board's targets are what play the game. ``check_view``: after every tap, the decision and its
    lit targets are in view and every target is large enough (``OUT_OF_VIEW``)."""
    rng = random.Random(seed)
    ready = READY if until is None else f"({until}) || {READY}"
    for taps in range(limit):
        await page.wait_for_function(f"() => {ready}", timeout=30_000)
        if check_view:
            problems = await out_of_view(page)
            assert not problems, f"after {taps} taps: {problems}"
        if await page.locator("#final").is_visible() or (until and await page.evaluate(until)):
            return taps
        spots = page.locator(".spot:not([disabled]):not([hidden])")
        targets = spots if await spots.count() else page.locator("[data-act]:not([disabled]), [data-open]")
        count = await targets.count()
        if not count:
            continue          # the page drew a new state between the two looks
        try:
            await targets.nth(rng.randrange(count)).click(timeout=3_000)
        except PlaywrightTimeout:
            continue          # the target went with a new state: look again
    raise AssertionError(f"the game was not over after {limit} taps")
