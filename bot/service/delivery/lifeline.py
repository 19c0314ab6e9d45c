"""Child processes that end with the process that started them, however it ends.

A process killed with SIGKILL (the out-of-memory killer, a crash) runs no clean-up: the
children it started are handed to init and would live on, one more set at each restart
(the drawing processes wait forever for work, 60-100 MB each; multiprocessing's resource
tracker waits for them). So each child holds the reading end of a pipe whose writing end
only the parent holds (the ``Lifeline``); the kernel closes it when the parent ends, and a
thread in the child, waiting on the pipe, ends the child at once. That works wherever
multiprocessing does (tested on Linux only). On Linux the kernel also kills
the child outright when its parent does (``PR_SET_PDEATHSIG``), even a child too busy for
its thread to run; elsewhere the pipe alone does it.

With the drawing processes gone, the resource tracker reads the end of its own pipe (the
parent and every child it spawned held it), unlinks the semaphores the dead pool left, and
ends too.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext

PR_SET_PDEATHSIG = 1          # <linux/prctl.h>
ORPHANED = 70                 # the exit status of a child whose parent had gone (EX_SOFTWARE)


class Lifeline:
    """A pipe for the children of this process: a child calls ``end_with_parent(*initargs)``
    first thing (a process pool's ``initializer``); ``close`` ends the children."""

    def __init__(self, context: BaseContext) -> None:
        self._reader, self._writer = context.Pipe(duplex=False)
        # PR_SET_PDEATHSIG fires when the *thread* that started the child ends, not the
        # process: trusted only for children started from the main thread, which lives as
        # long as the process (a pool starts its processes in the thread that submits work).
        self._from_main_thread = threading.current_thread() is threading.main_thread()

    @property
    def initargs(self) -> tuple[Connection, bool]:
        return self._reader, self._from_main_thread

    def close(self) -> None:
        """Let go of the children: those still running end, work under way or not."""
        self._writer.close()
        self._reader.close()


def end_with_parent(lifeline: Connection, kernel_signal: bool = True) -> None:
    """In a child: end this process as soon as its parent has ended."""
    if kernel_signal:
        _kill_me_with_my_parent()
    threading.Thread(target=_wait_for_the_end, args=(lifeline,), name="lifeline", daemon=True).start()


def _wait_for_the_end(lifeline: Connection) -> None:
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()        # nothing is ever sent: this ends when the parent has gone
    os._exit(ORPHANED)               # no clean-up to run: the parent's work is lost with it


def _kill_me_with_my_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):     # no libc to call: the lifeline's thread still does it
        return
