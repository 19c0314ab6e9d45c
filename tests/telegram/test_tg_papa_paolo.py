"""Papà Paolo end to end on Telegram (issue 19): the real Application and GameService against the
fake Bot API. ``/newgame papa`` starts it; the humans tap in their private chats (both at once in
the delivery phase), where each turn message carries a picture of their own neighbourhood; AI
seats fill the table. The group reads who is still to choose and each round's outcome, never a
menu; each tap is answered once; new group messages stay within the budget."""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from tgharness import GROUP_ID, Table, private_turn, two_player_table

from engine.papa_paolo.definition import GAME
from engine.papa_paolo.stepper import ONE_AT_A_TIME
from i18n import t
from renderers.papa_paolo.presenter import square_keys

CHOICE, BACK = ("c_", "o_"), "b_"
SEEDS = {2: 21, 3: 22, 4: 23}


@pytest.fixture
def table(api) -> Table:
    return two_player_table(api, "Pizza fans")




async def tap_at_once(api, bot, taps) -> list[dict]:
    queries = [api.press(user, msg, button) for user, msg, button in taps]
    answers = await asyncio.gather(*(api.answer_of(q) for q in queries))
    await bot.settle()
    return list(answers)


async def start(api, bot, table, players: int) -> None:
    ann, bob = table.users["ann"], table.users["bob"]
    api.send_text(table.group, ann, "/newgame papa")
    await bot.settle()
    api.follow_url(bob, table.lobby().button("Join")["url"])
    await bot.settle()
    for _ in range(players - 2):
        api.send_text(table.group, ann, "/addbot")
        await bot.settle()
    lobby = table.lobby()
    answers = await tap_at_once(api, bot, [(ann, lobby, lobby.button("Start"))])
    assert answers[0].get("text") == t("en", "bot.reply.started"), answers


async def seat_of(bot, user) -> int:
    info = await bot.service.game_info(game_id=1)
    return next(s for s, seat in enumerate(info.seats) if str(seat.user_id) == str(user.id))


def group_calls(api) -> dict[str, int]:
    """The Bot API calls that wrote to the group: new messages and edits, by method."""
    out: dict[str, int] = {}
    for call in api.calls:
        if call.ok and str(call.params.get("chat_id")) == str(GROUP_ID) and call.method.startswith(("send", "edit")):
            out[call.method] = out.get(call.method, 0) + 1
    return out


def decision_kind(move: dict) -> str:
    if "place" in move:
        return "tile" if "take" in move else "space action"
    return {"stairs": "bid", "invest": "investment", "late": "investment", "resolve": "resolve",
            "deliver": "deliveries"}[next(iter(move))]


async def play_rounds(api, bot, table, players: int, monkeypatch, *, stop_after: int) -> dict[str, list[int]]:
    """Two humans tap (at once where both act) until round ``stop_after`` is over or the game ends:
    their numbered buttons are the numbers their picture shows; a tap never posts more than 3
    group messages; each tap is answered once. Returns the taps each decision took, by kind."""
    monkeypatch.setattr("bot.service.table.lobby.secrets.randbits", lambda bits: SEEDS[players])
    await start(api, bot, table, players)
    humans = list(table.users.values())
    rng = random.Random(players)
    at_once = checked = 0
    posts: list[int] = []
    taps_by_kind: dict[str, list[int]] = {}
    since: dict[int, int] = {}
    verbs: dict[int, set] = {}                         # seat -> the verbs of its taps since
    for _ in range(2500):
        before = len(table.group_messages())
        match = (await bot.service.store.load(1)).match
        if match.rhythm.round_number() > stop_after:
            break
        whole, steps = len(match.to_record()["moves"]), len(match.state.moves)
        tapping = []
        taps = []
        for user in humans:
            msg = private_turn(api, user)
            if msg is None:
                continue
            assert msg.photo is not None                   # the seat's own neighbourhood comes with its choices
            buttons = [b for b in msg.buttons() if not b["callback_data"].startswith(BACK)]
            keys = square_keys(match.view(await seat_of(bot, user)).legal)
            numbered = {b["text"].split(" ")[0] for b in buttons if b["text"].split(" ")[0].isdigit()}
            assert numbered == {str(k) for k in keys.values()}
            checked += bool(keys)
            first = buttons[0] if rng.random() < 0.5 and "⭐" in buttons[0]["text"] else rng.choice(buttons)
            taps.append((user, msg, first))
            tapping.append(await seat_of(bot, user))
        if not taps:
            break
        at_once = max(at_once, len(taps))
        answers = await tap_at_once(api, bot, taps)
        after = (await bot.service.store.load(1)).match
        game, made = after.state, after.to_record()["moves"][whole:]
        for seat in tapping:
            since[seat] = since.get(seat, 0) + 1
            verbs.setdefault(seat, set()).update(text.split(" ")[0] for s, text in game.moves[steps:] if s == seat)
            mine = [{k: v for k, v in m.items() if k != "player"} for m in made if m["player"] == game.players[seat]]
            if mine:                                       # the tap completed the seat's decision
                kind = decision_kind(mine[0]) + (" (step by step)" if verbs.pop(seat) & {k.verb for k in ONE_AT_A_TIME} else "")
                taps_by_kind.setdefault(kind, []).append(since.pop(seat))
        assert all(a.get("show_alert") is not True for a in answers), answers
        posts.append(len(table.group_messages()) - before)
    assert at_once == 2 and checked > 3
    assert max(posts) <= 3, posts                          # never a burst of group messages after a tap
    assert len(api.answers) == len(api.calls_of("answerCallbackQuery"))      # each tap answered once
    # At most 3 taps a decision, but where the player went one square or one pizza at a time.
    assert all(max(v) <= 3 for k, v in taps_by_kind.items() if not k.endswith("(step by step)")), taps_by_kind
    assert set(taps_by_kind["bid"]) == set(taps_by_kind["investment"]) == {1}, taps_by_kind
    return taps_by_kind


@pytest.mark.parametrize("players", [4])
async def test_papa_paolo_by_taps_to_the_end(api, bot, table, players, monkeypatch):
    taps = await play_rounds(api, bot, table, players, monkeypatch, stop_after=5)
    info = await bot.service.game_info(game_id=1)
    stretches = GAME.from_record(await bot.service.record(1)).view(None).stretches
    writes = group_calls(api)
    print(f"\nPapà Paolo, {players} players on Telegram: {len(stretches) + 1} stretches, group calls {writes}, "
          f"taps per decision {({k: max(v) for k, v in taps.items()})}")
    assert info.status == "finished" and info.game == "papa-paolo" and info.winners, info
    group = table.group_messages()
    text = "\n".join(m.body for m in group)
    assert t("en", "papa.final_header") in text
    assert not re.search(r"Pick a numbered square|Plan your deliveries|Your Lire", text)
    assert not [b for m in group for b in m.buttons() if b.get("text", "")[:1].isdigit()]   # no menu in the group
    pictures = [m for m in group if m.photo is not None]
    assert len(pictures) == 1 + len(stretches) + 2          # the set-up, a board per stretch, the final picture
    assert t("en", "papa.stretch_over.invest", round=3, of=5) in text
    final = GAME.from_record(await bot.service.record(1))      # the exported record, replayed
    for seat, name in enumerate(final.players):
        assert f"{name}: {final.returns()[seat]} = " in text



async def test_two_players_two_rounds_by_taps(api, bot, table, monkeypatch):
    """A shorter game at 2 players: both humans, the first two rounds."""
    await play_rounds(api, bot, table, 2, monkeypatch, stop_after=2)
    info = await bot.service.game_info(game_id=1)
    assert info.round == 3 and info.status != "finished"
    group = table.group_messages()
    stretches = (await bot.service.store.load(1)).match.view(None).stretches
    assert [phase for _, phase in stretches] == ["place", "bid", "invest", "deliver"] * 2
    assert len([m for m in group if m.photo is not None]) == 1 + len(stretches)     # the start, each phase
    assert not [b for m in group for b in m.buttons() if b.get("text", "").split(" ")[0].isdigit()]
