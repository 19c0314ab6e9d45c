"""Games in memory and in the database: the cache, rebuilding a match from its record, and commits.

Every accepted action changes the in-memory game, then commits everything it changed in one
transaction (``Changes``). A game is stored as its setup and its moves and rebuilt by replaying
them through its game definition (``bot.games``). The cache never answers from an old copy:
before an action, and before answering a read, the cached game's version is compared with the
database's (another process, or a commit while an older copy was being read, may have moved
it); a commit that finds the game moved meanwhile raises ``Conflict`` and drops the copy.

Actions on one chat are serialised in this process by a per-chat ``asyncio.Lock``; across
processes by the database's version check.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.contract import Chat
from bot.games import GameKind, kind

from .clock import Clock
from .model import Changes, GameMeta
from .storage import Storage


@dataclass
class Loaded:
    """A game in memory: its metadata and, once started, the match rebuilt from its record."""

    meta: GameMeta
    match: Any = None
    # Steps made through this process since the game was loaded: (seat, that seat's count of
    # choices before it) -> the index of the choice among its legal ones (None for the AI's and
    # typed ones), to tell a duplicate press (the same button twice) from a stale one.
    recent: dict[tuple[int, int], int | None] = field(default_factory=dict)

    @property
    def game(self) -> GameKind:
        return kind(self.meta.game)


class GameStore:
    def __init__(self, storage: Storage, clock: Clock, *, cache_size: int = 10_000,
                 on_commit: Callable[[Changes], None] = lambda changes: None) -> None:
        self.storage = storage
        self.clock = clock
        self.cache_size = cache_size
        self._on_commit = on_commit
        self._games: OrderedDict[int, Loaded] = OrderedDict()
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    def lock(self, platform: str, chat_id: str) -> asyncio.Lock:
        key = (platform, chat_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def remember(self, loaded: Loaded) -> Loaded:
        self._games[loaded.meta.id] = loaded
        self._games.move_to_end(loaded.meta.id)
        while len(self._games) > self.cache_size:
            self._games.popitem(last=False)
        return loaded

    def _keep(self, loaded: Loaded) -> Loaded:
        """``loaded``, checked current a moment ago, as the most recently used game. Another
        task may have evicted it, or cached a newer copy, while this one awaited the database:
        the newest copy is kept and returned, never an error."""
        cached = self._games.get(loaded.meta.id)
        if cached is not None and cached.meta.version >= loaded.meta.version:
            self._games.move_to_end(loaded.meta.id)
            return cached
        return self.remember(loaded)

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def cached(self, game_id: int) -> Loaded | None:
        return self._games.get(game_id)

    @staticmethod
    def rebuild(meta: GameMeta, moves: list[tuple[int, str]]) -> Loaded:
        loaded = Loaded(meta)
        if meta.setup is not None:
            loaded.match = kind(meta.game).definition.resume(meta.setup, moves)
        return loaded

    async def load(self, game_id: int) -> Loaded | None:
        """The game as the database has it now (from the cache when the cache is current)."""
        loaded = self._games.get(game_id)
        if loaded is not None:
            version = await self.storage.game_version(game_id)
            if version is None or version == loaded.meta.version:
                return self._keep(loaded)
            self.forget(game_id)       # moved by another process: read it again
        got = await self.storage.load_game(game_id)
        if got is None:
            return None
        return self._keep(self.rebuild(*got))   # or the copy another task loaded meanwhile

    async def restore_all(self) -> int:
        """Load and rebuild every lobby and running game now (start-up is lazy otherwise)."""
        ids = [gid for gid, _, _ in await self.storage.active_games() if gid not in self._games]
        found = await self.storage.load_games(ids)
        for meta, moves in found.values():
            self.remember(self.rebuild(meta, moves))
        return len(found)

    async def chat_game(self, chat: Chat) -> Loaded | None:
        gid = await self.storage.active_game_id(chat.platform, chat.id)
        return None if gid is None else await self.load(gid)

    async def commit(self, changes: Changes, *, forget: int | None = None) -> list[int]:
        """Commit ``changes``; if that fails (``Conflict`` included), the in-memory game named
        ``forget`` ran ahead of the database and is dropped, to be read again on next use."""
        try:
            ids = await self.storage.commit(changes, self.clock.now())
        except BaseException:
            if forget is not None:
                self.forget(forget)
            raise
        self._on_commit(changes)
        return ids
