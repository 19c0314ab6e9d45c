"""Each platform's ``Capabilities``, declared in one place: what sets them apart for the service.

The service reads them by a game's platform name (``capabilities``) at every step, a move's
messages as much as their delivery, and names no platform itself; each adapter's transport
declares its own entry as its ``capabilities``. A new platform adds its line here (an unknown
one is a plain chat: landscape pictures, an MP4 animation, a link with a pass).
"""

from __future__ import annotations

from bot.contract import AnimationFormat, Capabilities
from renderers import presenter

MIB = 1024 * 1024

# sendAnimation takes up to 50 MB, an H.264 MP4 being far smaller than a GIF; read mostly on
# phones; a group's command answer is posted in the group.
TELEGRAM = Capabilities(animation=AnimationFormat("mp4", 50 * 1000 * 1000), portrait=True, mini_app=True,
                        private_replies=False)
# It plays GIF and animated WebP inline (the WebP is a fifth of the GIF's size); 10 MiB unless the
# server is boosted (the transport checks the channel's own limit before sending).
DISCORD = Capabilities(animation=AnimationFormat("webp", 10 * MIB))
# It writes the animation to a file; its players type their choices.
TERMINAL = Capabilities(surface=presenter.TERMINAL)

DECLARED: dict[str, Capabilities] = {"telegram": TELEGRAM, "discord": DISCORD, "terminal": TERMINAL}


def capabilities(platform: str) -> Capabilities:
    """What ``platform`` offers; a platform that declares nothing is a plain chat."""
    return DECLARED.get(platform, Capabilities())
