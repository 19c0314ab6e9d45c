"""Compact, signed button payloads (<= 64 bytes: Telegram's callback_data limit).

Form: ``<kind>_<field>_<field>..._<sig>`` using only ``[A-Za-z0-9_]`` so a payload also
works as a Telegram deep-link start parameter. Numbers are base 36. ``sig`` is the first
8 bytes of an HMAC-SHA256 over the body (and, for chat-bound kinds, the chat), in hex;
anything edited or made up fails the check and is reported as forged.

Kinds (the service never reads a choice: it names one by its index among the legal choices
of the seat, which the game lists in a stable order). A turn's buttons are bound to the seat
they act for and to that seat's own position: ``k`` the choices it has made so far
(``Match.moves_by``), ``since`` the move number at which it last began to act; so one seat's
steps never make another seat's buttons stale, and a button of a seat's earlier turn is:
  c  gid seat k since index   make the seat's legal choice number ``index``
  o  gid seat k since group   open a submenu of the seat's menu (a key the game's presenter gave)
  b  gid seat k since         back from a submenu to the seat's menu
  h  gid                      show me my choices, privately (several seats acting at once)
  m  gid                      show my secret (what only my seat may see) privately
  j  gid                    join the lobby
  a  gid                    add an AI seat (at the chat's AI level)
  v  gid level              add an AI seat at a level: its index among the game's AI levels
  g  gid                    start the game
  l  gid                    leave the lobby
  s  setting value          change a chat setting: indices into the settings and their values
                            (bound to the chat)
  p                         just open the private chat (deep link); carries no data
  w  gid                    open the game's web board (a Telegram Mini App's start parameter; the page
                            learns who opens it from Telegram's signed initData, not from this)
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from bot.limits import UTF8

MAX_BYTES = 64
BOARD_LINK = "w"      # a game's board link (``links.py``): its game id only
KINDS = {"c": 5, "o": 5, "b": 4, "h": 1, "m": 1, "j": 1, "a": 1, "v": 2, "g": 1, "l": 1, "s": 2, "p": 0, "w": 1}
# Turn buttons as issued before they named their seat (gid move index / group, gid move):
# still signed by us, so pressed after an upgrade they are stale, not forged.
LEGACY_KINDS = {"c": 3, "o": 3, "b": 2}
_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


class ForgedPayload(ValueError):
    """The payload was not issued by this service (bad signature or shape)."""


class StalePayload(ForgedPayload):
    """A genuine button of an older form (before an upgrade): its turn is gone."""


def b36(n: int) -> str:
    if n < 0:
        raise ValueError("negative")
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _ALPHABET[r] + out
        if n == 0:
            return out


@dataclass(frozen=True, slots=True)
class Payload:
    kind: str
    fields: tuple[str, ...]

    def int(self, index: int) -> int:
        return int(self.fields[index], 36)


# Payloads that name a game alone ("w", "m", "h": its board, my secret, my choices) go with every
# turn message of their game, the same each time: signed once and kept, for this many at most.
GAME_PAYLOADS_KEPT = 4096


class PayloadCodec:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        # The key's half of every signature, worked out once: each signature copies it.
        self._keyed = hmac.new(secret, digestmod=hashlib.sha256)
        self._game_payloads: dict[tuple[str, int | str], str] = {}

    def derived_key(self, purpose: str) -> bytes:
        """A key of its own for another use of this service's secret (the web board's passes)."""
        return hmac.new(self._secret, f"key|{purpose}".encode(), hashlib.sha256).digest()

    def _sig(self, body: str, bind: str) -> str:
        # A copy of the keyed HMAC, not the one-call ``hmac.digest``: the latter releases the GIL
        # on every call, and with the storage's thread waiting for it each signature then waits
        # for that thread's turn (about 40 µs instead of 2: a move signs dozens); a copy also
        # skips hashing the key again (3.4 µs a signature instead of 5).
        mac = self._keyed.copy()
        mac.update(f"{bind}|{body}".encode())
        return mac.digest()[:8].hex()

    def encode(self, kind: str, *fields: int | str, bind: str = "") -> str:
        if len(fields) == 1 and not bind and KINDS.get(kind) == 1:
            key = (kind, fields[0])
            text = self._game_payloads.get(key)
            if text is None:
                if len(self._game_payloads) >= GAME_PAYLOADS_KEPT:
                    self._game_payloads.clear()
                text = self._game_payloads[key] = self._encode(kind, *fields)
            return text
        return self._encode(kind, *fields, bind=bind)

    def _encode(self, kind: str, *fields: int | str, bind: str = "") -> str:
        parts = [kind] + [b36(f) if isinstance(f, int) else f for f in fields]
        if len(parts) - 1 != KINDS[kind] or any(not p.isalnum() for p in parts):
            raise ValueError(f"bad payload fields for {kind!r}: {fields!r}")
        body = "_".join(parts)
        text = f"{body}_{self._sig(body, bind)}"
        if not UTF8.fits(text, MAX_BYTES):
            raise ValueError("payload too long")
        return text

    def decode(self, text: str, *, bind: str = "") -> Payload:
        if not isinstance(text, str) or not UTF8.fits(text, MAX_BYTES):
            raise ForgedPayload("payload of the wrong size")
        parts = text.split("_")
        legacy = len(parts) >= 2 and LEGACY_KINDS.get(parts[0]) == len(parts) - 2
        if len(parts) < 2 or parts[0] not in KINDS or (len(parts) != KINDS[parts[0]] + 2 and not legacy):
            raise ForgedPayload("payload of the wrong shape")
        body, sig = "_".join(parts[:-1]), parts[-1]
        # compare_digest refuses non-ASCII text with a TypeError: such a signature is forged anyway.
        if not (text.isascii() and text.replace("_", "").isalnum()) \
                or not hmac.compare_digest(sig, self._sig(body, bind)):
            raise ForgedPayload("bad signature")
        if legacy:
            raise StalePayload("a turn button of the form before seats were named")
        return Payload(parts[0], tuple(parts[1:-1]))

    def kind_of(self, text: str) -> str | None:
        """The kind letter without checking the signature (to pick the binding)."""
        head = text.split("_", 1)[0] if isinstance(text, str) else ""
        return head if head in KINDS else None
