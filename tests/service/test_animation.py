"""The whole game as an animation (bot/service/posts/animation.py, renderers/animation.py): a frame per
cycle and one for the final standings, from the public view only, in each format the platforms
play, within each platform's limit."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import av
import pytest
from conformance.twins import TWINS
from PIL import Image
from service_helpers import FakeTransport, chat, start_game, user

from bot import platforms
from bot.contract import AnimationFormat
from bot.games import KINDS, kind
from bot.service import GameService, ManualClock
from bot.service.posts import animation
from bot.service.table.info import REPLAY_COOLDOWN
from i18n import t
from renderers.animation import Frame, encode, holds

# The animation is what these tests look at: drawn for real (tests/animation_stand_in.py).
pytestmark = pytest.mark.real_animation


def played(game_id: str, players: int, seed: int, *, upto: int | None = None):
    """A random game's stored setup and its moves ((seat, text)), to its end or ``upto`` moves."""
    game = kind(game_id)
    rng = random.Random(seed)
    match = game.definition.new_match([f"P{i}" for i in range(players)], seed=seed)
    setup, moves = match.stored_setup(), []
    while not match.is_terminal() and (upto is None or len(moves) < upto):
        seat = rng.choice(match.to_act())
        choice = rng.choice(match.legal_choices(seat))
        match.apply(choice, by=seat)
        moves.append((seat, str(choice)))
    return game, setup, moves, match


@pytest.mark.parametrize("game_id", sorted(KINDS))
def test_a_frame_per_cycle_and_the_final_standings_held_longest(game_id):
    game, setup, moves, match = played(game_id, 3, 7)
    frames = animation.frames(game, setup, moves, "de")
    assert len(frames) == match.rhythm.cycle + 1
    assert frames[-1].seconds == max(f.seconds for f in frames) > frames[0].seconds
    # captions in the game's language, as the chat's closing lines say them (without emoji)
    view = match.view(None)
    assert frames[0].caption == animation.caption(game.presenter.cycle_over_line(view, 1, "de"))
    assert frames[-1].caption.startswith(animation.caption(game.presenter.final_lines(view, "de")[0]))


def test_an_unfinished_game_has_its_finished_cycles_only():
    game, setup, moves, match = played("paris-paris", 3, 2, upto=20)
    assert not match.is_terminal()
    assert len(animation.frames(game, setup, moves, "en")) == match.rhythm.cycle - 1


def test_key_moments_are_held_longer():
    seconds = holds([3, 2, 12, None, 3])
    assert seconds[2] == 2 * seconds[0] and seconds[3] == seconds[0]     # a big scoring cycle
    assert seconds[-2] > seconds[0] and seconds[-1] == max(seconds)      # the last cycle, the standings
    many = holds([1] * 200, final=False)
    assert sum(many) < 200 * seconds[0]                                  # a long game goes faster


@pytest.fixture(scope="module")
def short_game():
    game, setup, moves, match = played("paris-paris", 2, 3)
    return animation.frames(game, setup, moves, "en")


@pytest.mark.parametrize(("fmt", "pillow"), [("gif", "GIF"), ("webp", "WEBP")])
def test_gif_and_webp_decode_back_with_every_frame(short_game, fmt, pillow):
    with Image.open(io.BytesIO(encode(short_game, fmt))) as decoded:
        assert decoded.format == pillow and decoded.n_frames == len(short_game)
        assert decoded.width == 800 and decoded.is_animated


def test_mp4_is_h264_yuv420p_without_sound(short_game):
    with av.open(io.BytesIO(encode(short_game, "mp4"))) as video:
        assert video.format.name.startswith("mov,mp4") and not video.streams.audio
        stream = video.streams.video[0]
        assert stream.codec_context.name == "h264" and stream.codec_context.pix_fmt == "yuv420p"
        shown = sum(1 for _ in video.decode(stream))
    assert shown == sum(round(f.seconds * 4) for f in short_game)       # 4 frames a second


def test_fewer_frames_keep_the_key_moments_and_the_time(short_game):
    data = encode(short_game, "gif", step=3)
    with Image.open(io.BytesIO(data)) as decoded:
        assert 2 < decoded.n_frames < len(short_game)
        total = 0
        for index in range(decoded.n_frames):
            decoded.seek(index)
            total += decoded.info["duration"]
    assert abs(total - 1000 * sum(f.seconds for f in short_game)) < 10 * decoded.n_frames


def test_an_animation_over_its_platforms_limit_is_drawn_smaller(monkeypatch):
    game, setup, moves, _ = played("paris-paris", 2, 3)
    full = animation.draw("paris-paris", setup, moves, "en", "discord")
    monkeypatch.setitem(platforms.DECLARED, "discord",
                        replace(platforms.DISCORD, animation=AnimationFormat("webp", len(full) // 3)))
    smaller = animation.draw("paris-paris", setup, moves, "en", "discord")
    assert len(smaller) <= len(full) // 3
    with Image.open(io.BytesIO(smaller)) as decoded:
        assert decoded.width < 800


def test_only_pictures_of_frames_are_encoded():
    with pytest.raises(ValueError, match="no such animation format"):
        encode([Frame(b"", "x")], "avi")


@pytest.mark.parametrize("game_id", sorted(set(TWINS) & set(KINDS)))
def test_twin_deals_give_the_same_animation(game_id, monkeypatch):
    """Two deals that differ only in one seat's secret, played alike up to before the end: the
    animation's pictures are drawn from the same inputs, public ones only."""
    game, setup, moves, match = played(game_id, 3, 11, upto=10_000)
    twin_setup, _ = TWINS[game_id](setup, 0, random.Random(5))
    twin = game.definition.resume(twin_setup, [])
    alike = []
    for seat, text in moves:       # the moves both deals allow, up to the end (which reveals secrets)
        choice = twin.parse_choice(text)
        if not twin.is_legal(choice, by=seat):
            break
        twin.apply(choice, by=seat)
        if twin.is_terminal():
            break
        alike.append((seat, text))
    assert len(alike) > 10
    drawn: list[list] = [[], []]
    render = game.presenter.render
    for index, stored in enumerate((setup, twin_setup)):
        def spy(kind_, view, events, language, *, layout="landscape", into=drawn[index]):
            assert all(e.visible_to(None) for e in events)
            into.append((kind_, view, [e.to_dict() for e in events], layout))
            return render(kind_, view, events, language, layout=layout)
        monkeypatch.setattr(game.presenter, "render", spy)
        frames = animation.frames(game, stored, alike, "en")
        monkeypatch.undo()
        assert len(frames) >= 2
    assert drawn[0] == drawn[1]


async def test_the_end_and_replay_post_the_animation_through_the_outbox(database, tiny_game):
    """On SQLite and PostgreSQL: the final standings, then the animation; /replay posts it again
    (the same bytes, not drawn again); before any game finished, /replay is refused."""
    clock = ManualClock()
    service = await GameService.open(database, clock=clock)
    try:
        here, ann, bob = chat(1), user("Ann"), user("Bob")
        refused = await service.replay(here, ann)
        assert not refused.ok and refused.refused == "bot.err.no_replay"
        options = {"game": "tiny-hands", "seed": 3, "deadline_minutes": 10, "reminder_minutes": 0}
        game_id = await start_game(service, here, [ann, bob], options=options)
        while (await service.game_info(game_id=game_id)).status == "playing":
            clock.advance(minutes=11)          # the AI plays each turn at its deadline
            await service.fire_due_timers()
        transport = FakeTransport()
        await service.deliver_pending(transport)
        final, shown = transport.group()[-2:]
        assert final.image is not None and final.animation is None
        assert shown.image is None and shown.animation[4:8] == b"ftyp" and shown.image_name.endswith("-replay.mp4")
        assert shown.text == t("en", "bot.animation.caption", id=game_id, game="Tiny Hands")
        assert shown.image_description and shown.animation_too_large == t("en", "bot.animation.too_large")
        drawn = service.pictures.drawn
        clock.advance(REPLAY_COOLDOWN)         # the one just posted is no longer just above
        reply = await service.replay(here, bob)
        assert reply.ok and reply.extra.game_id == game_id
        await service.deliver_pending(transport)
        again = transport.group()[-1]
        assert again.id != shown.id and again.animation == shown.animation and service.pictures.drawn == drawn
    finally:
        await service.close()


async def finish(service, clock, *chats_and_players) -> list[int]:
    """A Tiny Hands game played to its end by the AI in each chat given (with its two players)."""
    options = {"game": "tiny-hands", "seed": 3, "deadline_minutes": 10, "reminder_minutes": 0}
    games = [await start_game(service, c, players, options=options) for c, players in chats_and_players]
    while [g for g in games if (await service.game_info(game_id=g)).status == "playing"]:
        clock.advance(minutes=11)              # the AI plays each turn at its deadline
        await service.fire_due_timers()
    return games


async def animations(service, game_id: int) -> list[str]:
    """The states of the game's animations in the outbox, oldest first."""
    return [o.state for o in await service.storage.outbox_rows(game_id)
            if o.body.render is not None and o.body.render.kind == animation.ANIMATION]


async def test_replay_waits_for_the_animation_on_its_way_and_a_cooldown_after_it_went_out(database, tiny_game):
    """On SQLite and PostgreSQL: /replay sent again and again encodes one video, not one each.
    While the game's animation is on its way to the chat, /replay says so and queues nothing; for
    ``REPLAY_COOLDOWN`` after it went out, /replay says when it can be asked again; then it posts
    it again. Another chat's animation on its way does not hold this chat's back."""
    clock = ManualClock()
    service = await GameService.open(database, clock=clock)
    try:
        here, there, ann, bob, cat, dan = chat(1), chat(2), user("Ann"), user("Bob"), user("Cat"), user("Dan")
        mine, theirs = await finish(service, clock, (here, [ann, bob]), (there, [cat, dan]))
        assert await animations(service, mine) == ["pending"]          # the end's own animation
        for _ in range(3):
            reply = await service.replay(here, bob)
            assert not reply.ok and reply.refused == "bot.err.replay_on_its_way"
            assert reply.text == t("en", "bot.err.replay_on_its_way", id=mine)
        assert await animations(service, mine) == ["pending"]
        transport = FakeTransport()
        await service.deliver_pending(transport)
        assert await animations(service, mine) == ["sent"]
        reply = await service.replay(here, ann)
        assert not reply.ok and reply.refused == "bot.err.replay_just_posted"
        assert reply.text == t("en", "bot.err.replay_just_posted", id=mine, wait="10 minutes")
        clock.advance(REPLAY_COOLDOWN - 30)
        reply = await service.replay(here, ann)
        assert reply.refused == "bot.err.replay_just_posted" and "again in 1 minute." in reply.text
        assert await animations(service, mine) == ["sent"]
        clock.advance(30)
        reply = await service.replay(here, ann)
        assert reply.ok and reply.extra.game_id == mine
        assert await animations(service, mine) == ["sent", "pending"]
        assert (await service.replay(here, bob)).refused == "bot.err.replay_on_its_way"
        reply = await service.replay(there, cat)                       # its own animation went out long ago
        assert reply.ok and reply.extra.game_id == theirs
        assert await animations(service, theirs) == ["sent", "pending"]
        assert await animations(service, mine) == ["sent", "pending"]
    finally:
        await service.close()


async def test_replay_is_not_held_back_by_an_animation_that_could_not_be_drawn(database, tiny_game):
    """The end's animation failed to draw (its caption went alone): /replay asks for it again at once."""
    clock = ManualClock()
    service = await GameService.open(database, clock=clock)
    try:
        here, ann, bob = chat(1), user("Ann"), user("Bob")
        [mine] = await finish(service, clock, (here, [ann, bob]))
        drawing = service.pictures.render

        async def failing(render, *args, **kwargs):
            return None if render.kind == animation.ANIMATION else await drawing(render, *args, **kwargs)
        service.pictures.render = failing
        transport = FakeTransport()
        await service.deliver_pending(transport)
        assert transport.group()[-1].animation is None
        service.pictures.render = drawing
        reply = await service.replay(here, ann)
        assert reply.ok and reply.extra.game_id == mine
        await service.deliver_pending(transport)
        assert transport.group()[-1].animation is not None
    finally:
        await service.close()
