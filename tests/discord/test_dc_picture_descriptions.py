"""Every picture the bot posts on Discord carries its description (the attachment's alt text,
which screen readers read), through the real adapter in simcord."""

from __future__ import annotations

from discord_kit import buttons

from i18n import t
from renderers.presenter import DESCRIPTION_LIMIT


def pictures(table) -> list:
    return [a for m in table.channel.history() for a in m.attachments if a.filename.endswith(".png")]


async def test_each_posted_picture_has_an_attachment_description(table, service):
    await table.started_game()
    start = pictures(table)
    assert len(start) == 1 and start[0].description.startswith(t("en", "pp.alt.map"))
    while len(pictures(table)) < 2:                          # the players tap until the round's map comes
        prompt = table.prompt()
        choice = next(b.custom_id for b in buttons(prompt) if b.custom_id.startswith(("pp:c_", "pp:o_")))
        await table.to_move(prompt).click(prompt, custom_id=choice)
    round_map = pictures(table)[-1]
    assert round_map.filename.endswith("round1.png")
    assert round_map.description and len(round_map.description) <= DESCRIPTION_LIMIT
    loaded = await service.store.load(1)
    board = loaded.kind.presenter.board_text(loaded.match.view(None), "en")
    assert round_map.description.startswith(t("en", "pp.alt.map")) and board in round_map.description
