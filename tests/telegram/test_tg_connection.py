"""Paris Connection end to end on Telegram: the real Application and GameService against the
fake Bot API. Two people play by tapping (builds of several placements with an undo, trades
through the two submenus, hexes paged into column submenus when more are legal than one menu
holds); AI seats fill the table up to 3-6 players."""

from __future__ import annotations

import io
import re

import pytest
import whole_games
from PIL import Image
from tgharness import GROUP_ID, Bot, Table

from engine.paris_connection.game import DEAL
from engine.paris_connection.record import from_record
from i18n import t

HUMANS = ("ann", "bob")
SEEDS = {3: 31, 4: 42, 5: 51, 6: 61}     # fixed deals: reproducible runs


@pytest.fixture
def table(api) -> Table:
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", started=True)
    group = api.add_group(GROUP_ID, "Rail fans", owner=ann)
    return Table(api, group, {"ann": ann, "bob": bob})


async def press(api, bot: Bot, user, msg, button) -> dict:
    qid = api.press(user, msg, button)
    answer = await api.answer_of(qid)
    await bot.settle()
    assert answer.get("show_alert") is not True, (button, answer)
    return answer


def labelled(msg, key: str) -> dict | None:
    return next((b for b in msg.buttons() if b["text"] == t("en", key)), None)


def payload(button: dict) -> str:
    return button.get("callback_data", "")


class Player:
    """How a human taps through Paris Connection's menus, with a tally of what was exercised."""

    def __init__(self, api, bot: Bot, table: Table) -> None:
        self.api, self.bot, self.table = api, bot, table
        self.turns = 0
        self.trades: dict[int, int] = {}        # user id -> trades made
        self.placements: list[int] = []         # placements per finished build
        self.undos = self.pages = 0

    async def play_turn(self, prompt) -> None:
        user = self.table.to_move(prompt)
        self.turns += 1
        trade = labelled(prompt, "pc.btn.trade")
        builds = [b for b in prompt.buttons() if payload(b).startswith("c_")]
        if trade is not None and (self.turns % 3 == 1 or not builds):
            await self.trade(user, prompt, trade)
        else:
            await self.build(user, prompt, builds[self.turns % len(builds)])

    async def trade(self, user, prompt, trade) -> None:
        """The trade's menus list the colours the player holds, a secret: they open in the
        player's private chat, edited in place there; the group reads only that they are trading."""
        answer = await press(self.api, self.bot, user, prompt, trade)
        assert answer["text"].startswith(t("en", "bot.reply.choices_private")), answer
        group = self.table.prompt()
        assert group.message_id == prompt.message_id
        assert t("en", "bot.msg.choosing_privately", player=user.first_name, what=trade["text"]) in group.body
        assert not any("Return" in b["text"] or payload(b).startswith("b_") for b in group.buttons())
        gives = self.api.last_bot_message(user)
        assert gives.chat_id == user.id and t("en", "pc.ask.give") in gives.body
        assert any(payload(b).startswith("b_") for b in gives.buttons())          # with a way back
        give = [b for b in gives.buttons() if payload(b).startswith("o_")][self.turns % 2 - 1]
        await press(self.api, self.bot, user, gives, give)
        takes = self.api.last_bot_message(user)
        assert takes.message_id == gives.message_id             # the submenu replaces the menu in place
        offered = [b for b in takes.buttons() if payload(b).startswith("c_")]
        take = next((b for b in offered if "Take 2" in b["text"]), offered[0])
        answer = await press(self.api, self.bot, user, takes, take)
        assert answer["text"].startswith("Done: you returned 1"), answer
        closed = next(m for m in self.api.bot_messages(user) if m.message_id == gives.message_id)
        assert not closed.buttons() and closed.body == t("en", "bot.msg.private_done")   # its buttons are gone
        self.trades[user.id] = self.trades.get(user.id, 0) + 1

    async def build(self, user, prompt, colour) -> None:
        await press(self.api, self.bot, user, prompt, colour)
        target = 2 + self.turns % 4                                # 2 to 5 placements
        placed = steps = 0
        while (menu := self.table.prompt()) is not None and self.table.to_move(menu) == user:
            steps += 1
            assert steps <= 12, [b["text"] for b in menu.buttons()]
            hexes, pages = self.hexes_of(menu)
            done = labelled(menu, "pc.btn.done")
            undo = labelled(menu, "pc.btn.undo")
            if placed >= target and done is not None:
                answer = await press(self.api, self.bot, user, menu, done)
                assert answer["text"] == t("en", "pc.reply.done")
                break
            if placed == 2 and undo is not None and not self.undos:
                answer = await press(self.api, self.bot, user, menu, undo)
                assert answer["text"] == t("en", "pc.reply.undo")
                self.undos += 1
                placed -= 1
                continue
            if pages:
                page = pages[self.turns % len(pages)]
                await press(self.api, self.bot, user, menu, page)
                self.pages += 1
                submenu = self.table.prompt()
                assert submenu.message_id == menu.message_id
                hexes, _ = self.hexes_of(submenu)
                assert hexes and len(hexes) <= 18
                menu = submenu
            elif not hexes:
                break
            await press(self.api, self.bot, user, menu, hexes[placed % len(hexes)])
            placed += 1
        self.placements.append(placed)

    @staticmethod
    def hexes_of(menu) -> tuple[list[dict], list[dict]]:
        steps = {t("en", k) for k in ("pc.btn.done", "pc.btn.undo", "pc.btn.cancel")}
        hexes = [b for b in menu.buttons() if payload(b).startswith("c_") and b["text"] not in steps]
        pages = [b for b in menu.buttons() if payload(b).startswith("o_")]
        return hexes, pages


TRADE_LINE = re.compile(r"^(.+) returned 1 (\w+) and took ([12]) (\w+)\.$")


def trade_lines(group) -> list[str]:
    return [line for m in group for line in m.body.split("\n") if TRADE_LINE.match(line)]


@pytest.mark.parametrize("players", whole_games.cases(3, 4, 5, 6))
async def test_whole_game_by_taps(api, bot, table, players, monkeypatch):
    monkeypatch.setattr("bot.service.table.lobby.secrets.randbits", lambda bits: SEEDS[players])
    ann, bob = table.users["ann"], table.users["bob"]
    api.send_text(table.group, ann, "/newgame connection")
    await bot.settle()
    api.follow_url(bob, table.lobby().button("Join")["url"])
    await bot.settle()
    for _ in range(players - 2):
        api.send_text(table.group, ann, "/addbot")
        await bot.settle()
    lobby = table.lobby()
    answer = await press(api, bot, ann, lobby, lobby.button("Start"))
    assert answer.get("text") == t("en", "bot.reply.started"), answer
    humans = (ann, bob)
    # the deal reaches each human in the private chat, and only there
    for user in humans:
        (dealt,) = [m.body for m in api.bot_messages(user) if "Your locomotives in Rail fans" in m.body]
        assert f"(in all: {DEAL[players]};" in dealt

    player = Player(api, bot, table)
    asked = False
    while (prompt := table.prompt()) is not None:
        if not asked and player.turns >= 3:
            # "My locomotives" under the prompt: answered in the private chat, nothing in the group
            before = len(table.group_messages())
            answer = await press(api, bot, bob, prompt, prompt.button("My locomotives"))
            assert "Your locomotives in Rail fans" in api.last_bot_message(bob).body
            assert len(table.group_messages()) == before
            asked = True
        await player.play_turn(prompt)
        assert player.turns <= 200, "the game does not end"

    info = await bot.service.game_info(game_id=1)
    assert info.status == "finished" and info.game == "paris-connection" and info.winners
    game = from_record(await bot.service.record(1))             # the stored record replays
    assert game.finished and game.end_reason in ("marseille", "storage")
    # the humans' taps went through every kind of step
    assert all(player.trades.get(u.id) for u in humans), player.trades
    assert player.undos >= 1 and max(player.placements) >= 3, player.placements
    assert player.pages >= 1                    # more legal hexes than one menu holds: column submenus
    group = table.group_messages()
    # holdings: the deal and each trade's result privately to the human, never in the group
    private = {u.id: [m.body for m in api.bot_messages(u)] for u in humans}
    for user in humans:
        after_trades = [text for text in private[user.id] if text.startswith("After your trade in Rail fans")]
        assert len(after_trades) == player.trades[user.id]
    group_text = "\n".join(m.body for m in group)
    assert "Your locomotives" not in group_text and "you hold" not in group_text
    assert not any(text in group_text for texts in private.values() for text in texts)
    # ... and no running scores either, which would give the screens away (values are public)
    assert "Scores:" not in "\n".join(m.body for m in group[:-1])
    # every trade is told in words in the group, once
    trades = [move["trade"] for move in (await bot.service.record(1))["moves"] if "trade" in move]
    assert len(trade_lines(group)) == len(trades) >= sum(player.trades.values())
    # at most 3 new group messages per turn cycle: each cycle ends with its map
    photos = [i for i, m in enumerate(group) if m.photo is not None]
    assert all(b - a <= 3 for a, b in zip(photos, photos[1:], strict=False)), photos
    assert len(photos) >= game.cycle
    # the final picture and standings close the game, portrait maps before it; then the whole game
    # as an animation (an MP4 that plays inline)
    assert group[-1].animation is not None and group[-1].document_name.endswith("-replay.mp4")
    group = group[:-1]
    final = group[-1]
    assert final.photo is not None and final.photo.startswith(b"\x89PNG")
    assert t("en", "pc.final_header") in final.body
    assert all(name in final.body for name in ("Ann", "Bob"))
    width, height = Image.open(io.BytesIO(group[photos[-2]].photo)).size
    assert height > width
