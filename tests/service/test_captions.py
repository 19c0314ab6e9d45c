"""What the group reads next to each picture, in every game: no line said twice in a row.

A picture's caption opens with the line that says where the game stands ("Round 3 is over."); the
narration of the cycle's outcome follows it, and must not open with the same words again. The
picture of the start is followed by the first prompt, which opens with the status line: the
caption of that picture must not be the same line.
"""

from __future__ import annotations

import pytest
from service_helpers import chat, user

GAMES = [("paris-paris", 3), ("connection", 3)]


async def _press_first(service, c, human, buttons) -> bool:
    for row in buttons:
        for b in row:
            if b.payload.startswith(("c_", "o_")):
                reply = await service.press(c, human, b.payload)
                assert reply.ok, reply.text
                if reply.buttons and any(x.payload.startswith(("c_", "o_")) for r in reply.buttons for x in r):
                    return await _press_first(service, c, human, reply.buttons)
                return True
    return False


async def _played(service, transport, game: str, players: int, cycles: int):
    ann, c = user("Ann"), chat()
    assert (await service.new_game(c, ann, options={"game": game, "seed": 21})).ok
    for _ in range(players - 1):
        assert (await service.add_ai(c, ann)).ok
    assert (await service.start(c, ann)).ok
    await service.deliver_pending(transport)
    for _ in range(400):
        info = await service.game_info(c)
        if info is None or info.round > cycles:
            break
        board = await service.board(c, ann)
        assert await _press_first(service, c, ann, board.buttons), board.text
        await service.deliver_pending(transport)
    return transport.new_group_posts()


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_no_caption_repeats_its_first_line(service, transport, game, players):
    posts = await _played(service, transport, game, players, cycles=2)
    captions = [m.text for m in posts if m.image is not None and "-round" in (m.image_name or "")]
    assert len(captions) >= 2
    for caption in captions:
        first, *rest = caption.splitlines()
        assert not any(line.startswith(first.rstrip(".!")) for line in rest), caption


@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_the_first_prompt_does_not_repeat_the_start_pictures_caption(service, transport, game, players):
    posts = await _played(service, transport, game, players, cycles=1)
    start = next(i for i, m in enumerate(posts) if m.image is not None and (m.image_name or "").endswith("-start.png"))
    caption = posts[start].text.splitlines()[0]
    after = [m.text.splitlines()[0] for m in posts[start + 1:start + 2] if m.text]
    assert after and caption not in after, (caption, after)
