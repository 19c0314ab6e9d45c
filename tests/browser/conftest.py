"""Fixtures of the browser tests: one chromium for all of them, a page context of its own for each.

Launching chromium (and Playwright's driver) costs about 1.5 s of CPU, more than some of these
tests themselves, so a test process launches it once and each test opens its pages in browser
contexts of their own (nothing shared between tests: cookies, storage and pages go with the
context when the test ends). Playwright's objects belong to the event loop they were made on,
so the tests of this directory, and their async fixtures, run on the session's loop
(``loop_scope="session"``); an async fixture added here must say so too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from browser_kit import Table, chromium_or_skip, start_table
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

HERE = Path(__file__).parent
ON_THE_SESSIONS_LOOP = pytest.mark.asyncio(loop_scope="session")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """This directory's async tests run on the session's loop, where the shared chromium lives."""
    for item in items:
        if pytest_asyncio.is_async_test(item) and HERE in item.path.parents:
            item.add_marker(ON_THE_SESSIONS_LOOP, append=False)


class Pages:
    """The shared chromium as one test sees it: each page in a context of its own, all closed after the test."""

    def __init__(self, chromium: Browser) -> None:
        self._chromium = chromium
        self._contexts: list[BrowserContext] = []

    async def new_context(self, **options: Any) -> BrowserContext:
        context = await self._chromium.new_context(**options)
        self._contexts.append(context)
        return context

    async def new_page(self, **options: Any) -> Page:
        """A page as ``Browser.new_page`` opens one (``viewport``, ``locale``, ... as for a context)."""
        return await (await self.new_context(**options)).new_page()

    async def close(self) -> None:
        for context in self._contexts:
            await context.close()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Browser]:
    executable = chromium_or_skip()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Browser) -> AsyncIterator[Pages]:
    pages = Pages(chromium)
    try:
        yield pages
    finally:
        await pages.close()


@pytest_asyncio.fixture(loop_scope="session")
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    table = await start_table(tmp_path)
    try:
        yield table
    finally:
        await table.board.stop()
        await table.service.close()
