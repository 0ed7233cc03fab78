"""Unpacking a zip that came from outside: no path escapes, no links, bounded in size and count.

Sizes are counted as bytes are actually written, never taken from the zip's own headers, so a
zip bomb that lies about its sizes stops at the limit like any other.
"""

from __future__ import annotations

import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .errors import GradeError


@dataclass(frozen=True)
class ZipLimits:
    max_members: int = 5000
    max_total_bytes: int = 512 << 20
    max_file_bytes: int = 32 << 20
    max_depth: int = 12


class UnsafeArchive(GradeError):
    """The archive would write outside its folder, holds a link, or is larger than the limits."""


def _member_path(name: str, limits: ZipLimits) -> PurePosixPath | None:
    """The relative path a member may be written to; None for a folder entry."""
    clean = name.replace("\\", "/")
    if clean.endswith("/"):
        return None
    path = PurePosixPath(clean)
    if path.is_absolute() or clean.startswith("/") or ":" in path.parts[0] or ".." in path.parts:
        raise UnsafeArchive(f"it names a path outside its folder ({name!r})")
    if len(path.parts) > limits.max_depth:
        raise UnsafeArchive(f"it nests folders deeper than {limits.max_depth} ({name!r})")
    return path


def extract_zip(archive: Path, target: Path, limits: ZipLimits = ZipLimits()) -> int:
    """Unpack ``archive`` into the empty folder ``target``; returns the number of files written.

    Raises :class:`UnsafeArchive` (a one-sentence reason) for anything it will not unpack.
    """
    try:
        handle = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as error:
        raise UnsafeArchive(f"{archive.name} is not a readable zip file ({error})") from None
    written, total = 0, 0
    with handle:
        members = handle.infolist()
        if len(members) > limits.max_members:
            raise UnsafeArchive(f"{archive.name} holds {len(members)} entries, more than {limits.max_members}")
        for member in members:
            path = _member_path(member.filename, limits)
            if path is None:
                continue
            mode = member.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UnsafeArchive(f"{archive.name} holds a symbolic link ({member.filename!r})")
            if member.flag_bits & 0x1:
                raise UnsafeArchive(f"{archive.name} is encrypted ({member.filename!r})")
            destination = target.joinpath(*path.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            size = 0
            try:
                sink = open(destination, "xb")
            except OSError as error:  # a duplicate name, or a file where a folder should be
                raise UnsafeArchive(f"{archive.name} cannot be unpacked as it is ({member.filename!r}: "
                                    f"{error.strerror})") from None
            with handle.open(member) as source, sink:
                while chunk := source.read(1 << 16):
                    size += len(chunk)
                    total += len(chunk)
                    if size > limits.max_file_bytes:
                        raise UnsafeArchive(f"{member.filename!r} unpacks to more than "
                                            f"{limits.max_file_bytes >> 20} MiB")
                    if total > limits.max_total_bytes:
                        raise UnsafeArchive(f"{archive.name} unpacks to more than {limits.max_total_bytes >> 20} MiB")
                    sink.write(chunk)
            written += 1
    return written
