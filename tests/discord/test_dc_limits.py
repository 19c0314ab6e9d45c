"""Discord's size limits, counted as Discord counts them (code points), through the real
BoardchatBot in simcord's offline Discord (which refuses what Discord refuses), in every
language, with emoji-heavy texts; and an answer Discord refuses after a move was made."""

from __future__ import annotations

import pytest
from discord_kit import Table, custom_id

from bot.contract import Button, Chat, Outgoing, Reply
from bot.discord import BoardchatBot
from bot.discord.transport import DiscordTransport
from i18n import LANGUAGES, t

FLOWERS = "🌸🌼🌻🌺🌷🌹💐🌸🌼🌻🌺🌷"


def emoji_text(language: str, characters: int) -> str:
    """More than ``characters`` code points of a real catalog text in ``language``, with
    emoji (which count one code point on Discord, two UTF-16 units on Telegram)."""
    line = (t(language, "pp.msg.choose_evict", player=f"Ann {FLOWERS}", tile="🟢 Quartier Latin",
              station="Quartier Latin", owners=f"Ann {FLOWERS}, Bob {FLOWERS}") + "\n"
            + t(language, "pp.msg.evict_own_warning", station="Quartier Latin") + "\n\n")
    return line * (characters // len(line) + 2)


class ScriptedService:
    """Stands in for the GameService behind the real Discord adapter: a press and /boardchat
    board answer whatever Reply the test put in ``reply``."""

    def __init__(self) -> None:
        self.reply = Reply("…")

    async def press(self, chat, user, payload):
        return self.reply

    async def board(self, chat, user):
        return self.reply

    async def deliver_pending(self, transport) -> int:
        return 0


@pytest.fixture
def scripted():
    return ScriptedService()


@pytest.fixture
def simcord_bot(request, service):
    if "scripted" in request.fixturenames:
        return BoardchatBot(request.getfixturevalue("scripted"), background_delivery=False)
    return BoardchatBot(service, background_delivery=False)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_an_ephemeral_answer_and_its_buttons_fit(simcord_env, scripted, language):
    table = Table(simcord_env)
    text = emoji_text(language, 2000)
    label = t(language, "pp.btn.evict", player=f"Bob {FLOWERS * 8}")          # over 80 code points
    scripted.reply = Reply(text, buttons=((Button(label, "c_1_0_0_0_0_sig"),),))
    result = await table.ann.slash(table.channel, "boardchat board")
    shown = result.followups[0] if result.followups else result.response
    # Cut to the limit, never inside an emoji's sequence (so a code point or two short of it).
    assert 1990 <= len(shown.content) <= 2000 and shown.content.endswith("…")
    assert text.startswith(shown.content[:-1].rstrip())
    [button] = [c for row in shown.components for c in row["components"]]     # as Discord got them
    assert len(button["label"]) <= 80 and button["label"].endswith("…")
    assert label.startswith(button["label"][:-1])


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_posted_message_fits_in_2000_code_points(simcord_env, language):
    table = Table(simcord_env)
    text = emoji_text(language, 2000)
    await DiscordTransport(simcord_env.bot).deliver(Outgoing(
        id=1, text=text, chat=Chat("discord", str(table.channel.id), "paris")))
    posted = table.channel.last_message
    assert 1990 <= len(posted.content) <= 2000 and text.startswith(posted.content[:-1].rstrip())


async def test_a_lost_answer_after_a_move_says_the_move_was_made(simcord_env, service):
    """Discord refuses the answer to a tap the service already committed: the user is told it
    went through, not that it failed."""
    table = Table(simcord_env)
    prompt = await table.started_game()
    player = table.to_move(prompt)
    simcord_env.inject_error("POST", "/webhooks/*", status=400, code=50035, message="Invalid Form Body")
    result = await player.click(prompt, custom_id=custom_id(prompt, "pp:c_"))
    assert [f.content for f in result.followups] == [t("en", "discord.answer_lost")]
    assert result.followups[0].ephemeral
    info = await service.game_info(game_id=1)
    assert info.moves == 1 and table.to_move(table.prompt()) != player
