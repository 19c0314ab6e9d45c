"""How the platforms measure a text against their size limits: one ``Unit`` per way of counting.

Every adapter measures and cuts its texts with these, never with ``len`` on its own, so a limit
is always counted in the platform's unit:

- ``UTF16``: Telegram counts texts, captions, callback answers, command descriptions and entity
  offsets in UTF-16 code units (core.telegram.org/api/entities); an emoji outside the Basic
  Multilingual Plane ("🟢") counts two, and "⚠️" (two code points) counts two.
- ``UTF8``: Telegram's callback_data is 1-64 *bytes*.
- ``CODE_POINTS``: Discord's API runs on Python 3 and counts Unicode code points, in message
  content, component labels and custom_ids, select options, thread names, command descriptions
  and embed fields alike (a Discord engineer in discord/discord-api-docs#1315: "the API
  calculates length based on the number of codepoints"; discord.py and simcord check the same
  ``len``). So "🟢" counts one there, "⚠️" two.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

ELLIPSIS = "\u2026"

# Characters that belong to the character before them: cutting just before one would leave a
# bare emoji base or an orphaned modifier ("⚠" without its U+FE0F, a family split at a joiner).
_ZWJ = "\u200d"
_JOINS_PREVIOUS = {"\ufe0e", "\ufe0f", _ZWJ, "\u20e3"}


def _joins_previous(char: str) -> bool:
    code = ord(char)
    return (char in _JOINS_PREVIOUS or unicodedata.combining(char) != 0
            or 0x1F3FB <= code <= 0x1F3FF           # skin tones
            or 0xE0020 <= code <= 0xE007F)          # tag characters (subdivision flags)


@dataclass(frozen=True)
class Unit:
    """A way of counting a text's length, and cutting a text to fit a limit in it."""

    name: str
    length: Callable[[str], int]

    def fits(self, text: str, limit: int) -> bool:
        return self.length(text) <= limit

    def prefix(self, text: str, limit: int) -> str:
        """The longest prefix of ``text`` within ``limit`` units that does not split a character
        (nor an emoji from its modifiers)."""
        if self.fits(text, limit):
            return text
        low, high = 0, len(text)          # fits(text[:low]) holds, fits(text[:high]) does not
        while high - low > 1:
            middle = (low + high) // 2
            if self.fits(text[:middle], limit):
                low = middle
            else:
                high = middle
        whole = low
        while low > 0 and (_joins_previous(text[low]) or text[low - 1] == _ZWJ):
            low -= 1
        return text[:low or whole]    # one emoji sequence longer than the limit: cut inside it

    def clip(self, text: str, limit: int, mark: str = ELLIPSIS) -> str:
        """``text`` itself when it fits, else its longest prefix that fits with ``mark`` after it."""
        if self.fits(text, limit):
            return text
        room = limit - self.length(mark)
        if room < 0:                      # no room even for the mark
            return self.prefix(text, limit)
        return self.prefix(text, room).rstrip() + mark


# "surrogatepass": a lone surrogate (say from a malformed update) is measured, not an error.
UTF16 = Unit("UTF-16 code units", lambda text: len(text.encode("utf-16-le", "surrogatepass")) // 2)
UTF8 = Unit("UTF-8 bytes", lambda text: len(text.encode("utf-8", "surrogatepass")))
CODE_POINTS = Unit("code points", len)
