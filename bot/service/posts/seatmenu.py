"""A seat's menu of its legal choices, built once for the chat's buttons and the web page alike.

Who must act and what they are asked (``decision_line``), and the menu the acting seat chooses
from (``SeatChoices``): the presenter's menu of the seat's legal choices, every item signed once,
bound to the seat and its own position (``moves_by`` and when it began to act). A choice is
pressed by its index in the seat's legal choices (``"c"``), a submenu by its key (``"o"``), the way
back by ``"b"``; the service never reads either key. The chat renders a ``SeatMenu`` as buttons
(``TurnMessages.choice_buttons``), the page as its menu and the spots on its pictures
(``page.choices``): a tap on the page is the very payload of the button.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.games import GameKind
from engine.interface import Dynamics
from i18n import t
from renderers.presenter import CHAT

from ..game.model import GameMeta
from ..game.turnstate import TurnState
from ..tokens.payloads import PayloadCodec

MAX_SUBMENUS = 64      # submenus a page opens itself, at most (a menu that opened itself forever)


def private_choices(kind: GameKind, match: Any) -> bool:
    """Whether each acting seat gets its choices in private: in a game with simultaneous
    phases (declared), or whenever several seats act at once. Otherwise the one acting seat
    chooses on the group's turn message, as everyone watches."""
    return kind.definition.dynamics == Dynamics.SIMULTANEOUS or len(match.to_act()) > 1


def acting_names(meta: GameMeta, match: Any) -> list[str]:
    return [meta.seats[s].name for s in match.to_act()]


def waiting_line(meta: GameMeta, match: Any, language: str | None = None) -> str:
    """Who the game waits for (never what anyone chose)."""
    return t(language or meta.language, "bot.msg.waiting", players=", ".join(acting_names(meta, match)))


def decision_line(meta: GameMeta, kind: GameKind, match: Any, seat: int | None, language: str,
                  surface: str = CHAT, *, view_of: Callable[[int | None], Any] | None = None) -> str:
    """Who must act and what they choose, for ``seat`` (None: everyone, the group's message).
    Where seats choose in private, an acting seat reads its own question and everyone else only
    who is still to choose; otherwise everyone reads the public question. ``view_of``: the match's
    views where they are made already (``match.view`` otherwise)."""
    view = match.view if view_of is None else view_of
    if private_choices(kind, match):
        if seat is not None and seat in match.to_act():
            return kind.presenter.prompt_line(view(seat), language, surface)
        return waiting_line(meta, match, language)
    return kind.presenter.prompt_line(view(None), language, surface)


@dataclass(frozen=True, slots=True)
class SeatItem:
    """One item of a seat's menu: a choice (``choice``, its written form) or a submenu it opens
    (``group``), with its signed ``payload``, and what the game shows for it (its colour id, the
    number on its board, a fixed key to type)."""

    label: str
    payload: str
    choice: str | None = None
    group: str | None = None
    colour: str | None = None
    key: int | None = None
    letter: str | None = None


@dataclass(frozen=True, slots=True)
class SeatMenu:
    """A menu of a seat's choices: its question (None at the top: the prompt asks it), its rows,
    the signed way back to the top (None: it offers none), and whether it depends on the seat's
    secrets (offered only in private)."""

    text: str | None
    rows: tuple[tuple[SeatItem, ...], ...]
    back: str | None
    private: bool

    def items(self) -> list[SeatItem]:
        return [item for row in self.rows for item in row]


class SeatChoices:
    """``seat``'s legal choices at its present position, in ``language``: its menus, and each
    choice's signed payload, made once."""

    def __init__(self, meta: GameMeta, kind: GameKind, match: Any, codec: PayloadCodec, seat: int, language: str,
                 turn: TurnState | None = None, *, view: Any = None) -> None:
        self.kind = kind
        self.codec = codec
        self.language = language
        self.view = match.view(seat) if view is None else view     # ``view``: the seat's, made already
        self.legal = match.legal_choices(seat)
        self._index = {str(choice): i for i, choice in enumerate(self.legal)}
        self._bound = (meta.id, seat, match.moves_by(seat), (meta.turn if turn is None else turn).acting_since(seat))
        self._payloads: dict[str, str] = {}

    def offers(self, choice: Any) -> bool:
        return str(choice) in self._index

    def payload(self, choice: Any) -> str:
        """The signed payload that makes ``choice`` (one of the seat's legal choices)."""
        return self._payload(str(choice))

    def _payload(self, written: str) -> str:
        """The signed payload of the legal choice written ``written``."""
        text = self._payloads.get(written)
        if text is None:
            text = self._payloads[written] = self.codec.encode("c", *self._bound, self._index[written])
        return text

    def menu(self, group_key: str | None = None) -> SeatMenu:
        """The top menu, or the submenu ``group_key`` opens."""
        menu = self.kind.presenter.menu(self.view, self.legal, self.language, group_key)
        rows = tuple(tuple(self._item(item) for item in row) for row in menu.rows)
        back = self.codec.encode("b", *self._bound) if menu.back else None
        return SeatMenu(menu.text, rows, back, menu.private)

    def _item(self, item: Any) -> SeatItem:
        if item.choice is not None:
            written = str(item.choice)
            return SeatItem(item.label, self._payload(written), written, None, item.colour, item.key, item.letter)
        assert item.group is not None, "a menu item makes a choice or opens a submenu"
        return SeatItem(item.label, self.codec.encode("o", *self._bound, item.group), None, item.group, item.colour,
                        item.key, item.letter)

    def submenus(self, top: SeatMenu) -> dict[str, SeatMenu]:
        """Every submenu ``top`` opens, and those they open in turn (at most ``MAX_SUBMENUS``), by key."""
        opened: dict[str, SeatMenu] = {}
        waiting = list(_groups(top.items()))
        while waiting and len(opened) < MAX_SUBMENUS:
            key = waiting.pop(0)
            if key in opened:
                continue
            opened[key] = sub = self.menu(key)
            waiting += [group for group in _groups(sub.items()) if group not in opened]
        return opened


def _groups(items: list[SeatItem]) -> Iterator[str]:
    return (item.group for item in items if item.group is not None)
