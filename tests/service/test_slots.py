"""The slots the service names are handed to adapters typed (``contract.Slot``): each name made by
``messages`` reads back as its kind, so no adapter parses a name (the terminal once looked for
":lobby" at its end)."""

from __future__ import annotations

from bot.contract import Slot, SlotKind
from bot.service.game.model import GameMeta
from bot.service.game.turnstate import TurnState
from bot.service.posts import messages as M


def test_every_slot_name_reads_back_as_its_kind():
    meta = GameMeta(id=41, platform="fake", chat_id="c1", chat_title="Chat", status="playing", host_id="ann",
                            options={}, seed=1, seats=[])
    names = {M.lobby_slot(meta): SlotKind.LOBBY, M.turn_slot(meta): SlotKind.TURN,
             M.prompt_slot(meta, 12): SlotKind.TURN, M.seat_slot(meta, 3): SlotKind.SEAT,
             M.notes_slot(meta, 3): SlotKind.NOTES}
    meta.turn = TurnState(turn_slot=M.prompt_slot(meta, 7))
    names[M.turn_slot(meta)] = SlotKind.TURN
    assert len(names) == 6
    assert {name: M.slot_of(name) for name in names} == {name: Slot(name, kind) for name, kind in names.items()}
