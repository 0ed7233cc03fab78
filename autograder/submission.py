"""Reading a student's file: the text to run, or a one-sentence reason it cannot be graded."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .problems import SubmissionMissing, SubmissionUnreadable

MAX_SOURCE_BYTES = 1 << 20


def read_source(path: Path) -> str:
    """The text of a student's file, or a one-sentence reason it cannot be graded."""
    name = path.name
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise SubmissionMissing(f"{name} was not submitted, so its checks score 0.",
                                f"Add {name} to your submission folder.") from None
    except OSError as exc:
        raise SubmissionUnreadable(f"{name} could not be read ({exc.strerror}).") from None
    if stat.S_ISLNK(info.st_mode):
        raise SubmissionUnreadable(f"{name} is a symbolic link; submit the file itself.")
    if stat.S_ISDIR(info.st_mode):
        raise SubmissionUnreadable(f"{name} is a folder, not a Python file.")
    if not stat.S_ISREG(info.st_mode):
        raise SubmissionUnreadable(f"{name} is not a regular file.")
    if info.st_size > MAX_SOURCE_BYTES:
        raise SubmissionUnreadable(f"{name} is {info.st_size / 1e6:.1f} MB; a solution file must be under 1 MB.")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(descriptor, "rb") as handle:
            raw = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        raise SubmissionUnreadable(f"{name} could not be read ({exc.strerror}).") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SubmissionUnreadable(
            f"{name} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start}).",
            "Save the file as UTF-8 in your editor.") from None
