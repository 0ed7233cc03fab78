"""What one grading run is told: folders, seed, isolation, limits and how its workers run.

Kept apart from :mod:`autograder.runner` so that the command line can build it without
importing pytest (``check`` may grade without it, :mod:`autograder.quickcheck`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    graders_dir: Path
    reference_dir: Path | None
    seed: int
    isolation: str
    call_timeout: float = 3.0
    memory_mb: int = 1024
    only_submitted: bool = False  # run only the graders of files present (validating one exercise)
    bwrap: str = ""  # the bwrap binary proved to work (bubblewrap isolation); found again if empty
    exercises: tuple[str, ...] = ()  # grade only these (check --exercise); all when empty
    quiet_lock: str = ""  # set by grade_batch for its pool: see quiet.py
    catalogue_dir: Path | None = None  # known mistakes, for the diagnosis (trusted side; never in a release)
    workers: str = "hatched"  # "zygote": a sandbox per submission; "fresh": one per exercise, as before zygotes
    shard_size: int = 8  # students graded in one pytest session (1: a session each, as before shards)
    scripts: str = ""  # the file of the class's scripts and known verdicts (script.py), once recorded
    # check: seconds of the submission's time budget its quick way took (quickcheck.py), charged
    # before the full way grades the rest, so a submission never has more than its budget in all
    budget_spent: float = 0.0
    use_scripts: bool = True  # False: every call one by one, as before scripts (the same verdicts, slower)
    # grade: the class's folder (the instructor's). Below it no link is followed on the way to a
    # student's file (submission.look): the student's own folders may change during the run.
    anchor: str = ""
