"""Tiny Hands for the bot: words, buttons and pictures (renderers/presenter.py).

A test-only game, so its words are English and written here; a real game's presenter asks the
catalogs (``t(language, "<game>.key")``, i18n/locales) for every text.

Menus. While choosing, a seat sees "Play a card…" (a submenu, group "c", one button per card of
its hand: what only that seat may see, so marked ``private``) and, once a card is chosen, "Done". In the claim phase
the seat to act sees one button per token on offer.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from renderers.presenter import CHAT, Menu, MenuItem, Presenter

from .game import ROUNDS, Done, Play, Take, TinyView


def _names(seats: Sequence[int], players: Sequence[str]) -> str:
    return ", ".join(players[s] for s in seats)


def _cards(cards: Sequence[int]) -> str:
    return " ".join(f"[{c}]" for c in cards) or "–"


class TinyPresenter(Presenter):
    game_id = "tiny-hands"
    image_prefix = "tiny"
    private_pictures = True       # render_private draws a seat's own hand
    text_prefix = "tiny"          # no catalog: its few texts are written out below

    def title(self, language: str) -> str:
        return "Tiny Hands"

    def rules_text(self, language: str) -> str:
        return "Each round choose one or two cards in secret; unique numbers score. Then take a token."

    def help_text(self, language: str) -> str:
        return "Press Play a card…, pick a card, then Done. Then take a token when it is your turn."

    def board_help(self, language: str) -> str:
        return "the scores and the tokens left"

    def secret_help(self, language: str) -> str:
        return "your hand"

    # ---- turns and cycles ----------------------------------------------------------------
    def status_line(self, view: TinyView, language: str) -> str:
        if view.phase == "over":
            return "Tiny Hands · game over"
        doing = "choosing cards" if view.phase == "plan" else "taking tokens"
        return f"Round {view.cycle}/{ROUNDS} · {doing}"

    def cycle_done_line(self, view: TinyView, cycle: int, language: str) -> str:
        return f"Round {cycle}/{ROUNDS}: done"

    def prompt_line(self, view: TinyView, language: str, surface: str = CHAT) -> str:
        if view.phase == "over":
            return "The game is over."
        if view.phase == "claim":
            return f"👉 {view.players[view.to_act[0]]}, take a token: {_cards(view.offer)}"
        if view.viewer is None:
            return "🤫 Everyone: choose one or two cards in private, then Done."
        return f"Your hand: {_cards(view.hand)} · chosen: {_cards(view.chosen)}"

    def cycle_over_line(self, view: TinyView, cycle: int, language: str) -> str:
        return f"Round {cycle}/{ROUNDS} is over."

    def narrate(self, events: Sequence[Any], players: Sequence[str], language: str) -> list[str]:
        lines = []
        for e in events:
            if e.kind == "seat_ready":
                lines.append(f"{players[e.seat]} has chosen.")
            elif e.kind == "hands_revealed":
                lines.append("Revealed: " + "; ".join(f"{p} {_cards(c)} +{g}" for p, c, g in
                                                      zip(players, e.chosen, e.gains, strict=True)))
            elif e.kind == "token_taken":
                lines.append(f"{players[e.seat]} takes token {e.value}.")
        return lines

    def split_cycle(self, events: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        outcome = {"cycle_ended", "game_ended"}
        return ([e for e in events if e.kind not in outcome | {"game_started"}],
                [e for e in events if e.kind in outcome])

    def started_lines(self, view: TinyView, language: str) -> list[str]:
        return [f"Tiny Hands with {_names(range(view.num_players), view.players)}.",
                "Everyone has a secret hand of 6 cards."]

    def scores_line(self, view: TinyView, scores: Sequence[int], language: str) -> str:
        return "Scores: " + ", ".join(f"{p} {s}" for p, s in zip(view.players, scores, strict=True))

    def final_lines(self, view: TinyView, language: str) -> list[str]:
        return ["🏁 Game over.", f"Winner: {_names(view.winners, view.players)}",
                self.scores_line(view, view.scores, language)]

    # ---- secrets ----------------------------------------------------------------------------
    def private_text(self, event: Any, view: TinyView, language: str, chat: str) -> str | None:
        if event.kind != "hand_dealt":
            return None
        where = f" in {chat}" if chat else ""
        return f"Your hand{where}: {_cards(event.hand)}"

    def secret_text(self, view: TinyView, language: str, chat: str) -> str | None:
        if view.hand is None:
            return None
        return f"Your hand{f' in {chat}' if chat else ''}: {_cards(view.hand)} · chosen: {_cards(view.chosen)}"

    def secret_button(self, language: str) -> str:
        return "🂠 My hand"

    def no_secret_text(self, language: str) -> str:
        return "You hold no cards in a game here."

    # ---- choices ------------------------------------------------------------------------------
    def menu(self, view: TinyView, choices: Sequence[Any], language: str, group: str | None = None) -> Menu:
        plays = [c for c in choices if isinstance(c, Play)]
        if group == "c" and plays:       # the cards of the seat's hand: a secret, so a private submenu
            rows = [tuple(MenuItem(f"🂠 {c.card}", choice=c) for c in plays[i:i + 5]) for i in range(0, len(plays), 5)]
            return Menu(tuple(rows), text="Which card?", back=True, private=True)
        takes = [MenuItem(f"🪙 Take {c.value}", choice=c) for c in choices if isinstance(c, Take)]
        top = ([MenuItem("🂠 Play a card…", group="c", private=True)] if plays else []) + takes
        done = [MenuItem("✅ Done", choice=c) for c in choices if isinstance(c, Done)]
        return Menu(tuple(row for row in (tuple(top), tuple(done)) if row))

    def choice_text(self, choice: Any, view: TinyView, language: str) -> str:
        if isinstance(choice, Play):
            return f"You chose card {choice.card}."
        if isinstance(choice, Done):
            return "Done: your cards are in."
        return f"You took token {choice.value}."

    def short_choice_text(self, choice: Any, language: str) -> str:
        return {Play: "a card", Done: "done", Take: f"token {getattr(choice, 'value', '')}"}[type(choice)]

    # ---- boards and pictures ---------------------------------------------------------------------
    def board_text(self, view: TinyView, language: str) -> str:
        lines = [self.status_line(view, language), self.scores_line(view, view.scores, language),
                 f"Tokens: {_cards(view.offer)}", f"Ready: {_names(view.ready, view.players) or '–'}"]
        if view.hand is not None:
            lines.append(f"Your hand: {_cards(view.hand)} · chosen: {_cards(view.chosen)}")
        return "\n".join(lines)

    def error_text(self, exc: Exception, players: Sequence[str], language: str) -> str:
        return f"Not possible: {exc}"

    def render(self, kind: str, view: TinyView, events: Sequence[Any], language: str, *,
               layout: str = "landscape") -> bytes:
        return _picture([kind, *self.board_text(view, language).splitlines(),
                         *self.narrate(events, view.players, language)])

    def render_private(self, view: TinyView, events: Sequence[Any], language: str, *,
                       layout: str = "landscape") -> bytes:
        """One seat's own board: its hand and the cards it has chosen so far."""
        return _picture([f"{view.players[view.viewer]}'s hand", *self.board_text(view, language).splitlines()])


def _picture(lines: Sequence[str]) -> bytes:
    """A small PNG of some lines of text (enough to prove where a picture goes and what it shows)."""
    image = Image.new("RGB", (420, 16 * len(lines) + 8), "white")
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((6, 4 + 16 * row), line, fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


PRESENTER = TinyPresenter()
