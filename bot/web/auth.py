"""Telegram's Mini App login (initData), which the web board turns into a pass
(``bot.service.tokens.passes``: the service issues and reads those, signed links to a game's board).

Telegram opens a Mini App with ``initData``: the launch parameters, signed by Telegram with a
key derived from the bot token ("Validating data received via the Mini App"). It is checked as
the raw string arrives, before any of it (the user's JSON) is read, and must be fresh: an hour old
at most (``BOARDCHAT_WEB_INIT_DATA_SECONDS``).

One initData gives one pass: the pass it gives runs from its ``auth_date``, not from the login,
so the same initData sent again (a page reloaded, or replayed) gets the very same pass (a pass's
signature is deterministic), never a new one running a week from now.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from bot.board import BadPass

INIT_DATA_SECONDS = 3600                 # how old Telegram's initData may be (its auth_date): an hour
MAX_INIT_DATA = 4096                     # Telegram's launch data is far shorter


@dataclass(frozen=True, slots=True)
class TelegramLogin:
    """What a valid initData says: the Telegram user, their language, and the start parameter."""

    user_id: str
    name: str
    language: str | None
    start_param: str | None
    auth_date: int


def telegram_login(init_data: object, bot_token: str, *, now: float, max_age: float = INIT_DATA_SECONDS) -> TelegramLogin:
    """The login ``init_data`` proves; ``BadPass`` ("forged" or "expired") otherwise."""
    if not isinstance(init_data, str) or not 0 < len(init_data) <= MAX_INIT_DATA:
        raise BadPass("forged")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise BadPass("forged") from None
    fields = dict(pairs)
    received = fields.pop("hash", "")
    if len(fields) + 1 != len(pairs):          # a field twice: not what Telegram signs
        raise BadPass("forged")
    if not (received.isascii() and hmac.compare_digest(received, init_data_hash(fields, bot_token))):
        raise BadPass("forged")
    # Signed by Telegram for this bot: only now is any of it read.
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields["user"])
        user_id = str(int(user["id"]))
    except (KeyError, TypeError, ValueError, OverflowError):     # OverflowError: an id of Infinity
        raise BadPass("forged") from None
    if not now - max_age <= auth_date <= now + 300:
        raise BadPass("expired")
    name = " ".join(str(user.get(part) or "") for part in ("first_name", "last_name")).strip() or user_id
    language = user.get("language_code")
    return TelegramLogin(user_id, name[:64], language if isinstance(language, str) else None,
                         fields.get("start_param"), auth_date)


def init_data_hash(fields: dict[str, str], bot_token: str) -> str:
    """Telegram's signature of launch data: HMAC-SHA256 over the sorted ``key=value`` lines, with a
    key derived from the bot token and "WebAppData"."""
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return hmac.new(key, check.encode(), hashlib.sha256).hexdigest()


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """``fields`` as Telegram would send them, signed for ``bot_token`` (for tests and the
    benchmark: Telegram's computation, the other way round)."""
    return urlencode({**fields, "hash": init_data_hash(fields, bot_token)})
