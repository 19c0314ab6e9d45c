"""Paris Connection through the service: whole 3-6 player games with a human pressing buttons,
holdings only ever in private messages, one picture per turn cycle."""

from __future__ import annotations

import pytest
import whole_games
from service_helpers import chat, user

from i18n import t


async def _press_on(service, c, human, buttons) -> bool:
    """Press the first choice or submenu among ``buttons``; False if there is none."""
    for row in buttons:
        for b in row:
            if b.payload.startswith(("c_", "o_")):
                reply = await service.press(c, human, b.payload)
                assert reply.ok, reply.text
                if b.payload.startswith("o_"):
                    return await _press_on(service, c, human, reply.buttons)
                return True
    return False


@pytest.mark.parametrize("players", whole_games.cases(3, 4, 5, 6))
async def test_a_whole_game_with_a_human_and_ai_seats(service, transport, players):
    ann = user("Ann")
    c = chat(players)
    assert (await service.new_game(c, ann, options={"game": "connection", "seed": 40 + players})).ok
    for _ in range(players - 1):
        assert (await service.add_ai(c, ann)).ok
    assert (await service.start(c, ann)).ok
    for _ in range(3000):
        info = await service.game_info(c)
        if info is None:
            break
        assert info.to_act == (0,), info                       # AI seats never keep the human waiting
        assert info.scores is None                            # running scores would tell the screens
        board = await service.board(c, ann)
        assert await _press_on(service, c, ann, board.buttons), board.text
    gid = 1
    info = await service.game_info(game_id=gid)
    assert info.status == "finished" and info.game == "paris-connection" and info.winners
    assert len(info.scores) == players
    await service.deliver_pending(transport)
    record = await service.record(gid)
    assert record["format"] == "paris-connection-record/1"
    # Holdings went privately to Ann (the deal and after her trades), never to the group.
    private = transport.private()
    assert private and all(m.private_to.id == "ann" for m in private)
    group_text = "\n".join(m.text for m in transport.group())
    assert all(m.text not in group_text for m in private)
    assert t("en", "pc.scores", scores="")[:6] not in group_text.rsplit(t("en", "pc.final_header"), 1)[0]
    pictures = [m for m in transport.group() if m.image is not None]
    assert pictures and pictures[-1].image_name.endswith("-final.png")
    stats = await service.stats(c, ann, "connection")
    assert stats.ok and stats.extra.game == "paris-connection" and stats.extra.games == 1
