"""What a page sends on its socket: one of three messages, a tagged union checked where it arrives.

  {"type": "hello", "since": <version or null>, "layout": "landscape"|"portrait", "at": <move or null>}
  {"type": "act", "payload": <a choice's signed payload, as the page received it>}
  {"type": "review", "at": <move>}               (a finished game, stepped through)

``heard`` gives the message, or None for anything else (not JSON, another type, a field of the
wrong kind or out of range): the server answers that with an error and does nothing. Fields a page
does not send are left out, and fields it never sends are ignored.
"""

from __future__ import annotations

import json
from typing import Annotated

import msgspec

from bot.board import Layout

# A version or a move number as a page may send one: a whole number (never true or 1.0) in range.
Position = Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]


class Hello(msgspec.Struct, frozen=True, tag="hello", tag_field="type"):
    """The page opens, or reconnects having the state of version ``since``; ``at``: the move of a
    finished game it shows (None: now)."""

    since: Position | None = None
    layout: Layout = "landscape"
    at: Position | None = None


class Review(msgspec.Struct, frozen=True, tag="review", tag_field="type"):
    """Show a finished game after move ``at``."""

    at: Position


class Act(msgspec.Struct, frozen=True, tag="act", tag_field="type"):
    """A tap on a choice: its signed payload."""

    payload: str


PageMessage = Hello | Review | Act


def heard(data: str) -> PageMessage | None:
    """The message ``data`` is, or None. Read by the standard library's JSON first, which takes
    what a page's JSON.stringify may write (a lone surrogate in a string: such a payload is then
    refused as forged, as any other), then checked against the union."""
    try:
        message: PageMessage = msgspec.convert(json.loads(data), PageMessage)
    except (ValueError, msgspec.ValidationError):
        return None
    return message
