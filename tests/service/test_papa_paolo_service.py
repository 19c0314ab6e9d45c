"""Papà Paolo through the service (issue 19): humans press the buttons of their private turn
messages, several at once in the delivery phase, AI seats fill the rest, to the end of the game.

Checked: every press is answered and accepted; the group never reads a private prompt, a
seat's Lire (hidden_money) nor a menu; the group gets at most 3 new messages per phase that
needs players; every decision takes at most 3 taps unless the player went one square or one
pizza at a time; the numbers on a seat's private picture (drawn from ``view.legal``) are the
labels of its numbered buttons; the final scores equal a recount from the exported record.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest
import whole_games
from service_helpers import chat, start_game, user
from twin_streams import turn_buttons

from engine.papa_paolo import components as C
from engine.papa_paolo.definition import GAME
from engine.papa_paolo.stepper import ONE_AT_A_TIME
from i18n import t
from renderers.papa_paolo.presenter import score_parts, square_keys

BACK = "b"


def newest_menu(transport, u) -> list:
    for _, message in sorted(transport.messages.items(), key=lambda item: -int(item[0])):
        if message.private_to is not None and message.private_to.id == u.id and turn_buttons(message.buttons):
            return [b for b in turn_buttons(message.buttons) if b.payload.split("_")[0] != BACK]
    return []


def pick(menu: list, rng: random.Random, best_plan_first: bool):
    """A human's press: mostly a random button, sometimes the first (the best plan, in deliveries);
    never a trip taken back (the lettered undo button: a plan taken back and drawn again at random
    could go on for long)."""
    menu = [button for button in menu if not button.letter]
    if best_plan_first and rng.random() < 0.5:
        return menu[0]
    return rng.choice(menu)


def recount(record) -> tuple[int, ...]:
    """The final scores from the record alone: replayed, then each part added up again."""
    match = GAME.from_record(record)
    view = match.view(None)
    scores = []
    for seat in range(view.num_players):
        hood = view.neighbourhoods[seat]
        tracks = view.tracks[seat]
        score = sum(q.served for q in hood) + C.TRACK_VP[min(tracks.values())]
        score += C.MAXED_VP * sum(1 for v in tracks.values() if v >= C.TRACK_TOP)
        score -= sum(q.pizzas for q in hood)
        if record["options"].get("money_bonus"):
            ranked = sorted(set(view.lire), reverse=True)
            score += {ranked[0]: C.MONEY_BONUS[0], **({ranked[1]: C.MONEY_BONUS[1]} if len(ranked) > 1 else {})
                      }.get(view.lire[seat], 0) if view.lire[seat] in ranked[:2] else 0
        scores.append(score)
    return tuple(scores)


def decisions(match, seat: int) -> list[dict]:
    """The whole moves ``seat`` made so far, as its record has them (without their player)."""
    name = match.players[seat]
    return [{k: v for k, v in m.items() if k != "player"} for m in match.to_record()["moves"] if m["player"] == name]


def decision_kind(move: dict) -> str:
    """What a whole move of the record decided: a tile taken, an action on a space, a bid..."""
    if "place" in move:
        return "tile" if "take" in move else "space action"
    return {"stairs": "bid", "invest": "investment", "late": "investment", "resolve": "resolve",
            "deliver": "deliveries"}[next(iter(move))]


async def play(service, transport, *, humans: int, ais: int, seed: int, options: dict) -> dict:
    names = ["Ann", "Bob", "Cy", "Di"][:humans]
    users = {u.id: u for u in map(user, names)}
    c = chat(1)
    game_id = await start_game(service, c, list(users.values()), ais=ais,
                               options={"game": "papa-paolo", "seed": seed, **options})
    rng = random.Random(seed)
    stats = {"presses": 0, "at_once": 0, "labels_checked": 0, "posts": {}, "pictures": {}, "taps": {}}
    posted = len(transport.new_group_posts())
    pressed_since: dict[int, int] = {}         # seat -> taps since its last whole move
    verbs_since: dict[int, set] = {}           # seat -> the verbs of those taps
    while True:
        await service.deliver_pending(transport)
        info = await service.game_info(game_id=game_id)
        match = (await service.store.load(game_id)).match
        new = transport.new_group_posts()[posted:]
        posted += len(new)
        # The stretch of play under way (closed by a picture); the batch that ends the game
        # (the last stretch's board and the final picture) is the end's.
        key = "end" if info.status == "finished" else match.rhythm.cycle
        stats["posts"][key] = stats["posts"].get(key, 0) + len(new)
        stats["pictures"][key] = stats["pictures"].get(key, 0) + sum(m.image is not None for m in new)
        if info.status == "finished":
            break
        assert info.round == match.state.round
        assert stats["presses"] < 3000, "the game never ended"
        acting = [users[info.seats[s].user_id] for s in info.to_act]
        seats = list(info.to_act)
        menus = [newest_menu(transport, u) for u in acting]
        assert all(menus), f"a seat to act has no private menu: {[u.name for u in acting]}"
        for seat, menu in zip(seats, menus, strict=True):
            keys = square_keys(match.view(seat).legal)       # what that seat's picture prints
            numbered = {b.label.split(" ")[0] for b in menu if b.label.split(" ")[0].isdigit()}
            assert numbered == {str(k) for k in keys.values()}, (numbered, keys)
            stats["labels_checked"] += bool(keys)
        pressed = [pick(menu, rng, match.view(None).phase == "deliver") for menu in menus]
        whole = {seat: len(decisions(match, seat)) for seat in seats}
        steps_before = len(match.state.moves)
        replies = await asyncio.gather(*(service.press(c, u, b.payload) for u, b in zip(acting, pressed, strict=True)))
        assert all(r.ok for r in replies), [r.text for r in replies]
        stats["presses"] += len(replies)
        stats["at_once"] = max(stats["at_once"], len(replies))
        after = (await service.store.load(game_id)).match
        game = after.state
        for seat in seats:
            pressed_since[seat] = pressed_since.get(seat, 0) + 1
            verbs_since.setdefault(seat, set()).update(
                text.split(" ")[0] for s, text in game.moves[steps_before:] if s == seat)
            mine = decisions(after, seat)
            if len(mine) > whole[seat]:                 # the press completed a decision
                kind = decision_kind(mine[-1])
                if verbs_since.pop(seat) & {k.verb for k in ONE_AT_A_TIME}:       # counted apart
                    kind += " (step by step)"
                stats["taps"].setdefault(kind, []).append(pressed_since.pop(seat))
    stats["picture_names"] = [m.image_name for m in transport.group() if m.image is not None]
    stats["record"] = await service.record(game_id)
    match = (await service.store.load(game_id)).match
    stats["stretches"] = match.view(None).stretches
    human_seats = {s for s, seat in enumerate(info.seats) if seat.user_id in users}
    stats["human_verbs"] = {text.split(" ")[0] for seat, text in match.state.moves if seat in human_seats}
    return stats


def group_text(transport) -> str:
    return "\n".join(m.text for m in transport.group())


def assert_private_stays_private(transport, record) -> None:
    group = group_text(transport)
    for key in ("papa.prompt.place", "papa.prompt.square", "papa.prompt.deliver", "papa.secret_here"):
        assert t("en", key, money="", lire="", trips="", limits="", allowed="")[:18] not in group, key
    for message in transport.group():
        labels = [b.label for row in message.buttons for b in row]
        assert not [label for label in labels if label[:1].isdigit()], labels   # no menu in the group


@pytest.mark.parametrize(("humans", "ais", "seed"), whole_games.cases((2, 0, 3), (2, 1, 11), (2, 2, 5)))
async def test_humans_play_papa_paolo_to_the_end_through_the_service(service, transport, humans, ais, seed):
    stats = await play(service, transport, humans=humans, ais=ais, seed=seed, options={"hidden_money": True})
    record = stats["record"]
    verbs = stats["human_verbs"]
    assert {"place", "square", "stairs", "invest"} <= verbs, verbs
    assert {"best-plan", "from", "step"} <= verbs, verbs
    # Actions with their amount in one button; the steps they stand for are off the menus.
    assert {"pizzas", "best-trip", "sponsor"} <= verbs and not {"take", "buy", "build"} & verbs, verbs
    assert stats["at_once"] == 2                       # both humans planned their deliveries at once
    assert stats["labels_checked"] > 5
    assert_private_stays_private(transport, record)
    # Typical decisions in one to three taps: a tile (space, square, rotation unless one fits), an
    # action on a space (space, the action with its amount, its square or split where there is a
    # choice), a bid, an investment tile, its track or action, the best plan. Longer only when the
    # player chose to go one square or one pizza at a time (counted apart: "... (step by step)").
    taps = stats["taps"]
    print(f"\nPapà Paolo, {humans} people and {ais} AI: taps per decision (count, most, mean) " + ", ".join(
        f"{k} {len(v)}/{max(v)}/{sum(v) / len(v):.1f}" for k, v in sorted(taps.items())))
    assert {"tile", "space action", "bid", "investment", "resolve", "deliveries"} <= set(taps), taps
    assert all(max(v) <= 3 for k, v in taps.items() if not k.endswith("(step by step)")), taps
    assert set(taps["bid"]) == set(taps["investment"]) == set(taps["deliveries"]) == {1}, taps
    # A picture after each phase that changed the board, each with at most 3 new group messages
    # (the picture, the next phase's prompt, a reminder): 4 phases a round, the last closed by
    # the end of the game, whose final picture comes too.
    stretches = stats["stretches"]
    assert len(stretches) == 4 * C.ROUNDS - 1, stretches
    assert {phase for _, phase in stretches} == {"place", "bid", "invest", "deliver"}
    assert max(stats["posts"].values()) <= 3, stats["posts"]
    # the last board and the final picture, then the whole game as an animation
    assert stats["posts"]["end"] == 3 and stats["pictures"]["end"] == 2
    # The set-up's board, then one board per closed stretch (posted as the next one begins).
    assert [stats["pictures"][k] for k in range(1, len(stretches) + 2)] == [1] * (len(stretches) + 1)
    # Each board's file is named by its round and phase, in the order played.
    labels = [re.search(r"-(round\d+-[a-z0-9-]+)\.png$", name) for name in stats["picture_names"]]
    phase_number = {"place": 1, "bid": 3, "invest": 4, "deliver": 5}
    assert [m and m.group(1) for m in labels] == [None, *(f"round{r}-phase{phase_number[p]}-{p}" for r, p in stretches),
                                                  f"round{C.ROUNDS}-end", None]
    assert stats["picture_names"][0].endswith("-start.png") and stats["picture_names"][-1].endswith("-final.png")
    group = group_text(transport)
    assert t("en", "papa.stretch_over.bid", round=2, of=C.ROUNDS) in group
    assert t("en", "papa.stretch_over.deliver", round=4, of=C.ROUNDS) in group
    final = GAME.from_record(record)
    assert final.is_terminal()
    assert tuple(final.returns()) == recount(record)
    view = final.view(None)
    assert [sum(score_parts(view, s).values()) - 2 * score_parts(view, s)["left"]
            for s in range(view.num_players)] == list(view.scores)
    assert [h[-1] for h in view.money_history] == list(view.lire)      # the final picture's Lire by round
