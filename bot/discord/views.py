"""Service buttons as Discord components that survive a restart.

Every button the service issues becomes a ``PressButton`` whose custom_id is
``"pp:" + payload``. ``PressButton`` is a ``discord.ui.DynamicItem``: discord.py routes
any press whose custom_id matches the template to it, whether the message was sent a
minute ago or before the last restart, so no view has to be re-registered per message
and nothing is kept in memory per message. The payload goes back verbatim to
``GameService.press``, which decides whether the press is current and whose it is.
The web board's buttons (``link``, ``web_app``) are Discord link buttons: nothing comes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.contract import Button

from .texts import MAX_CUSTOM_ID, MAX_LABEL, MAX_URL, fit, fits

if TYPE_CHECKING:
    from collections.abc import Sequence

# Kept from the first version (its initials): the buttons of messages already posted carry it,
# and a press is routed by it, so changing it would leave those buttons dead.
CUSTOM_ID_PREFIX = "pp:"
MAX_ROWS = 5               # action rows per message
MAX_PER_ROW = 5            # buttons per action row

SECRET_EMOJI = "\N{LOCK WITH INK PEN}"
LINK_KINDS = frozenset({"link", "web_app"})     # a URL in the payload: a link button


def custom_id_for(payload: str) -> str:
    custom_id = CUSTOM_ID_PREFIX + payload
    if not fits(custom_id, MAX_CUSTOM_ID):
        raise ValueError(f"button payload too long for Discord ({len(payload)} chars): {payload[:40]}...")
    return custom_id


def _style_for(button: Button) -> discord.ButtonStyle:
    if button.kind == "join":
        return discord.ButtonStyle.success
    if button.colour is not None:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def _emoji_for(button: Button) -> str | None:
    """The lock for a "my secret" button whose label carries no symbol of its own. A game's
    colours are the game's: its presenter puts them in its labels."""
    label = button.label.lstrip()
    if label and not label[0].isalnum():
        return None
    return SECRET_EMOJI if button.kind == "secret" else None


class PressReceiver:
    """A client that answers our buttons (the bot, in app.py, which imports this module)."""

    async def handle_press(self, interaction: discord.Interaction, payload: str) -> None:
        raise NotImplementedError


class PressButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pp:(?P<payload>.*)"):
    """Any service button; pressing it hands the payload to the bot's press handler."""

    def __init__(
        self,
        payload: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=fit(label or "\u2026", MAX_LABEL),
                style=style,
                emoji=emoji,
                custom_id=custom_id_for(payload),
                row=row,
            )
        )
        self.payload = payload

    @classmethod
    def from_button(cls, button: Button, *, row: int | None = None) -> PressButton:
        return cls(button.payload, label=button.label, style=_style_for(button), emoji=_emoji_for(button), row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> PressButton:
        # discord.py passes the component the custom id was found on: our template is a button's
        assert isinstance(item, discord.ui.Button), "a press's custom id is on a button"
        return cls(match["payload"], label=item.label, style=item.style, row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        if not isinstance(client, PressReceiver):   # a foreign client: nothing we can do with the payload
            return
        await client.handle_press(interaction, self.payload)


def layout(rows: Sequence[Sequence[Button]]) -> list[list[Button]]:
    """The service's rows fitted into Discord's 5 rows of at most 5 buttons.

    Rows that fit are kept as the service laid them out (one choice a row reads like a
    menu). Otherwise (more rows than Discord allows, say with a secret button or an extra
    "open private chat" row) consecutive rows of the same sort are merged: the buttons
    a game colours share rows, and so do the others; as a last resort the buttons
    simply fill rows of five in order.
    """
    given = [list(row) for row in rows if row]
    if len(given) <= MAX_ROWS and all(len(row) <= MAX_PER_ROW for row in given):
        return given
    merged: list[list[Button]] = []
    for row in given:
        sort = all(b.colour is not None for b in row)
        if (merged and len(merged[-1]) + len(row) <= MAX_PER_ROW
                and all(b.colour is not None for b in merged[-1]) == sort):
            merged[-1].extend(row)
        else:
            merged.extend(_chunks(row))
    if len(merged) <= MAX_ROWS:
        return merged
    return _chunks([b for row in given for b in row])[:MAX_ROWS]


def _chunks(buttons: list[Button]) -> list[list[Button]]:
    return [buttons[i:i + MAX_PER_ROW] for i in range(0, len(buttons), MAX_PER_ROW)]


def shown(button: Button) -> bool:
    """Whether Discord can show the button: a link fits its URL limit; a Telegram Mini App's
    direct link is Telegram's alone."""
    if button.kind in LINK_KINDS:
        return fits(button.payload, MAX_URL)
    return button.kind != "mini_app"


def link_button(button: Button, *, row: int | None = None) -> discord.ui.Button:
    return discord.ui.Button(label=fit(button.label or "\u2026", MAX_LABEL), style=discord.ButtonStyle.link,
                             url=button.payload, row=row)


def build_view(rows: Sequence[Sequence[Button]]) -> discord.ui.View | None:
    """A timeout-free view for the service's button rows (None when there are none)."""
    fitted = layout([[b for b in row if shown(b)] for row in rows])
    if not fitted:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(fitted):
        for button in row:
            if button.kind in LINK_KINDS:
                view.add_item(link_button(button, row=index))
            else:
                view.add_item(PressButton.from_button(button, row=index))
    return view
