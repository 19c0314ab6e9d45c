"""A running game's match packed into bytes, stored with the game and read back instead of a replay.

A game is stored as its setup and its moves (RULES.md), and replaying them rebuilds its match;
for a long game that is slow (Papà Paolo at move 140: about 5 ms, so 10,000 games restored
eagerly took a minute). So a running game's match is also stored packed, now and then: every
``store.SNAPSHOT_EVERY`` moves (in the commit of that move), when the game goes idle and at a
clean stop (``GameStore.store_snapshots``). A restore reads the last snapshot and the few moves
stored since, and applies those to the unpacked match (about 0.1-1.2 ms to unpack, 6-28 µs a
move). An idle game in memory keeps only these bytes and moves (``store.Loaded``). The moves
stay the record: a snapshot is a cache of a position they lead to, and any doubt about one
means a replay.

Packing is pickle (the engine's objects as they are: no second format to keep in step with the
rules) compressed by zlib. Reading pickle runs code that the bytes name, so bytes are only read
from this service's own database, where nothing but this service writes them (docs/storage.md).

A snapshot is used only by code that packs the same way (``stamp``: this packing's version,
Python's, and a hash of the engine code of its game) and only for a position its game held
(no more moves than the game holds); otherwise the game is replayed and packed again.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import pickle
import sys
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from bot.games import KINDS, kind
from engine.interface import Match
from engine.shared import is_shared, shared

from .model import Snapshot

# This module's packing; raise it whenever ``pack`` writes differently.
FORMAT = 3
PROTOCOL = 5
LEVEL = 6       # zlib: 12% smaller than level 1 for about 0.1 ms more per commit (Papà Paolo at move 140)


@cache
def stamp(kind_id: str) -> str:
    """What a snapshot of game kind ``kind_id`` was written by: this packing, the Python version
    (pickle's objects are the interpreter's) and a hash of the engine's code for that game, its
    own package and the shared engine modules it builds on. A change to any of them makes every
    stored snapshot of the game stale: they are replayed once and packed again."""
    package = Path(inspect.getfile(type(kind(kind_id).definition))).parent
    engine_dir = Path(inspect.getfile(Match)).parent
    digest = hashlib.sha256(f"{FORMAT}:{PROTOCOL}:{sys.version_info[0]}.{sys.version_info[1]}".encode())
    for root, files in ((package.parent, _sources(package)), (engine_dir.parent, sorted(engine_dir.glob("*.py")))):
        for path in files:
            digest.update(f"\0{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return sys.intern(f"{FORMAT}:{digest.hexdigest()[:24]}")


def warm_stamps() -> None:
    """Work out every game kind's ``stamp`` now (it reads the game's sources: about 4 ms a kind), once
    a process, when the service starts: the first game a player reads back after a start then
    does not wait for it (that wait was most of the first use of a game, issue 44)."""
    for kind_id in KINDS:
        stamp(kind_id)


def _sources(package: Path) -> list[Path]:
    """The files a game package's state is built from: its modules and its data (a board, a deck)."""
    return sorted(p for p in package.rglob("*") if p.suffix in (".py", ".json") and "__pycache__" not in p.parts)


class _Pickler(pickle.Pickler):
    """Pickle, marking the values a match shares with every other (``engine.shared``: its steps and
    events, which repeat from game to game) and its short texts, so that they are shared again when
    read back. A Papà Paolo match at move 138 read back from plain pickle held its own copy of
    each, 68 KiB; so marked, 34 KiB, what the replayed match holds, for about 0.3 ms more per
    commit and 0.05 ms more per read."""

    def persistent_id(self, obj: Any) -> Any:
        # The object itself is the id: pickle writes it as usual (not asking again) and reading
        # it back hands it to ``persistent_load``. Short texts (a tile's name, a colour) are
        # interned again, as the setup's texts a replay builds on are (storage.games._interned).
        cls = type(obj)
        if cls is str:
            return obj if len(obj) <= SHORT_TEXT else None
        return obj if cls not in _PLAIN and is_shared(obj) else None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        return sys.intern(pid) if type(pid) is str else shared(pid)


_PLAIN = frozenset({int, float, bool, bytes, type(None)})
SHORT_TEXT = 24


def pack(game_id: int, kind_id: str, match: Match) -> Snapshot:
    """``match`` (of game kind ``kind_id``) as the bytes stored for it."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=PROTOCOL).dump(match)
    return Snapshot(game_id, match.move_count, stamp(kind_id), zlib.compress(buffer.getvalue(), LEVEL))


def unpack(snapshot: Snapshot) -> Match:
    """The match ``snapshot`` holds (a new object each time)."""
    match = _Unpickler(io.BytesIO(zlib.decompress(snapshot.data))).load()
    assert isinstance(match, Match), "pack pickles a Match"
    return match


def current(snapshot: Snapshot | None, kind_id: str, moves: int) -> bool:
    """Whether ``snapshot`` may stand for a position of a game of kind ``kind_id`` that holds
    ``moves`` stored moves: packed by this code, at no more moves than that (the moves after it
    are applied to it)."""
    return snapshot is not None and snapshot.moves <= moves and snapshot.stamp == stamp(kind_id)
