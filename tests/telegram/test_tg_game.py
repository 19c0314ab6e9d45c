"""End to end: the real Application and GameService against the fake Bot API; users only tap."""

from __future__ import annotations

import asyncio
import io
import json

import av
import pytest
from PIL import Image
from tgharness import GROUP_ID, Bot, Table

from bot.games import KINDS
from bot.service import GameService
from bot.telegram.handlers import help_text
from i18n import t

SEED = 23     # a fixed deal: reproducible runs (taps in turn meet an eviction choice in it)


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch):
    """Every new game gets the same deal, so runs are reproducible."""
    monkeypatch.setattr("bot.service.table.lobby.secrets.randbits", lambda bits: SEED)


@pytest.fixture
def table(api) -> Table:
    ann = api.add_user(101, "Ann", started=True)
    bob = api.add_user(102, "Bob", language_code="en")
    cat = api.add_user(103, "Cat", language_code="en")
    dan = api.add_user(104, "Dan")
    group = api.add_group(GROUP_ID, "Paris fans", owner=ann)
    return Table(api, group, {"ann": ann, "bob": bob, "cat": cat, "dan": dan})


async def open_lobby(api, bot: Bot, table: Table, joiners=("bob", "cat")):
    """Ann opens a game; the others join through the deep-link Join button."""
    api.send_text(table.group, table.users["ann"], "/newgame")
    await bot.settle()
    lobby = table.lobby()
    for name in joiners:
        api.follow_url(table.users[name], lobby.button("Join")["url"])
        await bot.settle()
    return table.lobby()


async def press(api, bot: Bot, user, msg, button) -> dict:
    qid = api.press(user, msg, button)
    answer = await api.answer_of(qid)
    await bot.settle()
    return answer


async def play_turn(api, bot: Bot, table: Table, *, choose: int = 0, stats: dict | None = None):
    """The player the prompt mentions taps a tile (and an eviction choice if asked)."""
    prompt = table.prompt()
    assert prompt is not None
    player = table.to_move(prompt)
    tiles = table.tile_buttons(prompt)
    answer = await press(api, bot, player, prompt, tiles[choose % len(tiles)])
    assert answer.get("show_alert") is not True, answer
    again = table.prompt()
    if again is not None and table.evict_buttons(again):
        assert table.to_move(again) == player          # the choice is asked of the same player
        answer = await press(api, bot, player, again, table.evict_buttons(again)[0])
        assert answer.get("show_alert") is not True, answer
        if stats is not None:
            stats["evictions"] = stats.get("evictions", 0) + 1
    return answer, player


async def start_game(api, bot: Bot, table: Table, joiners=("bob", "cat")):
    lobby = await open_lobby(api, bot, table, joiners)
    answer = await press(api, bot, table.users["ann"], lobby, lobby.button("Start"))
    assert answer.get("text") == t("en", "bot.reply.started"), answer


async def test_commands_menus_are_registered(api, bot):
    scopes = {(c["scope"]["type"], c["language_code"]) for c in api.commands}
    assert ("all_group_chats", None) in scopes and ("all_private_chats", None) in scopes
    assert ("all_group_chats", "de") in scopes and ("all_private_chats", "fr") in scopes
    group_menu = next(c for c in api.commands if c["scope"]["type"] == "all_group_chats" and not c["language_code"])
    assert [c["command"] for c in group_menu["commands"]] == [
        "newgame", "join", "leave", "startgame", "addbot", "abort", "board", "secret", "settings", "stats",
        "rating", "record", "replay", "away", "rules", "help"]
    german = next(c for c in api.commands if c["scope"]["type"] == "all_group_chats" and c["language_code"] == "de")
    assert german["commands"][0]["description"] == t("de", "tg.cmd.newgame")


async def test_lobby_by_deep_link_and_start(api, bot, table):
    lobby = await open_lobby(api, bot, table)
    # the command got a short reply in the group, the lobby lists the three players
    assert "Bob" in lobby.body and "Cat" in lobby.body
    # the joins happened in the private chats, each answered there
    for name in ("bob", "cat"):
        private = api.bot_messages(table.users[name])
        assert private and t("en", "bot.reply.joined") in private[0].body
    answer = await press(api, bot, table.users["ann"], lobby, lobby.button("Start"))
    assert answer.get("text") == t("en", "bot.reply.started")
    prompt = table.prompt()
    assert prompt is not None and len(table.tile_buttons(prompt)) >= 1
    # every player has a marker in the private chat; the group never sees those texts
    for name in ("ann", "bob", "cat"):
        assert any("marker" in m.body.lower() for m in api.bot_messages(table.users[name])), name
    private_texts = [m.body for n in ("ann", "bob", "cat") for m in api.bot_messages(table.users[n])]
    for call in api.calls:
        if str(call.params.get("chat_id")) == str(GROUP_ID):
            seen = str(call.params.get("text") or call.params.get("caption") or "")
            assert not any(p and p in seen for p in private_texts if "🔒" in p)



@pytest.mark.real_animation
async def test_complete_three_player_game_by_taps_only(api, bot, table, monkeypatch):
    lobby = await open_lobby(api, bot, table)
    api.send_text(table.group, table.users["bob"], "/record")     # nothing finished here yet
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "bot.err.no_record")
    api.send_text(table.group, table.users["bob"], "/replay")
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "bot.err.no_replay")
    await press(api, bot, table.users["ann"], lobby, lobby.button("Start"))
    humans = {table.users[n].id for n in ("ann", "bob", "cat")}
    markers = {uid: [m.body for m in api.bot_messages(uid)][-1] for uid in humans}
    assert all("🔒" in text for text in markers.values())
    turns, movers, stats = 0, [], {}
    while table.prompt() is not None:
        answer, player = await play_turn(api, bot, table, choose=turns, stats=stats)
        movers.append(player.id)
        turns += 1
        assert turns <= 45, "the game does not end"
    assert turns == 45                                  # 15 stacks of 4 tiles, 3 picks each
    assert set(movers) == humans
    assert stats.get("evictions", 0) >= 1               # eviction keyboards came up and were used
    group = table.group_messages()
    final, animation = group[-2:]
    assert t("en", "pp.msg.final_header") in final.body
    # beside the final standings, the whole game as an animation that plays inline (sendAnimation, an
    # H.264 MP4 without sound): a frame for each round and the standings, with its caption
    assert animation.animation is not None and animation.animation[4:8] == b"ftyp"
    assert animation.document_name.endswith("-replay.mp4") and "round by round" in animation.caption
    assert frames_of(animation.animation) >= 15 + 1
    group = group[:-1]
    # the map at the start, one per round, then the final picture, uploaded as PNG photos
    photos = [m for m in group if m.photo is not None]
    assert len(photos) == 1 + 15 + 1 and all(p.photo.startswith(b"\x89PNG") for p in photos)
    # Telegram is read on phones: round maps come in the portrait layout (panel under the map)
    sizes = [Image.open(io.BytesIO(p.photo)).size for p in photos[:-1]]
    assert all(height > width >= 1200 for width, height in sizes), sizes
    assert final.photo is not None
    # at most 3 new group messages per round: the prompt is edited in place during a round
    starts = [i for i, m in enumerate(group) if m.photo is not None]
    assert all(b - a <= 3 for a, b in zip(starts, starts[1:], strict=False))
    assert len(group) <= 2 + 3 * 15
    # the secret markers went only to the private chats
    for call in api.calls:
        if str(call.params.get("chat_id")) == str(GROUP_ID):
            seen = str(call.params.get("text") or call.params.get("caption") or "")
            assert not any(text in seen for text in markers.values())
    # every callback query was answered exactly once, without an error
    presses = [u for u in api.injected if u]
    assert len(api.answers) == len(api.calls_of("answerCallbackQuery"))
    assert all(c.ok for c in api.calls_of("answerCallbackQuery"))
    assert len(presses) >= len(api.answers) >= 46
    # The finished game's record, as a JSON file in the group (sendDocument), replayable.
    api.send_text(table.group, table.users["bob"], "/record")
    await bot.settle()
    doc = table.group_messages()[-1]
    assert doc.document is not None and doc.document_name.endswith("-record.json"), doc
    assert doc.reply_to is not None and "boardchat replay " + doc.document_name in doc.caption
    record = json.loads(doc.document)
    assert record["players"] == ["Ann", "Bob", "Cat"] and len(record["moves"]) == 45
    # /replay right after the animation went out: refused, saying when it can be asked again
    api.send_text(table.group, table.users["cat"], "/replay")
    await bot.settle()
    refused = table.group_messages()[-1]
    assert refused.body == t("en", "bot.err.replay_just_posted", id=1, wait="10 minutes")
    # past the cooldown, /replay posts it again, through the outbox, and says so
    monkeypatch.setattr("bot.service.table.info.REPLAY_COOLDOWN", 0.0)
    api.send_text(table.group, table.users["cat"], "/replay")
    await bot.settle()
    said, again = table.group_messages()[-2:]
    assert said.body == t("en", "bot.reply.replay", id=1, game="Paris Paris") and said.reply_to is not None
    assert again.animation == animation.animation and again.caption == animation.caption


def frames_of(mp4: bytes) -> int:
    """The frames an MP4 decodes to (each picture repeated for as long as it shows)."""
    with av.open(io.BytesIO(mp4)) as video:
        assert not video.streams.audio
        return len({bytes(f.planes[0]) for f in video.decode(video.streams.video[0])})


async def test_stale_duplicate_and_foreign_presses_get_alerts(api, bot, table):
    await start_game(api, bot, table)
    first = table.prompt()
    mover = table.to_move(first)
    others = [u for n, u in table.users.items() if n in ("ann", "bob", "cat") and u.id != mover.id]
    dan = table.users["dan"]
    # not your turn / not in the game: refused with an alert, nothing changes
    answer = await press(api, bot, others[0], first, table.tile_buttons(first)[0])
    assert answer["show_alert"] is True
    assert answer["text"] == t("en", "bot.err.not_your_turn", player=mover.first_name)
    answer = await press(api, bot, dan, first, table.tile_buttons(first)[0])
    assert answer["show_alert"] is True and answer["text"] == t("en", "bot.err.not_in_game")
    assert table.prompt().body == first.body
    # the mover plays; the old button is now stale for others and a duplicate for the mover
    old_button = table.tile_buttons(first)[0]
    await press(api, bot, mover, first, old_button)
    answer = await press(api, bot, others[0], first, old_button)
    assert answer["show_alert"] is True and answer["text"] == t("en", "bot.err.stale")
    answer = await press(api, bot, mover, first, old_button)
    assert answer["show_alert"] is True and answer["text"] == t("en", "bot.err.duplicate")
    # a forged payload
    answer = await press(api, bot, mover, first, "t_1_0_k_0000000000000000")
    assert answer["show_alert"] is True and answer["text"] == t("en", "bot.err.forged")
    assert len(api.answers) == len(api.calls_of("answerCallbackQuery")) == 7


async def test_eviction_keyboard_back_and_choice(api, bot, table):
    await start_game(api, bot, table)
    turns = 0
    while True:
        prompt = table.prompt()
        player = table.to_move(prompt)
        tile = table.tile_buttons(prompt)[turns % len(table.tile_buttons(prompt))]
        await press(api, bot, player, prompt, tile)
        choice = table.prompt()
        if table.evict_buttons(choice):
            break
        turns += 1
        assert table.prompt() is not None and turns < 45, "no eviction choice in a whole game"
    assert choice.message_id == prompt.message_id            # the prompt itself was edited, no new post
    assert table.to_move(choice) == player
    stranger = next(u for n, u in table.users.items() if n in ("ann", "bob", "cat") and u.id != player.id)
    answer = await press(api, bot, stranger, choice, table.evict_buttons(choice)[0])
    assert answer["show_alert"] is True
    answer = await press(api, bot, player, choice, choice.button("Back"))
    assert answer["text"] == t("en", "bot.reply.back")
    assert table.tile_buttons(table.prompt()) and not table.evict_buttons(table.prompt())
    await press(api, bot, player, table.prompt(), tile)
    choice = table.prompt()
    victim = table.evict_buttons(choice)[0]
    answer = await press(api, bot, player, choice, victim)
    assert answer.get("show_alert") is not True and "Done" in answer["text"]
    assert table.to_move(table.prompt()) != player


async def test_marker_is_only_shown_privately(api, bot, table):
    await start_game(api, bot, table)
    bob, dan = table.users["bob"], table.users["dan"]
    colour = next(w for w in ("green", "red", "blue", "purple", "yellow") if w in api.bot_messages(bob)[-1].body)
    before = len(table.group_messages())
    # /secret in the group: no secret there, a button to the private chat instead
    api.send_text(table.group, bob, "/secret")
    await bot.settle()
    reply = table.group_messages()[-1]
    assert reply.reply_to is not None and "🔒" not in reply.body.split("\n")[0][:1]
    assert t("en", "tg.secret.group", name="Bob") == reply.body
    link = reply.button("private")["url"]
    assert link == "https://t.me/ParisTestBot?start=secret"
    api.follow_url(bob, link)
    await bot.settle()
    assert t("en", "pp.msg.marker_line", chat="Paris fans", colour=colour) in api.last_bot_message(bob).body
    # the link earlier versions posted still works
    count = len(api.bot_messages(bob))
    api.follow_url(bob, "https://t.me/ParisTestBot?start=mymarker")
    await bot.settle()
    assert len(api.bot_messages(bob)) > count and colour in api.last_bot_message(bob).body
    # /secret and its older name /marker in the private chat
    for command in ("/secret", "/marker"):
        count = len(api.bot_messages(bob))
        api.send_text(api.chats[bob.id], bob, command)
        await bot.settle()
        assert len(api.bot_messages(bob)) == count + 1 and colour in api.last_bot_message(bob).body
    # the "My marker" button under the prompt: answered in the private chat
    prompt = table.prompt()
    count = len(api.bot_messages(bob))
    answer = await press(api, bot, bob, prompt, prompt.button("My marker"))
    assert answer["text"] == t("en", "tg.secret.sent")
    assert len(api.bot_messages(bob)) == count + 1 and colour in api.last_bot_message(bob).body
    # someone without a seat gets an alert, and nothing is posted anywhere
    answer = await press(api, bot, dan, prompt, prompt.button("My marker"))
    assert answer["show_alert"] is True and answer["text"] == t("en", "pp.err.no_marker")
    group_texts = [m.body for m in table.group_messages()]
    assert not any(colour in text for text in group_texts)
    assert len(table.group_messages()) == before + 1        # only the /marker hint


async def test_closed_private_chat_recovers_when_the_player_starts_the_bot(api, bot, table):
    ann = table.users["ann"]
    ann.started = False                                    # Ann never opened a private chat
    await start_game(api, bot, table)
    assert api.bot_messages(ann) == []
    refused = [c for c in api.calls_of("sendMessage") if str(c.params["chat_id"]) == str(ann.id)]
    assert refused and refused[0].error.startswith("Forbidden")
    # the group is told (in the prompt) that Ann's chat is closed, with a button to open it
    closed_note = t("en", "bot.msg.private_closed", player="Ann")
    note = await api.wait_for(lambda: next((m for m in table.group_messages() if closed_note in m.body), None),
                              what="the closed-chat note in the group")
    link = next(b["url"] for b in note.buttons() if "url" in b)
    assert link.startswith("https://t.me/ParisTestBot")
    # the game goes on meanwhile
    await play_turn(api, bot, table)
    assert closed_note in table.prompt().body
    # the marker press tells her where to go, with the deep link
    prompt = table.prompt()
    answer = await press(api, bot, ann, prompt, prompt.button("My marker"))
    assert answer["show_alert"] is True and answer["url"].startswith("https://t.me/ParisTestBot?start=")
    assert api.bot_messages(ann) == []
    api.follow_url(ann, link)
    await api.wait_for(lambda: any("🔒" in m.body for m in api.bot_messages(ann)), what="Ann's marker")
    await bot.settle()
    texts = [m.body for m in api.bot_messages(ann)]
    assert any(text.startswith("🔒") and "Paris fans" in text for text in texts)
    assert t("en", "bot.reply.private_resent", count=1) in "\n".join(texts)
    # the group no longer asks her to open the chat
    assert not any(closed_note in m.body for m in [table.prompt()])


async def test_flood_control_is_honoured_without_loss(api, bot, table):
    lobby = await open_lobby(api, bot, table)
    api.fail_next("sendMessage", retry_after=1)           # the first marker hits flood control
    await press(api, bot, table.users["ann"], lobby, lobby.button("Start"))
    users = [table.users[n] for n in ("ann", "bob", "cat")]
    await api.wait_for(lambda: table.prompt() is not None and all(
        any("🔒" in m.body for m in api.bot_messages(u)) for u in users), timeout=8, what="all messages")
    sends = api.calls_of("sendMessage")
    failed = next(i for i, c in enumerate(sends) if not c.ok)
    assert sends[failed].error.startswith("Too Many Requests")
    retried = next(c for c in sends[failed + 1:] if c.params["text"] == sends[failed].params["text"] and c.ok)
    assert retried.at - sends[failed].at >= 0.95                 # waited as told
    # exactly one marker each: nothing lost, nothing doubled
    assert all(sum("🔒" in m.body for m in api.bot_messages(u)) == 1 for u in users)


async def test_bot_restarts_mid_game_and_the_game_goes_on(api, bot, table):
    await start_game(api, bot, table)
    for turn in range(5):
        await play_turn(api, bot, table, choose=turn)
    prompt = table.prompt()
    await bot.stop()
    # a tap while the bot is down waits in Telegram's queue
    mover = table.to_move(prompt)
    qid = api.press(mover, prompt, table.tile_buttons(prompt)[0])
    await bot.start()
    answer = await api.answer_of(qid)
    assert answer.get("show_alert") is not True and "Done" in answer["text"]
    await bot.settle()
    turns = 6
    while table.prompt() is not None:
        await play_turn(api, bot, table, choose=turns)
        turns += 1
        assert turns <= 45
    assert turns == 45
    final, animation = table.group_messages()[-2:]
    assert t("en", "pp.msg.final_header") in final.body and animation.animation is not None
    assert bot.runs == 2


async def test_a_stop_during_a_send_posts_nothing_twice(api, bot, table):
    """SIGTERM while the lobby is being posted: the stop waits for Telegram's answer and records
    it, so the restarted bot does not post the lobby again."""
    api.answer_late("sendMessage", 0.5, when=lambda params: "start=j_" in json.dumps(params.get("reply_markup")))
    api.send_text(table.group, table.users["ann"], "/newgame")
    await asyncio.wait_for(api.late_started.wait(), 10)
    await bot.stop()                        # what run_polling does on SIGTERM
    await bot.start()
    await bot.settle()
    lobbies = [m for m in table.group_messages() if any("start=j_" in b.get("url", "") for b in m.buttons())]
    assert len(lobbies) == 1


async def test_the_bot_runs_one_timer_loop(api, tmp_path, monkeypatch):
    callers: set[asyncio.Task] = set()
    fire = GameService.fire_due_timers

    async def counted(self) -> int:
        callers.add(asyncio.current_task())
        return await fire(self)

    monkeypatch.setattr(GameService, "fire_due_timers", counted)
    running = Bot(api, str(tmp_path / "timers.sqlite3"))
    await running.start()
    try:
        await api.wait_for(lambda: callers, what="a timer pass")
        await running.settle()
        assert len(callers) == 1
    finally:
        await running.stop()


async def test_settings_menu_edits_in_place(api, bot, table):
    ann, dan = table.users["ann"], table.users["dan"]
    api.send_text(table.group, ann, "/newgame")
    await bot.settle()
    api.send_text(table.group, ann, "/settings")
    await bot.settle()
    menu = table.group_messages()[-1]
    assert menu.reply_to is not None and menu.buttons()
    german = menu.button(t("en", "bot.language.de"))
    answer = await press(api, bot, dan, menu, german)           # neither host nor admin
    assert answer["show_alert"] is True and answer["text"] == t("en", "bot.err.not_host", host="Ann")
    answer = await press(api, bot, ann, menu, german)
    assert answer.get("show_alert") is not True
    edited = api.messages[(GROUP_ID, menu.message_id)]
    assert edited.edits == 1 and edited.body.startswith(t("de", "bot.reply.settings_saved"))
    assert table.lobby().body != "" and t("de", "bot.language.de") in table.lobby().body


async def test_admin_rights_come_from_telegram(api, bot, table):
    eve = api.add_user(105, "Eve")
    table.group.admins.add(eve.id)
    bob = table.users["bob"]
    api.send_text(table.group, table.users["ann"], "/newgame")
    await bot.settle()
    api.send_text(table.group, bob, "/abort")
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "bot.err.not_host", host="Ann")
    api.send_text(table.group, eve, "/abort")
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "bot.reply.aborted")
    assert any(c.params.get("user_id") == eve.id for c in api.calls_of("getChatMember"))


async def test_admin_rights_are_asked_for_the_buttons_that_need_them(api, bot, table):
    """A settings button asks Telegram whether the presser administers the group (an admin
    may change a game they do not host); a turn's button does not (one call fewer a move)."""
    eve = api.add_user(105, "Eve")
    table.group.admins.add(eve.id)
    await start_game(api, bot, table)
    prompt = table.prompt()
    player, shown = table.to_move(prompt), prompt.body
    before = len(api.calls_of("getChatMember"))
    await press(api, bot, player, prompt, table.tile_buttons(prompt)[0])
    assert table.prompt() is not None and table.prompt().body != shown      # the move was made
    assert len(api.calls_of("getChatMember")) == before
    api.send_text(table.group, table.users["ann"], "/settings")
    await bot.settle()
    menu = table.group_messages()[-1]
    answer = await press(api, bot, eve, menu, menu.button(t("en", "bot.language.de")))
    assert answer.get("show_alert") is not True             # not the host, but an admin
    assert any(c.params.get("user_id") == eve.id for c in api.calls_of("getChatMember")[before:])


async def test_commands_where_they_belong(api, bot, table):
    bob = table.users["bob"]
    api.start_bot(bob)
    await bot.settle()
    assert api.last_bot_message(bob).body == t("en", "bot.reply.private_ok")
    add = api.last_bot_message(bob).button("group")["url"]
    assert add == "https://t.me/ParisTestBot?startgroup=boardchat"
    api.send_text(api.chats[bob.id], bob, "/newgame")
    await bot.settle()
    assert api.last_bot_message(bob).body == t("en", "tg.group_only")
    assert api.last_bot_message(bob).button("group")["url"] == add
    for command, expected in (("/rules", t("en", "pp.rules")), ("/help", help_text("en"))):
        api.send_text(api.chats[bob.id], bob, command)
        await bot.settle()
        assert api.last_bot_message(bob).body.startswith(expected[:40])
    api.send_text(table.group, bob, "/board")
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "bot.err.no_game")
    api.send_text(table.group, bob, "/stats@ParisTestBot")
    await bot.settle()
    assert t("en", "bot.stats.title") in table.group_messages()[-1].body


async def test_board_in_the_group_carries_no_action_buttons(api, bot, table):
    """/board asked by the player to move: a picture for everyone, without a copy of the turn's
    buttons that would stay in the group after the turn (and answer "stale" when pressed)."""
    await start_game(api, bot, table)
    mover = table.to_move(table.prompt())
    api.send_text(table.group, mover, "/board")
    await bot.settle()
    board = table.group_messages()[-1]
    assert board.reply_to is not None and board.body
    assert not table.tile_buttons(board) and not board.buttons()
    assert table.tile_buttons(table.prompt())          # the turn's buttons are on the prompt, as before


async def test_timers_run_in_the_background(api, table, tmp_path):
    """Reminders and deadlines fire from the adapter's timer loop, by the service's clock."""
    from bot.service import ManualClock

    clock = ManualClock(start=1_800_000_000.0)
    running = Bot(api, str(tmp_path / "timers.sqlite3"), clock=clock)
    await running.start()
    try:
        await start_game(api, running, table)
        prompt = table.prompt()
        late = table.to_move(prompt)
        clock.advance(minutes=4 * 60 + 1)                 # the default reminder
        running.service.timers.wake.set()                 # a manual clock's jump wakes nobody by itself
        reminder = await api.wait_for(lambda: next(
            (m for m in table.group_messages() if m.message_id > prompt.message_id and late.id in table.mentioned(m)),
            None), what="the reminder")
        assert late.first_name in reminder.body
        clock.advance(minutes=24 * 60)                    # the default deadline: the AI moves for them
        running.service.timers.wake.set()
        await api.wait_for(lambda: table.prompt() is not None and table.to_move(table.prompt()) != late,
                           what="the deadline move")
        assert any(t("en", "bot.msg.deadline", player=late.first_name, choice="")[:20] in m.body
                   for m in table.group_messages())
    finally:
        await running.stop()


async def test_greeting_aliases_and_anonymous_admins(api, bot, table):
    ann = table.users["ann"]
    api.add_bot_to(table.group, ann)
    await bot.settle()
    assert table.group_messages()[-1].body == help_text("en")
    api.send_text(table.group, ann, "/newgame", anonymous=True)
    await bot.settle()
    assert table.group_messages()[-1].body == t("en", "tg.anonymous")
    api.send_text(table.group, ann, "/new@ParisTestBot")          # the name the service's texts use
    await bot.settle()
    assert "Ann" in table.lobby().body
    api.send_text(table.group, ann, "/addai")
    await bot.settle()
    assert "Ada" in table.lobby().body.split("\n")[1]
    api.send_text(table.group, ann, "/start@ParisTestBot")        # in a group: the help, not a game start
    await bot.settle()
    assert table.group_messages()[-1].body == help_text("en")



async def test_a_command_reply_waits_out_flood_control(api, bot, table):
    api.fail_next("sendMessage", retry_after=1)
    api.send_text(table.group, table.users["bob"], "/help")
    reply = await api.wait_for(lambda: table.group_messages(), timeout=5, what="the reply")
    assert reply[0].body == help_text("en")
    failed, sent = api.calls_of("sendMessage")[:2]
    assert not failed.ok and sent.ok and sent.at - failed.at >= 0.95


async def test_every_press_is_answered_even_when_the_service_fails(api, bot, table, monkeypatch):
    await start_game(api, bot, table)
    prompt = table.prompt()
    mover = table.to_move(prompt)

    async def broken(*args, **kwargs):
        raise RuntimeError("database is locked")

    with monkeypatch.context() as patch:
        patch.setattr(bot.service, "press", broken)
        answer = await press(api, bot, mover, prompt, table.tile_buttons(prompt)[0])
        assert answer["show_alert"] is True and answer["text"] == t("en", "tg.error")
        assert table.prompt().body == prompt.body                 # nothing changed
    answer = await press(api, bot, mover, prompt, table.tile_buttons(prompt)[0])
    assert answer.get("show_alert") is not True                   # and the same tap works afterwards


async def test_help_shows_how_to_start_each_game(api, bot, table):
    api.send_text(table.group, table.users["ann"], "/help")
    await bot.settle()
    text = table.group_messages()[-1].body
    for game in KINDS.values():
        assert f"{game.definition.name} ({game.definition.min_players}-{game.definition.max_players} players)" in text
    # the command the help gives for the second game opens that game
    command = next(line for line in text.splitlines() if "Paris Connection" in line).split(": ", 1)[1]
    api.send_text(table.group, table.users["ann"], command)
    await bot.settle()
    info = await bot.service.game_info(game_id=1)
    assert info is not None and info.game == "paris-connection"
