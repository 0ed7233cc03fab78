"""Ctrl-C that is never lost.

Python turns SIGINT into a KeyboardInterrupt in whatever Python code runs next. When that is a
weakref callback or a ``__del__`` run by the garbage collector (Hypothesis collects on every
drawn case), the exception is "ignored": printed to a stderr that pytest has captured, and gone.
The run would then grade on and exit 0 after a Ctrl-C. Worse, an interrupt that lands inside
pytest's or a grader's own bookkeeping can surface as some other error, and a student half
graded would be stored as failing a check they never finished.

So the run installs :class:`CtrlC`, which remembers the press as well as raising, and the run
asks :func:`check` at the points where a result is taken or kept: an interrupt that was
swallowed is raised again there, and a result that may have been graded under an interrupt is
never stored. The flag lives on the handler, which the signal module holds for the process.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import sys
import threading
from typing import Iterator


class CtrlC:
    """A SIGINT handler that raises KeyboardInterrupt, as Python's own does, and remembers it did.

    Only the first press raises: a second one, while the run stops (frees what it left, says so),
    would break off the stopping itself and end in a traceback. A first one that Python lost is
    raised by :func:`check`."""

    def __init__(self) -> None:
        self.pressed = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.pressed:
            self.pressed = True
            raise KeyboardInterrupt


@contextlib.contextmanager
def watched() -> Iterator[None]:
    """Within, a Ctrl-C is remembered; Python's handling is put back after. Only where Python's own
    handler is in place: a process that ignores SIGINT, or handles it itself (a pool process, a
    host program embedding the kit), keeps its way."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    signal.signal(signal.SIGINT, CtrlC())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pressed() -> bool:
    """Whether Ctrl-C was pressed while :func:`watched`, whether or not its exception got through."""
    handler = signal.getsignal(signal.SIGINT)
    return isinstance(handler, CtrlC) and handler.pressed


def let_go(interrupt: BaseException) -> None:
    """Free what the interrupt left half-way, quietly.

    A pytest session stopped mid-check leaves generators suspended inside its capture and fixture
    code; closed as they are freed, they fail on their half-torn state and Python prints each
    failure ("Exception ignored in ...") under the one sentence the user should read."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _unraisable: None
    try:
        seen = set()
        while interrupt is not None and id(interrupt) not in seen:  # the interrupt and what it interrupted
            seen.add(id(interrupt))
            interrupt.__traceback__ = None
            interrupt = interrupt.__context__
        gc.collect()
    finally:
        sys.unraisablehook = hook


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed, even if Python lost the first one."""
    if pressed():
        raise KeyboardInterrupt
