"""The rating rules on their own (bot/service/players/ratings.py, docs/ratings.md): places from the final
standings, who is rated, AI levels as entries, the displayed number."""

from __future__ import annotations

from bot.service.game.model import GameMeta, ResultRow, Seat
from bot.service.players import ratings as R


def game(*seats: Seat, game_id: int = 1) -> GameMeta:
    return GameMeta(id=game_id, platform="fake", chat_id="c1", chat_title="", status="finished", host_id="ann",
                    options={}, seed=1, seats=list(seats), kind="paris-paris")


def person(name: str) -> Seat:
    return Seat(name, "fake", name.lower())


def ai(name: str, level: str = "normal") -> Seat:
    return Seat(name, "fake", None, is_ai=True, ai_reason="added", level=level)


def results(meta: GameMeta, points: list[int], winners: set[int], ended: float = 100.0) -> list[ResultRow]:
    return [ResultRow(meta.id, i, "fake", "c1", s.user_id, s.name, s.user_id is None, points[i], i in winners,
                      ended, kind=meta.kind) for i, s in enumerate(meta.seats)]


def test_places_follow_the_final_standings_winners_first_and_ties_shared():
    meta = game(person("Ann"), person("Bea"), person("Cid"), person("Dan"))
    # Ann and Bea on 50, Ann wins the tie-break; Cid and Dan on 40 share third place.
    assert R.places(results(meta, [50, 50, 40, 40], {0})) == [1, 2, 3, 3]
    # Winners sharing the victory share first place.
    assert R.places(results(meta, [50, 50, 40, 30], {0, 1})) == [1, 1, 3, 4]


def test_a_game_is_rated_only_with_every_person_in_their_seat():
    ann, bob = person("Ann"), person("Bob")
    assert not R.not_rated(game(ann, bob), ai_played=())
    assert not R.not_rated(game(ann, ai("Bot")), ai_played={1})          # the AI's own seat
    assert R.not_rated(game(ann, bob), ai_played={1})                     # the AI moved for Bob: he left
    left = Seat("Bob", "fake", "bob", is_ai=True, ai_reason="left", level="normal")
    assert R.not_rated(game(ann, left), ai_played=())
    handed = Seat("Bob", "fake", "bob", is_ai=True, ai_reason="handed", level="normal")
    assert R.not_rated(game(ann, handed), ai_played=())
    assert R.not_rated(game(ai("A"), ai("B", "strong")), ai_played={0, 1})   # nobody to rate


def test_a_win_raises_the_winner_and_an_ai_level_on_two_seats_is_one_entry():
    meta = game(person("Ann"), ai("Bot 1"), ai("Bot 2"), person("Bob"))
    rows = {r.player: r for r in R.rate_game(meta, results(meta, [60, 50, 40, 30], {0}), {1, 2}, {})}
    assert set(rows) == {"ann", "bob", "ai:normal"}
    assert rows["ann"].place == 1 and rows["ai:normal"].place == 2 and rows["bob"].place == 4
    assert rows["ann"].mu_after > R.MODEL.mu > rows["bob"].mu_after
    assert rows["ai:normal"].name == "normal" and rows["ann"].games == 1


def test_ratings_build_on_the_ones_before_and_recompute_alike():
    first = game(person("Ann"), person("Bob"), game_id=1)
    second = game(person("Bob"), person("Ann"), game_id=2)
    inputs = [(second, results(second, [9, 3], {0}, ended=200.0), set()),
              (first, results(first, [9, 3], {0}, ended=100.0), set())]     # out of order on purpose
    rows = R.recompute(inputs)
    assert [(r.game_id, r.player, r.games) for r in rows] == [(1, "ann", 1), (1, "bob", 1), (2, "bob", 2),
                                                               (2, "ann", 2)]
    ann_after_first = next(r for r in rows if (r.game_id, r.player) == (1, "ann"))
    ann_in_second = next(r for r in rows if (r.game_id, r.player) == (2, "ann"))
    assert (ann_in_second.mu_before, ann_in_second.sigma_before) == (ann_after_first.mu_after,
                                                                     ann_after_first.sigma_after)


def test_the_displayed_number_starts_at_1200_and_is_provisional_for_five_games():
    assert R.NEW.shown == 1200 and R.NEW.provisional
    assert R.shown(30.0, 2.0) == round(20 * 24 + 1200)
    assert not R.Skill(25.0, 3.0, R.PROVISIONAL_GAMES).provisional
