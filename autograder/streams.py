"""Standard streams that cannot carry the kit's symbols: a Latin-1 or ASCII locale, a Windows
console's code page, ``PYTHONIOENCODING=latin-1``.

The report marks checks with ✓ and ✗ and draws rules with ─; written to such a stream, Python
raises UnicodeEncodeError and the student gets a traceback instead of their report. There, the
kit's symbols are spelled in ASCII and any other character the stream cannot carry (a student's
own text, an accented name) becomes "?".
"""

from __future__ import annotations

import io
import sys

SYMBOLS = {"✓": "+", "✗": "x", "◷": "~", "─": "-", "━": "=", "·": "-", "…": "...", "—": "-", "–": "-"}
_ASCII = str.maketrans(SYMBOLS)


class Wrapped(io.TextIOBase):
    """A text stream that writes through to ``stream`` and is the same terminal or file for the rest."""

    def __init__(self, stream) -> None:
        self.stream = stream

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", "utf-8")

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()


class AsciiStream(Wrapped):
    """Writes to ``stream`` with the kit's symbols spelled in ASCII and anything else it cannot encode as "?"."""

    def write(self, text: str) -> int:
        self.stream.write(text.translate(_ASCII).encode(self.encoding, "replace").decode(self.encoding))
        return len(text)


class Diagnostics(Wrapped):
    """stderr, which carries progress, notes and errors but no result: a write it cannot take (a
    pipe nobody reads any more, a full disk) is dropped instead of stopping the grading whose
    results go to files and stdout."""

    def write(self, text: str) -> int:
        try:
            self.stream.write(text)
        except (OSError, ValueError):
            pass
        return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError):
            pass


def fitted(stream):
    """``stream`` itself where it can carry the kit's symbols, else an :class:`AsciiStream` around it."""
    encoding = getattr(stream, "encoding", None)
    if stream is None or encoding is None or isinstance(stream, Wrapped):
        return stream  # an in-memory stream (a test's capture) holds any text
    try:
        "".join(SYMBOLS).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return AsciiStream(stream)
    return stream


def fit_standard_streams() -> None:
    sys.stdout, sys.stderr = fitted(sys.stdout), fitted(sys.stderr)
