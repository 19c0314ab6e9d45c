"""Games in memory and in the database: the cache, a match read back or rebuilt, and commits.

Every accepted action changes the in-memory game, then commits everything it changed in one
transaction (``Changes``). A game is stored as its setup and its moves; while it runs, its match
is stored packed too (``snapshots``: written with each commit that moves it), and read back from
that instead of replaying the moves through its game definition (``bot.games``), unless the
snapshot is missing or stale. In memory, only the most recently used matches stay live
(``live_matches``); an idle game keeps its packed bytes. The cache never answers from an old copy:
before an action, and before answering a read, the cached game's version is compared with the
database's (another process, or a commit while an older copy was being read, may have moved
it); a commit that finds the game moved meanwhile raises ``Conflict`` and drops the copy.

Actions on one chat are serialised in this process by a per-chat ``asyncio.Lock``; across
processes by the database's version check.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

from bot.contract import Chat
from bot.games import GameKind, kind
from engine.interface import Match

from .clock import Clock
from .model import PLAYING, Changes, GameMeta, Snapshot
from .snapshots import current, pack, unpack
from .storage import Storage

log = logging.getLogger(__name__)

# Matches kept live (the most recently used games'); every other cached game keeps its match packed.
LIVE_MATCHES = 256
# Fresh snapshots (games replayed at a restore) stored in one transaction.
SNAPSHOTS_A_COMMIT = 200


class Loaded:
    """A game in memory: its metadata and, once started, its match.

    The match is held live while in use and packed otherwise: an idle game keeps only the bytes
    last stored for it (``snapshots``: Papà Paolo at move 138, 4.6 KB instead of about 30-50 KiB
    live), and unpacks them on first use (``match``, about 0.3-0.5 ms). ``GameStore`` keeps a bounded number of matches live
    (the most recently used) and packs the rest again (``pack_away``)."""

    __slots__ = ("meta", "recent", "_live", "_packed", "on_live")

    def __init__(self, meta: GameMeta, match: Match | None = None, *, packed: Snapshot | None = None) -> None:
        self.meta = meta
        # Steps made through this process since the game was loaded: (seat, that seat's count of
        # choices before it) -> the index of the choice among its legal ones (None for the AI's and
        # typed ones), to tell a duplicate press (the same button twice) from a stale one.
        self.recent: dict[tuple[int, int], int | None] = {}
        self._live = match
        self._packed = packed       # the snapshot last stored, or read, for this game (None: none yet)
        # Told when the match goes live: the GameStore caching this game bounds its live matches.
        self.on_live: Callable[[Loaded], None] = _nobody

    @property
    def kind(self) -> GameKind:
        return kind(self.meta.kind)

    @property
    def match(self) -> Match | None:
        """The match, live (unpacked from the stored snapshot on first use); None before the start."""
        if self._live is None and self._packed is not None:
            self._live = unpack(self._packed)
            self.on_live(self)
        return self._live

    @match.setter
    def match(self, match: Match) -> None:
        """A match just started: live, and packed by the commit that stores its start."""
        self._live, self._packed = match, None
        self.on_live(self)

    @property
    def running(self) -> Match:
        """The match of a game that has started: what code past "the game is running" holds
        (it never checks for None). Asked of a game in its lobby, a bug: ``NotStarted``."""
        match = self.match
        if match is None:
            raise NotStarted(f"game {self.meta.id} has no match: it has not started")
        return match

    @property
    def live(self) -> bool:
        return self._live is not None

    @property
    def packed(self) -> Snapshot | None:
        return self._packed

    def moved(self) -> bool:
        """Whether the live match moved past the snapshot last stored (a commit must pack it)."""
        return self._live is not None and (self._packed is None or self._packed.moves != self._live.move_count)

    def packed_as(self, snapshot: Snapshot) -> None:
        """``snapshot`` holds the live match as it is now (and is what the database got, while the game runs)."""
        self._packed = snapshot

    def pack_away(self) -> bool:
        """Drop the live match, the snapshot standing for it; False (kept live) while it has moves
        no snapshot holds yet, i.e. while an action that moved it has not committed."""
        if self.moved():
            return False
        self._live = None
        return True


class NotStarted(LookupError):
    """A running game's match asked of a game still in its lobby (a bug in the caller)."""


def _nobody(loaded: Loaded) -> None:
    return None


class GameStore:
    def __init__(self, storage: Storage, clock: Clock, *, cache_size: int = 10_000,
                 live_matches: int = LIVE_MATCHES,
                 on_commit: Callable[[Changes], None] = lambda changes: None) -> None:
        self.storage = storage
        self.clock = clock
        self.cache_size = cache_size
        # How many of the cached games keep their match live; the others keep it packed.
        self.live_matches = live_matches
        self._on_commit = on_commit
        self._games: OrderedDict[int, Loaded] = OrderedDict()
        self._live: OrderedDict[int, Loaded] = OrderedDict()      # least recently used first
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    def lock(self, platform: str, chat_id: str) -> asyncio.Lock:
        key = (platform, chat_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def remember(self, loaded: Loaded) -> Loaded:
        gid = loaded.meta.id
        older = self._games.get(gid)
        if older is not None and older is not loaded:
            self._live.pop(gid, None)               # the older copy's match
        self._games[gid] = loaded
        self._games.move_to_end(gid)
        loaded.on_live = self._went_live
        while len(self._games) > self.cache_size:
            evicted, _ = self._games.popitem(last=False)
            self._live.pop(evicted, None)
        if loaded.live:
            self._went_live(loaded)
        return loaded

    def _keep(self, loaded: Loaded) -> Loaded:
        """``loaded``, checked current a moment ago, as the most recently used game. Another
        task may have evicted it, or cached a newer copy, while this one awaited the database:
        the newest copy is kept and returned, never an error."""
        cached = self._games.get(loaded.meta.id)
        if cached is not None and cached.meta.version >= loaded.meta.version:
            self._games.move_to_end(loaded.meta.id)
            if cached.meta.id in self._live:
                self._live.move_to_end(cached.meta.id)
            return cached
        return self.remember(loaded)

    def _went_live(self, loaded: Loaded) -> None:
        """``loaded``'s match is live: the most recently used one; the least recently used beyond
        ``live_matches`` are packed away, but never one that an action holds (its chat's lock is
        taken: it may hold the live match and move it) or that moved since it was stored."""
        gid = loaded.meta.id
        if self._games.get(gid) is not loaded:
            return                                  # not cached (any more): nothing to bound
        self._live[gid] = loaded
        self._live.move_to_end(gid)
        excess = len(self._live) - self.live_matches
        if excess <= 0:
            return
        for old_id, old in list(self._live.items()):
            if excess <= 0:
                break
            if old is not loaded and not self._busy(old.meta) and old.pack_away():
                del self._live[old_id]
                excess -= 1

    def _busy(self, meta: GameMeta) -> bool:
        lock = self._locks.get((meta.platform, meta.chat_id))
        return lock is not None and lock.locked()

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._live.pop(game_id, None)

    def cached(self, game_id: int) -> Loaded | None:
        return self._games.get(game_id)

    @staticmethod
    def rebuild(meta: GameMeta, moves: list[tuple[int, str]]) -> Loaded:
        """The game replayed from its record, its match packed (a restore of many games holds
        one live match at a time; the match is unpacked again on use)."""
        if meta.setup is None:
            return Loaded(meta)
        match = kind(meta.kind).definition.resume(meta.setup, moves)
        return Loaded(meta, packed=pack(meta.id, meta.kind, match))

    async def _replayed(self, game_ids: list[int]) -> list[Loaded]:
        """The games replayed from their records (their snapshots were missing or stale), and
        their fresh snapshots stored (where each game still holds that many moves)."""
        games = [self.rebuild(meta, moves) for meta, moves in (await self.storage.load_games(game_ids)).values()]
        fresh = [loaded.packed for loaded in games if loaded.packed is not None]
        for start in range(0, len(fresh), SNAPSHOTS_A_COMMIT):
            try:
                await self.storage.commit(Changes(snapshots=fresh[start:start + SNAPSHOTS_A_COMMIT]), self.clock.now())
            except Exception:  # noqa: BLE001 - only a speed-up is lost: the game is replayed again next time
                log.warning("storing %d fresh snapshots failed", len(fresh[start:start + SNAPSHOTS_A_COMMIT]),
                            exc_info=True)
        return games

    async def load(self, game_id: int) -> Loaded | None:
        """The game as the database has it now (from the cache when the cache is current)."""
        loaded = self._games.get(game_id)
        if loaded is not None:
            version = await self.storage.game_version(game_id)
            if version is None or version == loaded.meta.version:
                return self._keep(loaded)
            self.forget(game_id)       # moved by another process: read it again
        got = (await self.storage.load_with_snapshots([game_id])).get(game_id)
        if got is None:
            return None
        stored = _stored(*got)
        if stored is not None:
            return self._keep(stored)
        replayed = await self._replayed([game_id])
        return self._keep(replayed[0]) if replayed else None   # or the copy another task loaded meanwhile

    async def restore_all(self) -> int:
        """Load every lobby and running game now (start-up is lazy otherwise): each as its metadata
        and its stored snapshot, unpacked on first use; a game without a current snapshot is
        replayed (and its snapshot stored)."""
        ids = [gid for gid, _, _ in await self.storage.active_games() if gid not in self._games]
        found = await self.storage.load_with_snapshots(ids)
        stale = []
        for meta, snapshot in found.values():
            stored = _stored(meta, snapshot)
            if stored is not None:
                self.remember(stored)
            else:
                stale.append(meta.id)
        for loaded in await self._replayed(stale):
            self.remember(loaded)
        return len(found)

    async def chat_game(self, chat: Chat) -> Loaded | None:
        gid = await self.storage.active_game_id(chat.platform, chat.id)
        return None if gid is None else await self.load(gid)

    async def commit(self, changes: Changes, *, forget: int | None = None) -> list[int]:
        """Commit ``changes``; if that fails (``Conflict`` included), the in-memory game named
        ``forget`` ran ahead of the database and is dropped, to be read again on next use.

        A cached game whose match moved since it was last packed is packed again, and while it
        runs its snapshot goes into the same transaction (``Changes.snapshots``)."""
        loaded = self._committing(changes)
        snapshot = None
        if loaded is not None and loaded.moved():
            snapshot = pack(loaded.meta.id, loaded.meta.kind, loaded.running)
            if loaded.meta.status == PLAYING:
                changes.snapshots.append(snapshot)
        try:
            ids = await self.storage.commit(changes, self.clock.now())
        except BaseException:
            if forget is not None:
                self.forget(forget)
            raise
        if snapshot is not None and loaded is not None:
            loaded.packed_as(snapshot)
        elif loaded is not None and not loaded.live and loaded.packed is not None \
                and loaded.packed.moves != loaded.meta.moves:
            # Moves were made on a match after it was packed away (an action that did not hold its
            # chat's lock): the copy in memory cannot be trusted; it is read again on next use.
            self.forget(loaded.meta.id)
        self._on_commit(changes)
        return ids

    def _committing(self, changes: Changes) -> Loaded | None:
        """The cached game whose metadata ``changes`` stores, if any."""
        meta = changes.meta
        if meta is None:
            return None
        loaded = self._games.get(meta.id)
        return loaded if loaded is not None and loaded.meta is meta else None


def _stored(meta: GameMeta, snapshot: Snapshot | None) -> Loaded | None:
    """The game as stored, ready without a replay: a lobby, or a running game with a current
    snapshot; None when its snapshot is missing or stale (the game must be replayed)."""
    if meta.setup is None:
        return Loaded(meta)
    return Loaded(meta, packed=snapshot) if current(snapshot, meta.kind, meta.moves) else None
