"""Text for Telegram: mentions as ``text_mention`` entities, and splitting to the size limits.

Service texts are plain text (no markup), so the adapter sends them without a parse
mode and marks mentions with entities, which never need escaping. Telegram measures
entity offsets and its text limits in UTF-16 code units (``bot.limits.UTF16``), callback data
in bytes (``bot.limits.UTF8``).
"""

from __future__ import annotations

from telegram import MessageEntity
from telegram import User as TgUser

from bot.contract import User
from bot.limits import UTF8, UTF16

# Telegram's limits (core.telegram.org/bots/api), each in the unit named beside it.
TEXT_LIMIT = 4096              # sendMessage / editMessageText text, UTF-16 units
CAPTION_LIMIT = 1024           # photo and document captions, UTF-16 units
ANSWER_LIMIT = 200             # answerCallbackQuery text (toast or alert), UTF-16 units
COMMAND_DESCRIPTION_LIMIT = 256  # setMyCommands description, UTF-16 units
CALLBACK_DATA_LIMIT = 64       # an inline button's callback_data, UTF-8 bytes
# Inline button labels have no documented limit (clients ellipsize a long label), so they are
# not cut here; the presenters keep them short.


def short_answer(text: str) -> str:
    """A callback query's answer within ``ANSWER_LIMIT``, ending in "…" when cut."""
    return UTF16.clip(text, ANSWER_LIMIT)


def command_description(text: str) -> str:
    return UTF16.clip(text, COMMAND_DESCRIPTION_LIMIT)


def fits_callback_data(data: str) -> bool:
    return UTF8.fits(data, CALLBACK_DATA_LIMIT)


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
                entities.append(MessageEntity(MessageEntity.TEXT_MENTION, UTF16.length(text[:index]),
                                              UTF16.length(user.name), user=target))
                break
            start = index + 1
    entities.sort(key=lambda e: e.offset)
    return entities


def split_text(text: str, limit: int) -> list[str]:
    """``text`` cut into parts of at most ``limit`` UTF-16 units, preferring paragraph,
    then line, then word boundaries; the parts joined with whitespace give the text back."""
    parts: list[str] = []
    rest = text
    while not UTF16.fits(rest, limit):
        window = UTF16.prefix(rest, limit)
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
