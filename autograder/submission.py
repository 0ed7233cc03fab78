"""Reading a student's file: what grading sees of it, the text to run, or a one-sentence reason it cannot be graded.

The store keys a result by what grading saw of each exercise entry (:mod:`autograder.fingerprint`),
and the worker runs what grading read: both come from one :func:`look`, so a result is kept for
exactly the bytes that earned it.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import hashlib
import io
import os
import stat
import tokenize
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, Iterator

from .model import UNREADABLE
from .problems import SubmissionMissing, SubmissionUnreadable

MAX_SOURCE_BYTES = 1 << 20
# A folder opened only to look up names in it: search permission is enough, as for a plain path
_FOLDER = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY


@dataclass(frozen=True)
class Entry:
    """One exercise entry as grading sees it: its kind and, for a regular file small enough to read, its bytes."""

    kind: str  # file | missing | link | dir | big | other | unreadable
    size: int = 0
    data: bytes = b""
    reason: str = ""  # why an unreadable entry could not be read
    # The student's folder it was read through, the first below the class's folder, as (st_dev,
    # st_ino): not in the digest (the same bytes grade the same anywhere), compared with its pin
    via: tuple[int, int] | None = None

    @property
    def digest(self) -> str:
        """What a stored result for this entry is keyed by: equal digests, equal grading."""
        if self.kind == "file":
            seen = b"file:" + self.data
        else:
            seen = f"{self.kind}:{self.size}:{self.reason}".encode("utf-8", "surrogateescape")
        return hashlib.sha256(seen).hexdigest()


MISSING = Entry("missing").digest  # what an exercise whose file was not there was graded on
LINKED = "a folder on its path is a symbolic link or not a folder"  # the student's doing, unlike other unreadable entries
UNMATCHED = (-1, -1)  # a pin no folder has: its student's entries are never graded as theirs


def pin_folders(folders: dict[str, Path], anchor: str) -> dict[str, tuple[int, int] | None]:
    """Per student, the identity of their folder (the first below ``anchor`` on the way to it) as
    the class is read: a folder renamed in its place later (a class's folder students may write
    to) is then not theirs. UNMATCHED where that folder was already gone, or where it was also
    found under another name (one folder is never graded as two students'; a group that shares
    one folder by intake's own reading, as Gradescope's do, shares its pin). None: not below
    ``anchor``, nothing to pin."""
    pins: dict[str, tuple[int, int] | None] = {}
    names: dict[tuple[int, int], set[str]] = {}
    for sid, folder in folders.items():
        below = _below(folder, anchor)
        if not below:
            pins[sid] = None
            continue
        try:
            info = os.lstat(Path(anchor) / below[0])
        except OSError:
            pins[sid] = UNMATCHED
            continue
        pins[sid] = info.st_dev, info.st_ino
        names.setdefault(pins[sid], set()).add(below[0])
    return {sid: UNMATCHED if pin is not None and len(names.get(pin, ())) > 1 else pin for sid, pin in pins.items()}


def _below(folder: Path, anchor: str) -> tuple[str, ...] | None:
    """The names from ``anchor`` down to ``folder``, or None when it is not below it."""
    try:
        below = folder.relative_to(anchor).parts if anchor else None
    except ValueError:
        return None
    return None if below is None or ".." in below else below


def look(path: Path, max_bytes: int = MAX_SOURCE_BYTES, anchor: str = "") -> Entry:
    """What grading can see of one entry. A link is never followed: not in the file's own name, not
    in its folder's (refused as a link before grading began, so one swapped in since) and, below
    ``anchor`` (the class's folder, the instructor's), in no folder on the way down to it. A file
    larger than ``max_bytes`` is refused by its size alone, unread."""
    try:
        folder, via = _open_folder(path.parent, anchor)
    except FileNotFoundError:
        return Entry("missing")
    except OSError as exc:
        linked = exc.errno in (errno.ELOOP, errno.ENOTDIR)
        return Entry("unreadable", reason=LINKED if linked else f"its folder: {exc.strerror or type(exc).__name__}")
    try:
        entry = _look_in(folder, path.name, max_bytes)
    finally:
        os.close(folder)
    return replace(entry, via=via) if via is not None else entry


def _open_folder(folder: Path, anchor: str) -> tuple[int, tuple[int, int] | None]:
    """``folder`` opened one name at a time from ``anchor`` down, none of them followed if a link,
    and the identity of the first folder below ``anchor`` (the student's); without an anchor (or
    outside it), only the folder's own name is not followed."""
    below = _below(folder, anchor)
    if below is None:
        return os.open(folder, _FOLDER | os.O_NOFOLLOW), None
    current, via = os.open(anchor, _FOLDER), None  # the instructor's: followed if it is a link
    try:
        for name in below:
            inner = os.open(name, _FOLDER | os.O_NOFOLLOW, dir_fd=current)
            os.close(current)
            current = inner
            if via is None:
                info = os.fstat(current)
                via = info.st_dev, info.st_ino
    except BaseException:
        os.close(current)
        raise
    return current, via


@contextlib.contextmanager
def plain_file(name: str | Path, folder: int | None = None) -> Iterator[BinaryIO | None]:
    """``name`` open for reading if it is a plain file, else None: a link is never followed (it
    raises ELOOP), a FIFO never waited on, and what fstat says of the open file is what counts,
    whatever was swapped in since the caller last looked."""
    descriptor = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    with os.fdopen(descriptor, "rb") as handle:
        yield handle if stat.S_ISREG(os.fstat(descriptor).st_mode) else None


def _look_in(folder: int, name: str, max_bytes: int) -> Entry:
    try:
        info = os.lstat(name, dir_fd=folder)
    except FileNotFoundError:
        return Entry("missing")
    except OSError as exc:
        return Entry("unreadable", reason=exc.strerror or type(exc).__name__)
    if stat.S_ISLNK(info.st_mode):
        return Entry("link")
    if stat.S_ISDIR(info.st_mode):
        return Entry("dir")
    if not stat.S_ISREG(info.st_mode):
        return Entry("other", info.st_size)
    if info.st_size > max_bytes:
        return Entry("big", info.st_size)
    try:
        with plain_file(name, folder) as handle:
            if handle is None:  # swapped since the lstat
                return Entry("other")
            raw = handle.read(max_bytes + 1)
    except FileNotFoundError:  # removed since the lstat
        return Entry("missing")
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EISDIR):  # swapped in since the lstat: the student's, as ever
            return Entry("link" if exc.errno == errno.ELOOP else "dir")
        return Entry("unreadable", reason=exc.strerror or type(exc).__name__)
    return Entry("big", len(raw)) if len(raw) > max_bytes else Entry("file", len(raw), raw)


def unreadable_message(name: str, reason: str) -> str:
    """The words for a file the grader could not read: not counted, read again by the next run."""
    return (f"{UNREADABLE} {name} ({reason}), so its checks are not counted; the grader reads it again next run "
            "(the instructor may need to give the grading user read access).")


def source_of(entry: Entry, name: str) -> str:
    """The text of a student's file seen as ``entry``, or a one-sentence reason it cannot be graded."""
    if entry.kind == "missing":
        raise SubmissionMissing(f"{name} was not submitted, so its checks score 0.",
                                f"Add {name} to your submission folder.")
    if entry.kind == "unreadable" and entry.reason == LINKED:
        raise SubmissionUnreadable(f"{name} could not be read ({entry.reason}).")
    if entry.kind == "unreadable":
        raise SubmissionUnreadable(unreadable_message(name, entry.reason))
    if entry.kind == "link":
        raise SubmissionUnreadable(f"{name} is a symbolic link; submit the file itself.")
    if entry.kind == "dir":
        raise SubmissionUnreadable(f"{name} is a folder, not a Python file.")
    if entry.kind == "other":
        raise SubmissionUnreadable(f"{name} is not a regular file.")
    if entry.kind == "big":
        raise SubmissionUnreadable(f"{name} is {entry.size / 1e6:.1f} MB; a solution file must be under 1 MB.")
    return _decoded(entry.data, name)


def _decoded(data: bytes, name: str) -> str:
    """``data`` read as Python reads a source file: UTF-8 (after a byte-order mark, if any) unless
    a ``# -*- coding: ... -*-`` line in its first two lines names another text encoding (PEP 263)."""
    save = "Save the file as UTF-8 in your editor."
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if exc.msg.startswith("invalid or missing encoding declaration"):  # no coding line, and not UTF-8
            encoding = "utf-8-sig"
        elif exc.msg.startswith("encoding problem"):
            raise SubmissionUnreadable(f"{name} starts with a UTF-8 byte-order mark, but its coding line names "
                                       "another encoding.", save) from None
        else:
            raise SubmissionUnreadable(f"{name} cannot be read as Python reads it: {exc.msg}.", save) from None
    if not codecs.lookup(encoding)._is_text_encoding:  # rot13, zlib and such are codecs, not encodings of text
        raise SubmissionUnreadable(f"{name} declares the coding {encoding}, which is not a text encoding.", save)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        named = "UTF-8 text" if encoding in ("utf-8", "utf-8-sig") else f"text in {encoding}, as its coding line says"
        raise SubmissionUnreadable(
            f"{name} is not {named} (byte 0x{data[exc.start]:02x} at position {exc.start}).", save) from None

