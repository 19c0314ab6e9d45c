"""Text for Telegram: mentions as ``text_mention`` entities, and splitting to the size limits.

Service texts are plain text (no markup), so the adapter sends them without a parse
mode and marks mentions with entities, which never need escaping. Telegram measures
entity offsets and the 4096/1024 limits in UTF-16 code units.
"""

from __future__ import annotations

from telegram import MessageEntity
from telegram import User as TgUser

from bot.contract import User

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _mention_target(user: User) -> TgUser | None:
    if user.platform != "telegram":
        return None
    try:
        return TgUser(id=int(user.id), first_name=user.name or "player", is_bot=False)
    except ValueError:          # AI seats and other non-numeric ids: no mention
        return None


def mention_entities(text: str, mentions: tuple[User, ...]) -> list[MessageEntity]:
    """A ``text_mention`` for the first free occurrence of each mentioned user's name."""
    entities: list[MessageEntity] = []
    taken: list[tuple[int, int]] = []
    for user in mentions:
        target = _mention_target(user)
        if target is None or not user.name:
            continue
        start = 0
        while (index := text.find(user.name, start)) >= 0:
            end = index + len(user.name)
            if all(end <= a or index >= b for a, b in taken):
                taken.append((index, end))
                entities.append(MessageEntity(MessageEntity.TEXT_MENTION, utf16_len(text[:index]),
                                              utf16_len(user.name), user=target))
                break
            start = index + 1
    entities.sort(key=lambda e: e.offset)
    return entities


def split_text(text: str, limit: int) -> list[str]:
    """``text`` cut into parts of at most ``limit`` UTF-16 units, preferring paragraph,
    then line, then word boundaries; the parts joined with whitespace give the text back."""
    parts: list[str] = []
    rest = text
    while utf16_len(rest) > limit:
        window = rest[:limit]
        while utf16_len(window) > limit:          # astral characters count twice
            window = window[:-1]
        cut = -1
        for sep in ("\n\n", "\n", " "):
            at = window.rfind(sep)
            if at > limit // 4:
                cut = at
                break
        if cut <= 0:
            head, rest = window, rest[len(window):]
        else:
            head, rest = rest[:cut], rest[cut:].lstrip("\n ")
        parts.append(head.rstrip())
    if rest.strip() or not parts:
        parts.append(rest)
    return parts


def entities_for_part(part: str, mentions: tuple[User, ...]) -> list[MessageEntity] | None:
    """Mention entities for one part of a split text (None when there are none)."""
    return mention_entities(part, mentions) or None
