from __future__ import annotations

import pytest
from browser_kit import chromium_or_skip, start_table
from playwright.async_api import async_playwright


@pytest.fixture
async def browser():
    executable = chromium_or_skip()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def table(tmp_path):
    table = await start_table(tmp_path)
    try:
        yield table
    finally:
        await table.board.stop()
        await table.service.close()
