"""Prove the host before any student is graded.

A known-good submission runs through the real sandbox with the limits in force: a worker that
cannot import numpy, a bwrap that cannot start or a memory limit too small for numpy is the
host's problem, and it must stop the run with the worker's own words instead of giving every
student 0.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from .client import StudentModule
from .codec import RngSpec
from .errors import GradeError
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
    matrix = np.arange(9.0).reshape(3, 3)
    with tempfile.TemporaryDirectory(prefix="gradient-kit-probe-") as folder:
        path = Path(folder) / "probe.py"
        path.write_text(PROBE_SOURCE, encoding="utf-8")
        module = StudentModule(path, "probe", isolation, limits, bwrap_path)
        try:
            value = module.call("probe", matrix, RngSpec(1)).value
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
