"""The numbers on a saved Paris Paris map are the numbers of the choices offered next.

A map is posted when a round begins, with every tile of the offer numbered; the players then
take tiles one by one. Whoever moves later in the round must find the tiles they are offered
under the same numbers as on the map (buttons on Telegram and Discord carry them, the terminal
prints them). The numbers are read off the rendered picture, not from the code that drew it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from service_helpers import chat, start_game, user

from bot.games import kind
from renderers.paris_paris.text import COLOUR_EMOJI, station_name

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "renderers"))
from render_testkit import badge_number, load  # noqa: E402

LABEL = re.compile(r"^(\S+) (\d+) · (.+?)(?: · .+)?$")    # a note may follow the station ("only replaces ...")


async def round_start_offer(service, game_id: int):
    """The offer as dealt at the start of the current round (what the round's map shows)."""
    meta, moves = await service.storage.load_game(game_id)
    definition = kind(meta.kind).definition
    current = definition.resume(meta.setup, moves).view(None)
    for k in range(len(moves), -1, -1):
        view = definition.resume(meta.setup, moves[:k]).view(None)
        if view.round != current.round:
            break
        offer = view.offer
    return offer


async def test_map_badges_match_the_offered_buttons_later_in_the_round(service, transport):
    c, ann = chat(), user("Ann")
    game_id = await start_game(service, c, [ann], ais=2, options={"seed": 11})
    checked = shifted = 0
    while (info := await service.game_info(c)) is not None:
        await service.deliver_pending(transport)
        maps = [m for m in transport.group() if m.image is not None and "-round" in m.image_name
                or m.image is not None and m.image_name.endswith("-start.png")]
        board = await service.board(c, ann)
        buttons = [b for row in board.buttons for b in row if LABEL.match(b.label)]
        offer = await round_start_offer(service, game_id)
        img = load(maps[-1].image)
        for b in buttons:
            emoji, number, name = LABEL.match(b.label).groups()
            index = next(i for i, tile in enumerate(offer)
                         if station_name(tile.station) == name and COLOUR_EMOJI[tile.colour] == emoji)
            assert badge_number(img, offer, index) == int(number), (info.round, b.label)
            checked += 1
        if len(buttons) < len(offer) and sorted(int(LABEL.match(b.label).group(2)) for b in buttons) != \
                list(range(1, len(buttons) + 1)):
            shifted += 1        # tiles were taken before Ann's turn, and the rest kept their numbers
        tile = buttons[0]
        reply = await service.press(c, ann, tile.payload)
        assert reply.ok, reply
        if reply.buttons:        # an eviction: whose shop goes
            assert (await service.press(c, ann, reply.buttons[0][0].payload)).ok
    assert checked >= 15 * 2 and shifted >= 5, (checked, shifted)
