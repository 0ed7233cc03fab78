"""``check`` without pytest, for the exercises whose every verdict is already known.

``check`` keeps the day's scripts and verdicts in the user's cache (:mod:`autograder.scriptcache`),
with the passing report entry of every check (:mod:`autograder.verdicts`). Where they are there,
each exercise's checks are sent in one worker, in order, exactly as the shard loop's fast path
sends them (:mod:`autograder.fastpath`), and so are its plot calls; if every check, and every
plot, is answered exactly as one that passed, the exercise's report is those entries with what
this student's code printed. Nothing of the graders is imported and pytest is not started. An
exercise with an answer that is not known is left to the full way (pytest), which grades only
those (:class:`Known`); the exercises are answered in several sandboxes at once, one per core.

A host that cannot run a worker cannot answer as a correct submission did: a worker that cannot
be asked at all gives the whole quick way up (None), and the full way proves the sandbox.
"""

from __future__ import annotations

import json
import subprocess
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from . import sandbox
from .budget import Budget
from .cachedir import mark_used
from .client import StudentModule
from .model import StudentResult, load_course
from .parse import parse_run
from .script import PLOTS, Scripts
from .scriptcache import path_for
from .settings import Settings
from .verdicts import Verdicts
from .warmstart import lanes_for
from .zygote import Zygote


class GiveUp(Exception):
    """A worker could not be asked at all: the host may be at fault, and the full way proves it."""


@dataclass(frozen=True)
class Known:
    """What the quick way answered: each known exercise's report entries, and the exercises left
    to the full way, in the course's order."""

    answered: dict[str, list[dict]]
    unknown: tuple[str, ...]
    spent: float = 0.0  # seconds of the submission's budget the answered exercises took: the full way has the rest

    def result(self, student_id: str, folder: Path, settings: Settings) -> StudentResult:
        """The student's result on the answered exercises alone."""
        tests = [entry for entries in self.answered.values() for entry in entries]
        return parse_run(student_id, folder, {"tests": tests, "collectors": []},
                         replace(settings, exercises=tuple(self.answered)))


def grade_known(student_id: str, folder: Path, settings: Settings, warm: tuple[Zygote, ...] = ()) -> Known | None:
    """The exercises ``settings`` asks for, answered where every verdict is known; None where the
    quick way cannot be taken (nothing kept, or a worker that cannot be asked).
    ``warm``: sandboxes already started for these settings (warmstart.py), closed by the caller."""
    try:
        kept = path_for(settings)
        data = json.loads(kept.read_text(encoding="utf-8"))
        scripts, verdicts = Scripts.from_json(data["scripts"]), Verdicts.from_json(data["verdicts"])
        wanted = settings.exercises or tuple(e.name for e in load_course(settings.graders_dir))
        checks = {name: [str(n) for n in data["checks"].get(name) or ()] for name in wanted}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    mark_used(kept)
    limits = sandbox.Limits.for_call_timeout(settings.call_timeout, settings.memory_mb << 20)
    budget = Budget(limits.submission_seconds, "your whole submission")
    lookahead = Budget(limits.submission_seconds, "the grader's lookahead")  # shared, as grading.py's
    given = tuple(z for z in warm if (z.isolation, z.bwrap_path, z.limits) == (settings.isolation, settings.bwrap, limits))
    # Every check the graders hold must have passed before: an exercise with a check that never did goes the full way.
    askable = [name for name, nodeids in checks.items() if nodeids and all(n in verdicts.entries for n in nodeids)]
    lanes = list(given) or (_started(settings, limits, lanes_for(len(askable))) if askable else [])

    taken: dict[str, float] = {}  # per exercise answered: an unanswered one is charged again the full way

    def answer(zygote: Zygote | None, exercise: str) -> list[dict] | None:
        module = StudentModule(folder / f"{exercise}.py", exercise, settings.isolation, limits, settings.bwrap,
                               submission_budget=budget, lookahead=lookahead, zygote=zygote,
                               scripts=scripts)
        try:
            entries = _known(module, exercise, checks[exercise], verdicts)
            if entries is not None:
                taken[exercise] = module.own_spent
            return entries
        except (OSError, subprocess.SubprocessError) as error:  # no worker starts: the full way's proof names the host
            raise GiveUp(exercise) from error
        finally:
            module.close()

    def abandon() -> None:  # the lanes' workers die with their sandboxes, and their waits end
        for zygote in lanes:
            if zygote is not None:
                zygote.close()

    try:
        answered = in_lanes(lanes, askable, answer, abandon) if askable else {}
    except GiveUp:
        return None
    finally:
        for zygote in lanes:
            if zygote is not None and zygote not in given:
                zygote.close()
    return Known({name: answered[name] for name in wanted if answered.get(name) is not None},
                 tuple(name for name in wanted if answered.get(name) is None), sum(taken.values()))


def _started(settings: Settings, limits: sandbox.Limits, count: int) -> list[Zygote | None]:
    """``count`` warm sandboxes, already starting; Nones where workers start afresh."""
    if settings.workers == "fresh" or not sandbox.zygote_possible(settings.isolation, settings.bwrap):
        return [None] * count
    lanes = [Zygote(settings.isolation, limits, settings.bwrap) for _ in range(count)]
    for zygote in lanes:
        zygote.start()
    return lanes


def in_lanes(lanes: list, names: list[str], answer: Callable[[object, str], object],
             abandon: Callable[[], None] = lambda: None) -> dict[str, object]:
    """``answer(lane, name)`` for every name, each lane taking the next name in turn, all lanes at
    once (the first in this thread). An error in any lane (a Ctrl-C in this thread, or GiveUp)
    stops the other lanes at their next name, calls ``abandon``, which ends what they wait on,
    and is raised here once every lane has stopped."""
    pending, answered, errors = list(names), {}, []
    lock, stop = threading.Lock(), threading.Event()

    def serve(lane) -> None:
        try:
            while not stop.is_set():
                with lock:
                    if not pending:
                        return
                    name = pending.pop(0)
                answered[name] = answer(lane, name)
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            stop.set()
            errors.append(error)

    others = [threading.Thread(target=serve, args=(lane,), daemon=True) for lane in lanes[1:]]
    for thread in others:
        thread.start()
    serve(lanes[0])
    try:
        if errors:
            abandon()
        for thread in others:
            thread.join()
    except BaseException:  # a Ctrl-C while the other lanes finish
        stop.set()
        abandon()
        for thread in others:
            thread.join()
        raise
    if errors:
        raise errors[0]
    return answered


def _known(module: StudentModule, exercise: str, nodeids: list[str], verdicts: Verdicts) -> list[dict] | None:
    """The exercise's entries, each check's and its plots' answers known; None at the first that is
    not. Raises GiveUp where the worker could not be asked at all."""
    outputs = []
    for nodeid in nodeids:
        if module.scripts.get(exercise, nodeid) is None:
            return None
        module.begin_script(nodeid)
        feed = module.prime()
        if feed is None:
            if module.problem is not None:  # the file itself (missing, not importable): the full way says what
                return None
            raise GiveUp(exercise)
        known, output = verdicts.output(nodeid, feed.digest)
        if not known or module.printed_unscripted:  # printed at import: the full way shows it
            return None
        module.settle()
        outputs.append(output)
    drawn = None
    if exercise in verdicts.plots:  # the grader draws plots: they must be known too
        if not module.scripts.get(exercise, PLOTS):
            return None
        module.fresh_worker()
        module.begin_script(PLOTS)
        feed = module.prime()
        if feed is None:
            raise GiveUp(exercise)
        drawn = verdicts.plots[exercise].get(feed.digest) if feed.digest else None
        if drawn is None:
            return None
    last = len(nodeids) - 1
    return [verdicts.entry(n, o, drawn if i == last else None) for i, (n, o) in enumerate(zip(nodeids, outputs))]
