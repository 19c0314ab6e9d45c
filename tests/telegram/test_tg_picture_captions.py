"""Telegram photos have no alt text: their caption says what the picture shows. A round's map:
the round that ended, what it changed, the scores; a seat's own picture (Papà Paolo): whose turn,
what to choose, and a line naming the picture."""

from __future__ import annotations

from tgharness import table_of_two

from bot.games import kind
from i18n import t


def photos(messages) -> list:
    return [m for m in messages if m.photo is not None]


async def test_a_rounds_photo_caption_tells_what_changed_and_the_scores(api, bot):
    table = await table_of_two(api, bot, "paris-paris")
    while len(photos(table.group_messages())) < 2:          # the start's picture, then round 1's
        prompt = table.prompt()
        player = table.to_move(prompt)
        buttons = table.tile_buttons(prompt) or table.evict_buttons(prompt)
        api.press(player, prompt, buttons[0])
        await bot.settle()
    caption = photos(table.group_messages())[-1].caption
    loaded = await bot.service.store.load(1)
    match, presenter = loaded.match, kind("paris-paris").presenter
    view = match.view(None)
    assert caption.startswith(presenter.cycle_over_line(view, 1, "en"))
    assert presenter.scores_line(view, match.rhythm.score_history()[0], "en") in caption
    outcome = presenter.split_cycle([e for e in match.log[match.rhythm.cycle_start(1):match.rhythm.cycle_start(2)]
                                     if e.visible_to(None)])[1]
    assert all(line in caption for line in presenter.narrate(outcome, match.players, "en"))


async def test_a_seats_own_photo_caption_names_the_picture(api, bot):
    table = await table_of_two(api, bot, "papa")
    info = await bot.service.game_info(game_id=1)
    first = next(u for u in table.users.values() if str(u.id) == info.seats[info.to_act[0]].user_id)
    own = photos(api.bot_messages(first))
    assert own and t("en", "papa.alt.seat") in own[-1].caption
    assert own[-1].caption.splitlines()[0] == kind("papa-paolo").presenter.status_line(
        (await bot.service.store.load(1)).match.view(None), "en")
