"""What a grading session holds: for the run, and for the submission graded now.

For the run (one pytest session, one or many submissions, :mod:`autograder.shard`): the lock the
pool's processes share, the class's scripts and the verdicts known (:mod:`autograder.script`,
:mod:`autograder.verdicts`), while the reference is graded to make them the recorder, and the
next submission's warm sandbox, started ahead. For the submission graded now: its folder, the
time budget its exercises share, its own warm sandbox, whose zygote forks each of its workers
(zygote.py), and the modules already started for it (an exercise whose checks were sent before
its turn in pytest, :mod:`autograder.fastpath`). A submission's state ends, its sandbox
included, before the next one's begins: no two students ever share a sandbox, so nothing of one
student's run (not even a counter of the kernel's) is handed to the next. Where workers are
hatched, each submission's sandbox is hatched inside the run's hatchery (hatching.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import sandbox
from .budget import Budget
from .hatching import Hatchery
from .probes import RecordingModule
from .quiet import QuietLock
from .script import Recorder, Scripts
from .verdicts import Verdicts
from .zygote import Zygote


@dataclass
class Run:
    quiet: QuietLock
    scripts: Scripts | None = None
    verdicts: Verdicts | None = None
    recorder: Recorder | None = None
    spare: Zygote | None = None  # the next submission's warm sandbox, started ahead (zygote.py)
    hatchery: Hatchery | None = None  # where each submission's sandbox is hatched (hatching.py), if anywhere
    taken: float = 0.0  # of the first submission's budget, before the session (check's quick way): --budget-spent


@dataclass
class Submission:
    folder: Path
    budget: Budget
    zygote: Zygote | None = None  # this submission's own warm sandbox, forking each of its workers
    lookahead: Budget | None = None  # the grader's choice, off the student's budgets but bounded (feed.py)
    started: dict[str, RecordingModule] = field(default_factory=dict)  # exercise -> its module, begun


RUN = pytest.StashKey[Run]()
NOW = pytest.StashKey[Submission]()


def limits(config: pytest.Config) -> sandbox.Limits:
    return sandbox.Limits.for_call_timeout(config.getoption("--call-timeout"), config.getoption("--memory-mb") << 20)


def run_of(config: pytest.Config) -> Run:
    if RUN not in config.stash:
        config.stash[RUN] = Run(QuietLock(config.getoption("--quiet-lock")), *_class_scripts(config))
        given = config.getoption("--budget-spent")
        config.stash[RUN].taken = given if given > 0 else 0.0  # nan counts as none
        if config.getoption("--record-scripts"):
            config.stash[RUN].recorder = Recorder()
            config.stash[RUN].verdicts = Verdicts()
    return config.stash[RUN]


def _class_scripts(config: pytest.Config) -> tuple[Scripts | None, Verdicts | None]:
    """The scripts and verdicts the run was given (--scripts); none where the file cannot be read."""
    path = config.getoption("--scripts")
    if not path:
        return None, None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return Scripts.from_json(data["scripts"]), Verdicts.from_json(data["verdicts"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, None  # graded call by call, as without scripts: slower, the same verdicts


def save_recording(config: pytest.Config, checks: dict[str, list[str]]) -> None:
    """Write what was recorded, with every check collected (``checks``: exercise -> node ids, in
    order): a check answered from the file must know every check, not only those that passed."""
    run = config.stash.get(RUN, None)
    path = config.getoption("--record-scripts")
    if run is None or run.recorder is None or not path:
        return
    data = {"scripts": run.recorder.scripts.to_json(), "verdicts": run.verdicts.to_json(), "checks": checks,
            "stopped": sorted(run.recorder.stopped)}
    Path(path).write_text(json.dumps(data, allow_nan=True), encoding="utf-8")


def begin(config: pytest.Config, folder: Path, following: bool = False) -> None:
    """Grade ``folder`` now; ``following``: another submission comes after it in this session,
    whose sandbox starts now, while this one is graded."""
    end(config)
    config.stash[NOW] = _submission(config, folder, following)


def now(config: pytest.Config) -> Submission:
    """The submission graded now (a session of one: the --submission folder)."""
    if NOW not in config.stash:
        config.stash[NOW] = _submission(config, Path(config.getoption("--submission")))
    return config.stash[NOW]


def _submission(config: pytest.Config, folder: Path, following: bool = False) -> Submission:
    run = run_of(config)
    warm, run.spare = run.spare or started_zygote(config), None
    if following and warm is not None:
        run.spare = started_zygote(config)
    whole = limits(config).submission_seconds
    taken, run.taken = min(run.taken, whole), 0.0  # the first submission's alone
    return Submission(folder, Budget(whole, "your whole submission", spent=taken), warm,
                      lookahead=Budget(whole, "the grader's lookahead"))


def end(config: pytest.Config) -> None:
    """The submission graded now is done: its modules and its warm sandbox go."""
    submission = config.stash.get(NOW, None)
    if submission is None:
        return
    del config.stash[NOW]
    for module in submission.started.values():
        module.close()
    if submission.zygote is not None:
        submission.zygote.close()


def end_run(config: pytest.Config) -> None:
    end(config)
    run = config.stash.get(RUN, None)
    if run is not None:
        if run.spare is not None:  # no submission came to take it (a session that stopped early)
            run.spare.close()
            run.spare = None
        if run.hatchery is not None:
            run.hatchery.close()
            run.hatchery = None
        run.quiet.close()


def started_zygote(config: pytest.Config) -> Zygote | None:
    """A new warm sandbox, already starting (hatched in the session's hatchery where workers are
    hatched); None where workers start afresh (sandbox.zygote_possible)."""
    isolation, bwrap_path, workers = config.getoption("--isolation"), config.getoption("--bwrap"), config.getoption("--workers")
    if workers == "fresh" or not sandbox.zygote_possible(isolation, bwrap_path):
        return None
    run = run_of(config)
    if workers == "hatched" and isolation == "bubblewrap" and run.hatchery is None:
        run.hatchery = Hatchery(limits(config), bwrap_path)
    warm = Zygote(isolation, limits(config), bwrap_path, hatchery=run.hatchery if workers == "hatched" else None)
    warm.start()
    return warm


def student_module(config: pytest.Config, exercise: str) -> RecordingModule:
    """The module for ``exercise`` of the submission graded now: the one already begun, or a new one."""
    submission, run = now(config), run_of(config)
    begun = submission.started.pop(exercise, None)
    if begun is not None:
        return begun
    return RecordingModule(submission.folder / f"{exercise}.py", exercise, config.getoption("--isolation"),
                           limits(config), config.getoption("--bwrap"), submission_budget=submission.budget,
                           lookahead=submission.lookahead, quiet=run.quiet, zygote=submission.zygote, scripts=run.scripts,
                           recorder=run.recorder, anchor=config.getoption("--anchor"))
