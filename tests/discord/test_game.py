"""Whole games in an offline Discord (simcord): real discord.py, real BoardchatBot, real GameService."""

from __future__ import annotations

import io
import json
import re

import pytest
import whole_games
from discord_kit import buttons, custom_id
from PIL import Image

from bot.discord import BoardchatBot
from bot.service import GameService
from i18n import t

# A game's end draws its animation (whole_games.SETTLE_AT_THE_END).
pytestmark = pytest.mark.simcord(settle_timeout=whole_games.SETTLE_AT_THE_END)

ROUND = re.compile(r"(\d+)/(\d+)")


def station_of(prompt, cid: str) -> str:
    label = next(b.label for b in buttons(prompt) if b.custom_id == cid)
    return label.split("\u00b7", 1)[-1].strip()


def crowded_tile(prompt, taken: dict[str, int]) -> str:
    """The offered tile whose station has seen the most shops: crossings fill up and the
    placer has to choose whose shop goes."""
    tiles = [b.custom_id for b in buttons(prompt) if b.custom_id.startswith(("pp:c_", "pp:o_"))]
    return max(tiles, key=lambda cid: taken.get(station_of(prompt, cid), 0))


def round_of(prompt) -> int:
    return int(ROUND.search(prompt.content).group(1))


@pytest.mark.real_animation
async def test_a_whole_three_player_game_by_slash_commands_and_buttons(table, service, monkeypatch):
    await table.started_game()
    presses = evictions = 0
    taken: dict[str, int] = {}           # station -> tiles taken there (to provoke evictions)
    counts: dict[int, int] = {}          # round -> channel messages when it began
    while (prompt := table.prompt()) is not None:
        counts.setdefault(round_of(prompt), len(table.messages()))
        player = table.to_move(prompt)
        if any(b.custom_id.startswith("pp:b_") for b in buttons(prompt)):      # whose shop goes
            cid = custom_id(prompt, "pp:c_", presses)
            evictions += 1
        else:
            cid = crowded_tile(prompt, taken)
            taken[station_of(prompt, cid)] = taken.get(station_of(prompt, cid), 0) + 1
        result = await player.click(prompt, custom_id=cid)
        assert result.acknowledged
        assert result.followups and all(f.ephemeral for f in result.followups)
        assert all(f.content != t("en", "discord.error") for f in result.followups)
        presses += 1
        assert presses <= 120, "the game does not end"

    info = await service.game_info(game_id=1)
    assert info.status == "finished" and info.winners
    assert presses == 45 + evictions          # 15 rounds x 3 players, plus eviction choices
    assert evictions > 0                      # the eviction choice was played by buttons too
    history = table.messages()
    final = "\n".join(m.content for m in history[-3:])
    assert t("en", "pp.msg.final_header") in final
    # beside the final standings, the whole game as an animated WebP (Discord plays it inline), a
    # frame for each round and one for the standings, described for screen readers
    animation = history[-1]
    (attached,) = animation.attachments
    assert attached.filename.endswith("-replay.webp") and "round by round" in animation.content
    assert attached.description and attached.description.startswith("Animation: the whole game")
    data = await attached.read()
    with Image.open(io.BytesIO(data)) as webp:
        assert webp.format == "WEBP" and webp.n_frames == 15 + 1
    # readable channel: at most 3 new messages per round
    starts = [counts[r] for r in sorted(counts)] + [len(history)]
    per_round = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert len(counts) == 15 and max(per_round) <= 3, per_round
    # the map is attached to the round summaries
    maps = [m for m in history if any(a.filename.endswith(".png") for a in m.attachments)]
    assert len(maps) >= 15
    # no button is left on any message once the game is over
    assert all(not buttons(m) for m in history)
    # The finished game's record: a JSON file attached to the answer, privately or for everyone.
    private = await table.bob.slash(table.channel, "boardchat record")
    answer = private.response or private.followups[0]
    assert private.ephemeral and answer.attachments and answer.attachments[0].filename.endswith("-record.json")
    assert "boardchat replay" in answer.content
    await table.cat.slash(table.channel, "boardchat record", public=True)
    shown = table.messages()[-1]
    attached = shown.attachments[0]
    record = json.loads(await attached.read())
    assert attached.filename.endswith("-record.json") and len(record["moves"]) == presses - evictions == 45
    # /boardchat replay right after the animation went out: refused, saying when to ask again
    asked = await table.bob.slash(table.channel, "boardchat replay")
    said = asked.response or asked.followups[0]
    assert asked.ephemeral and said.content == t("en", "bot.err.replay_just_posted", id=1, wait="10 minutes")
    assert table.messages()[-1].id == shown.id
    # past the cooldown, /boardchat replay: the answer (only to the one who asked) says it is on
    # its way; the animation comes through the outbox, for everyone
    monkeypatch.setattr("bot.service.table.info.REPLAY_COOLDOWN", 0.0)
    asked = await table.bob.slash(table.channel, "boardchat replay")
    said = asked.response or asked.followups[0]
    assert asked.ephemeral and said.content == t("en", "bot.reply.replay", id=1, game="Paris Paris")
    again = table.messages()[-1]
    assert again.attachments[0].filename.endswith("-replay.webp") and await again.attachments[0].read() == data


async def test_presses_by_someone_else_or_on_an_old_message_are_refused_privately(table, service):
    prompt = await table.started_game()
    mover = table.to_move(prompt)
    other = next(p for p in table.players.values() if p is not mover)
    before = (prompt.content, [b.custom_id for b in buttons(prompt)])

    refused = await other.click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_")))
    assert [f.ephemeral for f in refused.followups] == [True]
    assert refused.followups[0].content == t("en", "bot.err.not_your_turn", player=mover.name)
    again = table.prompt()
    assert (again.content, [b.custom_id for b in buttons(again)]) == before
    assert (await service.game_info(game_id=1)).moves == 0

    # the mover looks at the board privately: it carries their tile buttons too
    board = await mover.slash(table.channel, "boardchat board")
    assert board.ephemeral and buttons(board.response.message)
    private_copy = board.response
    await mover.click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_"), 0))
    assert (await service.game_info(game_id=1)).moves == 1
    # the turn passed: a fresh prompt pings the next player (an edit would not notify)
    # and replaces the old one
    following = table.prompt()
    assert following.id != prompt.id and table.to_move(following) is not mover
    assert prompt.id not in [m.id for m in table.messages()]
    # ... and presses the now outdated copy: an ephemeral explanation, nothing changes
    stale = await mover.click(private_copy, custom_id=custom_id(private_copy.message, ("pp:c_", "pp:o_"), 1))
    assert stale.followups[0].ephemeral
    assert stale.followups[0].content == t("en", "bot.err.stale")
    assert (await service.game_info(game_id=1)).moves == 1


async def test_the_bot_restarts_mid_game_and_old_buttons_still_work(table, service, simcord_env, db_path):
    prompt = await table.started_game()
    await table.to_move(prompt).click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_")))
    prompt = table.prompt()                  # posted (or edited) before the restart
    mover = table.to_move(prompt)
    other = next(p for p in table.players.values() if p is not mover)

    reopened = await GameService.open(db_path)
    try:
        await simcord_env.restart_bot(BoardchatBot(reopened, background_delivery=False))
        await service.close()

        refused = await other.click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_")))
        assert refused.followups[0].content == t("en", "bot.err.not_your_turn", player=mover.name)
        moved = await mover.click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_")))
        assert moved.followups[0].ephemeral and moved.followups[0].content.startswith(
            t("en", "pp.reply.moved", tile="").rstrip(".").strip())
        info = await reopened.game_info(game_id=1)
        assert info.moves == 2 and info.status == "playing"
        # the game goes on after the restart: the next player is pinged on a current prompt
        assert table.to_move(table.prompt()) is not mover
        # commands were synced again by the new bot instance
        result = await mover.slash(table.channel, "boardchat marker")
        assert result.ephemeral
    finally:
        await reopened.close()


async def test_a_failing_service_call_still_answers_and_the_button_works_afterwards(table, service):
    prompt = await table.started_game()
    mover = table.to_move(prompt)
    real_press = service.press

    async def broken(*args, **kwargs):
        raise RuntimeError("database is locked")

    service.press = broken
    try:
        failed = await mover.click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_")))
    finally:
        service.press = real_press
    assert failed.acknowledged
    assert [(f.content, f.ephemeral) for f in failed.followups] == [(t("en", "discord.error"), True)]
    moved = await mover.click(prompt, custom_id=custom_id(prompt, ("pp:c_", "pp:o_")))
    assert moved.followups[0].content != t("en", "discord.error")
    assert (await service.game_info(game_id=1)).moves == 1


async def test_against_an_ai_seat_added_by_command(table, service):
    await table.ann.slash(table.channel, "boardchat new")
    added = await table.ann.slash(table.channel, "boardchat addbot")
    assert added.ephemeral
    await table.ann.slash(table.channel, "boardchat start")
    presses = 0
    while (prompt := table.prompt()) is not None:
        assert table.to_move(prompt) is table.ann          # the AI never waits for a click
        # An open submenu (whose shop goes) has a Back button; its choices are plain choices.
        prefix = "pp:c_" if any(b.custom_id.startswith("pp:b_") for b in buttons(prompt)) else ("pp:c_", "pp:o_")
        await table.ann.click(prompt, custom_id=custom_id(prompt, prefix, presses))
        presses += 1
        assert presses <= 60
    info = await service.game_info(game_id=1)
    assert info.status == "finished" and [s.is_ai for s in info.seats] == [False, True]
    assert presses >= 20                                   # 2 players: 20 rounds, one pick each


async def test_leaving_mid_game_hands_the_seat_to_the_ai(table, service):
    prompt = await table.started_game()
    left = await table.bob.slash(table.channel, "boardchat leave")
    assert left.ephemeral
    seats = (await service.game_info(game_id=1)).seats
    assert [s.is_ai for s in seats if s.user_id == str(table.bob.id)] == [True]
    # the game goes on without waiting for bob
    prompt = table.prompt()
    assert table.to_move(prompt) is not table.bob


@pytest.mark.real_animation
async def test_an_animation_over_the_channels_upload_limit_is_left_out_with_a_line_saying_so(
        table, service, simcord_bot, monkeypatch):
    await table.started_game()
    while (prompt := table.prompt()) is not None:      # the first tile, the first shop evicted
        cid = next(b.custom_id for b in buttons(prompt) if b.custom_id.startswith(("pp:c_", "pp:o_")))
        result = await table.to_move(prompt).click(prompt, custom_id=cid)
        assert result.acknowledged
    assert table.messages()[-1].attachments[0].filename.endswith("-replay.webp")
    simcord_bot.transport.upload_limit = 1000        # bytes: far less than any animation
    monkeypatch.setattr("bot.service.table.info.REPLAY_COOLDOWN", 0.0)   # the end's animation is no reason to wait
    await table.bob.slash(table.channel, "boardchat replay")
    shown = table.messages()[-1]
    assert not shown.attachments
    assert shown.content.endswith(t("en", "bot.animation.too_large")) and "round by round" in shown.content
