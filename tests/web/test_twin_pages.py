"""A seat's secret never reaches another page (issue 42): twins on two served boards
(tests/web/twin_pages.py): games dealt one seat's secret apart, and Papà Paolo games where one seat
plans in private on one board only (a trip begun while the others plan, then taken back once it
plans alone, then another begun). Every other viewer's socket stream (every frame, versions
included) and the set of pictures its pass may ask for come out the same on both."""

from __future__ import annotations

import random

import msgspec
import pytest
from conformance.twins import TWINS
from twin_pages import NAMES, Twin, open_twins, picture_answers, press_alike, public_position, to_planning

from bot.games import kind
from bot.service.board.page import PageRequest

SEED = 5
PLANNER = 0                                    # the seat whose planning differs
OTHERS = [s for s in range(len(NAMES)) if s != PLANNER]
VIEWERS = [None, *OTHERS]                      # the group's page and the other seats' pages


async def trip_start(twin: Twin, seat: int) -> str:
    """The written form of the first trip ``seat`` may begin ("from x,y")."""
    state = await twin.service.page(PageRequest(twin.game_id, seat, "en"))
    return next(item.choice for row in state.choices.rows for item in row
                if (item.choice or "").startswith("from "))


def same_streams(first: Twin, second: Twin, when: str) -> None:
    mine, theirs = first.streams(), second.streams()
    for viewer in VIEWERS:
        who = "the group's page" if viewer is None else f"{NAMES[viewer]}'s page"
        assert mine[viewer] == theirs[viewer], f"{when}: {who} got a different stream"


async def plan_apart(first: Twin, second: Twin, session) -> None:
    """The planner's private steps on ``first`` only, with the same public actions on both; the
    streams compared after each action."""
    both = (first, second)
    for twin in both:
        await twin.watch(session, VIEWERS)
    same_streams(first, second, "on opening")
    await first.press(PLANNER, await trip_start(first, PLANNER))
    for twin in both:
        await twin.sync()
    same_streams(first, second, "after a trip begun while the others plan")
    for other in OTHERS:
        for twin in both:
            await twin.press(other, "done")
            await twin.sync()
        same_streams(first, second, f"after {NAMES[other]} sent the plan")
    await first.press(PLANNER, "undo-trip")      # alone now, back outside a decision
    await first.sync()
    await second.sync()
    same_streams(first, second, "after the last planner took its trip back")
    await first.press(PLANNER, await trip_start(first, PLANNER))
    await first.sync()
    await second.sync()
    same_streams(first, second, "after the last planner began another trip")


async def test_a_seats_private_planning_reaches_no_other_page(tmp_path, session):
    (first, second), _ = await open_twins(tmp_path, SEED)
    try:
        await to_planning((first, second), PLANNER, SEED)
        await plan_apart(first, second, session)
        moves = [(await twin.service.game_info(game_id=twin.game_id)).moves for twin in (first, second)]
        assert moves[0] == moves[1] + 3, f"the twins differ by {moves}: the test tests nothing"
        assert all(len(frames) >= 3 for frames in first.frames.values()), "the pages were hardly sent anything"
        answers = [await picture_answers(twin, session, OTHERS, max(moves)) for twin in (first, second)]
        assert answers[0], "no picture answered at all: the test tests nothing"
        assert answers[0] == answers[1], (
            f"/picture answers differently: {sorted(answers[0] ^ answers[1])[:6]}")
    finally:
        await first.close()
        await second.close()


async def test_a_state_numbered_by_the_game_is_caught(tmp_path, session, monkeypatch):
    """The check can fail: a page's state that carries the game's version (as every state did
    before issue 42) changes with every commit, a private step's too, and parts the twins' streams."""
    from bot.service.board import pages

    honest = pages.Pages._state

    async def numbered(self, loaded, match, request):
        state = await honest(self, loaded, match, request)
        return msgspec.structs.replace(state, lines=[*state.lines, f"version {loaded.meta.version}"])

    monkeypatch.setattr(pages.Pages, "_state", numbered)
    (first, second), _ = await open_twins(tmp_path, SEED)
    try:
        await to_planning((first, second), PLANNER, SEED)
        with pytest.raises(AssertionError, match="different stream"):
            await plan_apart(first, second, session)
    finally:
        await first.close()
        await second.close()


async def test_a_phase_begun_by_a_trip_taken_back_is_caught(tmp_path, session, monkeypatch):
    """The check can fail: a new phase begun when the last seat planning takes its trip back (as
    ``begins`` did before issue 42) renames the group's picture, and the twins' streams part."""
    from bot.service.table import play

    honest = play.begins
    monkeypatch.setattr(play, "begins", lambda before, acting, mover, in_decision, told:
                        honest(before, acting, mover, in_decision, True))
    (first, second), _ = await open_twins(tmp_path, SEED)
    try:
        await to_planning((first, second), PLANNER, SEED)
        with pytest.raises(AssertionError, match="took its trip back: the group's page got a different stream"):
            await plan_apart(first, second, session)
    finally:
        await first.close()
        await second.close()


async def test_pictures_answered_up_to_the_real_move_count_are_caught(tmp_path, session, monkeypatch):
    """The check can fail: ``/picture`` answering public pictures up to the game's real move count
    (as before issue 42) answers more for the twin that planned more."""
    from bot.service.board import pages

    monkeypatch.setattr(pages, "public_moves", lambda meta, kind, match: match.move_count)
    (first, second), _ = await open_twins(tmp_path, SEED)
    try:
        await to_planning((first, second), PLANNER, SEED)
        await plan_apart(first, second, session)
        answers = [await picture_answers(twin, session, OTHERS, 60) for twin in (first, second)]
        assert answers[0] != answers[1]
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("game", sorted(TWINS))
async def test_a_dealt_secret_reaches_no_other_page(tmp_path, session, monkeypatch, tiny_game, game):
    (first, second), changed = await open_twins(tmp_path, 11, game=game, dealt_apart=0, monkeypatch=monkeypatch)
    viewers = [None, *(s for s in range(len(NAMES)) if s not in changed)]
    rng, compared = random.Random(11), 0
    try:
        for twin in (first, second):
            await twin.watch(session, viewers)
        for _ in range(16):
            if await public_position(first) != await public_position(second):
                break                       # the game revealed the secret: the pages may part
            for twin in (first, second):
                await twin.sync()
            mine, theirs = first.streams(), second.streams()
            assert all(mine[v] == theirs[v] for v in viewers), f"after {compared} moves a page's stream differs"
            if compared == 4:
                moves = (await first.service.game_info(game_id=first.game_id)).moves
                answers = [await picture_answers(twin, session, viewers[1:], moves) for twin in (first, second)]
                assert answers[0] and answers[0] == answers[1], "/picture answers differently"
            compared += 1
            if not await press_alike((first, second), rng):
                break
        assert compared >= 5, f"the twins parted at once ({compared} moves compared): the test tests nothing"
        if kind(game).presenter.art_names():
            # The board the page draws itself rode in the streams compared: its scene and its art's addresses.
            scenes = [picture["scene"] for frame in first.frames[None] if frame.get("type") == "state"
                      for picture in frame["state"].get("pictures", ()) if "scene" in picture]
            assert scenes and all(scene["pieces"] is not None and scene["sprites"] for scene in scenes), \
                "no scene in the streams compared: the test tests nothing of it"
    finally:
        await first.close()
        await second.close()


async def test_a_scene_that_shows_a_seats_secret_is_caught(tmp_path, session, monkeypatch):
    """The check can fail: a scene (the board the page draws itself) that carries one seat's
    secret, here written on the board as words, parts the twins' streams for every other viewer."""
    from dataclasses import replace

    from bot.service.board import page
    from renderers.scene import Words

    honest = page.map_scene

    def leaky(pres, match, public, shown, lang, layout):
        scene = honest(pres, match, public, shown, lang, layout)
        secret = pres.secret_text(match.view(0), lang, "") or ""
        return None if scene is None else replace(scene, above=(*scene.above, Words(secret, 0, 0, 9, False,
                                                                                       "#000000", "la", 0)))

    monkeypatch.setattr(page, "map_scene", leaky)
    with pytest.raises(AssertionError, match="a page's stream differs"):
        await test_a_dealt_secret_reaches_no_other_page(tmp_path, session, monkeypatch, None, "paris-connection")
