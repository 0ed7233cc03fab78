"""Every reply from a worker, made valid and bounded on arrival, before the grader uses any of it.

A reply is JSON written by a process that runs student code, so any string in it may hold lone
surrogates (which no file or terminal can encode), any number may have thousands of digits (which
no formatter or JSON writer will take) and any field may be megabytes long. :func:`reply` is the
one place replies pass through: after it, strings are valid Unicode, integers fit a float, and the
fields the grader shows a student (error text, printed output, warnings) are bounded. Nothing raw
goes further.
"""

from __future__ import annotations

import re

from .codec import CodecError

OUTPUT_CHARS = 4000  # head and tail of what a student printed, each
MESSAGE_CHARS = 2000
DETAIL_CHARS = 3000
NAME_CHARS = 200
MAX_COUNT = 2**53  # a character count beyond this is a lie, and JSON readers lose precision past it
MAX_INT_BITS = 1024  # beyond a float's range no check can compare a number
# What in a reply's raw JSON could make the tree walk change or refuse anything: a surrogate can
# only arrive as a backslash-u escape (the frame is strict UTF-8), and an integer too large for a float
# has at least 309 digits. Most replies hold neither, and walking every value of every reply was a tenth
# of the grader's time; a false alarm (an escaped backslash, a long digit string) only walks. The
# digit runs are found by byte search, never by a regular expression: that would start again at
# every digit of a reply made of 299-digit runs, and a student could make each reply cost seconds.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_DIGITS_AS_ZEROS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
_LONG_NUMBER = b"0" * 300


def _may_need_walk(raw: bytes) -> bool:
    return bool(_SURROGATE_ESCAPE.search(raw)) or _LONG_NUMBER in raw.translate(_DIGITS_AS_ZEROS)


def valid_text(value: str) -> str:
    """``value`` with any lone surrogate spelt as a visible escape (``\\ud800``), so it can be written."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "backslashreplace").decode("utf-8")


def text(value: object, limit: int = MESSAGE_CHARS, keep: str = "head", mark: bool = True) -> str:
    """A string field as valid text of at most ``limit`` characters; anything else is empty.

    ``keep`` says which end survives a cut; ``mark`` says whether the cut is noted in the text.
    """
    if not isinstance(value, str):
        return ""
    cut = 0
    if len(value) > limit:
        cut = len(value) - limit
        value = value[:limit] if keep == "head" else value[-limit:]
    value = valid_text(value)[:limit] if keep == "head" else valid_text(value)[-limit:]
    if not cut or not mark:
        return value
    note = f"[... {cut:,} characters cut ...]"
    return f"{value[:limit - len(note) - 1]} {note}" if keep == "head" else f"{note} {value[len(note) + 1:]}"


def count(value: object, maximum: int = MAX_COUNT) -> int:
    """A non-negative count, clamped to ``maximum``; anything that is not an int is 0."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return 0
    return min(value, maximum)


def _check_number(value: int) -> None:
    if value.bit_length() > MAX_INT_BITS:
        raise CodecError(f"a number with {value.bit_length()} bits is larger than any float")
    try:
        float(value)
    except OverflowError:  # 2**1024 - 1 has 1024 bits and is still past the largest float
        raise CodecError("a number larger than any float") from None


def _clean_tree(root: object) -> None:
    """Fix every string and reject every oversized integer in a parsed JSON tree, in place.

    Iterative, so that a deeply nested reply cannot exhaust the grader's stack here; the codec
    bounds nesting when it decodes values.
    """
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in [k for k in node if valid_text(k) is not k]:
                node[valid_text(key)] = node.pop(key)
            entries = node.items()
        elif isinstance(node, list):
            entries = enumerate(node)
        else:
            continue
        for key, value in list(entries):
            if isinstance(value, str):
                node[key] = valid_text(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                _check_number(value)
            elif isinstance(value, (dict, list)):
                stack.append(value)


def _error(error: object) -> dict | None:
    if not isinstance(error, dict):
        return None
    mro = error.get("mro")
    line = error.get("line")
    return {
        "kind": text(error.get("kind"), 20),
        "type": text(error.get("type"), NAME_CHARS),
        "message": text(error.get("message"), MESSAGE_CHARS),
        "traceback": text(error.get("traceback"), DETAIL_CHARS, keep="tail"),
        "line": count(line, 10**9) if isinstance(line, int) else None,
        "mro": [text(name, 80) for name in mro[:20] if isinstance(name, str)] if isinstance(mro, list) else None,
    }


def _output(output: object) -> dict | None:
    if not isinstance(output, dict) or not all(isinstance(output.get(k), str) for k in ("head", "tail")):
        return None
    # The worker says how much it cut; the client counts it, so no note goes into the text. An
    # escaped surrogate is longer than the character it stands for: the total grows with it.
    head = text(output["head"], OUTPUT_CHARS, mark=False)
    tail = text(output["tail"], OUTPUT_CHARS, keep="tail", mark=False)
    grown = len(head) + len(tail) - min(len(output["head"]), OUTPUT_CHARS) - min(len(output["tail"]), OUTPUT_CHARS)
    return {"head": head, "tail": tail, "total": count(count(output.get("total")) + grown)}


def reply(message: dict, raw: bytes | None = None) -> dict:
    """A parsed reply with valid strings, bounded numbers, and its shown fields bounded.

    Raises :class:`~autograder.codec.CodecError` for what cannot be made sane (a number too large
    for any float); fields the grader reads are replaced by their normalised form, others (the
    values, which the codec checks when it decodes them) keep their shape. ``raw``, the JSON
    the message was parsed from, lets a reply that cannot hold anything to fix skip the walk.
    """
    message["ok"] = message.get("ok") is True
    for key, normalise in (("error", _error), ("output", _output)):
        if key in message:
            message[key] = normalise(message[key])
    if "warnings" in message:
        warnings = message["warnings"]
        message["warnings"] = [text(w, 300) for w in warnings[:20] if isinstance(w, str)] if isinstance(warnings, list) else []
    if raw is None or _may_need_walk(raw):
        _clean_tree(message)  # after the fields above, which it then finds clean and small
    return message
