"""The chats' buttons that open a game's web board: where each one leads, decided at delivery.

The messages (``messages``) say only "a board button for game N" (``BOARD``: the live board;
``REVIEW``: a finished game, stepped through), as a button whose payload is the game's signed
reference (``codec.encode("w", game_id)``). What it becomes depends on where the message goes
and on this process's settings, so it is decided when the message is delivered (``resolve``),
with a pass issued then. A platform says how it opens the board (``Capabilities.mini_app``):

  no public address (BOARDCHAT_WEB_URL unset)   no button at all
  a group's message (everyone reads it)         a Mini App platform, the bot having one: a direct
                                                link to it (t.me/<bot>/<app>?startapp=<reference>,
                                                built by the adapter, which knows the bot's name);
                                                the platform logs the person in, and a player gets
                                                their seat there. Elsewhere: a spectator's link.
  a person's private message                    a Mini App platform: a Mini App button (``web_app``:
                                                private chats only) to <url>/board?g=<reference>;
                                                elsewhere a link with that person's pass
                                                (<url>/board#t=<pass>: in the fragment).
  the final standings (``REVIEW``)              a spectator's link, on every platform

A group's link carries no seat and so nothing of anyone's secret: a spectator's page shows the
public view only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from urllib.parse import urlencode

from bot.board import LINK_GAME, LINK_LANGUAGE, link_query
from bot.contract import Button, Reply, User
from bot.platforms import capabilities
from i18n import normalize_language

from ..clock import Clock
from ..tokens.passes import SEAT_PASS_SECONDS, SPECTATOR_PASS_SECONDS, Passes
from ..tokens.payloads import ForgedPayload, PayloadCodec

BOARD = "board"        # the game's live board (a service kind: resolved before an adapter sees it)
REVIEW = "review"      # a finished game's board, stepped through

Rows = tuple[tuple[Button, ...], ...]


class BoardLinks:
    """Turns the messages' board buttons into links. ``public_url``: the board's public HTTPS
    address (None: no links anywhere); ``mini_app``: the bot's Mini App's short name (BotFather
    ``/newapp``), None when the bot has none (a group on a Mini App platform then gets a
    spectator's link). ``kind_of``: a game's kind if this process knows it without a read (None:
    not known), said in the link's query so the page's answer preloads that game's static board."""

    def __init__(self, codec: PayloadCodec, passes: Passes, clock: Clock, *,
                 public_url: str | None = None, mini_app: str | None = None,
                 kind_of: Callable[[int], str | None] = lambda game_id: None) -> None:
        self.codec = codec
        self.kind_of = kind_of
        self.passes = passes
        self.clock = clock
        self.public_url = public_url.rstrip("/") if public_url else None
        self.mini_app = mini_app

    def resolve(self, rows: Rows, platform: str, viewer: User | None, language: str) -> Rows:
        """``rows`` with each board button made a link for ``viewer`` (None: everyone in a
        group), or dropped where there is no public address; a row left empty goes too."""
        if not any(b.kind in (BOARD, REVIEW) for row in rows for b in row):
            return rows
        out = []
        for row in rows:
            kept = tuple(made for b in row if (made := self._made(b, platform, viewer, language)) is not None)
            if kept:
                out.append(kept)
        return tuple(out)

    def reply(self, reply: Reply, user: User, language: str) -> Reply:
        """A reply's board buttons, for the user who acted: a reply seen by them alone
        (``Capabilities.private_replies``) carries their own pass; one that may be posted in the
        group (a command's answer there) gets the group's button."""
        viewer = user if capabilities(user.platform).private_replies else None
        resolved = self.resolve(reply.buttons, user.platform, viewer, language)
        if resolved is reply.buttons:
            return reply
        return dataclasses.replace(reply, buttons=resolved)

    def _made(self, button: Button, platform: str, viewer: User | None, language: str) -> Button | None:
        if button.kind not in (BOARD, REVIEW):
            return button
        if self.public_url is None:
            return None
        try:
            game_id = self.codec.decode(button.payload).int(0)
        except (ForgedPayload, ValueError):
            return None
        mini_app = capabilities(platform).mini_app
        if button.kind == REVIEW or viewer is None and not (mini_app and self.mini_app):
            return Button(button.label, self.link(game_id, platform, None, "", language), "link")
        if viewer is None:
            return Button(button.label, button.payload, "mini_app")
        if mini_app:
            query = {"g": button.payload}
            if (game_kind := self.kind_of(game_id)) is not None:
                query |= {LINK_GAME: game_kind, LINK_LANGUAGE: normalize_language(viewer.language or language)}
            return Button(button.label, f"{self.public_url}/board?{urlencode(query)}", "web_app")
        return Button(button.label, self.link(game_id, platform, viewer.id, viewer.name,
                                              normalize_language(viewer.language or language)), "link")

    def link(self, game_id: int, platform: str, user_id: str | None, name: str, language: str) -> str:
        """A signed link to the game's board for one person (``user_id`` None: a spectator)."""
        seconds = SPECTATOR_PASS_SECONDS if user_id is None else SEAT_PASS_SECONDS
        token = self.passes.issue(game_id, platform, user_id, name, language, now=self.clock.now(), seconds=seconds)
        # In the fragment: a browser never sends it, so no proxy's log keeps it (passes.py).
        query = link_query(self.kind_of(game_id), language)
        return f"{self.public_url}/board{query}#{urlencode({'t': token})}"

