"""The platform-neutral game service (implements ``bot.contract.GameServiceAPI``).

Usage::

    from bot.contract import Chat, User
    from bot.service import GameService

    service = await GameService.open("paris-paris.sqlite3")     # creates/migrates the DB
    chat, ann = Chat("terminal", "local"), User("terminal", "ann", "Ann")
    await service.new_game(chat, ann, options={"seed": 7})      # also: final_tours, language, ...
    await service.add_ai(chat, ann)
    await service.start(chat, ann)
    info = await service.game_info(chat)                        # id, status, seats, to_move
    reply = await service.board(chat, ann)                      # text board + tile buttons if Ann moves
    await service.press(chat, ann, reply.buttons[0][0].payload) # or: await service.move(chat, ann, "1")
    await service.deliver_pending(transport)                    # posts the outbox via your Transport
    # long-running: asyncio.create_task(service.run_delivery(transport))  (also fires timers)
    await service.close()

Options for ``new_game``: "game" (a registry id), each option the game declares (its
``OptionSpec`` name and one of its values), "reminder_minutes",
"deadline_minutes" (0 = off), "language" ("en", "de", "it", "fr"), plus "seed" (int, a
reproducible deal) and "join" (False: the creator does not take a seat).
Pass ``clock=ManualClock()`` for tests: timers fire on ``await service.fire_due_timers()``.
"""

from .clock import ManualClock, SystemClock
from .service import GameService
from .storage import SqliteStorage, Storage

__all__ = ["GameService", "ManualClock", "SqliteStorage", "Storage", "SystemClock"]
