"""Games in memory and in the database: the cache, a match read back or rebuilt, and commits.

Every accepted action changes the in-memory game, then commits everything it changed in one
transaction (``Changes``). A game is stored as its setup and its moves; while it runs, its match
is stored packed too, now and then (``snapshots``: every ``SNAPSHOT_EVERY`` moves in the commit
of that move, when the game goes idle, at a clean stop: ``store_snapshots``), and read back from
the last snapshot with the moves stored since applied to it, instead of replaying every move
through its game definition (``bot.games``), unless the snapshot is missing or stale. In memory,
only the most recently used matches stay live (``live_matches``); an idle game keeps its last
snapshot's bytes and the moves since. The cache never answers from an old copy: before an
action, and before answering a read, the cached game's version is compared with the database's
(another process, or a commit while an older copy was being read, may have moved it); a commit
that finds the game moved meanwhile raises ``Conflict`` and drops the copy.

Actions on one chat are serialised in this process by a per-chat ``asyncio.Lock``; across
processes by the database's version check.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from bot.contract import Chat
from bot.games import GameKind, kind
from engine.interface import Match

from ..clock import Clock
from ..game.model import PLAYING, Changes, GameMeta, MoveRow, Resumable, Snapshot
from ..game.snapshots import current, pack, unpack
from . import Storage

if TYPE_CHECKING:       # arming.py reads and writes ``Loaded.away``; it imports this module
    from ..table.arming import KnownAway

log = logging.getLogger(__name__)

# Matches kept live (the most recently used games'); every other cached game keeps its match packed.
# 1,024: a thousand games moving in turn keep theirs live (each move past the bound unpacks or
# replays its match first: 1.31x a move's instructions at 300 games with 256 live, issue 44), while
# 10,000 idle games still average under 30 KiB each (issue 31: 1,024 live at 24-112 KiB, the rest
# packed at 9-16 KiB: at most about 26 KiB a game).
LIVE_MATCHES = 1024
# Snapshots stored in one transaction (games replayed at a restore, idle games, a clean stop).
SNAPSHOTS_A_COMMIT = 200
# Live matches looked at, at most, each time one more goes live (``GameStore._went_live``).
EVICT_LOOKS = 32
# A running game's match is packed into the commit of every this many moves since its last
# snapshot; a restore applies at most this many minus one moves to a snapshot, and replays a game
# that would need more (docs/storage.md: packing costs 0.2-2.8 ms, applying a move 6-28 µs, so
# a move pays under 0.1 ms for its share and a game's first use at most about 0.9 ms more).
SNAPSHOT_EVERY = 32
# A running game that nobody moved for this long has its match packed and stored (by the timer
# loop, every ``IDLE_SWEEP_EVERY``), so that a restart reads it back without applying its last moves.
IDLE_AFTER = 120.0
IDLE_SWEEP_EVERY = 60.0


class Loaded:
    """A game in memory: its metadata and, once started, its match.

    The match is held live while in use and packed otherwise: an idle game keeps only the last
    snapshot stored (or read) for it and the moves committed since (Papà Paolo at move 138, 4.6 KB
    and a few moves instead of about 30-50 KiB live), and rebuilds its match from them on first
    use (``match``: unpacked, about 0.1-1.2 ms, then those moves applied, 6-28 µs each; without
    a snapshot, the moves replayed from the setup). ``GameStore`` keeps a bounded number of
    matches live (the most recently used) and drops the rest (``pack_away``)."""

    __slots__ = ("meta", "recent", "_live", "_packed", "_since", "on_live", "away")

    def __init__(self, meta: GameMeta, match: Match | None = None, *, packed: Snapshot | None = None,
                 since: Iterable[tuple[int, str]] = ()) -> None:
        self.meta = meta
        # Steps made through this process since the game was loaded: (seat, that seat's count of
        # choices before it) -> the index of the choice among its legal ones (None for the AI's and
        # typed ones), to tell a duplicate press (the same button twice) from a stale one.
        self.recent: dict[tuple[int, int], int | None] = {}
        self._live = match
        self._packed = packed       # the snapshot last stored, or read, for this game (None: none yet)
        self._since = list(since)   # the moves committed after it (seat, choice text), in order
        # Told when the match goes live: the GameStore caching this game bounds its live matches.
        self.on_live: Callable[[Loaded], None] = _nobody
        # Who of its people was away when this copy of the game was last armed (``arming.py``).
        self.away: KnownAway | None = None

    @property
    def kind(self) -> GameKind:
        return kind(self.meta.kind)

    @property
    def match(self) -> Match | None:
        """The match, live (rebuilt from the stored snapshot and the moves since on first use);
        None before the start."""
        if self._live is None and self.meta.setup is not None:
            self._live = self.rebuilt()
            self.on_live(self)
        return self._live

    @match.setter
    def match(self, match: Match) -> None:
        """A match just started: live; its moves are kept as they are committed."""
        self._live, self._packed, self._since = match, None, []
        self.on_live(self)

    def rebuilt(self) -> Match:
        """The match as committed: the last snapshot unpacked and the moves since applied (without
        a snapshot, the moves replayed from the setup). A new object each time."""
        if self._packed is None:
            setup = self.meta.setup
            if setup is None:
                raise ValueError(f"game {self.meta.id} has not started: it has no match")
            return self.kind.definition.resume(setup, self._since)
        match = unpack(self._packed)
        if match.move_count != self._packed.moves:
            # The bytes and their row are written together (``snapshots.pack``): only a hand edit
            # of the database parts them.
            raise RuntimeError(f"the snapshot of game {self.meta.id} holds {match.move_count} moves, "
                               f"its row says {self._packed.moves}")
        for seat, text in self._since:
            match.apply(match.parse_choice(text), by=seat)
        return match

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

    @property
    def since(self) -> int:
        """How many committed moves the last snapshot does not hold."""
        return len(self._since)

    def committed_moves(self) -> int:
        """The moves the database holds of this game, as far as this copy knows."""
        return (0 if self._packed is None else self._packed.moves) + len(self._since)

    def moved(self) -> bool:
        """Whether the live match has moves not committed yet (an action under way)."""
        return self._live is not None and self._live.move_count != self.committed_moves()

    def snapshot_due(self) -> bool:
        """Whether the commit of the live match as it is now should store its snapshot: it is the
        position the game's row is about to hold, ``SNAPSHOT_EVERY`` or more moves past the last one."""
        live = self._live
        return (live is not None and live.move_count == self.meta.moves
                and live.move_count - (0 if self._packed is None else self._packed.moves) >= SNAPSHOT_EVERY)

    def stored(self, moves: list[MoveRow], snapshot: Snapshot | None) -> None:
        """A commit stored ``moves`` of this game and, if given, ``snapshot`` (its match after them)."""
        if snapshot is not None:
            self._packed, self._since = snapshot, []
        else:
            self._since.extend((m.seat, m.pick) for m in moves)
        if self._live is not None and self._live.move_count != self.committed_moves():
            # The moves were made on another copy of the match (one an action took before this
            # one was packed away and rebuilt): this one is behind; it is rebuilt on next use.
            self._live = None

    def adopt(self, snapshot: Snapshot) -> None:
        """``snapshot``, packed from this game's match at the moves committed then, was stored:
        kept as the last one if no move was committed meanwhile."""
        if snapshot.moves == self.committed_moves():
            self._packed, self._since = snapshot, []

    def pack_away(self) -> bool:
        """Drop the live match (the snapshot and the moves since stand for it); False (kept live)
        while it has moves not committed yet, i.e. while an action that moved it has not committed."""
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
        # Looking at every live match each time (issue 44): with a burst of games all held at once
        # (1,000 pressing together), none could go and each went live after a scan of all the
        # others, O(n²). Now at most ``EVICT_LOOKS`` a time, from the least recently used; one an
        # action holds is in use, so it counts as used now; the rest go at the next ones.
        for _ in range(min(EVICT_LOOKS, len(self._live) - 1)):
            if excess <= 0:
                break
            old_id, old = next(iter(self._live.items()))
            if old is loaded:
                break                               # every older one was looked at
            if not self._busy(old.meta) and old.pack_away():
                del self._live[old_id]
                excess -= 1
            else:
                self._live.move_to_end(old_id)

    def _busy(self, meta: GameMeta) -> bool:
        lock = self._locks.get((meta.platform, meta.chat_id))
        return lock is not None and lock.locked()

    def forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._live.pop(game_id, None)

    def cached(self, game_id: int) -> Loaded | None:
        return self._games.get(game_id)

    @staticmethod
    def rebuild(meta: GameMeta, moves: list[tuple[int, str]], *, live: bool = False) -> Loaded:
        """The game replayed from its record, its match packed (a restore of many games holds
        one live match at a time; the match is unpacked again on use). ``live``: a game read to be
        used now keeps the replayed match live as well, rather than unpack it again at once."""
        if meta.setup is None:
            return Loaded(meta)
        match = kind(meta.kind).definition.resume(meta.setup, moves)
        return Loaded(meta, match if live else None, packed=pack(meta.id, meta.kind, match))

    async def _store_fresh(self, fresh: list[Snapshot]) -> bool:
        """Store ``fresh`` snapshots in batches, each landing only where its game still holds its
        move count; False if a batch failed (only a speed-up is lost: the moves since are applied,
        or the game replayed, next time)."""
        done = True
        for start in range(0, len(fresh), SNAPSHOTS_A_COMMIT):
            batch = fresh[start:start + SNAPSHOTS_A_COMMIT]
            try:
                await self.storage.commit(Changes(snapshots=batch), self.clock.now())
            except Exception:  # noqa: BLE001 - see above
                log.warning("storing %d fresh snapshots failed", len(batch), exc_info=True)
                done = False
        return done

    async def _replayed(self, game_ids: list[int], *, live: bool = False) -> list[Loaded]:
        """The games replayed from their records (their snapshots were missing or stale, or too
        many moves behind), and their fresh snapshots stored (where each game still holds that
        many moves); ``live``: their matches kept live (``rebuild``)."""
        games = [self.rebuild(meta, moves, live=live)
                 for meta, moves in (await self.storage.load_games(game_ids)).values()]
        await self._store_fresh([loaded.packed for loaded in games if loaded.packed is not None])
        return games

    async def load(self, game_id: int) -> Loaded | None:
        """The game as the database has it now (from the cache when the cache is current)."""
        loaded = self._games.get(game_id)
        if loaded is not None:
            version = await self.storage.game_version(game_id)
            if version is None or version == loaded.meta.version:
                return self._keep(loaded)
            self.forget(game_id)       # moved by another process: read it again
        return await self._read(game_id)

    async def _read(self, game_id: int) -> Loaded | None:
        """The game read from the database (not cached, or its copy was out of date)."""
        got = (await self.storage.load_resumable([game_id])).get(game_id)
        if got is None:
            return None
        stored = _stored(got)
        if stored is not None:
            return self._keep(stored)
        replayed = await self._replayed([game_id], live=True)
        return self._keep(replayed[0]) if replayed else None   # or the copy another task loaded meanwhile

    async def restore_all(self) -> int:
        """Load every lobby and running game now (start-up is lazy otherwise): each as its metadata,
        its last stored snapshot and the moves since, rebuilt on first use; a game without a
        usable snapshot, or too many moves past it, is replayed (and its snapshot stored)."""
        ids = [gid for gid, _, _ in await self.storage.active_games() if gid not in self._games]
        found = await self.storage.load_resumable(ids)
        stale = []
        for game in found.values():
            stored = _stored(game)
            if stored is not None:
                self.remember(stored)
            else:
                stale.append(game.meta.id)
        for loaded in await self._replayed(stale):
            self.remember(loaded)
        return len(found)

    async def store_snapshots(self, *, idle_since: float | None = None) -> int:
        """Pack and store the match of every cached running game with moves committed since its
        last snapshot (with ``idle_since``: only of those nobody moved since then, i.e. the games
        that went idle), except a game an action holds (its chat's lock is taken). At a clean
        stop with no ``idle_since``, so that the next start reads each back without applying
        moves. A live match is packed as it is; another is rebuilt for it, without going live.
        Returns how many were stored."""
        fresh: list[tuple[Loaded, Snapshot]] = []
        for loaded in list(self._games.values()):
            meta = loaded.meta
            if meta.status != PLAYING or loaded.since == 0 or loaded.moved() or self._busy(meta):
                continue
            if idle_since is not None and meta.updated > idle_since:
                continue
            match = loaded.match if loaded.live else loaded.rebuilt()
            if match is None:
                continue
            fresh.append((loaded, pack(meta.id, meta.kind, match)))
            await asyncio.sleep(0)          # a long sweep lets the actions that arrive meanwhile in
        if not await self._store_fresh([snapshot for _, snapshot in fresh]):
            return 0
        for loaded, snapshot in fresh:
            loaded.adopt(snapshot)
        return len(fresh)

    async def chat_game(self, chat: Chat) -> Loaded | None:
        """The chat's lobby or running game, as ``load`` gives it: its id and version are read in
        one statement (issue 44: one round trip less with every action)."""
        found = await self.storage.active_game(chat.platform, chat.id)
        if found is None:
            return None
        game_id, version = found
        loaded = self._games.get(game_id)
        if loaded is not None:
            if version == loaded.meta.version:
                return self._keep(loaded)
            self.forget(game_id)       # moved by another process: read it again
        return await self._read(game_id)

    async def commit(self, changes: Changes, *, forget: int | None = None) -> list[int]:
        """Commit ``changes``; if that fails (``Conflict`` included), the in-memory game named
        ``forget`` ran ahead of the database and is dropped, to be read again on next use.

        A cached running game whose match is ``SNAPSHOT_EVERY`` moves past its last snapshot has
        its snapshot go into the same transaction (``Changes.snapshots``); otherwise the game keeps
        the moves committed since in memory. ``Changes.turn`` is kept on ``Changes.meta`` here, the
        one place a game's turn state changes."""
        if changes.turn is not None:
            if changes.meta is None:
                raise ValueError("a turn state changed without its game")
            changes.meta.turn = changes.turn
        loaded = self._committing(changes)
        snapshot = None
        if loaded is not None and loaded.meta.status == PLAYING and loaded.snapshot_due():
            snapshot = pack(loaded.meta.id, loaded.meta.kind, loaded.running)
            changes.snapshots.append(snapshot)
        try:
            ids = await self.storage.commit(changes, self.clock.now())
        except BaseException:
            if forget is not None:
                self.forget(forget)
            raise
        if loaded is not None:
            loaded.stored(changes.moves, snapshot)
        self._on_commit(changes)
        return ids

    def _committing(self, changes: Changes) -> Loaded | None:
        """The cached game whose metadata ``changes`` stores, if any."""
        meta = changes.meta
        if meta is None:
            return None
        loaded = self._games.get(meta.id)
        return loaded if loaded is not None and loaded.meta is meta else None


def _stored(game: Resumable) -> Loaded | None:
    """The game as stored, ready without a replay: a lobby, or a game whose last snapshot (if
    any) this code wrote and which fewer than ``SNAPSHOT_EVERY`` moves follow; None when it must
    be replayed (its snapshot is stale, or too many moves would have to be applied)."""
    meta, snapshot, since = game.meta, game.snapshot, game.since
    if meta.setup is None:
        return Loaded(meta)
    if snapshot is not None and not current(snapshot, meta.kind, meta.moves):
        return None
    base = 0 if snapshot is None else snapshot.moves
    if len(since) >= SNAPSHOT_EVERY or base + len(since) != meta.moves:
        return None
    return Loaded(meta, packed=snapshot, since=since)
