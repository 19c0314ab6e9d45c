"""Renderers know a choice through the ``Choice`` protocol (engine/interface.py): where it sits on the
board (``place()``) and what its button names (``label()``), never its engine class. A stand-in choice
that only answers those two is drawn and said as the engine's own choice with the same place and label."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.interface import BoardPlace, Label
from engine.papa_paolo.definition import GAME as PAPA
from engine.papa_paolo.steps import Pizzas, Place, Step
from engine.paris_connection.actions import Build
from engine.registry import GAMES
from renderers.registry import PRESENTERS


@dataclass(frozen=True, slots=True)
class StandIn(Step):
    """A Papà Paolo step of no engine class: only its place and its label."""

    verb: ClassVar[str] = "stand-in"
    where: BoardPlace | None
    names: Label

    def __str__(self) -> str:
        return "stand-in"

    def label(self) -> Label:
        return self.names

    def place(self) -> BoardPlace | None:
        return self.where


@dataclass(frozen=True, slots=True)
class Answering:
    """Any game's choice of no engine class: only its place and its label."""

    where: BoardPlace | None
    names: Label

    def label(self) -> Label:
        return self.names

    def place(self) -> BoardPlace | None:
        return self.where


def test_papa_paolo_spots_and_words_read_place_and_label():
    match = PAPA.new_match(["Ann", "Bob"], seed=3)
    seat = match.to_act()[0]
    view = match.view(seat)
    real = match.legal_choices(seat)[1]
    assert isinstance(real, Place)
    stand_in = StandIn(real.place(), real.label())
    presenter = PRESENTERS["papa-paolo"]
    assert [s.box for s in presenter.spots("map", view, [stand_in])] == \
        [s.box for s in presenter.spots("map", view, [real])] != []
    assert presenter.short_choice_text(StandIn(None, Pizzas(3).label()), "en") == \
        presenter.short_choice_text(Pizzas(3), "en")


def test_paris_paris_spots_and_words_read_place_and_label():
    match = GAMES["paris-paris"].new_match(["Ann", "Bob"], seed=3)
    seat = match.to_act()[0]
    view = match.view(seat)
    real = match.legal_choices(seat)[0]
    stand_in = Answering(real.place(), real.label())
    presenter = PRESENTERS["paris-paris"]
    assert [s.box for s in presenter.spots("map", view, [stand_in])] == \
        [s.box for s in presenter.spots("map", view, [real])] != []
    assert presenter.short_choice_text(stand_in, "en") == presenter.short_choice_text(real, "en")


def test_paris_connection_words_read_the_label():
    presenter = PRESENTERS["paris-connection"]
    build = Build("red")
    stand_in = Answering(build.place(), build.label())
    assert presenter.short_choice_text(stand_in, "en") == presenter.short_choice_text(build, "en")
    match = GAMES["paris-connection"].new_match(["Ann", "Bob", "Cat"], seed=3)
    view = match.view(match.to_act()[0])
    assert presenter.choice_text(stand_in, view, "en") == presenter.choice_text(build, view, "en")
