"""Builds the outbox messages for a game: lobby, prompts, cycle summaries, private secrets.

Pure functions of the game's metadata and its match; every word comes from the catalogs
or from the game's presenter (renderers/presenter.py), in the game's language. Group
messages are built only from public events and the public view, so a secret cannot reach
the group before the end; private events (a dealt marker, new holdings) go to their seat's
private chat.

Per turn cycle (a round) the group gets at most two new messages: the picture with the
cycle's summary, and the turn prompt, which is then edited in place for each further turn.
The picture comes first, unless the bot is behind with its sends: then the prompt does, so
that the players it names do not wait for the picture (see ``after_moves``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.contract import Button, Chat, User
from bot.games import GameKind, ai_level
from engine.interface import Dynamics, Information
from renderers.animation import suffix
from renderers.i18n import decimal, t
from renderers.presenter import CHAT, TERMINAL, Menu

from .animation import ANIMATION, spec
from .bank import clock_line
from .links import BOARD, REVIEW
from .model import GameMeta, OutRow
from .payloads import PayloadCodec


def duration(minutes: int, language: str) -> str:
    if not minutes:
        return t(language, "bot.duration.off")
    if minutes % 1440 == 0:
        return t(language, "bot.duration.days", n=minutes // 1440)
    if minutes % 60 == 0:
        return t(language, "bot.duration.hours", n=minutes // 60)
    return t(language, "bot.duration.minutes", n=minutes)


def stats_record(language: str, games: int, wins: int, points: int) -> dict[str, str]:
    """The ``wins``, ``games`` and ``average`` parts of a leaderboard line (each with its own plural)."""
    return {"wins": t(language, "bot.stats.wins", wins=wins), "games": t(language, "bot.stats.games", games=games),
            "average": t(language, "bot.stats.average", average=decimal(language, points / games))}


def button(label: str, payload: str, kind: str = "action", colour: str | None = None,
           key: int | None = None, letter: str | None = None) -> dict[str, Any]:
    out = {"label": label, "payload": payload, "kind": kind, "colour": colour}
    if key is not None:
        out["key"] = key
    if letter:          # only when there is one: rows stored before it existed read the same
        out["letter"] = letter
    return out


def to_buttons(rows: list[list[dict[str, Any]]]) -> tuple[tuple[Button, ...], ...]:
    return tuple(tuple(Button(**b) for b in row) for row in rows)


def user_dict(user: User) -> dict[str, Any]:
    return {"platform": user.platform, "id": user.id, "name": user.name, "language": user.language}


def chat_dict(chat: Chat) -> dict[str, Any]:
    return {"platform": chat.platform, "id": chat.id, "title": chat.title}


def group(meta: GameMeta, text: str, *, buttons=(), mentions=(), slot: str | None = None,
          mode: str = "new", render: dict | None = None, image_name: str = "board.png",
          awaited: bool = False, description: str = "", latest_image_name: str = "") -> OutRow:
    """A message to the group; ``description``: its picture (``render``) in words, for screen readers;
    ``awaited``: a turn prompt the table waits for (sent first, see ``OutRow.priority``)."""
    body = {"text": text, "chat": chat_dict(meta.chat), "private_to": None, "buttons": list(buttons),
            "mentions": [user_dict(u) for u in mentions], "language": meta.language, "render": render,
            "image_name": image_name, "latest_image_name": latest_image_name}
    if render is not None:
        body["description"] = description
    return OutRow(meta.id, meta.platform, f"c:{meta.chat_id}", body, slot, mode, awaited)


def private(meta: GameMeta | None, platform: str, user: User, text: str, language: str, *,
            buttons=(), slot: str | None = None, mode: str = "new", render: dict | None = None,
            image_name: str = "board.png", description: str = "", latest_image_name: str = "") -> OutRow:
    body = {"text": text, "chat": None, "private_to": user_dict(user), "buttons": list(buttons),
            "mentions": [], "language": language, "render": render, "image_name": image_name,
            "latest_image_name": latest_image_name}
    if render is not None:
        body["description"] = description
    return OutRow(meta.id if meta else None, platform, f"u:{user.id}", body, slot, mode)


def turn_slot(meta: GameMeta) -> str:
    """The slot of the group's live turn message (its prompt). Each new prompt takes a slot of its
    own (``new_turn_slot``), so the closing edit of the one before can follow it in the outbox.
    (A game started before that kept one slot, ``g<id>:turn``, until its next new prompt.)"""
    return meta.extra.get("turn_slot") or f"g{meta.id}:turn"


def new_turn_slot(meta: GameMeta, match) -> str:
    """A slot for a new prompt, posted at move count ``match.move_count`` (one new prompt at
    most per move count), remembered as the live one in ``meta.extra``."""
    slot = meta.extra["turn_slot"] = f"g{meta.id}:m{match.move_count}:turn"
    return slot


def surface(meta: GameMeta) -> str:
    """Where the game's players read its texts: the terminal types its choices, chats tap them."""
    return TERMINAL if meta.platform == TERMINAL else CHAT


def seat_slot(meta: GameMeta, seat: int) -> str:
    """The seat's own turn message in its private chat, edited in place as it steps through a decision."""
    return f"g{meta.id}:s{seat}"


def lobby_slot(meta: GameMeta) -> str:
    return f"g{meta.id}:lobby"


def chat_name(meta: GameMeta) -> str:
    return meta.chat_title or meta.chat_id


def chat_label(meta: GameMeta) -> str:
    """Where the game is played, for a player's private messages; "" for a chat without a
    title (a terminal game, its own conversation): the texts then name no place."""
    return meta.chat_title


# ---- options and the lobby ----------------------------------------------------------------

def options_text(game: GameKind, options: dict[str, Any], language: str, *, timers_off: bool = True) -> str:
    """The game's declared options and the bot's timers, in words ("Final tours: ... · ...").
    ``timers_off=False``: a timer that is off goes unsaid (the start of a game played alone at
    a terminal has no reminder to speak of)."""
    parts = [t(language, "bot.options.option", name=game.presenter.option_name_text(spec.name, language),
               value=game.presenter.option_value_text(spec.name, options.get(spec.name, spec.default), language))
             for spec in game.definition.options]
    reminder = int(options.get("reminder_minutes") or 0)
    deadline = int(options.get("deadline_minutes") or 0)
    if options.get("clock") == "bank":
        parts += bank_options(options, language)
        reminder = deadline = 0
        timers_off = False
    if reminder:
        parts.append(t(language, "bot.options.reminder", value=duration(reminder, language)))
    elif timers_off:
        parts.append(t(language, "bot.options.no_reminder"))
    if deadline:
        parts.append(t(language, "bot.options.deadline", value=duration(deadline, language)))
    elif timers_off:
        parts.append(t(language, "bot.options.no_deadline"))
    if options.get("away_mode") == "pause":
        parts.append(t(language, "bot.options.away_pause"))
    if len(game.definition.ai_levels) > 1:
        parts.append(t(language, "bot.options.ai_level",
                       level=level_text(ai_level(game, options.get("ai_level")), language)))
    parts.append(t(language, "bot.language." + (options.get("language") or "en")))
    return " · ".join(parts)


def bank_options(options: dict[str, Any], language: str) -> list[str]:
    """The time bank in words: "a time bank of 3 days, +1 day a turn, up to 7 days", and its warning."""
    def minutes(name: str) -> str:
        return duration(int(options.get(name) or 0), language)
    parts = [t(language, "bot.options.bank", initial=minutes("bank_initial_minutes"),
               bonus=minutes("bank_bonus_minutes"), cap=minutes("bank_cap_minutes"))]
    if int(options.get("bank_warning_minutes") or 0):
        parts.append(t(language, "bot.options.bank_warning", value=minutes("bank_warning_minutes")))
    return parts


def level_text(level: str, language: str) -> str:
    return t(language, "bot.level." + level)


def lobby_text(meta: GameMeta, game: GameKind, host_name: str) -> str:
    lang = meta.language
    levels = len(game.definition.ai_levels) > 1
    seats = [t(lang, "bot.lobby.ai_seat", name=s.name, level=level_text(ai_level(game, s.level), lang))
             if s.is_ai and levels else s.name + (" 🤖" if s.is_ai else "") for s in meta.seats]
    d = game.definition
    lines = [t(lang, "bot.lobby.title_game", game=game.presenter.title(lang), host=host_name),
             t(lang, "bot.lobby.players", count=len(seats), players=", ".join(seats) or "—"),
             t(lang, "bot.lobby.seats", min=d.min_players, max=d.max_players),
             options_text(game, meta.options, lang),
             t(lang, "bot.lobby.hint")]
    return "\n".join(lines)


def lobby_buttons(meta: GameMeta, game: GameKind, codec: PayloadCodec) -> list[list[dict[str, Any]]]:
    """Join and leave; add an AI (one button per level where the game has several); start."""
    lang = meta.language
    levels = game.definition.ai_levels
    start = button(t(lang, "bot.btn.start"), codec.encode("g", meta.id))
    if len(levels) == 1:
        add_rows = [[button(t(lang, "bot.btn.add_ai"), codec.encode("a", meta.id)), start]]
    else:
        add_rows = [[button(t(lang, "bot.btn.add_ai_level", level=level_text(level, lang)),
                            codec.encode("v", meta.id, i)) for i, level in enumerate(levels)], [start]]
    return [[button(t(lang, "bot.btn.join"), codec.encode("j", meta.id), "join"),
             button(t(lang, "bot.btn.leave"), codec.encode("l", meta.id))], *add_rows]


def lobby_message(meta: GameMeta, game: GameKind, codec: PayloadCodec, host_name: str, *, mode: str) -> OutRow:
    return group(meta, lobby_text(meta, game, host_name), buttons=lobby_buttons(meta, game, codec),
                 slot=lobby_slot(meta), mode=mode)


def lobby_closed(meta: GameMeta, text: str) -> OutRow:
    return group(meta, text, slot=lobby_slot(meta), mode="edit")


# ---- notes kept with a cycle ----------------------------------------------------------------

def unreachable_names(meta: GameMeta) -> list[str]:
    ids = set(meta.extra.get("unreachable", ()))
    return [seat.name for seat in meta.seats if seat.user_id in ids and not seat.is_ai]


def cycle_notes(meta: GameMeta, cycle: int) -> list[str]:
    """Notes of a cycle (a deadline move, a seat handed to the AI), kept in the game's
    bookkeeping so every later edit of that cycle's messages still shows them."""
    return [line for c, line in meta.extra.get("notes", ()) if c == cycle]


def add_notes(meta: GameMeta, cycle: int, lines: Sequence[str]) -> None:
    if lines:
        kept = [[c, line] for c, line in meta.extra.get("notes", ()) if c >= cycle - 1]
        meta.extra["notes"] = kept + [[cycle, line] for line in lines]


# ---- turns ------------------------------------------------------------------------------------

def cycle_events(match, cycle: int, upto: int | None = None) -> list:
    """The public events of ``cycle`` (up to log index ``upto``)."""
    log = match.log
    start = match.pacing.cycle_start(cycle)
    end = match.pacing.cycle_start(cycle + 1) if cycle < match.pacing.cycle else len(log)
    if upto is not None:
        end = min(end, upto)
    return [e for e in log[start:end] if e.visible_to(None)]


def private_choices(game: GameKind, match) -> bool:
    """Whether each acting seat gets its choices in private: in a game with simultaneous
    phases (declared), or whenever several seats act at once. Otherwise the one acting seat
    chooses on the group's turn message, as everyone watches."""
    return game.definition.dynamics == Dynamics.SIMULTANEOUS or len(match.to_act()) > 1


def has_secrets(game: GameKind) -> bool:
    return game.definition.information == Information.IMPERFECT


def acting_since(meta: GameMeta, seat: int) -> int:
    """The move number at which ``seat`` last began to act, which its buttons are bound to (0:
    from the start, or unknown for a game stored before this was kept: it began before any of
    its buttons still valid). The phase's own start is ``phase.Phase``'s."""
    return int(meta.extra.get("since", {}).get(str(seat), 0))


def acting_names(meta: GameMeta, match) -> list[str]:
    return [meta.seats[s].name for s in match.to_act()]


def waiting_line(meta: GameMeta, match) -> str:
    return t(meta.language, "bot.msg.waiting", players=", ".join(acting_names(meta, match)))


def prompt_text(meta: GameMeta, game: GameKind, match, menu: Menu | None = None) -> str:
    lang = meta.language
    pres = game.presenter
    view = match.view(None)
    moves, _ = pres.split_cycle(cycle_events(match, match.pacing.cycle))
    lines = [pres.status_line(view, lang), *cycle_notes(meta, match.pacing.cycle)]
    lines += pres.narrate(moves, match.players, lang)
    lines.append("")
    clock = clock_line(meta, match)         # what the seats to act have left, with time banks
    if private_choices(game, match):
        # Who is still to act, never what anyone chose: their choices are made in private.
        lines += [waiting_line(meta, match), *([clock] if clock else [])]
    else:
        lines.append(menu.text if menu is not None and menu.text else pres.prompt_line(view, lang, surface(meta)))
        lines += [clock] if clock else []
        browsing = meta.extra.get("browsing")
        if browsing and browsing[0] in match.to_act():
            lines.append(t(lang, "bot.msg.choosing_privately", player=meta.seats[browsing[0]].name,
                           what=browsing[1]))
    names = unreachable_names(meta)
    if names:
        lines.append(t(lang, "bot.msg.private_closed", player=", ".join(names)))
    return "\n".join(lines)


def choice_buttons(meta: GameMeta, game: GameKind, match, codec: PayloadCodec, seat: int,
                   group_key: str | None = None) -> tuple[Menu, list[list[dict[str, Any]]]]:
    """The menu of ``seat``'s legal choices as payload buttons, bound to the seat and its own
    position (``moves_by`` and when it began to act): a choice is pressed by its index in the
    seat's legal choices, a submenu by its key (the service never reads either)."""
    lang = meta.language
    choices = match.legal_choices(seat)
    index = {str(c): i for i, c in enumerate(choices)}
    menu = game.presenter.menu(match.view(seat), choices, lang, group_key)
    bound = (meta.id, seat, match.moves_by(seat), acting_since(meta, seat))
    rows = []
    for row in menu.rows:
        out = []
        for item in row:
            if item.choice is not None:
                payload = codec.encode("c", *bound, index[str(item.choice)])
            else:
                payload = codec.encode("o", *bound, item.group)
            out.append(button(item.label, payload, colour=item.colour, key=item.key, letter=item.letter))
        rows.append(out)
    if menu.back:
        rows.append([button(t(lang, "bot.btn.back"), codec.encode("b", *bound))])
    return menu, rows


def prompt_buttons(meta: GameMeta, game: GameKind, match, codec: PayloadCodec,
                   group_key: str | None = None) -> tuple[Menu | None, list[list[dict[str, Any]]]]:
    """The group's turn buttons: the one acting seat's menu (never a submenu that depends on
    its secrets: those open in private), or, where seats choose in private, a button that
    brings each its own choices; the secret button where the game has secrets."""
    lang = meta.language
    acting = match.to_act()
    menu, rows = None, []
    if private_choices(game, match):
        if acting:
            rows.append([button(t(lang, "bot.btn.my_choices"), codec.encode("h", meta.id))])
    elif len(acting) == 1:
        menu, rows = choice_buttons(meta, game, match, codec, acting[0], group_key)
        if menu.private:
            menu, rows = choice_buttons(meta, game, match, codec, acting[0])
    if has_secrets(game):
        rows.append([button(game.presenter.secret_button(lang), codec.encode("m", meta.id), "secret")])
    if unreachable_names(meta):
        rows.append([button(t(lang, "bot.btn.open_private"), codec.encode("p"), "open_private")])
    rows.append([board_button(t(lang, "web.btn.watch"), codec, meta)])
    return menu, rows


def board_button(label: str, codec: PayloadCodec, meta: GameMeta, kind: str = BOARD) -> dict[str, Any]:
    """A button that opens the game's web board: a link made for where the message goes when it
    is delivered (``links.BoardLinks``; none without the board's public address)."""
    return button(label, codec.encode("w", meta.id), kind)


def prompt_message(meta: GameMeta, game: GameKind, match, codec: PayloadCodec, *, mode: str,
                   group_key: str | None = None) -> OutRow:
    menu, rows = prompt_buttons(meta, game, match, codec, group_key)
    slot = new_turn_slot(meta, match) if mode == "new" else turn_slot(meta)
    return group(meta, prompt_text(meta, game, match, menu), buttons=rows, mentions=prompt_pings(meta, game, match),
                 slot=slot, mode=mode, awaited=True)


def prompt_pings(meta: GameMeta, game: GameKind, match) -> tuple[User, ...]:
    """Who the group's prompt pings: the people to act. Where they choose in private, their
    own turn message there tells them (a new one each time a seat begins to act), so the group
    pings only those whose private chat is closed. So the group's prompt is edited as the
    table moves on, never posted anew to ping the next person (Discord notifies nobody for a
    mention added by an edit, and would repost it)."""
    people = [s for s in match.to_act() if not meta.seats[s].is_ai]
    if private_choices(game, match):
        unreachable = set(meta.extra.get("unreachable", ()))
        people = [s for s in people if meta.seats[s].user_id in unreachable]
    return tuple(meta.seats[s].user() for s in people)


# ---- a seat's own turn message, in its private chat ------------------------------------------

def seat_prompt(meta: GameMeta, game: GameKind, match, codec: PayloadCodec, seat: int, *,
                group_key: str | None = None, mode: str = "edit") -> tuple[OutRow, Menu, list]:
    """The seat's choices (or an open submenu of them) as a private message in its slot, with a
    picture of its own board where the game draws one."""
    info = meta.seats[seat]
    lang = info.language or meta.language
    pres = game.presenter
    menu, rows = choice_buttons(meta, game, match, codec, seat, group_key)
    rows.append([board_button(t(lang, "web.btn.board"), codec, meta)])
    view = match.view(seat)
    lines = [pres.status_line(view, lang)]
    label = chat_label(meta)
    if label:
        lines.append(t(lang, "bot.msg.private_turn", chat=label))
    lines.append(menu.text if menu.text else pres.prompt_line(view, lang, surface(meta)))
    render, description = None, ""
    if pres.private_pictures:
        render = {"kind": "seat", "game_id": meta.id, "moves": match.move_count, "cycle": match.pacing.cycle,
                  "seat": seat}
        description = pres.picture_description("seat", view, (), match.players, lang)
        # The text is the picture's caption where the platform has no other place for words
        # (Telegram): it tells whose turn and what to choose, and this line what the picture is.
        # (The terminal prints the seat's board as text above its choices, and names the file once.)
        if surface(meta) != TERMINAL:
            lines.append(pres.picture_subject("seat", view, lang))
    row = private(meta, meta.platform, info.user(), "\n".join(lines), lang, buttons=rows,
                  slot=seat_slot(meta, seat), mode=mode, render=render,
                  image_name=picture_name(meta, game, f"seat{seat}-{match.move_count}"), description=description,
                  latest_image_name=picture_name(meta, game, f"seat{seat}"))
    return row, menu, rows


def seat_closed(meta: GameMeta, seat: int) -> OutRow:
    """The seat's private turn message once it has nothing more to choose: its buttons go."""
    info = meta.seats[seat]
    lang = info.language or meta.language
    return private(meta, meta.platform, info.user(), t(lang, "bot.msg.private_done"), lang,
                   slot=seat_slot(meta, seat), mode="edit")


def shown_menus(meta: GameMeta) -> dict[int, list[int]]:
    """Seats whose private turn message shows buttons now, each with the position its buttons
    are bound to: [the seat's choices so far, the move number at which it began to act]."""
    shown = meta.extra.get("menus", {})
    if isinstance(shown, list):          # kept as a list of seats by earlier code of this branch
        return {int(s): [-1, -1] for s in shown}
    return {int(s): list(p) for s, p in shown.items()}


def position(meta: GameMeta, match, seat: int) -> list[int]:
    return [match.moves_by(seat), acting_since(meta, seat)]


def show(meta: GameMeta, match, seat: int) -> None:
    """Note that ``seat``'s private turn message shows its buttons at its present position."""
    shown = shown_menus(meta)
    shown[seat] = position(meta, match, seat)
    meta.extra["menus"] = {str(s): p for s, p in sorted(shown.items())}


def private_prompts(meta: GameMeta, game: GameKind, match, codec: PayloadCodec) -> list[OutRow]:
    """Bring every seat's private turn message up to date after moves: a seat that now acts
    in private gets its choices (a new message when it begins to act, an edit after its own
    steps); a seat that no longer acts has its buttons closed. A seat whose position did not
    change keeps its message as it is (its buttons are still good)."""
    shown = shown_menus(meta)
    acting = [] if match.is_terminal() or not private_choices(game, match) else [
        s for s in match.to_act() if not meta.seats[s].is_ai]
    out = []
    for seat in sorted(set(shown) | set(acting)):
        if seat not in acting:
            out.append(seat_closed(meta, seat))
            continue
        now = position(meta, match, seat)
        if seat not in shown or shown[seat][1] != now[1]:
            if seat in shown:
                out.append(seat_closed(meta, seat))          # the last phase's buttons go first
            out.append(seat_prompt(meta, game, match, codec, seat, mode="new")[0])   # it begins to act
        elif shown[seat] != now:
            out.append(seat_prompt(meta, game, match, codec, seat, mode="edit")[0])  # after its own steps
    meta.extra["menus"] = {str(s): position(meta, match, s) for s in acting}
    return out


def game_code(meta: GameMeta) -> str:
    """A short code of the game's deal: with the id it names the game across databases too."""
    from .payloads import b36

    return b36(meta.seed % 36 ** 4).rjust(4, "0")


BOARD_PICTURE = "board"      # the latest picture of the board, whichever cycle it shows


def picture_name(meta: GameMeta, game: GameKind, what: str, suffix: str = ".png") -> str:
    """``paris-3-k2x9-round7.png``: unique per game (id and deal code) and picture."""
    return f"{game.presenter.image_prefix}-{meta.id}-{game_code(meta)}-{what}{suffix}"


def animation_message(meta: GameMeta, game: GameKind, moves: int) -> OutRow:
    """The whole game as an animation (``animation.py``), drawn when it is sent, in the format the
    game's platform plays: after the final standings, and on request (``/replay``)."""
    lang = meta.language
    title = game.presenter.title(lang)
    row = group(meta, t(lang, "bot.animation.caption", game=title, id=meta.id),
                render={"kind": ANIMATION, "game_id": meta.id, "moves": moves},
                image_name=picture_name(meta, game, "replay", suffix(spec(meta.platform).format)),
                description=t(lang, "bot.animation.description", game=title))
    row.body["too_large"] = t(lang, "bot.animation.too_large")
    return row


def after_moves(meta: GameMeta, game: GameKind, match, codec: PayloadCodec, *, log_start: int,
                cycle_before: int, ends: Sequence[tuple[int, int]], first_prompt: bool = False,
                notes: Sequence[str] = (), prompt_first: bool = False,
                final_lines: Sequence[str] = ()) -> list[OutRow]:
    """Group messages for everything since log index ``log_start``.

    ``ends`` are the cycles that ended meanwhile, each with the move count right after it:
    the picture of each shows the board at that moment. ``notes`` (a deadline move, a seat
    handed to the AI) go into the prompt and the closing text of the cycle they happened in.
    Every seat's private turn message is brought up to date (``private_prompts``).
    ``prompt_first``: the new prompt before the closing edit and the pictures (the bot is behind
    with its sends: ``Delivery.behind``). ``final_lines`` close the final standings (the
    players' rating changes).
    """
    add_notes(meta, cycle_before, notes)
    meta.extra.pop("browsing", None)
    lang = meta.language
    pres = game.presenter
    view = match.view(None)
    out: list[OutRow] = []
    for cycle, moves_after in ends:
        events = cycle_events(match, cycle)
        moves, outcome = pres.split_cycle(events)
        summary = [pres.cycle_over_line(view, cycle, lang)]
        start = match.pacing.cycle_start(cycle)
        if start > log_start or start == log_start and first_prompt:
            # The whole cycle was played now (AI seats only): no prompt of it was ever posted,
            # so its moves go with its picture rather than overwrite another cycle's prompt,
            # told before the line that says the cycle is over. (A cycle whose first move opens
            # this batch had its prompt: that move was made on it.)
            summary = pres.narrate(moves, match.players, lang) + summary
        else:
            closing = [pres.cycle_done_line(view, cycle, lang), *cycle_notes(meta, cycle)]
            closing += pres.narrate(moves, match.players, lang)
            out.append(group(meta, "\n".join(closing), slot=turn_slot(meta), mode="edit"))
        summary += pres.narrate(outcome, match.players, lang)
        final = match.is_terminal() and cycle == match.pacing.cycle
        if final:
            summary += cycle_notes(meta, cycle)
        elif (scores := _scores_after(match, cycle)) is not None:
            summary.append(pres.scores_line(view, scores, lang))
        # The board in words is the present one: a cycle that ended earlier in this batch (AI
        # seats played on) is described by what changed in it only.
        shown = view if moves_after == match.move_count else None
        out.append(group(meta, "\n".join(summary),
                         render={"kind": "map", "game_id": meta.id, "moves": moves_after, "cycle": cycle},
                         image_name=picture_name(meta, game, pres.cycle_label(view, cycle)),
                         description=pres.picture_description("map", shown, events, match.players, lang),
                         latest_image_name=picture_name(meta, game, BOARD_PICTURE)))
    if match.is_terminal():
        out.append(group(meta, "\n".join([*pres.final_lines(view, lang), *final_lines]),
                         buttons=[[board_button(t(lang, "web.btn.review"), codec, meta, REVIEW)]],
                         render={"kind": "final", "game_id": meta.id, "moves": match.move_count},
                         image_name=picture_name(meta, game, "final"),
                         description=pres.picture_description("final", view, (), match.players, lang)))
        out.append(animation_message(meta, game, match.move_count))
    else:
        new_prompt = first_prompt or bool(ends)
        prompt = prompt_message(meta, game, match, codec, mode="new" if new_prompt else "edit")
        # Read in order, the cycle's picture comes before the prompt that follows it (the buttons
        # last, in view). When the bot is behind with its sends, the new prompt goes first instead,
        # in a slot of its own: the players it names then wait for one call of their chat, not
        # for the closing edit of the prompt before and the picture (a drawing) too.
        if prompt_first:
            out.insert(0, prompt)
        else:
            out.append(prompt)
    return out + private_prompts(meta, game, match, codec)


def _scores_after(match, cycle: int) -> Sequence[int] | None:
    """The scores after ``cycle`` as everyone may know them (None: secret until the end)."""
    history = match.pacing.score_history()
    if history and len(history) >= cycle:
        return history[cycle - 1]
    if match.is_terminal():              # a cycle that closed with the game: no running scores of it
        return None
    return match.pacing.public_returns()


def private_events(meta: GameMeta, game: GameKind, match, events: Sequence) -> list[OutRow]:
    """Each private event (a dealt marker, new holdings) as a message to its seat's player."""
    out = []
    for event in events:
        if event.visible_to(None):
            continue
        for seat, info in enumerate(meta.seats):
            if info.is_ai or not event.visible_to(seat):
                continue
            lang = info.language or meta.language
            text = game.presenter.private_text(event, match.view(seat), lang, chat_label(meta))
            if text:
                out.append(private(meta, meta.platform, info.user(), text, lang))
    return out


def started_text(meta: GameMeta, game: GameKind, match) -> str:
    lang = meta.language
    lines = game.presenter.started_lines(match.view(None), lang)
    lines.append(options_text(game, meta.options, lang, timers_off=False))
    return "\n".join(lines)
