"""Service buttons -> Telegram inline keyboards.

``join`` and ``open_private`` become deep links (t.me/<bot>?start=<payload>): Telegram
forbids a bot to write first, so a tap must open the private chat. The web board's buttons
are a ``link`` (a URL), a ``web_app`` (a Mini App button, in private chats) or a ``mini_app``
(the direct link t.me/<bot>/<app>?startapp=<payload>, which a group may carry). ``action`` buttons
carry the payload as callback_data; ``secret`` buttons carry it behind a prefix so the
adapter knows to answer in the private chat (service payloads never contain it).
"""

from __future__ import annotations

import re

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot import product
from bot.contract import Button
from bot.telegram.formatting import fits_callback_data

SECRET_PREFIX = "~m~"      # unchanged since the first version: buttons already posted carry it
_DEEP_LINK_SAFE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def deep_link(bot_username: str, payload: str | None = None) -> str:
    """The t.me link that opens the private chat with the bot (and sends /start <payload>)."""
    base = f"https://t.me/{bot_username}"
    if payload and _DEEP_LINK_SAFE.match(payload):
        return f"{base}?start={payload}"
    return base


def callback_data(button: Button) -> str:
    if button.kind == "secret":
        data = SECRET_PREFIX + button.payload
        if fits_callback_data(data):
            return data
    return button.payload


def split_callback_data(data: str) -> tuple[str, bool]:
    """(service payload, is a secret press) for a callback_data the adapter issued."""
    if data.startswith(SECRET_PREFIX):
        return data[len(SECRET_PREFIX):], True
    return data, False


def mini_app_link(bot_username: str, app: str, start: str) -> str:
    """The direct link that opens the bot's Mini App ``app`` with ``start`` (its start_param)."""
    return f"https://t.me/{bot_username}/{app}?startapp={start}"


def inline_button(button: Button, bot_username: str, app: str | None = None) -> InlineKeyboardButton | None:
    """The button as Telegram takes it; None for a Mini App link where the bot has no Mini App."""
    if button.kind in ("join", "open_private"):
        return InlineKeyboardButton(button.label, url=deep_link(bot_username, button.payload))
    if button.kind == "link":
        return InlineKeyboardButton(button.label, url=button.payload)
    if button.kind == "web_app":
        return InlineKeyboardButton(button.label, web_app=WebAppInfo(button.payload))
    if button.kind == "mini_app":
        if not app or not _DEEP_LINK_SAFE.match(button.payload):
            return None
        return InlineKeyboardButton(button.label, url=mini_app_link(bot_username, app, button.payload))
    return InlineKeyboardButton(button.label, callback_data=callback_data(button))


def keyboard(rows: tuple[tuple[Button, ...], ...], bot_username: str,
             app: str | None = None) -> InlineKeyboardMarkup | None:
    """The rows as an inline keyboard; ``app``: the bot's Mini App's short name, if it has one."""
    built = [kept for row in rows if (kept := [b for b in (inline_button(x, bot_username, app) for x in row) if b])]
    return InlineKeyboardMarkup(built) if built else None


def open_private_keyboard(text: str, bot_username: str, payload: str | None = None) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, url=deep_link(bot_username, payload))]])


def add_to_group_keyboard(text: str, bot_username: str) -> InlineKeyboardMarkup:
    """A button that lets the user pick a group to add the bot to (Telegram's startgroup link)."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, url=f"https://t.me/{bot_username}?startgroup={product.COMMAND}")]])
