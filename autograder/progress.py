"""The progress of a grade run: students done of total, rate and time left, on stderr.

On a terminal one line is redrawn in place; otherwise (a log, CI) a plain line is printed every
student of a small class and every tenth of a large one, so a log stays short and still shows life.
"""

from __future__ import annotations

import time
from typing import TextIO

_BAR = 24
_REDRAW_SECONDS = 0.1


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def format_progress(done: int, total: int, elapsed: float, bar: bool = True) -> str:
    """One line: ``grading 12/40 [######------] 30% · 2.4 students/s · ETA 0:12`` (no ETA before the first)."""
    total = max(total, 0)
    done = min(max(done, 0), total)
    fraction = done / total if total else 1.0
    parts = [f"grading {done}/{total}"]
    if bar:
        filled = int(fraction * _BAR)
        parts.append(f"[{'#' * filled}{'-' * (_BAR - filled)}]")
    parts.append(f"{fraction:4.0%}".strip())
    line = " ".join(parts)
    if done and elapsed > 0:
        rate = done / elapsed
        line += f" · {rate:.1f} students/s · " + (f"ETA {_clock((total - done) / rate)}" if done < total
                                                  else f"took {_clock(elapsed)}")
    return line


def _plain_steps(total: int) -> set[int]:
    """The counts a non-terminal prints at: every one up to 20 students, then every tenth."""
    if total <= 20:
        return set(range(1, total + 1))
    return {max(1, round(total * step / 10)) for step in range(1, 11)}


class ProgressLine:
    """Counts finished students and shows it; ``done(label)`` after each, ``close()`` at the end."""

    def __init__(self, total: int, stream: TextIO, tty: bool, clock=time.monotonic) -> None:
        self.total, self.stream, self.tty, self.clock = total, stream, tty, clock
        self.count = 0
        self.started = clock()
        self.drawn = 0.0
        self.steps = _plain_steps(total)

    def done(self, label: str = "") -> None:
        self.count += 1
        elapsed = self.clock() - self.started
        if self.tty:
            if self.count == self.total or self.clock() - self.drawn >= _REDRAW_SECONDS:
                self.drawn = self.clock()
                self._show(f"\r\x1b[2K{format_progress(self.count, self.total, elapsed)}")
        elif self.count in self.steps:
            self._show(f"{format_progress(self.count, self.total, elapsed, bar=False)}"
                       f"{f' · last: {label}' if label else ''}\n")

    def close(self) -> None:
        if self.tty and self.count:
            self._show("\n")

    def _show(self, text: str) -> None:
        # Progress is a courtesy: a stream nobody reads any more (a closed pipe) must not stop the
        # grading whose results go to files. It is simply not shown from then on.
        if self.stream is None:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.stream = None
