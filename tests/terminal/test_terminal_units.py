"""The terminal adapter's parts that need no game: input parsing, paths, the transport."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.contract import Button, Chat, Outgoing, Slot, SlotKind, User
from bot.terminal.choices import Choice, Command, Invalid, fold, interpret, label_words, numbering
from bot.terminal.paths import default_db_path, user_data_dir
from bot.terminal.transport import Console, TerminalTransport, image_file_name
from i18n import LANGUAGES

LABELS = ["1 · Louvre (blue)", "2 · Opéra (red)", "3 · Odéon (yellow)"]
HUMAN = User("terminal", "local", "Ann")
CHAT = Chat("terminal", "local")


@pytest.mark.parametrize(("text", "expected"), [
    ("1", Choice(0)), (" 3 ", Choice(2)), ("2.", Choice(1)),
    ("0", Invalid("out_of_range", "0")), ("4", Invalid("out_of_range", "4")),
    ("99999999999999999999", Invalid("out_of_range", "99999999999999999999")),
    ("", Invalid("empty")), ("   ", Invalid("empty")),
    ("x", Invalid("unknown", "x")), ("-1", Invalid("unknown", "-1")),
    ("help", Command("help")), ("Q", Command("quit")), ("board", Command("board")),
    ("marker", Command("secret")), ("secret", Command("secret")),
])
def test_interpret_numbers_commands_and_mistakes(text, expected):
    assert interpret(text, LABELS) == expected


def test_interpret_matches_label_text_without_accents():
    assert interpret("opera", ["Opéra (red)", "Louvre (blue)"]) == Choice(0)
    assert interpret("louv", ["Opéra (red)", "Louvre (blue)"]) == Choice(1)
    assert interpret("o", ["Opéra (red)", "Odéon (yellow)"]) == Invalid("ambiguous", "o", (0, 1))


def test_interpret_localised_commands():
    assert interpret("hilfe", LABELS, "de") == Command("help")
    assert interpret("ende", LABELS, "de") == Command("quit")
    assert interpret("aiuto", LABELS, "it") == Command("help")
    assert interpret("règles", LABELS, "fr") == Command("rules")
    # English commands work in every language
    assert interpret("quit", LABELS, "fr") == Command("quit")
    # ...but another language's words do not
    assert interpret("hilfe", LABELS, "en") == Invalid("unknown", "hilfe")


def test_numbering_keeps_the_keys_the_game_gives():
    labels = ["🔵 1 · Tour Eiffel", "🟣 3 · Jardin des Plantes", "🔒 My marker"]
    numbers = numbering([1, 3, None])
    assert numbers == [1, 3, 4]
    assert interpret("3", labels, numbers=numbers) == Choice(1)
    assert interpret("2", labels, numbers=numbers) == Invalid("out_of_range", "2")
    assert interpret("jardin", labels, numbers=numbers) == Choice(1)
    assert interpret("my", labels, numbers=numbers) == Command("secret")   # the word for what you hold
    assert interpret("my m", labels, numbers=numbers) == Choice(2)
    assert numbering([None, None, None]) == [1, 2, 3]
    assert numbering([2, 2, None]) == [1, 2, 3]                # repeated keys: plain counting
    # The number comes from the key, never from reading the label: another game's labels
    # with numbers in them are numbered by their keys (or counted).
    assert numbering([None, None]) == [1, 2] and interpret("2", ["2 brown", "3 black"]) == Choice(1)


def test_label_words_drop_symbols_and_the_shown_number():
    assert label_words("🟣 3 · Jardin des Plantes", 3) == "Jardin des Plantes"
    assert label_words("⚫ Return 1 black", 1) == "Return 1 black"
    assert label_words("30 days", 3) == "30 days"


def test_interpret_number_without_choices():
    assert interpret("1", []) == Invalid("no_choices", "1")


def test_fold():
    assert fold("  Hôtel de Ville ") == "hotel de ville"


def test_default_paths_follow_each_system(tmp_path):
    data = str(tmp_path)
    assert default_db_path({"XDG_DATA_HOME": data}, "linux") == tmp_path / "boardchat/games.sqlite3"
    assert user_data_dir({"APPDATA": "C:/Users/a/AppData/Roaming"}, "win32") == \
        Path("C:/Users/a/AppData/Roaming/boardchat")
    assert default_db_path({"BOARDCHAT_DB": "/tmp/x.db", "XDG_DATA_HOME": "/data"}, "linux") == \
        Path("/tmp/x.db")


def test_help_in_each_language_parses():
    for language in LANGUAGES:
        help_text = build_parser(language).format_help()
        assert "play" in help_text and "replay" in help_text


def _transport(tmp_path: Path | None) -> tuple[TerminalTransport, io.StringIO]:
    out = io.StringIO()
    return TerminalTransport(Console(out, colour=False), HUMAN, maps_dir=tmp_path), out


async def test_transport_prints_group_and_marks_private(tmp_path):
    transport, out = _transport(tmp_path)
    await transport.deliver(Outgoing(id=1, text="Round 1 of 15", chat=CHAT))
    await transport.deliver(Outgoing(id=2, text="Your marker: green", private_to=HUMAN))
    text = out.getvalue()
    assert "Round 1 of 15" in text
    assert "Private, only Ann sees this:\n  Your marker: green" in text


async def test_transport_never_shows_someone_elses_private_message(tmp_path):
    transport, out = _transport(tmp_path)
    message_id = await transport.deliver(
        Outgoing(id=3, text="Your marker: purple", private_to=User("terminal", "ai:Bot", "Bot")))
    assert message_id
    assert "purple" not in out.getvalue()


async def test_transport_writes_images_and_prints_path(tmp_path):
    transport, out = _transport(tmp_path / "maps")
    png = b"\x89PNG\r\n\x1a\nfake"
    await transport.deliver(Outgoing(id=42, text="Round 3", chat=CHAT, image=png, image_name="round-3.png"))
    path = tmp_path / "maps" / "round-3.png"
    assert path.read_bytes() == png
    assert f"Map saved: {path}" in out.getvalue()


async def test_transport_without_maps_folder_writes_nothing(tmp_path):
    transport, out = _transport(None)
    await transport.deliver(Outgoing(id=1, text="Round 3", chat=CHAT, image=b"png"))
    assert "Map saved" not in out.getvalue()
    assert not list(tmp_path.iterdir())


async def test_transport_skips_the_lobby_board_but_not_its_closing_text(tmp_path):
    transport, out = _transport(None)
    buttons = ((Button("Join", "j_1", kind="join"), Button("Start", "g_1")),)
    await transport.deliver(Outgoing(id=1, text="New game: join!", chat=CHAT, buttons=buttons, slot=Slot("g1:lobby", SlotKind.LOBBY)))
    await transport.deliver(Outgoing(id=2, text="The game begins!", chat=CHAT, slot=Slot("g1:lobby", SlotKind.LOBBY),
                                     edit_message_id="terminal-1"))
    assert "join!" not in out.getvalue()
    assert "The game begins!" in out.getvalue()


def test_image_file_names_are_safe_and_unique():
    assert image_file_name(Outgoing(id=7, text="", image_name="../../etc/passwd")) == "passwd.png"
    assert image_file_name(Outgoing(id=8, text="", image_name="map round 2.png")) == "map-round-2.png"
    assert image_file_name(Outgoing(id=9, text="", image_name="paris-3-round7.png")) == "paris-3-round7.png"
    assert image_file_name(Outgoing(id=9, text="")) == "picture-0009.png"
    assert image_file_name(Outgoing(id=10, text="", image_name="..")) == "picture-0010.png"

class _PressOnly:
    """The service as far as a press goes: the marker button answers privately, and nothing else."""

    def __init__(self) -> None:
        self.pressed: list[str] = []

    async def press(self, chat, user, payload):
        from bot.contract import Reply

        self.pressed.append(payload)
        return Reply("Your secret marker: purple.")


async def test_looking_at_the_marker_keeps_the_eviction_choice_open():
    from bot.terminal.play import PlayOptions, TerminalSession

    out = io.StringIO()
    session = TerminalSession(_PressOnly(), PlayOptions(db=Path("unused")), stdin=io.StringIO(), stdout=out,
                              colour=False)
    pending = (Button("Evict Ann", "c_1"), Button("Evict my own shop", "c_2"), Button("My marker", "m", kind="secret"))
    session.reply_buttons = pending
    await session.press(pending[2])
    assert "Your secret marker: purple." in out.getvalue()
    assert session.reply_buttons == pending          # still choosing whose shop to evict


async def test_an_edited_prompt_tells_a_placement_made_again_after_undo(tmp_path):
    """A prompt edited in place: each edit prints what the last version did not say, so a
    placement undone and made again, and the "N placed" header it brings back, are printed."""
    transport, out = _transport(None)
    status, placed, undone = "Round 1 · Ann's turn", "Ann places red on K4 Amiens (+1).", "Ann takes red back from K4."
    versions = [[status, "👉 Ann builds red: 1 placed"],
                [status, placed, "👉 Ann builds red: 2 placed"],
                [status, placed, undone, "👉 Ann builds red: 1 placed"],
                [status, placed, undone, placed, "👉 Ann builds red: 2 placed"]]
    for n, lines in enumerate(versions):
        await transport.deliver(Outgoing(id=n + 1, text="\n".join(lines), chat=CHAT, slot=Slot("g1:prompt", SlotKind.TURN),
                                         edit_message_id="terminal-1" if n else None))
    printed = [line for line in out.getvalue().splitlines() if line]
    assert printed.count(placed) == 2 and printed.count(status) == 1
    assert printed.count("👉 Ann builds red: 1 placed") == 2 and printed[-1] == "👉 Ann builds red: 2 placed"


def test_interpret_accepts_any_word_of_a_label():
    labels = ["🔴 Return 1 red", "🟡 Return 1 yellow", "↩️ Back"]
    assert interpret("yel", labels) == Choice(1)
    assert interpret("pomp", ["🟢 1 · Centre Pompidou", "🔵 2 · Louvre"]) == Choice(0)


@pytest.mark.parametrize("word", ["hand", "my", "locomotives", "holdings", "marker"])
def test_words_for_what_you_hold_name_the_secret_command(word):
    assert interpret(word, ["🔴 Build red"], "en") == Command("secret")


def test_the_games_list_command_leaves_the_picture_options_out():
    from bot.terminal.play import PlayOptions, list_command

    options = PlayOptions(resume_command="boardchat play --resume --db g.sqlite3 --keep-pictures")
    assert list_command(options) == "boardchat games --db g.sqlite3"


async def test_a_latest_picture_is_overwritten_whole_and_its_path_told_once(tmp_path):
    out = io.StringIO()
    human = User("terminal", "local", "Ann")
    transport = TerminalTransport(Console(out, colour=False), human, maps_dir=tmp_path)
    for n, image in enumerate((b"first", b"second"), 1):
        await transport.deliver(Outgoing(id=n, text="", private_to=human, image=image, slot=Slot("g1:s0", SlotKind.SEAT),
                                         buttons=((Button("1", "x"),),), image_name=f"papa-1-seat0-{n}.png",
                                         latest_image_name="papa-1-seat0.png"))
    assert [p.name for p in tmp_path.iterdir()] == ["papa-1-seat0.png"]
    assert (tmp_path / "papa-1-seat0.png").read_bytes() == b"second"
    assert out.getvalue().count("Map saved") == 1
