"""Diagnosis: which catalogued mistake, if any, the student's function behaves exactly like.

Runs on the trusted side, after an exercise lost points. Each candidate mistake (one whose
``KILLED_BY`` names a check the exercise failed) is the reference with the entry appended, the
catalogue's own code, like the reference itself. It is called on exactly the inputs the student's
function was given (:mod:`autograder.probes`), and its outcome is compared with the student's:
the value (type and, for numbers, to a tight tolerance), the exception's type, the draw log on a
generator the grader handed over, and the arguments after the call where the check looked.

A diagnosis is given only when exactly one mistake (or a group declared ``SAME_AS`` one another)
matches on every probe; where several match, the one that matches bit for bit wins, and
otherwise nothing is said. A mistake is named only where it matches the student more closely than
the reference itself does on some probe. Never a guess.
"""

from __future__ import annotations

import copy
import functools
import time
import warnings
from pathlib import Path

import numpy as np

from . import arena, codec, draws
from .catalogue import Entry, Kind, compose, load_entries
from .model import Diagnosis
from .probes import Probe, builtin_ancestor

MAX_PROBES = 200
MIN_PROBES = 5  # fewer matches than this prove nothing
# A bound on the trusted side's work for one exercise, past which nothing is said. CPU time of
# this thread, not the wall clock: a loaded machine (a class graded on every core) must name the
# same mistakes as an idle one.
SECONDS = 10.0
RTOL = 1e-9
RANK = {False: 0, "close": 1, "exact": 2}  # how closely an outcome matches the student's


def diagnose(exercise: str, probes: list[Probe], failed: set[str], catalogue: Path,
             reference: Path) -> Diagnosis | None:
    """The diagnosis for one exercise, or None when no single mistake explains every probe."""
    candidates = [e for e in _mistakes(catalogue) if e.exercise == exercise and set(e.killed_by) & failed and e.title]
    chosen = select(probes, failed)
    if not candidates or len(chosen) < MIN_PROBES:
        return None
    deadline = time.thread_time() + SECONDS
    # What the student answered must show a mistake, and a mistake is named only on that evidence:
    # it must match the student more closely than the reference does on some probe. Where the
    # reference answers every probe the same, the points went elsewhere (calls that timed out, say);
    # where it is as close as the mistake everywhere (a zero of the other sign, within rounding),
    # the probes do not show the student's mistake, and any mistake that agrees with the reference
    # there would be named without a shred of evidence.
    # The reference is heard as each entry is: with which inputs a result hands back, or without
    # (see _compare), or an entry that ignores them would beat it on that alone.
    baselines = _replay(f"_reference_{exercise}", _compiled_reference(reference / f"{exercise}.py"), chosen,
                        deadline, whole=True, identities=(False, True))
    if baselines is None or all(verdict == "exact" for baseline in baselines.values() for verdict in baseline):
        return None
    matches: dict[str, bool] = {}  # entry name -> whether it also matched bit for bit
    for entry in candidates:
        identity = entry.compare == "identity"
        heard = _replay(f"_catalogue_{entry.exercise}_{entry.name}",
                        _compiled(entry.path, reference / f"{exercise}.py"), chosen, deadline,
                        entry.compare != "shapes", identities=(identity,))
        if heard is None:
            return None  # out of time: not every candidate was heard, so nothing is said
        verdicts, baseline = heard[identity], baselines[identity]
        if all(verdicts) and any(RANK[mine] > RANK[theirs] for mine, theirs in zip(verdicts, baseline)):
            matches[entry.name] = all(verdict == "exact" for verdict in verdicts)
    winner = _single(candidates, matches)
    return None if winner is None else Diagnosis(winner.name, winner.title, winner.sentence, winner.hint)


def select(probes: list[Probe], failed: frozenset[str] | set[str] = frozenset()) -> list[Probe]:
    """At most MAX_PROBES probes, taken in turn from every check, so each check has its say.

    The failed checks go first, each led by its last probe: a check stops at the call it failed
    on, so that is the probe that shows the mistake, and a mistake must match the student there
    too (a long check's last probe was otherwise past the bound, and a mistake that agreed on
    everything before it was named)."""
    by_check: dict[str, list[Probe]] = {}
    for probe in probes:
        by_check.setdefault(probe.check, []).append(probe)
    for name, queue in by_check.items():
        if name in failed:
            queue.insert(0, queue.pop())
    chosen: list[Probe] = []
    queues = sorted(by_check.values(), key=lambda queue: queue[0].check not in failed)
    while queues and len(chosen) < MAX_PROBES:
        for queue in queues:
            if queue and len(chosen) < MAX_PROBES:
                chosen.append(queue.pop(0))
        queues = [q for q in queues if q]
    return chosen


def _single(candidates: list[Entry], matches: dict[str, bool]) -> Entry | None:
    named = {e.name: e for e in candidates}
    names = sorted(matches)
    if len(names) > 1 and sum(matches.values()) == 1:
        names = [n for n in names if matches[n]]
    if not names:
        return None
    first = named[names[0]]
    if all(n == first.name or n in first.same_as or first.name in named[n].same_as for n in names):
        return first
    return None


@functools.lru_cache(maxsize=8)
def _mistakes(catalogue: Path) -> tuple[Entry, ...]:
    """The catalogue's mistakes, read once per process (a pool process grades many students)."""
    return tuple(load_entries(catalogue, Kind.MISTAKE))


@functools.lru_cache(maxsize=8)
def _compiled_reference(reference_path: Path):
    return compile(reference_path.read_text(encoding="utf-8"), str(reference_path), "exec")


@functools.lru_cache(maxsize=512)
def _compiled(entry_path: Path, reference_path: Path):
    """The reference with the entry appended, compiled once per process; run fresh per student."""
    source = compose(reference_path.read_text(encoding="utf-8"), entry_path.read_text(encoding="utf-8"))
    return compile(source, str(entry_path), "exec")


def _replay(name: str, code, probes: list[Probe], deadline: float, values: bool = True,
            whole: bool = False, identities: tuple[bool, ...] = (True,)) -> dict[bool, list] | None:
    """How the code's outcome compares with the student's on each probe ("exact", "close" or
    False), up to the first False unless ``whole``; None when out of time. The code runs once per
    probe, and its outcome is compared once for each of ``identities``: whether which inputs a
    result hands back as they are counts (see :func:`_compare`)."""
    namespace: dict = {"__name__": name}
    state = np.random.get_state()  # a mistake may draw from the global generator
    verdicts: dict[bool, list] = {identity: [] for identity in identities}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)
            for probe in probes:
                if time.thread_time() > deadline:
                    return None
                outcome = _run(namespace, probe)
                for identity in identities:
                    verdicts[identity].append(_compare(probe, outcome, values, identity))
                if not whole and not all(heard[-1] for heard in verdicts.values()):
                    break
    finally:
        np.random.set_state(state)
    return verdicts


def _run(namespace: dict, probe: Probe) -> dict:
    logs: list = []
    generators: list = []

    def materialize(value):
        if isinstance(value, codec.RngSpec):
            generator, log = draws.recording_generator(value.seed)
            logs.append(log)
            generators.append(generator)
            return generator
        return value

    args = [materialize(a) for a in copy.deepcopy(probe.args)]
    kwargs = {k: materialize(v) for k, v in copy.deepcopy(probe.kwargs).items()}
    sent_args = [a for a in args if not isinstance(a, np.random.Generator)]
    sent_kwargs = {k: v for k, v in kwargs.items() if not isinstance(v, np.random.Generator)}
    held = {id(a): arena.held_before(a) for a in (*sent_args, *sent_kwargs.values())} if probe.return_args else {}
    paths = arena.array_paths(sent_args, sent_kwargs) if probe.return_args else []
    sent_bytes = {id(array): array.tobytes() for _path, array in paths}

    def marked(argument, reported):  # as the grader reads a worker's report (arena.after_call)
        return arena.mark_read_only(argument, arena.mark_swaps(held.get(id(argument)), argument, reported,
                                                               sent_bytes), sent_bytes)
    function = namespace.get(probe.function)
    if not callable(function):
        return {"raised": ("AttributeError", "builtins.AttributeError")}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # as the worker does: a warning is part of the outcome
            value = function(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the mistake's exception is the outcome compared
        lineage = tuple(f"{c.__module__}.{c.__qualname__}" for c in type(exc).__mro__)
        return {"raised": (type(exc).__name__, builtin_ancestor(lineage)), "draws": _logs(logs)}
    result = {"value": _through_codec(value), "draws": _logs(logs), "warned": bool(caught),
              "rng_states": draws.decode_states([draws.state_of(generator) for generator in generators])}
    if probe.return_args:
        after_args, after_kwargs = _through_codec(sent_args), _through_codec(sent_kwargs)
        result["args_after"] = [marked(a, reported) for a, reported in zip(sent_args, after_args)] \
            if isinstance(after_args, list) else after_args
        result["kwargs_after"] = {k: marked(v, after_kwargs[k]) for k, v in sent_kwargs.items()} \
            if isinstance(after_kwargs, dict) else after_kwargs
        result["handed_back"] = arena.handed_back_paths(arena.arrays_held(value), paths)
    return result


def _logs(logs: list) -> list:
    try:
        return draws.decode_logs(copy.deepcopy(logs))
    except codec.CodecError:
        return [["unreadable"]]


def _through_codec(value: object) -> object:
    """The value as the grader would have received it from a worker."""
    try:
        return codec.decode(codec.encode(value))
    except codec.CodecError:
        return ("unencodable", type(value).__name__)


def _compare(probe: Probe, mine: dict, values: bool = True, identity: bool = True) -> str | bool:
    """How the student's outcome compares with the mistake's; ``values=False`` compares the
    numbers' types and shapes only (never "exact", so a mistake that also matches them wins), and
    not where rng was left. ``identity`` compares which inputs the result hands back as they are:
    the reference's comparison and an entry about it (``COMPARE = "identity"``) only, since the
    spec lets a result hand its inputs back where it changes nothing, and students and mistakes
    differ there freely."""
    theirs = probe.outcome
    if theirs.raised[0] or "raised" in mine:
        return "exact" if mine.get("raised") == theirs.raised else False
    verdicts = [same(theirs.value, mine["value"]) if values else
                (same(_shapes(theirs.value), _shapes(mine["value"])) and "close")]
    if theirs.warned != mine["warned"]:
        return False
    if theirs.draws or any(mine["draws"]):
        verdicts.append(same(list(theirs.draws), mine["draws"]))
    if probe.return_args and theirs.args_after is not None:
        student_args = [a for a, sent in zip(theirs.args_after, probe.args) if not isinstance(sent, codec.RngSpec)]
        given = _through_codec([a for a in probe.args if not isinstance(a, codec.RngSpec)])
        verdicts.append(_same_after(student_args, mine.get("args_after"), given))
    if identity and probe.return_args and theirs.handed_back != mine.get("handed_back", ()):
        return False
    if values and theirs.rng_states and mine.get("rng_states") and theirs.rng_states != mine["rng_states"]:
        return False  # where rng was left: a stream put back draws the same as one left alone
    if probe.return_args and theirs.kwargs_after is not None:
        given = _through_codec({k: v for k, v in probe.kwargs.items() if not isinstance(v, codec.RngSpec)})
        verdicts.append(_same_after(theirs.kwargs_after, mine.get("kwargs_after"), given))
    if not all(verdicts):
        return False
    return "exact" if all(v == "exact" for v in verdicts) else "close"


def _same_after(theirs: object, mine: object, given: object) -> str | bool:
    """How the arguments after the call compare. The checks ask whether they changed at all, bit
    for bit: a function that changed them (even only by rounding, undoing its change) is not one
    that left them alone, however close the two are."""
    if (same(theirs, given) == "exact") != (same(mine, given) == "exact"):
        return False
    return same(theirs, mine)


def _shapes(value: object) -> object:
    """A value with every number replaced by its type (and every array by its dtype and shape)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_shapes(v) for v in value])
    if isinstance(value, (int, float, np.generic)) and not isinstance(value, bool):
        return type(value).__name__
    return value


def same(a: object, b: object) -> str | bool:
    """"exact" when equal bit for bit, "close" within RTOL, else False; types must agree."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"):
            # 0.0 and -0.0 are equal, but not bit for bit
            return "exact" if a.dtype.kind not in "fc" or _zeros_signed_alike(a, b) else "close"
        if a.dtype.kind not in "fc":
            return False
        scale = float(np.nanmax(np.abs(b[np.isfinite(b)]), initial=0.0))
        close = np.allclose(a, b, rtol=RTOL, atol=RTOL * scale * 1e-3, equal_nan=True)
        return "close" if close else False
    if isinstance(a, (float, np.floating)):
        if a == b or (np.isnan(a) and np.isnan(b)):
            return "exact" if np.signbit(a) == np.signbit(b) or np.isnan(a) else "close"
        return "close" if np.isfinite(a) and np.isfinite(b) and abs(a - b) <= RTOL * abs(b) else False
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return False
        verdicts = [same(x, y) for x, y in zip(a, b)]
        return False if not all(verdicts) else ("exact" if all(v == "exact" for v in verdicts) else "close")
    if isinstance(a, dict):
        if list(a) != list(b):
            return False
        return same(list(a.values()), list(b.values()))
    try:
        return "exact" if bool(a == b) else False
    except (TypeError, ValueError):
        return False


def _zeros_signed_alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether equal float arrays also agree on the sign of every zero (real and imaginary parts)."""
    parts = ((a.real, b.real), (a.imag, b.imag)) if a.dtype.kind == "c" else ((a, b),)
    return all(np.array_equal(np.signbit(x) & (x == 0), np.signbit(y) & (y == 0)) for x, y in parts)
