"""Player names as every game accepts them: non-empty, distinct text that can be written anywhere."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import InvalidSetup


def check_names(players: Sequence[str]) -> None:
    """``InvalidSetup`` unless each name is non-empty text, valid Unicode, and different from the others.

    A lone surrogate ("\\ud800") is a str that no file, database or terminal can encode: refused
    here, with the seat it is in, instead of failing later wherever the name is written.
    """
    if isinstance(players, str) or not all(isinstance(p, str) and p.strip() for p in players):
        raise InvalidSetup("every player needs a name")
    for seat, name in enumerate(players):
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidSetup(f"the name of player {seat + 1} is not valid text", seat=seat) from None
    if len(set(players)) != len(players):
        raise InvalidSetup("player names must be different")


def check_players(players: Sequence[str], game: str, fewest: int, most: int) -> int:
    """How many players ``players`` names, or ``InvalidSetup``: a list of ``fewest`` to ``most``
    different names (``game`` names the game in the message)."""
    if isinstance(players, str):
        raise InvalidSetup("players must be a list of names")
    n = len(players)
    if not fewest <= n <= most:
        raise InvalidSetup(f"{game} is for {fewest} to {most} players, not {n}")
    check_names(players)
    return n
