"""Words players read as something else (issue 32): a rule that reads as another rule, and German
and Italian that read as calques or as coffee. Each check names the wording that misled."""

from __future__ import annotations

import pytest

from i18n import catalog, t


def texts(language: str) -> list[tuple[str, str]]:
    return [(key, form) for key, message in catalog(language).items() for form in message.forms]


def test_paris_paris_rules_say_how_many_shops_a_station_holds():
    """"(1 shop at a stop, 2 at a crossing)" read as how many shops a player opens."""
    assert "(a stop holds 1 shop, a crossing 2;" in t("en", "pp.rules")
    assert "an einer Haltestelle ist Platz für 1 Laden, an einer Kreuzung für 2" in t("de", "pp.rules")
    assert "una fermata ha posto per 1 negozio, un incrocio per 2" in t("it", "pp.rules")
    assert "un arrêt accueille 1 boutique, un croisement 2" in t("fr", "pp.rules")


@pytest.mark.parametrize(("language", "misleading"), [
    ("de", "Die meisten Punkte gewinnen"),      # a calque of "most points wins"
    ("de", "Nachzügler"),                       # "latecomers" for those off the staircase
    ("de", "mit einem Tipp"),                   # a tip, not a tap
    ("it", "espresso"),                         # coffee, not an express delivery
    ("it", "ritardatari"),                      # "latecomers"
    ("it", "Si aspetta"),                       # "one expects root"
    ("it", "maggioranza assoluta"),             # more than half, not "strictly the most"
])
def test_no_misleading_wording(language, misleading):
    found = [key for key, text in texts(language) if misleading.casefold() in text.casefold()]
    assert not found, found


def test_the_natural_wording_is_there():
    assert t("de", "pp.rules").endswith("Wer die meisten Punkte hat, gewinnt.")
    assert "Knopf" not in t("de", "legend_offer")       # the map's legend: a numbered disc, no button
    assert t("it", "papa.action.express") == "Consegna rapida"
    assert t("it", "papa.option.express_ignores_roads") == "Consegna rapida senza strade"
    assert t("it", "bot.msg.waiting", players="root") == "⏳ In attesa di root."
    assert t("it", "papa.prompt.waiting", players="root") == "In attesa di root."
