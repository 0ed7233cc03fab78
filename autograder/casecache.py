"""Drawn cases kept on disk, so a new process reads a check's cases instead of drawing them again.

Hypothesis's cases depend only on the strategy, the seed, the count and the code that runs: a
file is named by the hash of exactly those (the check's key with the strategy's repr, the seed,
the count, the versions of Hypothesis, numpy and Python, and the sources of the grader's folder
and of the kit). Files hold the worker protocol's JSON (:mod:`codec`), never a pickle, so a file
planted here can change at most which inputs are tried, never run code; a list is kept only
when it reads back exactly (same types, dtypes and bits). Anything wrong with a file (missing,
unreadable, truncated, another shape, another key) means the cases are drawn as before, and a
folder that cannot be written means nothing is kept. The folder is bounded: entries unused for
a month go, and the least recently used beyond :data:`MAX_FILES`.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import struct
import sys
import tempfile
from pathlib import Path

import hypothesis
import numpy as np

from . import cachedir
from .cachedir import remove as _remove, user_cache
from .codec import HEADER_SIZE, CodecError, decode, dump_frame, encode, frame_length, load_frame

FORMAT = 1
MAX_FILES = 1000
MAX_AGE_SECONDS = 30 * 24 * 3600
_TEMP = cachedir.TEMP
_KIT = Path(__file__).resolve().parent


def folder() -> Path:
    return user_cache() / "cases"


def grader_folder(skip: int = 1) -> Path | None:
    """The folder of the first caller outside the kit: the grader whose strategies are drawn."""
    frame = sys._getframe(skip + 1)
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.is_file() and path.resolve().parent != _KIT:
            return path.resolve().parent
        frame = frame.f_back
    return None


@functools.lru_cache(maxsize=16)
def sources(graders: Path) -> str:
    """A digest of every Python file in the grader's folder and in the kit, read once per process."""
    hasher = hashlib.sha256()
    named = [*((p.name, p) for p in sorted(graders.glob("*.py"))),
             *((f"kit/{p.relative_to(_KIT).as_posix()}", p) for p in sorted(_KIT.rglob("*.py")))]
    for name, path in named:
        data = path.read_bytes()
        hasher.update(f"{name}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        hasher.update(data)
    return hasher.hexdigest()


def identity(key: str, seed: int, count: int, graders: Path | None) -> str | None:
    """Everything a list of drawn cases depends on, as one text; None where it cannot be known."""
    if graders is None or " at 0x" in key:  # an object's address: another text in every process
        return None
    try:
        code = sources(graders)
    except OSError:
        return None
    return "\n".join((f"format {FORMAT}", key, f"seed {seed}", f"count {count}",
                      f"hypothesis {hypothesis.__version__}", f"numpy {np.__version__}",
                      f"python {sys.version}", f"machine {platform.machine()}", f"sources {code}"))


def _path(text: str) -> Path:
    return folder() / f"{hashlib.sha256(text.encode('utf-8', 'surrogateescape')).hexdigest()}.json"


def load(text: str) -> tuple | None:
    """The cases kept for ``text``, or None when there are none that can be trusted to be them."""
    path = _path(text)
    try:
        with open(path, "rb") as handle:
            length = frame_length(handle.read(HEADER_SIZE))
            body = handle.read(length + 1)
        if len(body) != length:  # truncated, or more than one frame
            return None
        message = load_frame(body)
        if message.get("key") != text:
            return None
        cases = decode(message.get("cases"))
    except (OSError, CodecError, RecursionError, MemoryError):
        return None
    if not isinstance(cases, tuple) or not all(map(_plain, cases)):
        return None
    cachedir.mark_used(path)
    return cases


def keep(text: str, cases: tuple) -> bool:
    """Write ``cases`` for ``text`` if they read back exactly; False when they were not kept."""
    try:
        frame = dump_frame({"key": text, "cases": encode(cases)})
        back = decode(load_frame(frame[HEADER_SIZE:]).get("cases"))
    except (CodecError, RecursionError, ValueError, TypeError):
        return False
    if not same(back, cases):
        return False
    target = _path(text)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=_TEMP, dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(frame)
            os.replace(temp, target)
        except BaseException:
            _remove(Path(temp))
            raise
        prune(target.parent)
    except OSError:
        return False
    return True


def prune(where: Path, now: float | None = None) -> None:
    """Drop entries unused for a month, and the least recently used beyond MAX_FILES."""
    cachedir.prune(where, MAX_FILES, MAX_AGE_SECONDS, now)


_SCALARS = (type(None), bool, int, str)


def _plain(value: object) -> bool:
    """Only what a strategy can draw and the codec carries: no stand-ins for other objects."""
    if isinstance(value, (list, tuple)):
        return all(map(_plain, value))
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return isinstance(value, (*_SCALARS, float, complex, np.ndarray, np.generic))


def same(a: object, b: object) -> bool:
    """Exactly the same value: same types and dtypes, same bits (-0.0 and a NaN's payload too)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        # the layout (C, Fortran or neither) is what can change a student's result, not the strides
        # of an empty or one-item array
        layout = (a.flags.c_contiguous, a.flags.f_contiguous) == (b.flags.c_contiguous, b.flags.f_contiguous)
        return a.dtype == b.dtype and a.shape == b.shape and layout and a.tobytes("A") == b.tobytes("A")
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(same(ka, kb) and same(va, vb)
                                        for (ka, va), (kb, vb) in zip(a.items(), b.items()))
    return isinstance(a, _SCALARS) and a == b
