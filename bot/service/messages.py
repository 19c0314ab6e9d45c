"""Builds the outbox messages for a game: lobby, prompts, round summaries, private markers.

Pure functions of the game's metadata and engine state; every text comes from the catalog.
Group messages are built only from public events and the public view (viewer None), so a
secret marker cannot reach the group before the end; markers go out as private messages.

Per round the group gets at most two new messages: the map with the round's summary, and
the turn prompt, which is then edited in place for each further turn of the round.
"""

from __future__ import annotations

from typing import Any

from bot.contract import Button, Chat, User
from engine.paris_paris import Game, Tile
from engine.paris_paris.board import COLOURS
from renderers.i18n import decimal, t

from . import present
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


def colour_word(colour: str, language: str) -> str:
    return t(language, "bot.colour." + colour)


def button(label: str, payload: str, kind: str = "action", colour: str | None = None) -> dict[str, Any]:
    return {"label": label, "payload": payload, "kind": kind, "colour": colour}


def to_buttons(rows: list[list[dict[str, Any]]]) -> tuple[tuple[Button, ...], ...]:
    return tuple(tuple(Button(**b) for b in row) for row in rows)


def user_dict(user: User) -> dict[str, Any]:
    return {"platform": user.platform, "id": user.id, "name": user.name, "language": user.language}


def chat_dict(chat: Chat) -> dict[str, Any]:
    return {"platform": chat.platform, "id": chat.id, "title": chat.title}


def group(meta: GameMeta, text: str, *, buttons=(), mentions=(), slot: str | None = None,
          mode: str = "new", render: dict | None = None, image_name: str = "paris.png") -> OutRow:
    body = {"text": text, "chat": chat_dict(meta.chat), "private_to": None, "buttons": list(buttons),
            "mentions": [user_dict(u) for u in mentions], "language": meta.language, "render": render,
            "image_name": image_name}
    return OutRow(meta.id, meta.platform, f"c:{meta.chat_id}", body, slot, mode)


def private(meta: GameMeta | None, platform: str, user: User, text: str, language: str, *,
            buttons=()) -> OutRow:
    body = {"text": text, "chat": None, "private_to": user_dict(user), "buttons": list(buttons),
            "mentions": [], "language": language, "render": None, "image_name": "paris.png"}
    return OutRow(meta.id if meta else None, platform, f"u:{user.id}", body, None, "new")


def turn_slot(meta: GameMeta) -> str:
    return f"g{meta.id}:turn"


def lobby_slot(meta: GameMeta) -> str:
    return f"g{meta.id}:lobby"


# ---- lobby --------------------------------------------------------------------------------

def options_text(options: dict[str, Any], language: str) -> str:
    return t(language, "bot.options",
             final_tours=t(language, "bot.final_tours." + options.get("final_tours", "markers")),
             reminder=duration(int(options.get("reminder_minutes") or 0), language),
             deadline=duration(int(options.get("deadline_minutes") or 0), language),
             language=t(language, "bot.language." + (options.get("language") or "en")))


def lobby_text(meta: GameMeta, host_name: str) -> str:
    lang = meta.language
    seats = [s.name + (" 🤖" if s.is_ai else "") for s in meta.seats]
    lines = [t(lang, "bot.lobby.title", host=host_name),
             t(lang, "bot.lobby.players", count=len(seats), players=", ".join(seats) or "—"),
             options_text(meta.options, lang),
             t(lang, "bot.lobby.hint")]
    return "\n".join(lines)


def lobby_buttons(meta: GameMeta, codec: PayloadCodec) -> list[list[dict[str, Any]]]:
    lang = meta.language
    return [
        [button(t(lang, "bot.btn.join"), codec.encode("j", meta.id), "join"),
         button(t(lang, "bot.btn.leave"), codec.encode("l", meta.id))],
        [button(t(lang, "bot.btn.add_ai"), codec.encode("a", meta.id)),
         button(t(lang, "bot.btn.start"), codec.encode("g", meta.id))],
    ]


def lobby_message(meta: GameMeta, codec: PayloadCodec, host_name: str, *, mode: str) -> OutRow:
    return group(meta, lobby_text(meta, host_name), buttons=lobby_buttons(meta, codec),
                 slot=lobby_slot(meta), mode=mode)


def lobby_closed(meta: GameMeta, text: str) -> OutRow:
    return group(meta, text, slot=lobby_slot(meta), mode="edit")


# ---- turns --------------------------------------------------------------------------------

def round_events(game: Game, *, upto: int | None = None) -> tuple[int, list]:
    """(round start index, public events of the round running at log index ``upto``)."""
    log = game.log if upto is None else game.log[:upto]
    start = 0
    for i in range(len(log) - 1, -1, -1):
        if log[i].kind == "round_started":
            start = i
            break
    return start, [e for e in log[start + 1:] if e.visible_to(None)]


def header(game: Game, language: str) -> str:
    return t(language, "bot.msg.round_header", round=game.round, rounds=game.rounds,
             stacks=game.stacks_left)


def unreachable_names(meta: GameMeta) -> list[str]:
    ids = set(meta.extra.get("unreachable", ()))
    return [seat.name for seat in meta.seats if seat.user_id in ids and not seat.is_ai]


def round_notes(meta: GameMeta, round_: int) -> list[str]:
    """Notes of a round (a deadline move, a seat handed to the AI), kept in the game's
    bookkeeping so every later edit of that round's messages still shows them."""
    return [line for r, line in meta.extra.get("notes", ()) if r == round_]


def add_notes(meta: GameMeta, round_: int, lines: list[str] | tuple) -> None:
    if lines:
        kept = [[r, line] for r, line in meta.extra.get("notes", ()) if r >= round_ - 1]
        meta.extra["notes"] = kept + [[round_, line] for line in lines]


def prompt_text(meta: GameMeta, game: Game) -> str:
    lang = meta.language
    _, events = round_events(game)
    lines = [header(game, lang), *round_notes(meta, game.round)]
    lines += present.narrate(events, game.players, lang)
    seat = game.current_player
    lines.append("")
    lines.append(t(lang, "bot.msg.prompt", player=game.players[seat]))
    names = unreachable_names(meta)
    if names:
        lines.append(t(lang, "bot.msg.private_closed", player=", ".join(names)))
    return "\n".join(lines)


def offer_buttons(meta: GameMeta, game: Game, codec: PayloadCodec) -> list[list[dict[str, Any]]]:
    lang = meta.language
    rows, seen = [], set()
    for key, tile in enumerate(game.offered_tiles(), 1):
        if tile.code in seen:
            continue
        seen.add(tile.code)
        rows.append([button(present.tile_label(tile, key, lang),
                            codec.encode("t", meta.id, meta.moves, tile.code), colour=tile.colour)])
    rows.append([button(t(lang, "bot.btn.marker"), codec.encode("m", meta.id), "marker")])
    if unreachable_names(meta):
        rows.append([button(t(lang, "bot.btn.open_private"), codec.encode("p"), "open_private")])
    return rows


def eviction_buttons(meta: GameMeta, game: Game, codec: PayloadCodec, tile: Tile) -> list[list[dict[str, Any]]]:
    lang = meta.language
    row = [button(t(lang, "bot.btn.evict", player=game.players[seat]),
                  codec.encode("e", meta.id, meta.moves, tile.code, seat), colour=tile.colour)
           for seat in game.eviction_options(tile)]
    return [row, [button(t(lang, "bot.btn.back"), codec.encode("b", meta.id, meta.moves))]]


def eviction_text(meta: GameMeta, game: Game, tile: Tile) -> str:
    lang = meta.language
    owners = game.eviction_options(tile)
    return "\n".join([header(game, lang), t(
        lang, "bot.msg.choose_evict", player=game.players[game.current_player],
        tile=present.tile_text(tile, lang), station=present.station_name(tile.station),
        owners=", ".join(game.players[o] for o in owners))])


def prompt_message(meta: GameMeta, game: Game, codec: PayloadCodec, *, mode: str) -> OutRow:
    seat = game.current_player
    mentions = () if meta.seats[seat].is_ai else (meta.seats[seat].user(),)
    return group(meta, prompt_text(meta, game), buttons=offer_buttons(meta, game, codec), mentions=mentions,
                 slot=turn_slot(meta), mode=mode)


def scores_line(players, scores, language: str) -> str:
    return t(language, "bot.msg.scores", scores=", ".join(f"{p} {s}" for p, s in zip(players, scores, strict=True)))


def after_moves(meta: GameMeta, game: Game, codec: PayloadCodec, log_start: int,
                moves_before: int, notes: list[str] | tuple = ()) -> list[OutRow]:
    """Group messages for everything that happened since log index ``log_start``.

    ``notes`` (a deadline move, a seat handed to the AI), which happened at ``log_start``,
    go into that round's prompt and closing text instead of costing a message of their own.
    """
    start, _ = round_events(game, upto=log_start)
    add_notes(meta, game.log[start].round if game.log[start].kind == "round_started" else 1, notes)
    lang = meta.language
    log = game.log
    n = game.num_players
    out: list[OutRow] = []
    new_round = False
    for index in range(log_start, len(log)):
        event = log[index]
        ending = event.kind == "round_started" and event.round > 1
        final = event.kind == "markers_revealed"
        if not (ending or final):
            continue
        # The round before ``index`` is complete: close its prompt, post its map and summary.
        start, events = round_events(game, upto=index)
        finished_round = log[start].round
        moves = [e for e in events if e.kind in ("shop_opened", "shop_evicted")]
        scoring = [e for e in events if e.kind not in ("shop_opened", "shop_evicted")]
        summary = [t(lang, "bot.msg.round_over", round=finished_round, rounds=game.rounds)]
        if start >= log_start:
            # The whole round was played now (AI seats only): no prompt of it was ever posted,
            # so its moves go with its map rather than overwrite another round's prompt.
            summary += present.narrate(moves, game.players, lang)
        else:
            closing = [t(lang, "bot.msg.round_header_done", round=finished_round, rounds=game.rounds)]
            closing += round_notes(meta, finished_round)
            closing += present.narrate(moves, game.players, lang)
            out.append(group(meta, "\n".join(closing), slot=turn_slot(meta), mode="edit"))
        scores = game.score_history[finished_round - 1]
        summary += present.narrate(scoring, game.players, lang)
        if final:
            summary += present.narrate([e for e in log[index:] if e.visible_to(None)], game.players, lang)
            summary.extend(round_notes(meta, finished_round))
            summary.append(t(lang, "bot.msg.final_header"))
            summary.append(t(lang, "bot.msg.winners", winners=", ".join(game.players[s] for s in game.winners)))
            summary.append(scores_line(game.players, game.scores, lang))
            out.append(group(meta, "\n".join(summary),
                             render={"kind": "final", "game_id": meta.id, "moves": len(game.moves)},
                             image_name=f"paris-{meta.id}-final.png"))
            break
        summary.append(scores_line(game.players, scores, lang))
        out.append(group(meta, "\n".join(summary),
                         render={"kind": "map", "game_id": meta.id, "moves": finished_round * n,
                                 "round": finished_round},
                         image_name=f"paris-{meta.id}-round{finished_round}.png"))
        new_round = True
    if not game.finished:
        first_prompt = moves_before == 0 and log_start == 0
        out.append(prompt_message(meta, game, codec, mode="new" if (new_round or first_prompt) else "edit"))
    return out


def marker_messages(meta: GameMeta, game: Game) -> list[OutRow]:
    """Each human's secret marker, privately (never to the group)."""
    out = []
    for seat, info in enumerate(meta.seats):
        if info.is_ai:
            continue
        lang = info.language or meta.language
        colour = COLOURS[game.markers[seat]]
        text = t(lang, "bot.msg.marker_private", chat=meta.chat_title or meta.chat_id,
                 colour=colour_word(colour, lang))
        out.append(private(meta, meta.platform, info.user(), text, lang))
    return out


def started_text(meta: GameMeta, game: Game) -> str:
    lang = meta.language
    lines = [t(lang, "bot.msg.game_started", players=", ".join(game.players),
               first=game.players[game.first_player], rounds=game.rounds)]
    if game.open_marker is not None:
        lines.append(t(lang, "bot.msg.open_marker", colour=colour_word(COLOURS[game.open_marker], lang)))
    lines.append(options_text(meta.options, lang))
    return "\n".join(lines)
