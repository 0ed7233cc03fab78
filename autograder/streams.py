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


class AsciiStream(io.TextIOBase):
    """Writes to ``stream`` with the kit's symbols spelled in ASCII and anything else it cannot encode as "?"."""

    def __init__(self, stream) -> None:
        self.stream = stream

    @property
    def encoding(self) -> str:
        return self.stream.encoding

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.stream.write(text.translate(_ASCII).encode(self.encoding, "replace").decode(self.encoding))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()


def fitted(stream):
    """``stream`` itself where it can carry the kit's symbols, else an :class:`AsciiStream` around it."""
    encoding = getattr(stream, "encoding", None)
    if stream is None or encoding is None or isinstance(stream, AsciiStream):
        return stream  # an in-memory stream (a test's capture) holds any text
    try:
        "".join(SYMBOLS).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return AsciiStream(stream)
    return stream


def fit_standard_streams() -> None:
    sys.stdout, sys.stderr = fitted(sys.stdout), fitted(sys.stderr)
