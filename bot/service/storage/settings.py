"""Each chat's settings (one JSON object per chat)."""

from __future__ import annotations

import json
from typing import Any

from .sql import Connection, Database

TABLES = {"chat_settings": (("platform", "chat_id", "settings"), ("platform", "chat_id"))}
UPSERT_SETTINGS = ("INSERT INTO chat_settings (platform, chat_id, settings) VALUES (?,?,?) "
                   "ON CONFLICT (platform, chat_id) DO UPDATE SET settings = excluded.settings")


async def store_settings(conn: Connection, change: tuple[str, str, dict[str, Any]]) -> None:
    """``Changes.chat_settings``: (platform, chat id, the settings)."""
    platform, chat_id, settings = change
    await conn.execute(UPSERT_SETTINGS, (platform, chat_id, json.dumps(settings)))


class StoredSettings:
    """Chat settings."""

    database: Database

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        row = await self.database.one("SELECT settings FROM chat_settings WHERE platform = ? AND chat_id = ?",
                                      (platform, chat_id))
        return json.loads(row[0]) if row else {}
