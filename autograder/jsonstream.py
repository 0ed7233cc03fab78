"""Reading one JSON document a value at a time, so a large results.json is never held whole.

:class:`ValueReader` reads a UTF-8 file in chunks and decodes one value at a time with the
standard library's decoder; the punctuation between values (``{ : , }`` and ``[ , ]``) is read
by hand. A value is accepted only once the text after it has been seen (or the file has ended),
so a number cut by a chunk's end is never taken for a shorter one. Errors are the decoder's own,
with the line and column counted in the whole file.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import BinaryIO

_CHUNK = 1 << 20
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class ValueReader:
    """Values and punctuation of one JSON text, read from ``stream`` (binary) starting at byte ``offset``."""

    def __init__(self, stream: BinaryIO, offset: int = 0, chunk: int = 0) -> None:
        stream.seek(offset)
        self._chunk = chunk or _CHUNK  # what is read at a time (more for a value longer than that)
        self._stream, self._decoder = stream, codecs.getincrementaldecoder("utf-8")()
        self._buffer, self._pos, self._eof = "", 0, False
        self._base = offset  # the byte offset of _buffer[0]
        self._counted, self._bytes = 0, 0  # _buffer[:_counted] is _bytes long in UTF-8
        self._lines, self._column = 0, 0  # newlines dropped with the buffer's head, characters after the last

    def _more(self, size: int = 0) -> bool:
        if self._eof:
            return False
        chunk = self._stream.read(max(size, self._chunk))
        self._buffer += self._decoder.decode(chunk, final=not chunk)  # raises on bytes that are not UTF-8
        self._eof = not chunk
        return True

    def _drop_head(self) -> None:
        # Keep the buffer about one chunk long; the bytes dropped keep offsets and line numbers right.
        if self._pos < self._chunk:
            return
        self._base = self._count()
        self._counted, self._bytes = 0, 0
        head = self._buffer[:self._pos]
        newlines = head.count("\n")
        self._lines += newlines
        self._column = len(head) - head.rfind("\n") - 1 if newlines else self._column + len(head)
        self._buffer, self._pos = self._buffer[self._pos:], 0

    def offset(self) -> int:
        """The byte offset of the next character after white space."""
        self.peek()
        return self._count()

    def _count(self) -> int:
        # Each character is encoded once to count its bytes, however many offsets are asked for.
        self._bytes += len(self._buffer[self._counted:self._pos].encode("utf-8"))
        self._counted = self._pos
        return self._base + self._bytes

    def peek(self) -> str:
        """The next character after white space; "" at the end of the file."""
        while True:
            self._pos = _WHITESPACE.match(self._buffer, self._pos).end()
            if self._pos < len(self._buffer) or not self._more():
                return self._buffer[self._pos:self._pos + 1]

    def take(self, char: str) -> bool:
        """Consume ``char`` if it comes next."""
        if self.peek() != char:
            return False
        self._pos += 1
        return True

    def expect(self, chars: str, what: str) -> str:
        found = self.peek()
        if not found or found not in chars:
            raise self._error(f"Expecting {what}")
        self._pos += 1
        return found

    def value(self) -> object:
        """The next JSON value, decoded whole."""
        self.peek()
        size = self._chunk
        while True:
            try:
                value, end = _DECODER.raw_decode(self._buffer, self._pos)
                if end < len(self._buffer) or self._eof:
                    self._pos = end
                    self._drop_head()
                    return value
            except json.JSONDecodeError as error:
                if self._eof:
                    raise self._error(error.msg, error.pos) from None
            except RecursionError:
                if self._eof:
                    raise
            self._more(size)
            size *= 2  # a value longer than a chunk is read in doubling steps, not chunk by chunk

    def end(self) -> None:
        """Refuse anything but white space after the document."""
        if self.peek():
            raise self._error("Extra data")

    def _error(self, message: str, pos: int | None = None) -> json.JSONDecodeError:
        pos = self._pos if pos is None else pos
        error = json.JSONDecodeError(message, self._buffer, pos)
        if error.lineno == 1:
            error.colno += self._column
        error.lineno += self._lines
        return error
