"""``check``'s scripts and known verdicts, kept in the user's cache between runs.

A student checks again and again on the day's seed: grading the reference to record the scripts
(:mod:`autograder.script`) costs as much as grading a student the slow way, so ``check`` keeps
what it recorded, named by the hash of everything it depends on (the graders, the reference and
the kit's code through :func:`~autograder.fingerprint.grader_keys`, the seed and the settings that
change scores, and the versions of Python, numpy and Hypothesis), with the reference's verdicts
(what students' runs learn is kept only for their own run). Anything wrong with a file means
recording again.

A file planted here could pass a check (verdicts.py), so only code that cannot write it may be
graded from it: ``check`` reads it (the checking user's own cache, and the report is the student's
own view), and so does ``grade`` where no worker can write it (under bubblewrap, whose workers
see no home, and in process mode as root, whose workers run as uids of their own); ``grade`` in
process mode as another user, whose workers run as that user, records its scripts afresh in the
run's private folder every time.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import replace
from pathlib import Path




from . import cachedir
from .cachedir import mark_used, user_cache
from .fingerprint import environment, grader_keys
from .model import load_course

FORMAT = 3  # 2: with every check collected ("checks"); 3: with the exercises whose plots stopped ("stopped")
# check's seed is the day's, so a student who checks daily keeps a file a day (1 to 3 MB): the
# folder keeps the last month's, and at most this many.
MAX_FILES = 30
MAX_AGE_SECONDS = 30 * 24 * 3600


def folder() -> Path:
    return user_cache() / "scripts"


def identity(settings) -> str:
    """Everything a class's scripts and verdicts depend on, as one text."""
    course = load_course(settings.graders_dir)
    terms = (settings.seed, settings.call_timeout, settings.memory_mb, settings.isolation)
    keys = grader_keys(settings.graders_dir, settings.reference_dir, course, terms)
    return "\n".join((f"format {FORMAT}", *(f"{name} {key}" for name, key in sorted(keys.items())),
                      *environment()))


def path_for(settings) -> Path:
    return folder() / f"{hashlib.sha256(identity(settings).encode('utf-8', 'surrogateescape')).hexdigest()}.json"


def scripts_for(settings, record) -> str:
    """The path of the kept scripts for ``settings`` (recorded first with ``record(settings, path)``
    where there are none, or none that read); "" where none can be had (no reference, say)."""
    if settings.reference_dir is None:
        return ""
    try:
        target = path_for(settings)
    except OSError:
        return ""
    if _whole(target):
        mark_used(target)
        return str(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=cachedir.TEMP, suffix=".json", dir=target.parent)
        os.close(handle)
    except OSError:
        return ""
    try:
        recorded = record(replace(settings, scripts=""), Path(temp))
        if recorded and _whole(Path(temp)) and _keep(temp, target):
            return str(target)
        return ""  # the caller records for its own run alone
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def keep_own(settings, grade, kept: tuple[str, ...] = ()):
    """``grade(path)``'s result, with what it recorded in ``path`` kept as the scripts for
    ``settings`` (a release's check, which records the student's own run: runner.grade_recording)
    where the run was whole: no check the host failed. ``kept``: exercises not graded now, whose
    scripts and verdicts stay as the earlier run kept them."""
    try:
        target = path_for(settings)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=cachedir.TEMP, suffix=".json", dir=target.parent)
        os.close(handle)
    except OSError:  # no cache to keep it in: graded all the same
        with tempfile.TemporaryDirectory(prefix="gradient-kit-scripts-") as scratch:
            return grade(Path(scratch) / "scripts.json")
    try:
        result = grade(Path(temp))
        whole = not any(t.grader_failed for e in result.exercises for t in e.tests)
        if whole and _readable(Path(temp)) and (not kept or _carry_over(target, Path(temp), kept)):
            _keep(temp, target)
        return result
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def _carry_over(earlier: Path, now: Path, kept: tuple[str, ...]) -> bool:
    """Add to the file ``now`` what ``earlier`` holds of the exercises ``kept``; False where either
    cannot be read (then nothing is kept: the next check grades those exercises again)."""
    try:
        old, new = (json.loads(path.read_text(encoding="utf-8")) for path in (earlier, now))
        for exercise in kept:
            nodeids = [str(n) for n in old["checks"][exercise]]
            new["checks"][exercise] = nodeids
            if exercise in old["scripts"]["calls"]:
                new["scripts"]["calls"][exercise] = old["scripts"]["calls"][exercise]
            for part in ("passed", "entries"):
                new["verdicts"][part].update({n: old["verdicts"][part][n] for n in nodeids if n in old["verdicts"][part]})
            if exercise in old["verdicts"]["plots"]:
                new["verdicts"]["plots"][exercise] = old["verdicts"]["plots"][exercise]
        now.write_text(json.dumps(new), encoding="utf-8")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    return _readable(now)


def _keep(temp: str, target: Path) -> bool:
    """Put the recording ``temp`` in its place; False where it cannot be (the folder went, say):
    then this run uses it no more than a run that kept nothing, and it is graded all the same."""
    try:
        os.replace(temp, target)
    except OSError:
        return False
    _prune(target.parent)
    return True


def _prune(where: Path) -> None:
    try:
        cachedir.prune(where, MAX_FILES, MAX_AGE_SECONDS)
    except OSError:  # the folder went, or cannot be listed: nothing kept to bound
        pass


def _readable(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "scripts" in data and "verdicts" in data and isinstance(data.get("checks"), dict)


def _whole(path: Path) -> bool:
    """Whether ``path`` holds a recording of the reference passing every check it collected and
    drawing every plot its graders declare.

    Anything less (a sandbox that failed while the reference was graded or its plots drawn, a
    test's stand-in for one) is not kept: kept, it would be read for the rest of the day's runs at
    this seed, every check of every student going the slow way, call by call, or every report
    without the plots the reference did not finish drawing, and nothing to say why."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries, checks = data["verdicts"]["entries"], data["checks"]
        return (isinstance(data["scripts"]["calls"], dict) and bool(checks) and bool(entries)
                and all(isinstance(nodeids, list) and bool(nodeids) and all(n in entries for n in nodeids)
                        for nodeids in checks.values())
                # and no exercise's plots stopped before the last (drawn in full with a note is whole:
                # those plots are drawn call by call, as the note may be a student's)
                and data["stopped"] == [])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
