"""Arrays a check hands to student code in memory the grader can read itself.

A worker's report of what its arguments hold after a call is written by the student's own
interpreter, so it can lie. For a call made with ``return_args=True`` the client puts every
array argument in a memory file it created and passed to the worker at start; the worker gives
the student arrays that live in that memory, and after the call the client reads the bytes back
itself. An edit in place still there when the reply comes is then seen by the grader whatever the
worker reports (one undone by the student's own code after their function returned, from a thread
or a patched worker, is not: see the README's security model). What the
memory cannot show is the containers around the arrays (a list whose slot was reassigned): for
those the worker's report is kept, and it can only ever make a call look *more* changed.

The grader reads and writes with ``pread``/``pwrite``, never through a mapping, so a worker
that shrinks the file cannot crash the grader; seals forbid shrinking and growing anyway.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass

from . import codec

np = codec.Later("numpy", globals(), "np")  # imported when an array is first shared

ALIGN = 64


@dataclass(frozen=True)
class Slot:
    """One array placed in the arena: where, what type and shape, the bytes sent, and their order
    ("F" for an array the check made Fortran-ordered or transposed: the student gets it so laid out)."""

    offset: int
    dtype: str
    shape: tuple
    sent: bytes
    order: str = "C"


class ArenaFull(ValueError):
    """The arrays of one call do not fit; a grader passing huge inputs with return_args is a grader bug."""


class SharedArena:
    """A sealed memory file of fixed size, inherited by every worker this client starts."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.fd = os.memfd_create("grader-arena", os.MFD_ALLOW_SEALING | os.MFD_CLOEXEC)
        os.ftruncate(self.fd, size)
        fcntl.fcntl(self.fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def place(self, args: list, kwargs: dict) -> tuple[object, object, list[Slot], dict[int, int]]:
        """Encode a call's arguments with every array written into the arena.

        Returns the encoded args and kwargs, the slots in placement order, and which slot each
        sent array object went to (by ``id``; the caller keeps the objects alive meanwhile).
        """
        placed = self.layout(args, kwargs)
        self.write(placed[2])
        return placed

    def layout(self, args: list, kwargs: dict) -> tuple[object, object, list[Slot], dict[int, int]]:
        return layout(args, kwargs, self.size)

    def write(self, slots) -> None:
        """Put the bytes of each slot in its place (every one was laid out to fit)."""
        for slot in slots:
            os.pwrite(self.fd, slot.sent, slot.offset)

    def read(self, slots) -> tuple[bytes, ...]:
        """The bytes each slot holds now, as the grader reads them (a punched hole reads as zeros)."""
        seen = []
        for slot in slots:
            data = os.pread(self.fd, len(slot.sent), slot.offset)
            seen.append(data + bytes(len(slot.sent) - len(data)))
        return tuple(seen)

    def observe(self, slots: list[Slot]) -> list[np.ndarray]:
        """What each placed array holds now, read by the grader from the arena itself."""
        return as_arrays(slots, self.read(slots))


def as_arrays(slots, seen: tuple[bytes, ...]) -> list[np.ndarray]:
    """The arrays of ``slots`` holding the bytes ``seen`` (read from the arena by :meth:`SharedArena.read`)."""
    return [np.frombuffer(data, dtype=np.dtype(slot.dtype)).reshape(slot.shape, order=slot.order).copy(order="K")
            for slot, data in zip(slots, seen)]


def layout(args: list, kwargs: dict, size: int) -> tuple[object, object, list[Slot], dict[int, int]]:
    """As :meth:`SharedArena.place`, without writing: where a call's arrays go in an arena of
    ``size`` bytes, for a call answered from a script whose arrays were written when the script
    was sent (script.py)."""
    slots: list[Slot] = []
    where: dict[int, int] = {}

    def share(array: np.ndarray):
        if array.dtype.kind not in "biufc":
            return None
        # A Fortran-ordered or transposed array keeps its order: code that treats such arrays
        # apart (an edit in place only where the array is not C-contiguous) meets one. Other views
        # with gaps between their entries are sent as C copies.
        order = "F" if array.ndim > 1 and array.flags.f_contiguous and not array.flags.c_contiguous else "C"
        data = array.tobytes(order=order)
        offset = sum(_padded(len(s.sent)) for s in slots)
        if offset + len(data) > size:
            raise ArenaFull(f"the arrays of one call need more than {size} bytes of shared memory")
        where[id(array)] = len(slots)
        slots.append(Slot(offset, array.dtype.str, tuple(array.shape), data, order))
        return {"__shared__": [offset, array.dtype.str, list(array.shape), *(["F"] if order == "F" else [])]}

    return codec.encode(list(args), share=share), codec.encode(kwargs, share=share), slots, where


def _padded(length: int) -> int:
    return -(-length // ALIGN) * ALIGN


def resolve_reported(observed: list[np.ndarray]):
    """For decoding a worker's report: ``{"__shared__": k}`` names placed array k, as observed."""
    def resolve(payload: object) -> np.ndarray:
        if not isinstance(payload, int) or isinstance(payload, bool) or not 0 <= payload < len(observed):
            raise codec.CodecError("a shared-array reference must name an array the grader placed")
        return observed[payload]
    return resolve


def after_call(sent: object, reported: object, where: dict[int, int], slots: list[Slot],
               observed: list[np.ndarray]) -> object:
    """An argument as it stands after the call: the grader's own observation of every array it
    placed wherever that array changed, and the worker's report for everything else."""
    if isinstance(sent, np.ndarray) and id(sent) in where:
        k = where[id(sent)]
        if observed[k].tobytes(order=slots[k].order) != slots[k].sent:
            return observed[k]  # edited in place: seen from outside, whatever the report says
        return reported
    if isinstance(sent, (list, tuple)) and type(reported) is type(sent) and len(reported) == len(sent):
        return type(sent)(after_call(s, r, where, slots, observed) for s, r in zip(sent, reported))
    if isinstance(sent, dict) and isinstance(reported, dict) and reported.keys() == sent.keys():
        return {key: after_call(sent[key], reported[key], where, slots, observed) for key in sent}
    return reported
