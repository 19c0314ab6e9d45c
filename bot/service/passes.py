"""Who may open a game's web board: signed, expiring passes.

A pass names one game and one person (or nobody: a spectator's), and is signed with a key of
the service's own (``PayloadCodec.derived_key("web-pass")``) by itsdangerous, so a page can
neither be opened for another game nor act for another person; it carries its own expiry,
checked against the service's clock. A seat is never taken from a pass: it is looked up from the
person's id each time, so a person whose seat went to the AI watches from then on.

The service issues them (the chats' board links, ``links.BoardLinks``); the web board reads them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from itsdangerous import BadSignature, URLSafeSerializer

SEAT_PASS_SECONDS = 7 * 24 * 3600        # a seat's link: a slow game's week
SPECTATOR_PASS_SECONDS = 30 * 24 * 3600  # the group's read-only link
MAX_PASS = 1024                          # a pass read from a link or a page is never longer


class BadPass(ValueError):
    """A link or login that opens nothing; ``reason``: "forged" or "expired"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Pass:
    """Who looks at which game. ``user_id`` None: a spectator (the public view only)."""

    game_id: int
    platform: str
    user_id: str | None
    name: str
    language: str
    expires: float

    @property
    def spectator(self) -> bool:
        return self.user_id is None


class Passes:
    """Issues and reads passes, signed with ``secret``; ``now`` is the service clock's."""

    def __init__(self, secret: bytes) -> None:
        self._serializer = URLSafeSerializer(secret, salt="boardchat-web-pass")

    def issue(self, game_id: int, platform: str, user_id: str | None, name: str, language: str, *,
              now: float, seconds: float) -> str:
        return self._serializer.dumps(asdict(Pass(game_id, platform, user_id, name, language, now + seconds)))

    def read(self, token: str, *, now: float) -> Pass:
        if not isinstance(token, str) or not 0 < len(token) <= MAX_PASS:
            raise BadPass("forged")
        try:
            fields = self._serializer.loads(token)
            got = Pass(**fields)
        except (BadSignature, TypeError, ValueError):
            raise BadPass("forged") from None
        if got.expires < now:
            raise BadPass("expired")
        return got
