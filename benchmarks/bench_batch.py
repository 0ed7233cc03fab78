"""Grades a synthetic class of N students end to end and prints what it cost; also `check`'s cold wall time.

    python benchmarks/bench_batch.py [N] [--jobs J] [--isolation auto|bubblewrap|process]

The class is mostly correct students (copies of solutions/), then one catalogue mistake each
(about 20%), a file that does not import (5%) and, for 1%, a function that never returns. The run is
`python grade.py grade` in a fresh process, writing results.json, the gradebook and every report;
then the same command again, which finds every result stored and grades nobody.
Figures only: speed goals are read here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.catalogue import Kind, compose, load_entries  # noqa: E402

HANG = "\n\ndef scalar_gradient_chain(depth, layer_scale):\n    while True:\n        pass\n"


def make_class(into: Path, size: int) -> dict[str, int]:
    """``size`` student folders under ``into``; returns how many of each kind."""
    mistakes = load_entries(ROOT / "catalogue", Kind.MISTAKE)
    solutions = sorted((ROOT / "solutions").glob("*.py"))
    kinds = {"correct": 0, "mistake": 0, "syntax error": 0, "hangs": 0}
    for number in range(size):
        folder = into / f"student_{number:05d}"
        folder.mkdir(parents=True)
        for path in solutions:
            shutil.copy(path, folder / path.name)
        if number % 100 == 99:
            kinds["hangs"] += 1
            (folder / "scalar_chain.py").write_text((folder / "scalar_chain.py").read_text() + HANG)
        elif number % 20 == 7:
            kinds["syntax error"] += 1
            (folder / "residual.py").write_text((folder / "residual.py").read_text() + "\ndef broken(:\n")
        elif number % 5 == 3 and mistakes:
            kinds["mistake"] += 1
            entry = mistakes[number % len(mistakes)]
            reference = (ROOT / "solutions" / f"{entry.exercise}.py").read_text()
            (folder / f"{entry.exercise}.py").write_text(compose(reference, entry.path.read_text()))
        else:
            kinds["correct"] += 1
    return kinds


def timed_run(command: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the run and everything it waited for, and exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", nargs="?", type=int, default=100, help="class size (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--isolation", default="auto")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {len(os.sched_getaffinity(0))} usable cores, Python "
          f"{platform.python_version()}, {platform.platform()}")
    with tempfile.TemporaryDirectory(prefix="gradient-kit-bench-") as scratch:
        kinds = make_class(Path(scratch) / "class", args.students)
        print(f"class: {args.students} students ({', '.join(f'{n} {k}' for k, n in kinds.items())}), "
              f"--jobs {args.jobs}, --isolation {args.isolation}")
        grade = [sys.executable, "grade.py", "grade", str(Path(scratch) / "class"), "--out", str(Path(scratch) / "out"),
                 "--seed", "1", "--jobs", str(args.jobs), "--isolation", args.isolation]
        if args.isolation == "process":
            grade.append("--allow-unsandboxed")
        wall, cpu, code = timed_run(grade)
        if code != 0:
            print(f"grade failed with exit code {code}")
            return 1
        # ru_maxrss of the children: the largest resident set of any one process the run waited for
        # (the grader or one of its pool processes), in KiB on Linux.
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"grade, first run:   {wall:8.1f} s wall   {args.students / wall:6.2f} students/s   "
              f"{1000 * cpu / args.students:7.0f} ms CPU per student   peak RSS of one grader process {peak:.0f} MiB")
        again, cpu_again, _ = timed_run(grade)
        print(f"grade, rerun:       {again:8.1f} s wall   (every result stored: nobody graded, every output rewritten; "
              f"{cpu_again:.1f} s CPU)")
    check, _, _ = timed_run([sys.executable, "grade.py", "check", "solutions", "--seed", "1"])
    print(f"check solutions/:   {check:8.2f} s wall (cold: a fresh interpreter, as a student runs it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
