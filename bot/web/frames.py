"""Delta frames: after its first state on a socket, a page is sent only what changed in its state.

A page's state (``bot.pagestate.PageState``, its pictures as the page fetches them) is cut into
parts (``Cut``): each top-level field's JSON, and, one level down, each picture of ``pictures`` and
each line of ``log``. A socket's first state is sent whole (``full``); every later one as a
``Delta`` against the state last sent on that socket (``Sent``: the digests of its parts, which is
all the server keeps of it):

  {"type": "delta", "version": n,
   "set": {<field>: <its value>, ...},        the fields sent anew
   "same": [<field>, ...],                     the fields the page keeps as it holds them
   "pictures": [<picture> | <name>, ...],      the pictures, a kept one by its name (a JSON string)
   "log": {"drop": k, "tail": [<line>, ...]}}  the log: the held one without its first k lines, then these

A field neither set nor same (nor ``pictures``/``log``) is absent from the new state: nothing is
left to the page's guessing, and a field that went away is said by its absence from ``same``. The
page (``board.js``, ``merged``; ``merged`` here for the benches and tests) builds the new state from
the one it holds, and so holds exactly what a whole state would have given it. Pages Papà Paolo's
private steps change get their menu and their own board, not the public board's 50 KB scene again.

The parts' JSON joined is byte for byte the state's own encoding (``Cut.full``), so a whole state
reads as before. Each distinct state is cut once, and each (held, new) pair made into a frame once
(``Frames``), however many pages show it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgspec

from bot.pagestate import PageState, ShownPicture

ENCODE = msgspec.json.Encoder()
FIELDS = tuple(field.name for field in msgspec.structs.fields(PageState))
DEFAULTS = {field.name: field.default for field in msgspec.structs.fields(PageState)
            if field.default is not msgspec.NODEFAULT}


DIGEST = 16          # bytes of a part's digest


def _digest(part: bytes) -> bytes:
    return hashlib.blake2b(part, digest_size=DIGEST).digest()


@dataclass(frozen=True, slots=True, eq=False)
class Sent:
    """What a page holds, as the digests of its state's parts: all a socket keeps of the last state
    sent on it. One per distinct state, shared by every page it was sent to (compared by identity):
    about 3 KB (a 40-line log and two pictures), so a page holds at most that, and most pages share."""

    fields: dict[str, bytes]                 # each field present -> its JSON's digest
    pictures: dict[str, bytes]               # each picture's name -> its JSON's digest
    log: bytes                               # each log line's digest, one after the other

    @property
    def lines(self) -> int:
        return len(self.log) // DIGEST


@dataclass(frozen=True, slots=True, eq=False)
class Cut:
    """A page's state cut into the parts a frame sends: each field's JSON (in the state's order,
    fields at their default left out as the state's encoding leaves them), each picture's and
    each log line's; ``full`` the whole state's JSON, ``sent`` the parts' digests."""

    fields: dict[str, bytes]
    pictures: tuple[tuple[str, bytes], ...]
    log: tuple[bytes, ...]
    full: bytes
    sent: Sent


def cut(state: PageState) -> Cut:
    """``state`` (its pictures as ``ShownPicture``) cut into parts."""
    values = msgspec.structs.asdict(state)
    fields: dict[str, bytes] = {}
    pictures: tuple[tuple[str, bytes], ...] = ()
    log: tuple[bytes, ...] = ()
    for name in FIELDS:
        value = values[name]
        if name in DEFAULTS and value == DEFAULTS[name]:
            continue
        if name == "pictures":
            pictures = tuple((p.name, ENCODE.encode(p)) for p in state.pictures or () if isinstance(p, ShownPicture))
            fields[name] = b"[" + b",".join(part for _, part in pictures) + b"]"
        elif name == "log":
            log = tuple(ENCODE.encode(line) for line in state.log or ())
            fields[name] = b"[" + b",".join(log) + b"]"
        else:
            fields[name] = ENCODE.encode(value)
    full = b"{" + b",".join(b'"' + name.encode() + b'":' + part for name, part in fields.items()) + b"}"
    sent = Sent({name: _digest(part) for name, part in fields.items()},
                {name: _digest(part) for name, part in pictures}, b"".join(_digest(line) for line in log))
    return Cut(fields, pictures, log, full, sent)


class LogTail(msgspec.Struct, frozen=True):
    """The new log: the held one without its first ``drop`` lines, then ``tail``."""

    drop: int
    tail: list[msgspec.Raw]


class Delta(msgspec.Struct, frozen=True, tag="delta", tag_field="type", omit_defaults=True):
    """A state sent as what changed since the one last sent on the socket (the module's doc)."""

    version: int
    set: dict[str, msgspec.Raw]
    same: list[str]
    pictures: list[msgspec.Raw] | None = None
    log: LogTail | None = None


def whole(version: int, state: Cut) -> str:
    """The frame of a whole state: a socket's first, and the pass answer's."""
    return f'{{"type":"state","version":{version},"state":{state.full.decode()}}}'


def delta(version: int, held: Sent, state: Cut) -> str:
    """The frame that brings a page holding ``held`` to ``state``."""
    changed: dict[str, msgspec.Raw] = {}
    same: list[str] = []
    pictures = log = None
    for name, part in state.fields.items():
        if held.fields.get(name) == state.sent.fields[name]:
            same.append(name)
        elif name == "pictures" and held.pictures:
            pictures = [msgspec.Raw(ENCODE.encode(shown) if held.pictures.get(shown) == state.sent.pictures[shown]
                                    else picture) for shown, picture in state.pictures]
        elif name == "log" and (drop := _kept_from(held.log, state.sent.log)) is not None:
            log = LogTail(drop, [msgspec.Raw(line) for line in state.log[held.lines - drop:]])
        else:
            changed[name] = msgspec.Raw(part)
    return ENCODE.encode(Delta(version, changed, same, pictures, log)).decode()


def _kept_from(held: bytes, new: bytes) -> int | None:
    """The fewest first lines of the log ``held`` to drop so that the rest begins the log ``new``
    (each a line's digests one after the other); None: no line kept."""
    for drop in range(len(held) // DIGEST):
        kept = len(held) - drop * DIGEST
        if kept <= len(new) and held[drop * DIGEST:] == new[:kept]:
            return drop
    return None


class Frames:
    """The frames of one round of sending (a refresh): each (held, new) pair made into one once."""

    def __init__(self) -> None:
        self._made: dict[tuple[Sent | None, Sent, int], str] = {}

    def frame(self, version: int, held: Sent | None, state: Cut) -> str:
        key = (held, state.sent, version)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = whole(version, state) if held is None else delta(version, held, state)
        return made


def merged(held: dict[str, Any], frame: Delta) -> dict[str, Any]:
    """The state a page holding ``held`` (a whole state as JSON values) holds after ``frame``:
    what ``board.js``'s ``merged`` does, for the benches and tests that read the socket."""
    state = {name: held[name] for name in frame.same}
    state.update((name, msgspec.json.decode(part)) for name, part in frame.set.items())
    if frame.pictures is not None:
        kept = {picture["name"]: picture for picture in held.get("pictures") or ()}
        state["pictures"] = [kept[p] if isinstance(p, str) else p
                             for p in (msgspec.json.decode(raw) for raw in frame.pictures)]
    if frame.log is not None:
        state["log"] = held["log"][frame.log.drop:] + [msgspec.json.decode(line) for line in frame.log.tail]
    return state


def decoded(data: str | bytes) -> Delta | None:
    """A socket's text as a ``Delta``, or None when it is another message."""
    try:
        return msgspec.json.decode(data, type=Delta)
    except msgspec.ValidationError:
        return None
