"""Input from chats as the service can store it: text that every database and platform can encode.

A platform can hand us a lone surrogate in a user's name or id or a chat's title (a forged
update, a broken client); such a ``str`` cannot be written as UTF-8 and would fail deep in a
commit. Every public method of the service receives its chats, users and text through here.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from bot.contract import Chat, User

S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")


def clean_text(text: str) -> str:
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


def clean(value: Any) -> Any:
    """``value`` with every piece of text made encodable (others unchanged)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, Chat | User):
        changes: dict[str, Any] = {f.name: clean_text(v) for f in dataclasses.fields(value)
                   if isinstance(v := getattr(value, f.name), str) and clean_text(v) is not v}
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    return value


def cleaned(method: Callable[Concatenate[S, P], Awaitable[R]]) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """Wrap a service coroutine so that its arguments arrive cleaned."""
    # ``clean`` keeps each argument's type (text stays text, a chat a chat): the same call, by any arguments
    call: Callable[..., Awaitable[R]] = method

    @functools.wraps(method)
    async def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await call(self, *map(clean, args), **{k: clean(v) for k, v in kwargs.items()})
    return wrapper
