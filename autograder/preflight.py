"""Prove the host before any student is graded.

A known-good submission runs through the real sandbox with the limits in force: a worker that
cannot import numpy, a bwrap that cannot start or a memory limit too small for numpy is the
host's problem, and it must stop the run with the worker's own words instead of giving every
student 0.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import subprocess
import tempfile
from pathlib import Path

try:
    import resource
except ImportError:  # Windows
    resource = None

from . import room
from .client import StudentModule
from .codec import RngSpec
from .errors import GradeError
from .model import load_course
from .problems import StudentProblem, StudentTimeout, WorkerCrashed
from .sandbox import Limits

PROBE_SOURCE = '''\
import numpy as np


def probe(matrix, rng):
    """What a solution does: array arithmetic, linear algebra and draws from the given generator."""
    noise = rng.normal(0.0, 1.0, size=matrix.shape)
    return float(np.linalg.norm(matrix @ matrix)), matrix * 2.0, noise.shape
'''


MEMORY_SIGNS = ("MemoryError", "failed to map segment", "Cannot allocate memory", "Memory allocation")


class HostProblem(GradeError):
    """The sandboxed worker cannot run a correct submission here: nobody is graded."""

    exit_code = 2


def _reason(problem: StudentProblem, stderr: str, limits: Limits, isolation: str) -> str:
    where = f"the sandboxed worker ({isolation})"
    if isinstance(problem, StudentTimeout):
        return (f"{where} did not run a trivial known-good submission in time ({problem.message}); "
                f"the --timeout of {limits.call_timeout:g} s is too short for this machine, or the machine is overloaded")
    if any(sign in stderr for sign in MEMORY_SIGNS):
        return (f"{where} cannot start numpy within --memory-mb {limits.memory_bytes >> 20}; raise it "
                f"(the default is {Limits.memory_bytes >> 20})")
    if "numpy" in stderr and ("ModuleNotFoundError" in stderr or "ImportError" in stderr):
        return f"{where} cannot import numpy, so every student would score 0; install numpy in the Python that runs grade.py"
    if isinstance(problem, WorkerCrashed):
        return f"{where} ended before it answered a known-good submission"
    return f"{where} cannot run a known-good submission ({problem.message.rstrip('.')})"


def prove(isolation: str, limits: Limits, bwrap_path: str = "") -> None:
    """Raise :class:`HostProblem` unless a correct submission gets correct answers through the sandbox."""
    import numpy as np  # only here: check's quick way proves no sandbox, and imports no numpy

    low = hard_limit_below(limits)
    if low:
        raise HostProblem(low)
    matrix = np.arange(9.0).reshape(3, 3)
    with tempfile.TemporaryDirectory(prefix="gradient-kit-probe-") as folder:
        path = Path(folder) / "probe.py"
        path.write_text(PROBE_SOURCE, encoding="utf-8")
        module = StudentModule(path, "probe", isolation, limits, bwrap_path)
        try:
            value = module.call("probe", matrix, RngSpec(1)).value
        except (OSError, subprocess.SubprocessError) as error:
            raise HostProblem(f"the sandboxed worker ({isolation}) cannot be started here "
                              f"({type(error).__name__}: {error}).") from None
        except StudentProblem as problem:
            stderr = module.last_stderr
            detail = "".join(f"\n  | {line}" for line in stderr.splitlines()[-6:])
            raise HostProblem(_reason(problem, stderr, limits, isolation) + "." + detail) from None
        finally:
            module.close()
    expected = (float(np.linalg.norm(matrix @ matrix)), matrix * 2.0, [3, 3])
    if not (isinstance(value, (list, tuple)) and len(value) == 3 and np.isclose(value[0], expected[0])
            and np.array_equal(value[1], expected[1]) and list(value[2]) == expected[2]):
        raise HostProblem(f"the sandboxed worker ({isolation}) gave a wrong answer for a known-good submission "
                          f"({value!r:.200}); the Python environment is broken.")


def prove_room(jobs: int) -> None:
    """Refuse before grading where too few processes may start or files open: a worker that
    cannot start would cost every student points, or withhold them all."""
    short = room.shortfall(jobs)
    if short:
        raise HostProblem(short)


def hard_limit_below(limits: Limits) -> str:
    """Why this shell's hard limits (``ulimit -H``) leave a worker less than it is given, or ""."""
    if resource is None or os.geteuid() == 0:  # root may raise a hard limit
        return ""
    wanted = (("RLIMIT_CPU", limits.cpu_seconds, "seconds of CPU time", ""),
              ("RLIMIT_AS", limits.memory_bytes, "bytes of memory", " or pass a smaller --memory-mb"),
              ("RLIMIT_FSIZE", limits.file_bytes, "bytes of file size", ""),
              ("RLIMIT_NOFILE", limits.open_files, "open files", ""))
    for name, value, what, option in wanted:
        _soft, hard = resource.getrlimit(getattr(resource, name))
        if hard != resource.RLIM_INFINITY and hard < value:
            return (f"this shell's hard limit allows {hard} {what} and a worker needs {value}; raise it "
                    f"(ulimit -H){option}.")
    return ""


class _Collected:
    """Records what pytest could not collect, and the grader modules it did."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.modules: set[str] = set()

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            text = str(report.longrepr).strip().splitlines()
            self.failures.append(f"{report.nodeid}: {text[-1] if text else 'could not be collected'}")

    def pytest_itemcollected(self, item) -> None:
        self.modules.add(Path(str(item.fspath)).stem)


def prove_graders(graders_dir: Path) -> None:
    """Every grader listed in course.toml loads here; one that does not would score everyone 0."""
    import pytest

    from .session import InterruptWatch, claim_grader_modules

    collected, interrupt = _Collected(), InterruptWatch()
    args = [str(graders_dir), f"-c={graders_dir / 'pytest.ini'}", f"--rootdir={graders_dir}", "--collect-only",
            "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:benchmark",
            "-W", "ignore::pytest.PytestAssertRewriteWarning"]
    claim_grader_modules(graders_dir)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        pytest.main(args, plugins=[collected, interrupt])
    interrupt.reraise()
    if collected.failures:
        raise HostProblem(f"a grader cannot be loaded, so every student would lose its points: "
                          f"{collected.failures[0][:400]}.")
    missing = [e.name for e in load_course(graders_dir) if f"test_{e.name}" not in collected.modules]
    if missing:
        raise HostProblem(f"graders/course.toml lists {missing[0]}, but graders/test_{missing[0]}.py has no "
                          f"checks that load; no student can be graded on it.")


def prove_readable(folders: list[Path]) -> list[Path]:
    """Submission files the grader cannot read are never a 0. Where no folder can be read whole, the
    host is at fault (permissions) and nothing is graded; otherwise the ones it cannot read are
    returned, and their exercises are withheld, not counted (one student's chmod never stops a class)."""
    unreadable, hit = [], 0
    for folder in folders:
        found = _unreadable_in(folder)
        unreadable += found
        hit += bool(found)
    if unreadable and hit == len(folders):
        raise HostProblem(f"the grader cannot read {some_paths(unreadable)} (permission denied); give the grading user read "
                          "access (for example `chmod -R a+rX` on the submissions) and grade again.")
    return unreadable


def some_paths(paths: list[Path]) -> str:
    return f"{paths[0]}{f' and {len(paths) - 1} more' if len(paths) > 1 else ''}"


def _unreadable_in(folder: Path) -> list[Path]:
    if os.path.islink(folder) or not os.path.isdir(folder):
        return []  # graded as a one-sentence error of its own
    if not os.access(folder, os.R_OK | os.X_OK):
        return [folder]
    unreadable = []
    try:
        paths = list(folder.iterdir())
    except OSError:  # made unreadable since the line above
        return [folder]
    for path in paths:
        try:
            regular = stat.S_ISREG(path.lstat().st_mode)
        except OSError:
            continue
        if regular and path.suffix == ".py" and not os.access(path, os.R_OK):
            unreadable.append(path)
    return unreadable
