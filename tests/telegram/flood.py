"""Telegram's flood limits as the fake Bot API enforces them (``FakeBotAPI(flood=FloodLimits())``).

Telegram documents them loosely: about 30 messages a second for one bot, no more than 20
a minute in one group, about one a second in one chat ("short bursts" allowed), and edits
are throttled like sends in practice. This model counts every send and edit per chat
(``flood_counts``), keeps the accepted ones in sliding windows and refuses a call that
would exceed one with 429 and ``retry_after`` (whole seconds, as Telegram answers): the
seconds until the window that refused it has room again.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class FloodLimits:
    """Calls allowed per sliding window: ``(calls, seconds)``."""

    bot: tuple[int, float] = (30, 1.0)          # every chat together
    group: tuple[int, float] = (20, 60.0)       # one group or supergroup
    chat: tuple[int, float] = (5, 5.0)          # one chat: about one a second, short bursts allowed


@dataclass
class FloodModel:
    limits: FloodLimits
    sent: deque = field(default_factory=deque)                        # times of the bot's calls
    by_chat: dict[int, deque] = field(default_factory=lambda: defaultdict(deque))
    flood_counts: dict[int, Counter] = field(default_factory=lambda: defaultdict(Counter))
    refused: list[tuple[int, str, int]] = field(default_factory=list)  # (chat, method, retry_after)

    SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument"})
    EDITS = frozenset({"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"})
    COUNTED = SENDS | EDITS | {"deleteMessage"}

    def admit(self, chat_id: int, is_group: bool, method: str, now: float) -> int | None:
        """Count the call; None when it may go, else the ``retry_after`` of its refusal."""
        windows = [(self.sent, self.limits.bot), (self.by_chat[chat_id], self.limits.chat)]
        if is_group:
            windows.append((self.by_chat[("group", chat_id)], self.limits.group))
        wait = 0.0
        for times, (calls, seconds) in windows:
            while times and times[0] <= now - seconds:
                times.popleft()
            if len(times) >= calls:
                wait = max(wait, times[len(times) - calls] + seconds - now)
        kind = "send" if method in self.SENDS else "edit" if method in self.EDITS else "delete"
        self.flood_counts[chat_id][kind] += 1
        if wait > 0:
            retry_after = max(1, math.ceil(wait))
            self.refused.append((chat_id, method, retry_after))
            return retry_after
        for times, _ in windows:
            times.append(now)
        return None
