"""A class's scripts: every call each check makes of a submission that passes it, recorded once.

What a check asks of the student's code depends only on the seed, the grader and the answers it
gets; for a submission that passes, those are the reference's answers. So the calls a check made
of the reference (grading it once per class, in a sandbox like anyone's) are the calls it will
make of every submission that passes it: each is kept as the exact request frame that was sent,
with the arrays it found in shared memory (``return_args`` calls, :mod:`autograder.arena`).

A student's check then sends its whole script at once (:mod:`autograder.stream`) and is answered
from the replies, call by call, for as long as it asks exactly what the script holds
(:class:`~autograder.client.StudentModule`); a call off the script (a check that failed and
shrinks, a branch the reference never took) goes to the worker as before, after the worker has
been brought back to exactly the state those calls alone would have left. A script changes how
fast a verdict comes, never what it is.

Scripts hold hidden inputs: they stay on the trusted side, in the run's private scratch folder or
the user's cache (:mod:`autograder.scriptcache`), never in a release or a report.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field

from .arena import Slot

FORMAT = 2  # 2: each slot says its order
PLOTS = "plots"  # the key of an exercise's plot calls, made in a fresh worker after its checks


def call_key(function: str, args: object, kwargs: object, return_args: bool, slots: tuple[Slot, ...] = ()) -> str:
    """What a call is: its function, its encoded arguments and the bytes of the arrays it shares."""
    hasher = hashlib.sha256(json.dumps([function, args, kwargs, return_args], allow_nan=True,
                                       separators=(",", ":")).encode("utf-8", "surrogatepass"))
    for slot in slots:
        hasher.update(b"\0%d\0" % len(slot.sent))
        hasher.update(slot.sent)
    return hasher.hexdigest()


@dataclass(frozen=True)
class Call:
    """One recorded request: what it is (``key``), the frame that was sent, and its shared arrays."""

    key: str
    function: str
    frame: bytes
    request_id: int = 0  # the id the frame carries, which its reply must carry too
    return_args: bool = False
    slots: tuple[Slot, ...] = ()


@dataclass
class Scripts:
    """Per exercise, per check's node id (and :data:`PLOTS`): the calls recorded, in order."""

    calls: dict[str, dict[str, list[Call]]] = field(default_factory=dict)

    def get(self, exercise: str, key: str) -> list[Call] | None:
        return self.calls.get(exercise, {}).get(key)

    def add(self, exercise: str, key: str, call: Call) -> None:
        self.calls.setdefault(exercise, {}).setdefault(key, []).append(call)

    def drop(self, exercise: str, key: str) -> None:
        """A check the reference did not pass here has no script: its calls go one by one."""
        self.calls.get(exercise, {}).pop(key, None)

    def to_json(self) -> dict:
        return {"format": FORMAT, "calls": {
            exercise: {key: [_call_json(c) for c in calls] for key, calls in checks.items()}
            for exercise, checks in self.calls.items()}}

    @classmethod
    def from_json(cls, data: object) -> "Scripts":
        """Raises ValueError (KeyError, TypeError) for anything that is not a script of this format."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a script of this format")
        return cls({str(exercise): {str(key): [_call_from(c) for c in calls] for key, calls in checks.items()}
                    for exercise, checks in data["calls"].items()})


def _call_json(call: Call) -> dict:
    return {"key": call.key, "function": call.function, "frame": base64.b64encode(call.frame).decode("ascii"),
            "id": call.request_id, "return_args": call.return_args,
            "slots": [[s.offset, s.dtype, list(s.shape), base64.b64encode(s.sent).decode("ascii"), s.order]
                      for s in call.slots]}


def _call_from(data: dict) -> Call:
    slots = tuple(Slot(int(offset), str(dtype), tuple(int(n) for n in shape), base64.b64decode(sent),
                       "F" if order == "F" else "C")
                  for offset, dtype, shape, sent, order in data["slots"])
    return Call(str(data["key"]), str(data["function"]), base64.b64decode(data["frame"]), int(data["id"]),
                data["return_args"] is True, slots)


class Digest:
    """The fingerprint of what a check was answered: every reply body and what the grader saw in
    shared memory after each ``return_args`` call, in order. Two checks answered the same digest
    saw exactly the same bytes."""

    def __init__(self) -> None:
        self._hasher = hashlib.sha256()
        self.calls = 0

    def add(self, body: bytes, observed: tuple[bytes, ...] = ()) -> None:
        self.calls += 1
        self._hasher.update(b"%d\0" % len(body))
        self._hasher.update(body)
        for data in observed:
            self._hasher.update(b"\1%d\0" % len(data))
            self._hasher.update(data)

    def hexdigest(self) -> str:
        return f"{self.calls}:{self._hasher.hexdigest()}"


class Recorder:
    """Collects a run's scripts and what each check was answered (grading the reference once)."""

    def __init__(self) -> None:
        self.scripts = Scripts()
        self._digests: dict[tuple[str, str], Digest] = {}
        self.stopped: set[str] = set()  # exercises whose plots stopped before the last (a call hung, the host failed)

    def add(self, exercise: str, key: str, call: Call, body: bytes, seen: tuple[bytes, ...]) -> None:
        self.scripts.add(exercise, key, call)
        self._digests.setdefault((exercise, key), Digest()).add(body, seen)

    def digest(self, exercise: str, key: str) -> str | None:
        found = self._digests.get((exercise, key))
        return found.hexdigest() if found is not None else None
