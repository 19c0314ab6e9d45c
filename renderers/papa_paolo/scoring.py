"""A Papà Paolo score in its parts, as the board and the final standings show them."""

from __future__ import annotations

from engine.papa_paolo import components as C


def score_parts(view, seat: int) -> dict[str, int]:
    """A final score in parts, recounted from the view (the money bonus is what is left over)."""
    hood = view.neighbourhoods[seat]
    tracks = view.tracks[seat]
    parts = {"delivered": sum(q.served for q in hood if q.kind == "city"),
             "experience": C.TRACK_VP[min(tracks.values())],
             "maxed": C.MAXED_VP * sum(1 for v in tracks.values() if v >= C.TRACK_TOP),
             "left": sum(q.pizzas for q in hood if q.kind == "pizzeria")}
    total = view.scores[seat] if view.scores else sum(parts.values()) - 2 * parts["left"]
    parts["bonus"] = total - (sum(parts.values()) - 2 * parts["left"])
    return parts
