"""Who may open a game's web board: signed, expiring passes.

A pass names one game and one person (or nobody: a spectator's), and is signed with a key of
the service's own (``PayloadCodec.derived_key("web-pass")``) by itsdangerous, so a page can
neither be opened for another game nor act for another person; it carries its own expiry,
checked against the service's clock. A seat is never taken from a pass: it is looked up from the
person's id each time, so a person whose seat went to the AI watches from then on.

The service issues them (the chats' board links, ``links.BoardLinks``); the web board reads them.

A link carries its pass in the address's fragment (``/board#t=<pass>``), which a browser never
sends to a server, so no proxy's access log keeps it; the page reads it, drops it from its address,
and trades it for a **page pass** (``page=True``): the same viewer for at most
``PAGE_PASS_SECONDS``, the one that goes in the addresses of the page's socket and pictures. A page
pass opens those, never a new page pass: one read from a log is of no use for long.
"""

from __future__ import annotations

import re
from dataclasses import asdict, replace

from itsdangerous import BadSignature, URLSafeSerializer

from bot.board import BadPass, Pass

SEAT_PASS_SECONDS = 7 * 24 * 3600        # a seat's link: a slow game's week
SPECTATOR_PASS_SECONDS = 30 * 24 * 3600  # the group's read-only link
PAGE_PASS_SECONDS = 15 * 60              # a page pass: the page trades its link's pass again before then
# A pass is URL-safe base64 and dots (itsdangerous), nothing else.
PASS_CHARACTERS = re.compile(r"[A-Za-z0-9_.=-]+")
MAX_PASS = 1024                          # a pass read from a link or a page is never longer


class Passes:
    """Issues and reads passes, signed with ``secret``; ``now`` is the service clock's."""

    def __init__(self, secret: bytes) -> None:
        self._serializer = URLSafeSerializer(secret, salt="boardchat-web-pass")

    def issue(self, game_id: int, platform: str, user_id: str | None, name: str, language: str, *,
              now: float, seconds: float) -> str:
        """A link's pass. The same fields give the same pass (the signature is deterministic)."""
        return self._serializer.dumps(asdict(Pass(game_id, platform, user_id, name, language, now + seconds)))

    def page_pass(self, link: Pass, *, now: float, seconds: float = PAGE_PASS_SECONDS) -> str:
        """The page pass a page trades ``link`` (a link's pass, read) for: the same viewer, for
        ``seconds`` at most, and never past the link's own expiry."""
        return self._serializer.dumps(asdict(replace(link, expires=min(link.expires, now + seconds), page=True)))

    def read(self, token: object, *, now: float) -> Pass:
        # itsdangerous decodes base64 ignoring what is not ASCII: a pass with a stray letter would
        # still read, so only the characters a pass is made of are taken.
        if not isinstance(token, str) or not 0 < len(token) <= MAX_PASS or not PASS_CHARACTERS.fullmatch(token):
            raise BadPass("forged")
        try:
            fields = self._serializer.loads(token)
            got = Pass(**fields)
        except (BadSignature, TypeError, ValueError):
            raise BadPass("forged") from None
        if got.expires < now:
            raise BadPass("expired")
        return got
