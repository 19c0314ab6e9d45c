"""Phone-sized screenshots of the live board, one per game, for docs/gallery (web-*.png), and the
640x360 picture BotFather asks for a bot's Mini App (botfather-640x360.png).

    python scripts/web_gallery.py [OUT_DIR]

Plays a few turns of each game on a real page (Playwright driving chromium, as the browser
tests do), then photographs the page at 360x640 with the lit targets showing; the BotFather
picture is the Paris Paris page on a 1280x720 screen, taken at half scale.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))

from browser_kit import CHROMIUM, DRAWN, PHONE, READY, start_table  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

# game, players (the first is the viewer), taps before the picture
SCENES = [("paris-paris", 3, 4), ("paris-connection", 4, 3), ("papa-paolo", 3, 3)]


async def shoot(out: Path) -> None:
    work = Path(tempfile.mkdtemp())
    table = await start_table(work)
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            shots = [(game, players, taps, PHONE, 2, f"web-{game}-phone.png") for game, players, taps in SCENES]
            shots.append(("paris-paris", 3, 4, {"width": 1280, "height": 720}, 0.5, "botfather-640x360.png"))
            for game, players, taps, viewport, scale, name in shots:
                game_id = await table.game(game, ["Ann"], ai=players - 1, seed=7)
                page = await browser.new_page(viewport=viewport, device_scale_factor=scale)
                await page.goto(table.link(game_id, "Ann"))
                for _ in range(taps):
                    await page.wait_for_function(f"() => {READY}")
                    await page.wait_for_function(f"() => {DRAWN}")
                    spots = page.locator(".spot:not([hidden])")
                    target = spots.first if await spots.count() else page.locator("[data-act]").first
                    await target.click()
                await page.wait_for_function("() => document.querySelector('[data-act]:not([disabled])')")
                await page.wait_for_function(f"() => {DRAWN}")
                await page.wait_for_timeout(300)
                path = out / name
                await page.screenshot(path=str(path))
                print(path)
                await page.close()
            await browser.close()
    finally:
        await table.board.stop()
        await table.service.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/gallery")))
