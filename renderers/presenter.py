"""What the bot asks of a game's renderers: words, buttons and pictures for its views and events.

Each game package under ``renderers/`` provides one ``Presenter`` (``PRESENTER``), listed in
``renderers/registry.py``. The bot service never looks inside a game's views, events or
choices: it hands them to the presenter, in the reader's language.

Only public events are passed for group messages; a private event (a dealt marker, new
holdings) goes to ``private_text`` for its own seat. Menus turn a seat's legal choices into
rows of buttons; an item either makes a choice or opens a submenu (``group``), for decisions
that would need too many buttons at once (Paris Paris's eviction choice, a trade's colours).
A submenu whose options depend on the seat's secrets is marked ``private``: the bot opens it
only in that seat's private chat (the group learns only what the item that opened it says).
``spots`` says where the choices that are places sit on the pictures, for a board that is tapped.
"""

from __future__ import annotations

import importlib
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from i18n import t

from .scene import Scene

# Where a player reads the texts: a chat with buttons (Telegram, Discord) or the terminal.
CHAT = "chat"
TERMINAL = "terminal"


@dataclass(frozen=True, slots=True)
class MenuItem:
    label: str
    choice: Any = None            # a legal choice: pressing the button makes it
    group: str | None = None      # or a submenu this button opens (a key the presenter reads back)
    colour: str | None = None     # a colour id, for platforms that style buttons
    key: int | None = None        # the number the map shows for it, when it has one
    also: tuple[int, ...] = ()    # other numbers the map shows for the same choice (two equal tiles)
    letter: str | None = None     # a fixed key for an action that is always there (Undo "u"), never a number
    private: bool = False         # the submenu it opens depends on the seat's secrets (see Menu)


@dataclass(frozen=True, slots=True)
class Menu:
    rows: tuple[tuple[MenuItem, ...], ...]
    text: str | None = None       # what the submenu asks; None at the top level (the prompt says it)
    back: bool = False            # a submenu offers a way back to the top level
    # Its options depend on what only this seat may see (the colours it holds): the service
    # offers it only in the seat's private chat, never on a message the group reads.
    private: bool = False

    def items(self) -> list[MenuItem]:
        return [item for row in self.rows for item in row]


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a legal choice sits on a picture the presenter draws: a box in that picture's pixels."""

    choice: Any                          # one of the choices passed in (the same object/value)
    box: tuple[int, int, int, int]       # left, top, right, bottom, in pixels of that picture
    picture: str = "map"                 # "map": render("map", public view, ...); "seat": render_private(seat view, ...)
    # The place's own shape, for a board that lights it: a polygon's corners (a hex), or a
    # round place (a badge) filling the box; neither: the box itself (a square, a row).
    outline: tuple[tuple[int, int], ...] = ()
    round: bool = False


class ChoiceNotFound(LookupError):
    """Typed text that names no legal choice; ``candidates`` are the labels it could mean."""

    def __init__(self, text: str, candidates: Sequence[str] = (), *, reason: str = "unknown") -> None:
        super().__init__(text)
        self.text = text
        self.candidates = tuple(candidates)
        self.reason = reason      # "unknown" | "ambiguous" | "not_now" (a real choice, not legal now)


class Presenter(ABC):
    game_id: str
    image_prefix: str             # file names of pictures: "<prefix>-<game id>-..."
    text_prefix: str              # the game's catalog keys begin with it: "pc" for "pc.rules", "pc.help" ...

    def title(self, language: str) -> str:
        return t(language, f"{self.text_prefix}.name")

    def rules_text(self, language: str) -> str:
        return t(language, f"{self.text_prefix}.rules")

    def help_text(self, language: str) -> str:
        return t(language, f"{self.text_prefix}.help")

    def option_value_text(self, name: str, value: Any, language: str) -> str:
        return t(language, f"{self.text_prefix}.option.{name}.{value}")

    def option_name_text(self, name: str, language: str) -> str:
        return t(language, f"{self.text_prefix}.option.{name}")

    def option_help_text(self, name: str, language: str) -> str:
        """What the option changes, in a sentence ("Only you see your Lire ...")."""
        return t(language, f"{self.text_prefix}.option_help.{name}")

    def board_help(self, language: str) -> str:
        """What the board command shows, for the help ("the board, scores and tiles on offer")."""
        return t(language, f"{self.text_prefix}.help.board")

    def secret_help(self, language: str) -> str:
        """What the secret command shows, for the help and the private chat's greeting."""
        return t(language, f"{self.text_prefix}.help.secret")

    # ---- turns and cycles ----------------------------------------------------------------
    @abstractmethod
    def status_line(self, view: Any, language: str) -> str:
        """Where the game stands ("Round 3/15 · 10 stacks left")."""

    @abstractmethod
    def cycle_done_line(self, view: Any, cycle: int, language: str) -> str:
        """The heading of a finished cycle's prompt ("Round 3/15: done")."""

    @abstractmethod
    def prompt_line(self, view: Any, language: str, surface: str = CHAT) -> str:
        """Who must act now and what they choose ("👉 Ann, your turn: pick a tile."), in the
        words of ``surface`` (a chat's buttons are tapped, a terminal's choices typed)."""

    @abstractmethod
    def cycle_over_line(self, view: Any, cycle: int, language: str) -> str:
        """The first line of the picture posted after a cycle ("Round 3/15 is over.")."""

    def cycle_label(self, view: Any, cycle: int) -> str:
        """A cycle's part of its picture's file name (ASCII letters, digits and dashes):
        "round7" by default; a game whose cycles are shorter than rounds names them its way."""
        return f"round{cycle}"

    @abstractmethod
    def narrate(self, events: Sequence[Any], players: Sequence[str], language: str) -> list[str]:
        """One line per public event worth words."""

    def split_cycle(self, events: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        """(the players' moves, what the end of the cycle brought): moves go with the prompt,
        the outcome with the picture. Default: all moves."""
        return list(events), []

    @abstractmethod
    def started_lines(self, view: Any, language: str) -> list[str]:
        """What the group reads when the game starts (players, first player, public set-up)."""

    @abstractmethod
    def scores_line(self, view: Any, scores: Sequence[int], language: str) -> str: ...

    @abstractmethod
    def final_lines(self, view: Any, language: str) -> list[str]:
        """The end of the game: winners and scores."""

    # ---- secrets ----------------------------------------------------------------------------
    @abstractmethod
    def private_text(self, event: Any, view: Any, language: str, chat: str) -> str | None:
        """A private event (a dealt marker, new holdings) as a message to its seat; None: no message."""

    @abstractmethod
    def secret_text(self, view: Any, language: str, chat: str) -> str | None:
        """The viewer's secret on request ("your marker is blue"); None when there is none."""

    @abstractmethod
    def secret_button(self, language: str) -> str:
        """The label of the button that shows a player their secret privately."""

    @abstractmethod
    def no_secret_text(self, language: str) -> str:
        """The answer to a player who asks for a secret but holds none in a running game here."""

    # ---- choices ------------------------------------------------------------------------------
    def back_text(self, language: str) -> str:
        """The answer to a press of Back: the top-level menu is shown again."""
        return t(language, "bot.reply.back")

    @abstractmethod
    def menu(self, view: Any, choices: Sequence[Any], language: str, group: str | None = None) -> Menu:
        """Buttons for ``choices`` (the seat's legal choices now); ``group``: an open submenu."""

    @abstractmethod
    def choice_text(self, choice: Any, view: Any, language: str) -> str:
        """A made choice in words, for the one who made it ("Done: you opened a shop at ...")."""

    def short_choice_text(self, choice: Any, language: str) -> str:
        """A choice in a few words, for a note ("the AI played for them: ...")."""
        return str(choice)

    def find_item(self, view: Any, choices: Sequence[Any], text: str, language: str) -> MenuItem:
        """The menu item typed ``text`` means: its number, or the start of its label (a choice,
        or a submenu to open). Raises ``ChoiceNotFound`` (with candidates when ambiguous)."""
        items = self.menu(view, choices, language).items()
        text = " ".join(str(text).split())
        if text.isascii() and text.isdigit() and len(text) <= 4:
            number = int(text)
            for index, item in enumerate(items, 1):
                if (item.key if item.key is not None else index) == number or number in item.also:
                    return item
            raise ChoiceNotFound(text, reason="unknown")
        folded = _fold(text)
        lettered = [item for item in items if item.letter and item.letter == folded]
        if lettered:
            return lettered[0]
        hits = [item for item in items if _label_words(item.label).startswith(folded)]
        if not hits:        # any word of the name, as the map may show it shorter ("Pompidou")
            hits = [item for item in items
                    if any(word.startswith(folded) for word in _label_words(item.label).split())]
        if len(hits) == 1:
            return hits[0]
        exact = [item for item in hits if _label_words(item.label) == folded]
        if len(exact) == 1:
            return exact[0]
        if hits:
            raise ChoiceNotFound(text, [item.label for item in hits], reason="ambiguous")
        # A colour word ("blue", as the brackets of "Madeleine (blue)" say): the one item of
        # that colour; several: the player picks among them.
        coloured = [item for item in items if item.colour and len(folded) >= 3
                    and _fold(self.colour_name(item.colour, language) or "").startswith(folded)]
        if len(coloured) == 1:
            return coloured[0]
        if coloured:
            raise ChoiceNotFound(text, [item.label for item in coloured], reason="ambiguous")
        raise ChoiceNotFound(text, self.not_now(view, text, language), reason="unknown")

    def spots(self, picture: str, view: Any, choices: Sequence[Any], *, layout: str = "landscape") -> list[Spot]:
        """Where each of ``choices`` (the seat's legal choices now) that is a place on the picture ``picture``
        sits, drawn at ``layout``; ``view`` is the acting seat's own view (``match.view(seat)``). Default: [].

        "map" is ``render("map", public view, ...)``, "seat" is ``render_private(view, ...)``. The boxes
        do not depend on the language; a choice may sit in several places (a tile's badge and its row),
        and choices that are no place (a colour word, "done") have none: a menu offers them."""
        return []

    def colour_name(self, colour: str, language: str) -> str | None:
        """The word for a ``MenuItem.colour`` in ``language`` ("blue"), for typed choices; None: none."""
        return None

    def colour_emoji(self) -> dict[str, str]:
        """The emoji the game's texts write each colour with (colour id -> emoji): where a text
        shows one, a web page shows the colour's chip and name instead. Default: none."""
        return {}

    def colour_rgb(self, colour: str) -> tuple[int, int, int] | None:
        """The colour a ``MenuItem.colour`` is drawn in on the pictures, for a chip beside its
        name on the web board; None: none."""
        return None

    def not_now(self, view: Any, text: str, language: str) -> list[str]:
        """Names of real things ``text`` may mean that are not a choice now (a tile not on offer)."""
        return []

    def not_now_text(self, view: Any, names: Sequence[str], language: str) -> str:
        """The answer to a player who named ``names`` (from ``not_now``): not a choice now."""
        return t(language, "bot.err.not_now", text=", ".join(names))

    # ---- boards and pictures ---------------------------------------------------------------------
    @abstractmethod
    def board_text(self, view: Any, language: str) -> str: ...

    @abstractmethod
    def error_text(self, exc: Exception, players: Sequence[str], language: str) -> str: ...

    @abstractmethod
    def render(self, kind: str, view: Any, events: Sequence[Any], language: str, *,
               layout: str = "landscape") -> bytes:
        """A PNG: "map" (the board after a cycle, with what ``events`` changed) or "final".
        ``view`` is always the public view and ``events`` only public ones."""

    def picture_subject(self, kind: str, view: Any, language: str) -> str:
        """What a picture is, in a few words ("The map of Paris after round 3."): the first line
        of its description. ``kind``: "map", "final" or "seat" (a seat's own board)."""
        return t(language, {"final": "bot.alt.final", "seat": "bot.alt.seat"}.get(kind, "bot.alt.map"))

    def picture_description(self, kind: str, view: Any | None, events: Sequence[Any], players: Sequence[str],
                            language: str) -> str:
        """A picture in words, for those who cannot see it (screen readers read Discord's
        attachment description): what it is, the board as the terminal prints it (whose turn,
        the scores), and what changed (the events it highlights), within ``DESCRIPTION_LIMIT``.
        ``view``: the state the picture shows (None: not at hand, the board is left out)."""
        lines = [self.picture_subject(kind, view, language)]
        if view is not None:
            if kind == "final":
                lines += self.final_lines(view, language)
            lines.append(self.board_text(view, language))
        changed = self.narrate(events, players, language)
        if changed:
            lines.append(t(language, "bot.alt.changed"))
            lines += changed
        return fit_description(lines)

    # ---- the board drawn in a page (renderers/scene.py) ---------------------------------------
    # The game's module (relative to its presenter's package) that describes the "map" picture as a
    # scene: ``map_scene(view, public events, language, layout)``, ``ART_NAMES``, ``art(name)`` and
    # ``board_art(layout, language)``;
    # None: the page shows the picture itself.
    mapscene: str | None = None

    def _mapscene(self) -> Any:
        assert self.mapscene is not None, "asked only of a game that draws scenes"
        return importlib.import_module(self.mapscene, type(self).__module__.rpartition(".")[0])

    def scene(self, view: Any, events: Sequence[Any], language: str, *, layout: str = "landscape") -> Scene | None:
        """The "map" picture of ``render`` (the same public view and events) as a page draws it: a
        static board of ``art_names`` with the pieces, marks and words on it now, at the very
        places the picture has them. None: the page shows the picture itself."""
        if self.mapscene is None:
            return None
        scene: Scene = self._mapscene().map_scene(view, [e for e in events if e.visible_to(None)], language, layout)
        return scene

    def art_names(self) -> frozenset[str]:
        """The game's closed set of static pictures and sprites a scene names (the static board,
        its pieces): nothing else is ever drawn for a page by name."""
        if self.mapscene is None:
            return frozenset()
        names: frozenset[str] = self._mapscene().ART_NAMES
        return names

    def board_art(self, layout: str, language: str) -> tuple[str, ...]:
        """The art of ``art_names`` that every scene of ``layout`` and ``language`` shows, whatever
        the game's state (its static board first): what a page opening may fetch before it has
        read its state. (): a game without scenes."""
        if self.mapscene is None:
            return ()
        names: tuple[str, ...] = self._mapscene().board_art(layout, language)
        return names

    def art(self, name: str) -> bytes:
        """One of ``art_names`` as a WebP picture (the same bytes each time)."""
        if self.mapscene is None:
            raise KeyError(name)
        image: bytes = self._mapscene().art(name)
        return image

    # A presenter that can draw one seat's own board (its plans, its secrets) sets this; the
    # service then sends that picture privately to the seat with its choices.
    private_pictures: bool = False

    def render_private(self, view: Any, events: Sequence[Any], language: str, *,
                       layout: str = "landscape") -> bytes:
        """A PNG of one seat's own view (``view(seat)``, the events that seat may see), sent
        only to that seat. Only called where ``private_pictures`` is set."""
        raise NotImplementedError(f"{type(self).__name__} draws no private pictures")

    def render_private_text(self, view: Any, language: str) -> str | None:
        """What ``render_private`` draws, as monospace text (one seat's own view), for a surface
        that prints text (the terminal); None: the game has no such text."""
        return None


# Discord's limit for an attachment's description (characters).
DESCRIPTION_LIMIT = 1024


def fit_description(lines: Sequence[str], limit: int = DESCRIPTION_LIMIT) -> str:
    """``lines`` joined, the last ones left out (then cut, with "…") as far as ``limit`` needs."""
    text = "\n".join(line for line in lines if line)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    if "\n" in cut[limit // 2:]:
        cut = cut[:cut.rindex("\n")]
    return cut.rstrip() + "…"


def _label_words(label: str) -> str:
    """A label without its leading emoji and number, folded for prefix matching."""
    words = label.split("·", 1)[-1] if "·" in label else label
    return _fold(_strip_symbols(words))


def _strip_symbols(text: str) -> str:
    """``text`` without the spaces and symbols (a game's colour emoji) at either end."""
    def decoration(ch: str) -> bool:
        return ch.isspace() or unicodedata.category(ch) in ("So", "Sk", "Mn", "Cf")
    start, end = 0, len(text)
    while start < end and decoration(text[start]):
        start += 1
    while end > start and decoration(text[end - 1]):
        end -= 1
    return text[start:end]


def _fold(text: str) -> str:
    """Lower case without accents, hyphens as spaces: "opera" finds "Opéra", "notre dame" "Notre-Dame"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("-", " "))
    return "".join(c for c in decomposed if not unicodedata.combining(c))
