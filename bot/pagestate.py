"""What a page of the live web board shows one viewer: a typed value, encoded only at the socket.

The service builds a ``PageState`` (``bot.service.board.page``) and the web adapter writes it as JSON for
the page (``bot.web.hub``), with each picture named by its endpoint's address (``ShownPicture``).
msgspec writes a Struct's fields in the order they are declared here, and leaves out an optional
field at its default: the frames read as the hand-built dicts they replace did.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from renderers.scene import Scene

TurnKind = Literal["yours", "waiting", "planning", "over", "lobby"]


class Value(msgspec.Struct, frozen=True, omit_defaults=True):
    """A part of a page's state: immutable, and without its optional fields left at their default."""


class GameLabel(Value, frozen=True):
    """Which game the page shows: its id, its kind, the kind's title and the chat it is played in."""

    id: int
    kind: str
    title: str
    chat: str


class Player(Value, frozen=True):
    """A seat as the page lists it; ``acting`` only while the game is played."""

    name: str
    ai: bool
    you: bool
    acting: bool | None = None


class Colour(Value, frozen=True):
    """A colour a choice is made in, as the page shows it: a chip of ``rgb`` beside its ``name``."""

    name: str
    rgb: str            # "#rrggbb"


class TurnLine(Value, frozen=True):
    """What the page says about whose move it is, in one line: the viewer's turn, whom the game
    waits for, that others are planning in private (never what), or that the game is over. A
    page that loses its server says it is paused itself (it cannot be told)."""

    kind: TurnKind
    text: str


class PictureName(Value, frozen=True, kw_only=True):
    """A picture as a page names it (``Pages.picture_request`` reads the name back): the public
    picture after ``moves`` moves, or a seat's own board by its own ``steps`` and its ``phase``."""

    kind: str
    moves: int | None = None
    seat: int | None = None
    steps: int | None = None
    phase: int | None = None
    cycle: int
    layout: str

    def query(self) -> list[tuple[str, int | str]]:
        """Its fields as the picture endpoint's query, sorted by name."""
        return sorted((key, value) for key, value in msgspec.structs.asdict(self).items() if value is not None)


class Picture(Value, frozen=True):
    """A picture the page shows, by name ("map", "seat"), with the words a screen reader says."""

    name: str
    render: PictureName
    alt: str
    scene: Scene | None = None      # the page draws this picture itself (``renderers.scene``)


class ShownPicture(Value, frozen=True):
    """A ``Picture`` as the page receives it: at the address it is fetched from."""

    name: str
    src: str
    alt: str
    scene: dict[str, Any] | None = None     # ``Scene.wire``: the pieces and the art's addresses


class MenuItem(Value, frozen=True):
    """One button of a seat's menu: a choice (its signed payload ``act`` and its written form) or
    a submenu it opens (``open``), and the colour chip it is made in, if any."""

    label: str
    act: str | None = None
    choice: str | None = None
    open: str | None = None
    colour: Colour | None = None


class MenuGroup(Value, frozen=True):
    """A submenu: its question and its rows."""

    text: str | None
    rows: list[list[MenuItem]]


class Spot(Value, frozen=True):
    """Where a choice sits on a picture: a box (and an outline, or round), and its signed payload."""

    picture: str
    box: list[int]
    act: str
    label: str
    outline: list[list[int]] | None = None
    round: bool = False


class Choices(Value, frozen=True):
    """The seat's legal choices as its page offers them: the menu, every submenu, the spots."""

    rows: list[list[MenuItem]]
    groups: dict[str, MenuGroup]
    spots: list[Spot]

    def items(self) -> list[MenuItem]:
        """Every item of the menu and of its submenus, in order."""
        rows = [*self.rows, *(row for group in self.groups.values() for row in group.rows)]
        return [item for row in rows for item in row]


class ReviewSpan(Value, frozen=True):
    """A finished game stepped through: the move shown, the moves in all, each round's first move."""

    at: int
    total: int
    rounds: list[int]


class PageState(Value, frozen=True):
    """One viewer's page of a game (``bot.service.board.page.page_state``)."""

    game: GameLabel
    status: str
    seat: int | None
    language: str
    layout: str
    texts: dict[str, str]
    players: list[Player]
    colours: dict[str, Colour]
    turn: TurnLine
    lines: list[str]
    prompt: str | None = None            # while the game is played
    final: list[str] | None = None       # once it is over
    pictures: list[Picture] | list[ShownPicture] | None = None     # none in the lobby
    secret: str | None = None            # a seat's
    choices: Choices | None = None       # a seat's, while it is to act
    log: list[str] | None = None         # none in the lobby
    review: ReviewSpan | None = None     # a finished game's
