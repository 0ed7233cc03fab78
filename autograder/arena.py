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


@dataclass(frozen=True)
class Altered:
    """What an array argument, or a slot of a list, tuple or dict argument, holds after the call
    where it is no longer the array sent though its values are: another of the arrays passed in, a
    new array (``grads[:] = copies``, ``grads.reverse()``), or the same array made read-only, which
    the caller can no longer update in place. Values alone cannot show it, and it is not an ndarray,
    so every check that an input came back unchanged fails on it; ``held`` says what it holds, as
    the student reads it."""

    held: str

    def __repr__(self) -> str:
        return self.held


READ_ONLY = "the same array, made read-only"


def arguments_after(sent: list | dict, reported: object, where: dict[int, int], slots: list[Slot],
                    observed: list[np.ndarray], read_only: frozenset = frozenset()) -> object:
    """:func:`after_call` over a call's positional (a list) or keyword (a dict) arguments, each of
    which is an argument of its own, not an item of a container the student was handed."""
    if isinstance(sent, list) and isinstance(reported, list) and len(reported) == len(sent):
        return [after_call(s, r, where, slots, observed, read_only=read_only) for s, r in zip(sent, reported)]
    if isinstance(sent, dict) and isinstance(reported, dict) and reported.keys() == sent.keys():
        return {key: after_call(sent[key], reported[key], where, slots, observed, read_only=read_only) for key in sent}
    return reported


def after_call(sent: object, reported: object, where: dict[int, int], slots: list[Slot],
               observed: list[np.ndarray], within: list | tuple | dict | None = None,
               read_only: frozenset = frozenset()) -> object:
    """An argument as it stands after the call: the grader's own observation of every array it
    placed wherever that array changed, and the worker's report for everything else. ``within`` is
    the container ``sent`` is an item of: there a slot the report says holds another object is a
    slot the student filled anew, whatever its values. ``read_only`` holds the placed arrays the
    worker says were made read-only."""
    if isinstance(sent, np.ndarray) and id(sent) in where:
        k = where[id(sent)]
        if observed[k].tobytes(order=slots[k].order) != slots[k].sent:
            return observed[k]  # edited in place: seen from outside, whatever the report says
        if within is not None and reported is not observed[k]:
            return _swapped(reported, within, where, slots[k], observed)
        return Altered(READ_ONLY) if k in read_only else reported
    if isinstance(sent, (list, tuple)) and type(reported) is type(sent) and len(reported) == len(sent):
        return type(sent)(after_call(s, r, where, slots, observed, sent, read_only) for s, r in zip(sent, reported))
    if isinstance(sent, dict) and isinstance(reported, dict) and reported.keys() == sent.keys():
        return {key: after_call(sent[key], reported[key], where, slots, observed, sent, read_only) for key in sent}
    return reported


def _swapped(reported: object, within: list | tuple | dict, where: dict[int, int], slot: Slot,
             observed: list[np.ndarray]) -> object:
    """A slot's new content, marked :class:`Altered` where its values alone would pass for the array sent."""
    for place, item in (within.items() if isinstance(within, dict) else enumerate(within)):
        if isinstance(item, np.ndarray) and id(item) in where and observed[where[id(item)]] is reported:
            return Altered(f"the array passed in at {place!r}" if isinstance(within, dict)
                           else f"the array passed in as item {place}")
    if (isinstance(reported, np.ndarray) and reported.shape == slot.shape and reported.dtype.str == slot.dtype
            and reported.tobytes(order=slot.order) == slot.sent):
        return Altered("another array holding the same values")
    return reported  # other values: they show the change themselves


def held_before(argument: object) -> object:
    """A container argument's items as the call found them (for :func:`mark_swaps`), else None."""
    if isinstance(argument, dict):
        return dict(argument)
    if isinstance(argument, (list, tuple)):
        return list(argument)
    return None


def mark_read_only(now: object, after: object, sent_bytes: dict[int, bytes]) -> object:
    """``after`` (an argument, ``now``, as a worker would report it) with every array that the call
    made read-only, and left as it was, marked as :func:`after_call` marks it, where the objects are
    at hand (diagnose.py). ``sent_bytes`` holds each array's bytes at the call, by ``id``."""
    if isinstance(now, np.ndarray):
        kept = sent_bytes.get(id(now)) == now.tobytes()
        return Altered(READ_ONLY) if kept and not now.flags.writeable and isinstance(after, np.ndarray) else after
    if isinstance(now, (list, tuple)) and type(after) is type(now) and len(after) == len(now):
        return type(after)(mark_read_only(n, a, sent_bytes) for n, a in zip(now, after))
    if isinstance(now, dict) and isinstance(after, dict) and after.keys() == now.keys():
        return {key: mark_read_only(now[key], after[key], sent_bytes) for key in now}
    return after


def mark_swaps(before: object, now: object, after: object, sent_bytes: dict[int, bytes]) -> object:
    """``after`` (the argument ``now`` as a worker would report it) with every slot marked as
    :func:`after_call` marks it, where the objects themselves are at hand: a catalogue mistake run
    in the grader's own process (diagnose.py), so that it and a student who makes it read alike.
    ``before`` is :func:`held_before` of the argument at the call, ``sent_bytes`` each array's
    bytes then, by ``id``."""
    if before is None or type(after) is not type(now) or len(now) != len(before) or (
            isinstance(now, dict) and now.keys() != before.keys()):
        return after
    places = list(before) if isinstance(before, dict) else range(len(before))
    marked = dict(after) if isinstance(after, dict) else list(after)
    for place in places:
        was, item = before[place], now[place]
        if not isinstance(was, np.ndarray) or item is was or was.tobytes() != sent_bytes.get(id(was)):
            continue
        moved = [other for other in places if before[other] is item and other != place]
        if moved:
            marked[place] = Altered(f"the array passed in at {moved[0]!r}" if isinstance(before, dict)
                                    else f"the array passed in as item {moved[0]}")
        elif isinstance(item, np.ndarray) and item.shape == was.shape and item.dtype == was.dtype and \
                item.tobytes() == sent_bytes[id(was)]:
            marked[place] = Altered("another array holding the same values")
    return type(after)(marked) if isinstance(after, tuple) else marked


def placed_arrays(args: object, kwargs: object, where: dict[int, int]) -> dict[int, np.ndarray]:
    """The arrays of a call's arguments that :func:`layout` placed, by their index in placement order."""
    return {where[id(array)]: array for _path, array in array_paths(args, kwargs) if id(array) in where}


def array_paths(args: object, kwargs: object) -> list:
    """(path, array) for every array among a call's arguments, taken before the call: ``(0, 1)`` is
    positional argument 0, its item 1; ``("gamma",)`` that keyword."""
    found, pending = [], [((k,), a) for k, a in enumerate(args)] + [((k,), v) for k, v in dict(kwargs).items()]
    while pending:
        path, item = pending.pop()
        if isinstance(item, np.ndarray):
            found.append((path, item))
        elif isinstance(item, (list, tuple)):
            pending.extend(((*path, k), v) for k, v in enumerate(item))
        elif isinstance(item, dict):
            pending.extend(((*path, k), v) for k, v in item.items())
    return found


def handed_back_paths(objects: object, paths: list) -> tuple:
    """Where, among :func:`array_paths`, the arrays a result handed back as they are were passed: the
    same terms for a student's call and a catalogue mistake's (probes.py, diagnose.py)."""
    wanted = {id(o) for o in objects if isinstance(o, np.ndarray)}
    return tuple(sorted((path for path, array in paths if id(array) in wanted), key=repr))


def arrays_held(value: object, budget: int = 10_000) -> list:
    """The arrays a returned value holds through plain lists, tuples and dicts, the very objects
    (the worker's own walk, worker._placed_in, in the grader's process)."""
    found, pending = [], [value]
    while pending and budget > 0:
        item = pending.pop()
        budget -= 1
        if isinstance(item, np.ndarray):
            found.append(item)
        elif type(item) in (list, tuple):
            pending.extend(item)
        elif type(item) is dict:
            pending.extend(item.values())
    return found
