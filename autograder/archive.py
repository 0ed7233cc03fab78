"""Unpacking a zip that came from outside: no path escapes, no links, bounded in size and count.

Sizes are counted as bytes are actually written, never taken from the zip's own headers, so a
zip bomb that lies about its sizes stops at the limit like any other. A zip that cannot be read
(a bad CRC, corrupt data, a compression method or name Python cannot read) is refused like an
unsafe one, and a refused zip leaves nothing behind: what was unpacked before it stopped is removed.
"""

from __future__ import annotations

import lzma
import shutil
import stat
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, NamedTuple

from .errors import GradeError

# What zipfile and its decompressors raise for an archive they cannot read: a bad header or CRC
# (BadZipFile), corrupt compressed data (zlib.error, LZMAError, EOFError, bz2's OSError), a
# compression method or encryption they do not support (NotImplementedError, RuntimeError), a name
# that is not the UTF-8 its flag claims (UnicodeDecodeError, a ValueError), a short header (struct.error)
_UNREADABLE = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, NotImplementedError, RuntimeError,
               ValueError, struct.error, OSError)


@dataclass(frozen=True)
class ZipLimits:
    max_members: int = 5000
    max_total_bytes: int = 512 << 20
    max_file_bytes: int = 32 << 20
    max_depth: int = 12


class Unpacked(NamedTuple):
    files: int
    bytes: int


class UnsafeArchive(GradeError):
    """The archive would write outside its folder, holds a link, cannot be read, or is larger than the limits."""

    # What was written (and removed again) before it stopped: a caller budgeting several zips counts it
    unpacked = Unpacked(0, 0)


class ArchiveTooLarge(UnsafeArchive):
    """The archive as a whole passes a limit: more entries, or more bytes in all, than the limits allow."""


def _member_path(name: str, limits: ZipLimits) -> PurePosixPath | None:
    """The relative path a member may be written to; None for a folder entry (or '.', which names no file)."""
    clean = name.replace("\\", "/")
    if clean.endswith("/"):
        return None
    path = PurePosixPath(clean)
    if not path.parts:
        return None
    if path.is_absolute() or clean.startswith("/") or ":" in path.parts[0] or ".." in path.parts:
        raise UnsafeArchive(f"it names a path outside its folder ({name!r})")
    if len(path.parts) > limits.max_depth:
        raise UnsafeArchive(f"it nests folders deeper than {limits.max_depth} ({name!r})")
    return path


class _Progress:
    """How far an unpacking got: what has been written, and which member was being read."""

    def __init__(self) -> None:
        self.files, self.bytes, self.member = 0, 0, ""


def extract_zip(archive: Path, target: Path, limits: ZipLimits = ZipLimits()) -> Unpacked:
    """Unpack ``archive`` into ``target``, an empty folder (made if missing); returns what was written.

    Raises :class:`UnsafeArchive` (a one-sentence reason) for anything it will not or cannot unpack,
    and then leaves ``target`` empty, so nothing half-unpacked is ever graded.
    """
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):  # emptied again on failure: it must hold nothing of anyone else's
        raise ValueError(f"extract_zip unpacks into an empty folder, and {target} is not empty")
    progress = _Progress()
    try:
        _unpack(archive, target, limits, progress)
        return Unpacked(progress.files, progress.bytes)
    except UnsafeArchive as error:
        failure = error
    except _UNREADABLE as error:
        failure = UnsafeArchive(f"{archive.name} is not a readable zip ({_unreadable(error, progress.member)})")
    _empty(target)
    failure.unpacked = Unpacked(progress.files, progress.bytes)
    raise failure from None


def _unreadable(error: Exception, member: str) -> str:
    """Why zipfile could not read an archive, in words, and where in it."""
    if isinstance(error, UnicodeDecodeError):
        what = "a file name that is not the UTF-8 it claims to be"
    elif isinstance(error, zipfile.BadZipFile) and "CRC" in str(error):
        what = "a bad CRC"
    elif isinstance(error, NotImplementedError):
        what = "a compression method or encryption Python cannot read"
    elif isinstance(error, RuntimeError):
        what = "an encrypted file"
    elif isinstance(error, (zlib.error, lzma.LZMAError, EOFError)):
        what = "corrupt compressed data"
    else:
        what = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return f"{what} in {member!r}" if member else what


def _unpack(archive: Path, target: Path, limits: ZipLimits, progress: _Progress) -> None:
    with zipfile.ZipFile(archive) as handle:
        members = handle.infolist()
        if len(members) > limits.max_members:
            raise ArchiveTooLarge(f"{archive.name} holds {len(members)} entries, more than {limits.max_members}")
        for member in members:
            path = _member_path(member.filename, limits)
            if path is None:
                continue
            progress.member = member.filename
            mode = member.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UnsafeArchive(f"{archive.name} holds a symbolic link ({member.filename!r})")
            if member.flag_bits & 0x1:
                raise UnsafeArchive(f"{archive.name} is encrypted ({member.filename!r})")
            sink = _create(archive, target.joinpath(*path.parts), member.filename)
            with sink, handle.open(member) as source:
                _copy(archive, member.filename, source, sink, limits, progress)
            progress.files += 1


def _create(archive: Path, destination: Path, name: str) -> BinaryIO:
    """A new file for one member; the target's side failing (a duplicate name, a file where a folder
    should be, a full disk) is a reason the zip is not unpacked, not an error of the grader's."""
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        return open(destination, "xb")
    except OSError as error:
        raise UnsafeArchive(f"{archive.name} cannot be unpacked as it is ({name!r}: {error.strerror})") from None


def _copy(archive: Path, name: str, source: BinaryIO, sink: BinaryIO, limits: ZipLimits,
          progress: _Progress) -> None:
    size = 0
    while chunk := source.read(1 << 16):
        size += len(chunk)
        if size > limits.max_file_bytes:
            raise UnsafeArchive(f"{name!r} unpacks to more than {limits.max_file_bytes >> 20} MiB")
        if progress.bytes + len(chunk) > limits.max_total_bytes:
            raise ArchiveTooLarge(f"{archive.name} unpacks to more than {limits.max_total_bytes >> 20} MiB")
        try:
            sink.write(chunk)
        except OSError as error:
            raise UnsafeArchive(f"{archive.name} cannot be unpacked here ({name!r}: {error.strerror})") from None
        progress.bytes += len(chunk)


def _empty(target: Path) -> None:
    """Remove everything unpacked into ``target`` (which held nothing before)."""
    for entry in target.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
