"""Whole games through the service, with an in-memory transport."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import whole_games
from service_helpers import chat, play_to_end, play_turn, start_game, user

from bot.contract import SlotKind
from bot.service.game.outmessage import encode_body
from engine.paris_paris import Game
from engine.paris_paris.record import from_record, result, to_record
from i18n import LANGUAGES, t


@pytest.mark.parametrize("players", whole_games.cases(2, 3, 4))
async def test_full_game_through_the_service(service, transport, players):
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    users = {u.id: u for u in map(user, names)}
    c = chat()
    gid = await start_game(service, c, list(users.values()), options={"seed": 11 + players})
    await service.deliver_pending(transport)
    per_round: dict[int, int] = {}
    await play_to_end(service, c, users, transport, per_round=per_round)

    info = await service.game_info(game_id=gid)
    assert info.status == "finished"
    rounds = {2: 20, 3: 15, 4: 12}[players]
    assert info.moves == rounds * players
    # The stored record replays to the same result.
    record = await service.record(gid)
    assert len(record["moves"]) == rounds * players
    replayed = from_record(record)
    assert replayed.finished and tuple(replayed.scores) == info.scores
    assert tuple(replayed.winners) == info.winners
    # Every human got exactly one private message: their own marker.
    private = transport.private()
    assert sorted(m.private_to.id for m in private) == sorted(users)
    for m in private:
        seat = [s.user_id for s in info.seats].index(m.private_to.id)
        colour = record["markers"][info.seats[seat].name]
        assert t("en", "pp.colour." + colour) in m.text
    # At most 3 new group messages per round (prompt, map, reminder); here 2.
    assert per_round and max(per_round.values()) <= 3
    # The lobby, the map at the start, then per round its prompt and its map, the standings and the
    # whole game as an animation.
    assert len(transport.new_group_posts()) == 2 * rounds + 4
    # Maps: the start, one after each round (the last one too), then the final standings, then the
    # animation (a frame per round and the standings).
    rows = await service.storage.outbox_rows(gid)
    renders = [r.body.render for r in rows if r.body.render is not None]
    assert [r.kind for r in renders] == ["map"] * (rounds + 1) + ["final", "animation"]
    renders = renders[:-1]
    assert [r.cycle for r in renders[:-1]] == list(range(rounds + 1))
    names = [r.body.image_name for r in rows if r.body.render is not None]
    assert names[1].startswith(f"paris-{gid}-") and names[1].endswith("-round1.png")
    assert names[-3].endswith(f"-round{rounds}.png") and names[-2].endswith("-final.png")
    assert names[-1].endswith("-replay.mp4")
    assert len(set(names)) == len(names)
    # Everything was delivered.
    assert all(r.state == "sent" for r in rows)
    # Stats: leaderboard and per-user history.
    stats = await service.stats(c, users["ann"])
    assert stats.ok and stats.extra.games == 1
    assert len(stats.extra.leaderboard) == players
    assert sum(e.wins for e in stats.extra.leaderboard) == len(info.winners)


async def test_prompt_mentions_player_and_offers_tiles(service, transport):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    await start_game(service, c, [ann, bob], options={"seed": 5})
    await service.deliver_pending(transport)
    prompt = [m for m in transport.group() if m.slot and m.slot.kind == SlotKind.TURN][-1]
    info = await service.game_info(c)
    mover = info.seats[info.to_move]
    assert [u.id for u in prompt.mentions] == [mover.user_id]
    assert mover.name in prompt.text
    tiles = [b for row in prompt.buttons for b in row if b.payload.startswith(("c_", "o_"))]
    assert 1 <= len(tiles) <= 3
    for row in prompt.buttons:
        for b in row:
            assert len(b.payload.encode()) <= 64


async def test_ai_only_game_runs_to_the_end(service, transport):
    host = user("Host")
    c = chat()
    await service.new_game(c, host, options={"join": False, "seed": 99})
    for _ in range(4):
        assert (await service.add_ai(c, host)).ok
    assert (await service.start(c, host)).ok
    assert await service.game_info(c) is None           # no active game left in the chat
    await service.deliver_pending(transport)
    rows = await service.storage.outbox_rows()
    assert rows and all(r.state == "sent" for r in rows)
    assert not transport.private()                       # AI seats get no private messages
    final, animation = transport.group()[-2:]
    assert t("en", "pp.msg.final_header") in final.text and animation.animation is not None
    # Every shop opened is told in the group, each round in its own message with its map.
    game = await service.record((await service.storage.outbox_rows())[0].game_id)
    told = "\n".join(m.text for m in transport.group())
    assert told.count(" opens a shop at ") == len(game["moves"]) == 60 // 5 * 4
    round_messages = [m for m in transport.group() if m.image is not None]
    # The start, a map per round (its moves told with it: no prompt was posted), the final image.
    assert len(round_messages) == 1 + 12 + 1
    assert all(" opens a shop at " in m.text for m in round_messages[1:-1])
    stats = await service.stats(c, host)
    assert len(stats.extra.leaderboard) == 4


async def test_ai_seats_move_at_once_after_a_human(service, transport):
    ann = user("Ann")
    c = chat()
    await start_game(service, c, [ann], ais=2, options={"seed": 3})
    users = {"ann": ann}
    for _ in range(6):
        info = await service.game_info(c)
        assert info.seats[info.to_move].user_id == "ann"   # never waiting on an AI
        await play_turn(service, c, users)
    info = await service.game_info(c)
    assert info.moves >= 18 - 2


async def test_two_games_in_two_chats_for_one_user(service, transport):
    ann, bob, cat = user("Ann"), user("Bob"), user("Cat")
    await start_game(service, chat(1), [ann, bob], options={"seed": 1})
    await start_game(service, chat(2), [cat, ann], options={"seed": 2})
    marker = await service.secret(ann)
    assert marker.ok and marker.text.count("\n") == 1     # one line per game
    assert "Chat 1" in marker.text and "Chat 2" in marker.text
    await play_to_end(service, chat(1), {"ann": ann, "bob": bob})
    assert (await service.game_info(chat(2))).status == "playing"


async def test_secrets_never_reach_the_group(service, transport):
    users = {u.id: u for u in map(user, ["Ann", "Bob", "Cat"])}
    c = chat()
    gid = await start_game(service, c, list(users.values()), options={"seed": 21, "language": "de"})
    await service.deliver_pending(transport)
    await play_to_end(service, c, users, transport)
    meta, _ = await service.storage.load_game(gid)
    record = await service.record(gid)
    secret_phrases = []
    for lang in LANGUAGES:
        for key in ("pp.msg.marker_private", "pp.msg.marker_line"):
            secret_phrases.append(t(lang, key, chat="", colour="").split("{")[0].strip()[:20])
    group = transport.group()
    final_index = max(i for i, m in enumerate(group) if m.edit_message_id is None)
    for i, message in enumerate(group):
        texts = [message.text] + [b.label for row in message.buttons for b in row]
        for phrase in secret_phrases:
            assert all(phrase not in text for text in texts), (phrase, message.text)
        if i < final_index:
            # Before the end the group never hears any player's marker colour as "marker".
            try:
                from renderers.paris_paris.text import narrate_event
            except ImportError:
                continue
            from engine.paris_paris.events import MarkerDealt
            for seat, colour in enumerate(record["markers"].values()):
                line = narrate_event(MarkerDealt(seat, colour), players=[s.name for s in meta.seats],
                                     language="de")
                assert not line or line not in message.text
    # Every group row in the database, delivered or not, is built from public data only.
    for row in await service.storage.outbox_rows(gid):
        if row.dest.startswith("c:"):
            blob = encode_body(row.body)
            assert "marker_private" not in blob
            assert all(p not in blob for p in secret_phrases)
    # The private messages hold each player's own marker, and nobody else's.
    for m in transport.private():
        seat = meta.seat_of(m.private_to.id)
        mine = record["markers"][meta.seats[seat].name]
        assert t("de", "pp.colour." + mine) in m.text


async def test_result_replays_with_the_engine(service, tmp_path):
    ann, bob = user("Ann"), user("Bob")
    c = chat()
    gid = await start_game(service, c, [ann, bob], options={"seed": 8, "final_tours": "all_lines"})
    await play_to_end(service, c, {"ann": ann, "bob": bob})
    record = await service.record(gid)
    assert record["options"] == {"final_tours": "all_lines"} and record["seed"] == 8
    fresh = Game.new(record["players"], seed=8)
    assert to_record(fresh)["stacks"] == record["stacks"]          # the deal comes from the stored seed
    info = await service.game_info(game_id=gid)
    assert info.status == "finished" and len(record["moves"]) == 40
    # The engine's replay tool reads the stored record and agrees with the service.
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                         check=True)
    replayed = json.loads(out.stdout)
    assert replayed["finished"] and list(replayed["scores"].values()) == list(info.scores)
    assert replayed["winners"] == [record["players"][s] for s in info.winners]
    assert result(from_record(record))["scores"] == replayed["scores"]
