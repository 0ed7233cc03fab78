"""Student text made inert for wherever it may meet a terminal: reports, summaries, files.

An escape sequence in a student's output or message could clear the screen and draw a fake
total, set the window title or write to the clipboard (OSC 52) when the text is printed or a
report is shown with ``cat``; every renderer passes student text through :func:`plain`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import fields, is_dataclass, replace

# Whole escape sequences first (CSI, OSC, DCS/PM/APC/SOS strings, two-character escapes, in their
# 7-bit and C1 forms), so no parameter text is left behind; then any control character that is
# left, except newline and tab; bidirectional overrides, which reorder what the eye sees; and
# lone surrogates, which no terminal can encode.
_SEQUENCES = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
                        r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
                        r"|\x1b[ -/]*[0-~]?")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def plain(text: str) -> str:
    """Student text that a terminal prints as it is: no escape sequences, no control characters."""
    return _CONTROLS.sub("", _SEQUENCES.sub("", text))


def one_line(text: str) -> str:
    """:func:`plain` for a name shown on one line (a student id): a newline there could forge a row."""
    return " ".join(plain(text).split("\n")).replace("\t", " ")


def shown_id(text: str) -> str:
    """A student id on one line, told apart from every other id: a character no reader sees as
    itself (a control, a newline or tab, a bidirectional override, a zero-width or other format
    character, a no-break or other unusual space, a lone surrogate) is spelt as its escape, and a
    backslash as two, so that ``evil\\nmallory`` and a classmate named ``evil mallory``, or
    ``\\u200babc`` and ``abc``, never share what a gradebook row shows as its id. In an id that is
    not in Unicode's composed form (NFC), every character that composes or is composed also shows
    as its escape: ``jose\\u0301`` (typed on one machine) and ``jos\u00e9`` (on another) look the
    same, yet are two folders and two students."""
    composed = unicodedata.is_normalized("NFC", text)
    return "".join(_spelt(ch, composed) for ch in text)


def _composes(ch: str) -> bool:
    """Whether NFC could join ``ch`` to a neighbour or replace it: a combining mark, a conjoining
    Hangul letter, or a character with a composed form of its own (the angstrom sign)."""
    return (unicodedata.category(ch)[0] == "M" or "\u1100" <= ch <= "\u11ff"
            or unicodedata.normalize("NFC", ch) != ch or unicodedata.normalize("NFD", ch) != ch)


def _spelt(ch: str, composed: bool = True) -> str:
    if ch == "\\":
        return "\\\\"
    if (ch == " " or unicodedata.category(ch)[0] not in "CZ") and (composed or not _composes(ch)):
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def spreadsheet_text(text: str) -> str:
    """A CSV cell that every spreadsheet keeps as text: one starting with = + - @ is a formula, also
    after blanks (an import may trim them, and a tab in an id becomes a space on one line), so it
    gets a leading apostrophe."""
    return "'" + text if text.lstrip(" \t\r\n")[:1] in ("=", "+", "-", "@") or text[:1] in ("\t", "\r") else text


def shown_name(name: str) -> str:
    """A file name as ``repr`` shows it, quotes aside: a newline or a control character in it is
    seen as its escape (``\\n``), where it could otherwise start a line of a report."""
    return repr(name)[1:-1]


def inert(value):
    """A view-model with :func:`plain` applied to every string in it."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, tuple):
        return tuple(inert(item) for item in value)
    if is_dataclass(value):
        return replace(value, **{f.name: inert(getattr(value, f.name)) for f in fields(value)})
    return value
