"""The page's messages (``bot/web/protocol.py``) are read as the server read them before they had
types: whatever an attacker edits in a frame, the tagged union takes exactly the messages the
hand-written checks took, with the same fields, and refuses the rest (the server then answers
"bad_message" and does nothing)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.web.protocol import Act, Hello, Review, heard

LAYOUTS = ("landscape", "portrait")


def position(value: Any) -> bool:
    return value is None or (type(value) is int and 0 <= value <= 10_000_000)


def as_before(data: str) -> tuple | None:
    """The checks of bot/web/server.py before the union (commit b38b67d), as what they acted on."""
    try:
        got = json.loads(data)
    except ValueError:
        got = None
    kind = got.get("type") if isinstance(got, dict) else None
    if kind == "hello" and position(got.get("since")) and got.get("layout", "landscape") in LAYOUTS \
            and position(got.get("at")):
        return ("hello", got.get("since"), got.get("layout", "landscape"), got.get("at"))
    if kind == "review" and position(got.get("at")) and got.get("at") is not None:
        return ("review", got["at"])
    if kind == "act" and isinstance(got.get("payload"), str):
        return ("act", got["payload"])
    return None


def as_now(data: str) -> tuple | None:
    match heard(data):
        case Hello(since=since, layout=layout, at=at):
            return ("hello", since, layout, at)
        case Review(at=at):
            return ("review", at)
        case Act(payload=payload):
            return ("act", payload)
    return None


EDITED = [
    '{"type":"hello"}', '{"type":"hello","since":3,"layout":"portrait","at":0}', '{"type":"hello","since":null}',
    '{"type":"hello","since":-1}', '{"type":"hello","since":10000001}', '{"type":"hello","since":1.0}',
    '{"type":"hello","since":true}', '{"type":"hello","since":"3"}', '{"type":"hello","layout":null}',
    '{"type":"hello","layout":"square"}', '{"type":"hello","since":NaN}', '{"type":"hello","since":1e400}',
    '{"type":"hello","at":99999999999999999999999999}', '{"type":"hello","since":1,"since":"x"}',
    '{"type":"review"}', '{"type":"review","at":null}', '{"type":"review","at":4}', '{"type":"review","at":[4]}',
    '{"type":"act"}', '{"type":"act","payload":7}', '{"type":"act","payload":"c_1_2"}',
    '{"type":"act","payload":"\\ud800"}', '{"type":"act","payload":"x","extra":{"deep":[1,2]}}',
    '{"type":"ACT","payload":"x"}', '{"type":["act"],"payload":"x"}', '{"payload":"x"}', '{}', '[]', '"act"',
    'null', '7', '', 'not json', '{"type":"act","payload":"x"} trailing', '{"type":"hello"', '\x00',
]


def test_every_edited_frame_is_read_as_before() -> None:
    for data in EDITED:
        assert as_now(data) == as_before(data), data
    assert sum(as_before(data) is not None for data in EDITED) >= 6     # taken ones are in the list too


def test_the_check_can_fail() -> None:
    """A reader that took any number (true, 1.0: a bare ``int`` field, unchecked) is caught by the list."""
    def lax(data: str) -> tuple | None:
        return as_before(data.replace("true", "1").replace("1.0", "1"))

    assert [data for data in EDITED if lax(data) != as_before(data)]


values = st.recursive(st.none() | st.booleans() | st.integers(-5, 20_000_000) | st.floats(allow_nan=False)
                      | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)
frames = st.dictionaries(st.sampled_from(["type", "since", "layout", "at", "payload", "other"]),
                         st.sampled_from(["hello", "review", "act", "portrait", "landscape"]) | values, max_size=5)


@settings(max_examples=400, deadline=None)
@given(frames)
def test_any_frame_is_read_as_before(frame: dict) -> None:
    data = json.dumps(frame)
    assert as_now(data) == as_before(data), data
