"""Paris Connection in an offline Discord (simcord): real discord.py, real BoardchatBot, real
GameService. Two people play by buttons (builds of several placements with an undo, trades
through the two submenus, hexes paged into column submenus so that no message carries more
than Discord's 25 buttons); AI seats fill the table up to 3-6 players."""

from __future__ import annotations

import io
import re

import pytest
import whole_games
from discord_kit import buttons
from PIL import Image

from engine.paris_connection.actions import Place
from engine.paris_connection.game import DEAL
from engine.paris_connection.record import from_record
from i18n import t

# A game's end draws its animation (whole_games.SETTLE_AT_THE_END).
pytestmark = pytest.mark.simcord(settle_timeout=whole_games.SETTLE_AT_THE_END)

SEEDS = {3: 13, 4: 24, 5: 35, 6: 46}          # fixed deals: reproducible runs
TRADE_LINE = re.compile(r"^(.+) returned 1 (\w+) and took ([12]) (\w+)\.$")
HEX_LABEL = re.compile(r"^([A-Z]\d{1,2})\b")
STEPS = {t("en", k) for k in ("pc.btn.done", "pc.btn.undo", "pc.btn.cancel")}


def button_labelled(message, key: str):
    return next((b for b in buttons(message) if b.label == t("en", key)), None)


def kind(button) -> str:
    """The service's payload kind: c (a choice), o (open a submenu), b (back), m (my shares)..."""
    return button.custom_id.removeprefix("pp:").split("_", 1)[0]


class Player:
    """How a human clicks through Paris Connection's menus, with a tally of what was exercised."""

    def __init__(self, table, service, players: int) -> None:
        self.table, self.service, self.players = table, service, players
        self.turns = 0
        self.trades: dict[str, int] = {}
        self.placements: list[int] = []
        self.undos = self.pages = 0
        self.counts: list[int] = []            # buttons on each prompt shown
        self.trace: list = []                  # the last clicks, for a failure's message

    def prompt(self):
        found = self.table.prompt()
        if found is not None:
            self.counts.append(len(buttons(found)))
        return found

    async def click(self, member, message, button):
        result = await member.click(message, custom_id=button.custom_id)
        self.trace.append((member.name, button.label, button.custom_id, [f.content for f in result.followups]))
        assert result.acknowledged
        assert all(f.ephemeral for f in result.followups)
        assert all(f.content != t("en", "discord.error") for f in result.followups)
        assert not any(f.content.startswith(("It is not", "That button")) for f in result.followups), \
            [f.content for f in result.followups]
        return result

    async def play_turn(self, prompt) -> None:
        member = self.table.to_move(prompt)
        self.turns += 1
        trade = button_labelled(prompt, "pc.btn.trade")
        builds = [b for b in buttons(prompt) if kind(b) == "c"]
        if trade is not None and (self.turns % 3 == 1 or not builds):
            await self.trade(member, prompt, trade)
        else:
            await self.build(member, prompt, builds[self.turns % len(builds)])

    async def trade(self, member, prompt, trade) -> None:
        """The trade's menus list the colours the player holds, a secret: they come as replies
        only the player sees (and in a DM); the channel reads only that the player trades."""
        before = len(self.table.messages())
        answered = await self.click(member, prompt, trade)
        gives = answered.followups[0].message
        assert any(kind(b) == "b" for b in buttons(gives))            # a submenu, with Back
        channel = self.prompt()
        assert channel.id == prompt.id and len(self.table.messages()) == before
        assert t("en", "bot.msg.choosing_privately", player=member.name, what=trade.label) in channel.content
        assert not any(kind(b) in ("b", "o") and b.label != trade.label for b in buttons(channel))
        give = [b for b in buttons(gives) if kind(b) == "o"][self.turns % 2 - 1]
        answered = await self.click(member, gives, give)
        takes = answered.followups[0].message
        offered = [b for b in buttons(takes) if kind(b) == "c"]
        take = next((b for b in offered if "Take 2" in b.label), offered[0])
        result = await self.click(member, takes, take)
        assert result.followups[0].content.startswith("Done: you returned 1"), result.followups[0].content
        self.trades[member.name] = self.trades.get(member.name, 0) + 1

    async def legal_hexes(self, colour: str) -> set[str]:
        """What the engine allows as the first placement of a ``colour`` build now."""
        game = from_record(await self.service.record(1))            # the build under way included
        assert game.draft_colour == colour and not game.draft_hexes
        return {c.hex for c in game.legal_actions() if isinstance(c, Place)}

    async def build(self, member, prompt, colour) -> None:
        await self.click(member, prompt, colour)
        target = 2 + self.turns % 4                                # 2 to 5 placements
        placed = steps = 0
        while (menu := self.prompt()) is not None and self.table.to_move(menu) is member:
            steps += 1
            assert steps <= 12, "\n".join(map(str, [[b.label for b in buttons(menu)], *self.trace[-8:]]))
            hexes = [b for b in buttons(menu) if kind(b) == "c" and b.label not in STEPS]
            pages = [b for b in buttons(menu) if kind(b) == "o"]
            done, undo = button_labelled(menu, "pc.btn.done"), button_labelled(menu, "pc.btn.undo")
            if placed == 0 and pages:
                await self.every_hex_reachable(member, menu, pages, colour)
            if placed >= target and done is not None:
                result = await self.click(member, menu, done)
                assert result.followups[0].content == t("en", "pc.reply.done")
                break
            if placed == 2 and undo is not None and not self.undos:
                result = await self.click(member, menu, undo)
                assert result.followups[0].content == t("en", "pc.reply.undo")
                self.undos += 1
                placed -= 1
                continue
            if pages:
                await self.click(member, menu, pages[self.turns % len(pages)])
                self.pages += 1
                menu = self.prompt()
                hexes = [b for b in buttons(menu) if kind(b) == "c"]
                assert hexes and any(kind(b) == "b" for b in buttons(menu))
            elif not hexes:
                break
            await self.click(member, menu, hexes[placed % len(hexes)])
            placed += 1
        self.placements.append(placed)

    async def every_hex_reachable(self, member, menu, pages, colour_button) -> None:
        """More legal hexes than one message can carry: each page opens (and goes back), and
        together the pages offer exactly the legal hexes."""
        colour = next(c for c in ("red", "blue", "black", "brown", "yellow", "purple") if c in colour_button.label)
        offered: list[str] = []
        for page in pages:
            await self.click(member, menu, page)
            submenu = self.prompt()
            offered += [HEX_LABEL.match(b.label).group(1) for b in buttons(submenu) if kind(b) == "c"]
            back = next(b for b in buttons(submenu) if kind(b) == "b")
            result = await self.click(member, submenu, back)
            assert result.followups[0].content == t("en", "pc.reply.back")
            menu = self.prompt()
        assert len(offered) == len(set(offered)) and set(offered) == await self.legal_hexes(colour)
        assert len(offered) > 18                                     # more than one menu holds


@pytest.mark.real_animation
@pytest.mark.parametrize("players", whole_games.cases(3, 4, 5, 6))
async def test_whole_game_by_buttons(table, service, players, monkeypatch):
    monkeypatch.setattr("bot.service.table.lobby.secrets.randbits", lambda bits: SEEDS[players])
    ann, bob = table.ann, table.bob
    opened = await ann.slash(table.channel, "boardchat new", game="paris-connection")
    assert opened.ephemeral
    await bob.slash(table.channel, "boardchat join")
    for _ in range(players - 2):
        await ann.slash(table.channel, "boardchat addbot")
    started = await ann.slash(table.channel, "boardchat start")
    assert started.ephemeral
    humans = (ann, bob)
    for member in humans:                       # the deal goes by DM
        (dealt,) = [m.content for m in member.user.dm_channel.history() if "Your locomotives in" in m.content]
        assert f"(in all: {DEAL[players]};" in dealt

    player = Player(table, service, players)
    cycles: dict[int, int] = {}                 # cycle -> channel messages when it began
    while (prompt := player.prompt()) is not None:
        info = await service.game_info(game_id=1)
        cycles.setdefault(info.round, len(table.messages()))
        if player.turns == 3:
            # "My locomotives": an ephemeral answer to the one who asks, nothing in the channel
            before = len(table.messages())
            mine = await bob.click(prompt, custom_id=next(b.custom_id for b in buttons(prompt) if kind(b) == "m"))
            assert [f.ephemeral for f in mine.followups] == [True]
            assert "Your locomotives in" in mine.followups[0].content
            assert len(table.messages()) == before
        await player.play_turn(prompt)
        assert player.turns <= 200, "the game does not end"

    info = await service.game_info(game_id=1)
    assert info.status == "finished" and info.game == "paris-connection" and info.winners
    record = await service.record(1)
    game = from_record(record)
    assert game.finished and game.end_reason in ("marseille", "storage")
    # the humans' clicks went through every kind of step; no message ever held more than 25 buttons
    assert all(player.trades.get(m.name) for m in humans), player.trades
    assert player.undos >= 1 and max(player.placements) >= 3, player.placements
    assert player.pages >= 1 and max(player.counts) <= 25
    history = table.messages()
    text = "\n".join(m.content for m in history)
    # holdings went by DM (the deal and each trade's result), never to the channel
    for member in humans:
        dms = [m.content for m in member.user.dm_channel.history()]
        assert len([d for d in dms if d.startswith("After your trade in")]) == player.trades[member.name]
        assert not any(d in text for d in dms)
    assert "Your locomotives" not in text and "you hold" not in text
    assert "Scores:" not in "\n".join(m.content for m in history[:-2])
    # every trade is told in words in the channel, once
    trades = [move for move in record["moves"] if "trade" in move]
    lines = [line for m in history for line in m.content.split("\n") if TRADE_LINE.match(line)]
    assert len(lines) == len(trades) >= sum(player.trades.values())
    # at most 3 new channel messages per turn cycle
    starts = [cycles[c] for c in sorted(cycles)] + [len(history)]
    per_cycle = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert max(per_cycle) <= 3, per_cycle
    # the maps, the final picture with the standings and, last, the whole game as an animation (a
    # frame for each cycle and the standings); no buttons left anywhere
    pictures = [m for m in history if any(a.filename.endswith(".png") for a in m.attachments)]
    assert len(pictures) >= game.cycle
    final = "\n".join(m.content for m in history[-3:-1])
    assert t("en", "pc.final_header") in final and "ann" in final and "bob" in final
    assert any(a.filename.endswith("-final.png") for a in history[-2].attachments)
    (animation,) = history[-1].attachments
    assert animation.filename.endswith("-replay.webp")
    with Image.open(io.BytesIO(await animation.read())) as webp:
        assert webp.n_frames == game.cycle + 1
    assert all(not buttons(m) for m in history)
