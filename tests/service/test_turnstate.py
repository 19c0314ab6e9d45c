"""The typed turn state (bot/service/game/turnstate.py): every shape older code stored reads into its
fields, the stored form round-trips, and games stored by the older code resume.

The older code's records are its own: tests/fixtures/turnstate-before-33.sqlite3 (made by
tests/fixtures/make_turnstate_fixture.py with the code before the turn state was typed) and
tests/fixtures/phases-before-31.sqlite3 (the code before the phase was kept as one fact).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from service_helpers import user

from bot.contract import Chat
from bot.service import GameService, ManualClock
from bot.service.game.phase import Phase
from bot.service.game.turnstate import Bank, OldPhase, TurnState
from bot.service.posts.turnmessages import TurnMessages
from i18n import t

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BEFORE_33 = FIXTURES / "turnstate-before-33.sqlite3"
BEFORE_31 = FIXTURES / "phases-before-31.sqlite3"
START = 1_700_000_000.0
HOUR, DAY = 3600.0, 86400.0


def stored(path: Path) -> dict[int, dict]:
    """Each game's stored turn state, as the JSON object in its row."""
    with sqlite3.connect(path) as db:
        return {gid: json.loads(extra) for gid, extra in db.execute("SELECT id, extra FROM games")}


def without_empty(record: dict) -> dict:
    """A stored object as it is written now: a field at its default is left out."""
    return {k: v for k, v in record.items() if v not in ({}, [], None)}


@pytest.fixture
async def old_service(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copyfile(BEFORE_33, path)
    clock = ManualClock(START)
    service = await GameService.open(str(path), clock=clock)
    yield service, clock
    await service.close()


def test_the_older_codes_records_read_into_their_fields():
    rows = {gid: TurnState.from_json(raw) for gid, raw in stored(BEFORE_33).items()}
    # chat1: Eli's bank ran out and the AI played for him; Dee's bank runs for her turn.
    bank = rows[1]
    assert bank.banks[1] == Bank(left=DAY, since=None, move=0, warned=False)     # at zero, then the bonus
    assert bank.banks[0].left == 3 * DAY and bank.banks[0].since is not None and bank.banks[0].move == 1
    (note,) = bank.notes_of(1)
    assert note.startswith("⌛") and "Eli" in note and bank.notes_of(2) == []
    assert bank.acting_since(0) == 1 and bank.phase == Phase(1) and bank.menus == {}
    # chat2: the first player browses the Trade submenu in private; Bob's chat is closed; reminded.
    trade = rows[2]
    assert trade.browsing is not None and trade.browsing[1].endswith(t("en", "pc.btn.trade").split(" ", 1)[-1])
    assert trade.menus == {trade.browsing[0]: (0, 0)}
    assert trade.unreachable == {"bob"} and trade.reminded_cycle == 1
    assert trade.phase.reminded and trade.phase.start == 0 and trade.since is None   # no move made yet
    assert trade.turn_slot == "g2:m0:turn"
    # chat3: the three of them plan deliveries in private, since move 49.
    planning = rows[3]
    assert planning.menus.keys() == {0, 1, 2} and all(p[1] == 49 for p in planning.menus.values())
    assert planning.since == {0: 49, 1: 49, 2: 49} and planning.phase.start == 49
    assert all(row.old_phase is None for row in rows.values())


def test_a_phase_stored_before_it_was_kept_reads_into_the_old_record():
    rows = {gid: TurnState.from_json(raw) for gid, raw in stored(BEFORE_31).items()}
    assert rows[1].old_phase == OldPhase(phase=49, phase_at=1700002940.0)
    assert rows[2].old_phase == OldPhase(phase=48, phase_at=1700006300.0)
    assert all(row.phase is None for row in rows.values())
    assert rows[2].since == {0: 49, 1: 48, 2: 49} and rows[2].menus == {1: (17, 48)}


@pytest.mark.parametrize("path", [BEFORE_33, BEFORE_31], ids=lambda p: p.stem)
def test_the_older_codes_records_are_written_back_as_they_were(path):
    for gid, raw in stored(path).items():
        state = TurnState.from_json(raw)
        assert state.to_json() == without_empty(raw), gid
        assert TurnState.from_json(json.loads(json.dumps(state.to_json()))) == state, gid


def test_shapes_older_still_read():
    # A list of seats (before each kept the position its buttons are bound to): positions unknown.
    assert TurnState.from_json({"menus": [2, 0]}).menus == {0: (-1, -1), 2: (-1, -1)}
    # "reminded_round" (before cycles had their name) was not read since: dropped.
    assert TurnState.from_json({"reminded_round": 3, "turn_slot": "g1:turn"}).to_json() == {"turn_slot": "g1:turn"}
    # A damaged phase is worked out again, as for an old record.
    assert TurnState.from_json({"turn_phase": {"began_at": 5.0}}).phase is None
    # Marks kept but none made yet is not "stored before marks were kept".
    assert TurnState.from_json({"since": {}}).since == {} and TurnState.from_json({}).since is None
    assert TurnState.from_json({"since": {}}).to_json() == {"since": {}}
    assert TurnState.from_json(None) == TurnState.from_json({}) == TurnState()


def test_changes_make_new_states():
    state = TurnState()
    marked = state.began_acting([2, 0], 7)
    assert marked.since == {0: 7, 2: 7} and state.since is None
    assert marked.acting_since(0) == 7 and marked.acting_since(1) == 0
    noted = state.noted(1, ["a"]).noted(2, ["b"]).noted(3, ["c", "d"])
    assert noted.notes == ((2, "b"), (3, "c"), (3, "d")) and noted.noted(3, []) is noted
    closed = state.reachable("ann", False).reachable("bob", False).reachable("ann", True)
    assert closed.unreachable == {"bob"}
    shown = state.showing(2, (3, 1)).showing(0, (1, 1))
    assert list(shown.menus) == [0, 2] and shown.menus[2] == (3, 1)
    old = TurnState(old_phase=OldPhase(phase=4))
    assert old.with_phase(Phase(5)) == TurnState(phase=Phase(5))


async def test_a_game_browsing_in_private_with_a_closed_chat_resumes(old_service, transport):
    """chat2: Bob opens his private chat again: the group's prompt no longer says it is closed
    and still says the first player is choosing in private; the deadline armed by the older
    code plays for them, the note told."""
    service, clock = old_service
    c = Chat("fake", "chat2", "Chat 2")
    info = await service.game_info(c)
    mover = info.seats[info.to_move].name
    await service.private_started(user("Bob"))
    await service.deliver_pending(transport)
    prompt = transport.group()[-1]
    assert t("en", "bot.msg.choosing_privately", player=mover, what=t("en", "pc.btn.trade")) in prompt.text
    assert t("en", "bot.msg.private_closed", player="Bob") not in prompt.text
    (deadline,) = await service.storage.timers_of(2)
    clock.advance(deadline.due - clock.now())
    assert await service.fire_due_timers() >= 1               # (the other games' timers too)
    await service.deliver_pending(transport)
    assert (await service.game_info(c)).moves > 0
    assert any(line.startswith("⌛") and mover in line for m in transport.group() for line in m.text.splitlines())
    after = (await service.store.load(2)).meta.turn
    assert after.browsing is None and after.unreachable == frozenset() and after.since


async def test_a_game_on_time_banks_resumes_with_its_banks_and_notes(old_service, transport):
    """chat1: Dee moves an hour later: her bank is charged from when it began to run; the note
    of the deadline move in this cycle is still told with the cycle's messages."""
    service, clock = old_service
    c = Chat("fake", "chat1", "Chat 1")
    note = TurnState.from_json(stored(BEFORE_33)[1]).notes_of(1)[0]
    began = (await service.store.load(1)).meta.turn.banks[0].since
    clock.advance(began + HOUR - clock.now())
    dee = user("Dee")
    board = await service.board(c, dee)
    tiles = [row[0] for row in board.buttons if row[0].payload.startswith(("c_", "o_"))]
    reply = await service.press(c, dee, tiles[0].payload)
    if reply.buttons and reply.buttons[0][0].payload.startswith("c_"):
        reply = await service.press(c, dee, reply.buttons[0][0].payload)
    assert reply.ok, reply.text
    await service.deliver_pending(transport)
    assert any(note in m.text.splitlines() for m in transport.group())
    assert (await service.store.load(1)).meta.turn.banks[0].left == 3 * DAY - HOUR + DAY


async def test_seats_planning_in_private_resume_with_their_buttons(old_service, transport):
    """chat3: a planner asks for their choices again: the private message the older code showed
    is closed first; the new one's buttons, bound to when they began to act, are not stale."""
    service, _ = old_service
    c = Chat("fake", "chat3", "Chat 3")
    cy = user("Cy")
    board = await service.board(c, cy)
    mine = next(b for row in board.buttons for b in row if b.label == t("en", "bot.btn.my_choices"))
    reply = await service.press(c, cy, mine.payload)
    assert reply.ok, reply.text
    await service.deliver_pending(transport)
    closed, shown = transport.private()[-2:]
    assert closed.text == t("en", "bot.msg.private_done") and shown.buttons
    before = (await service.store.load(3)).match.moves_by(2)
    press = next(b for row in reply.buttons for b in row if b.payload.startswith("c_"))
    assert (await service.press(None, cy, press.payload)).ok
    assert (await service.store.load(3)).match.moves_by(2) == before + 1


async def test_building_the_messages_after_moves_changes_nothing_and_returns_the_state_to_keep(old_service):
    """The new turn state comes back with the messages built from it; the game's is as it was."""
    service, _ = old_service
    loaded = await service.store.load(2)            # browsing in private (chat2)
    meta, match = loaded.meta, loaded.match
    before = meta.turn
    messages = TurnMessages(meta, loaded.kind, match, service.codec)
    mover = meta.seats[before.browsing[0]].name
    browsing = t("en", "bot.msg.choosing_privately", player=mover, what=before.browsing[1])
    assert browsing in messages.prompt_text()
    posts = messages.after_moves(log_start=len(match.log), cycle_before=match.rhythm.cycle, ends=[], notes=["⌛ late"])
    assert meta.turn is before
    assert posts.turn.notes_of(match.rhythm.cycle) == ["⌛ late"] and posts.turn.browsing is None
    assert posts.turn.turn_slot == before.turn_slot and posts.turn.menus == {}    # no private choices here
    (prompt,) = [row for row in posts.rows if row.slot == before.turn_slot]
    lines = prompt.body.text.splitlines()
    assert "⌛ late" in lines and browsing not in lines
    (closed,) = [row for row in posts.rows if row.dest.startswith("u:")]     # its private menu goes
    assert closed.body.text == t("en", "bot.msg.private_done")
