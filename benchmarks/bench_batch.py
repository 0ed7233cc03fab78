"""Grades a synthetic class of N students end to end and prints what it cost; also `check`'s cold wall time.

    python benchmarks/bench_batch.py [N] [--jobs J] [--isolation auto|bubblewrap|process]
                                     [--designs new,zygote,old] [--old-students M]
    python benchmarks/bench_batch.py [N] --sessions [--shard-size S] [--isolation ...]

The class is mostly correct students (copies of solutions/), then one catalogue mistake each
(about 20%), a file that does not import (5%) and, for 1%, a function that never returns. The run is
`python grade.py grade` in a fresh process, writing results.json, the gradebook and every report;
then the same command again, which finds every result stored and grades nobody. Each design
(``--designs``: ``new``, each student's workers forked from a sandbox hatched for it inside one
warm sandbox per pytest session of 8 students, every check's calls sent at once from the scripts
recorded on the reference, and exercises whose every answer is known scored without running
their checks; ``zygote``, the same with a sandbox started by bubblewrap for each student; ``old``,
a fresh sandbox per exercise, a session per student and every call sent alone, as before all
of these) grades
its own copy of the class in the same run, so their ratio holds on a noisy machine;
``--old-students`` grades only the first M students the old way, when the whole class would take
too long. Last, `check` is timed in fresh interpreters: on solutions/ in the kit, and in a student
release on a finished submission (the first run with nothing kept, then the same files again).
Figures only: speed goals are read here, never asserted in a test. Run it from a checkout
nobody edits meanwhile: the kit's code is part of every stored result's key, so an edit between
the first run and the rerun makes the rerun grade everyone again (the rerun prints its count).

``--sessions`` measures the grader's own side only: the class is graded in this process
(``grade_batch`` with one job, so no pool), once with one pytest session per student and once
with ``--shard-size`` students per session, and prints this process's CPU per student for each
(getrusage of the process itself: the sandboxed workers are other processes and not counted).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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


# Runs the command and reports, from its own getrusage, the CPU of everything it waited for, and
# the peak memory (VmHWM) of the grading process and of the largest of its own children (the pool
# processes), read from /proc every 0.2 s while it runs. Not getrusage's ru_maxrss: that is the
# largest of every descendant, a student's worker included, which says nothing of the grader.
MEASURE = ("import json, os, resource, subprocess, sys, threading, time\n"
           "def hwm(pid):\n"
           "    try:\n"
           "        for line in open(f'/proc/{pid}/status'):\n"
           "            if line.startswith('VmHWM:'):\n"
           "                return int(line.split()[1])\n"
           "    except OSError:\n"
           "        pass\n"
           "    return 0\n"
           "def children(pid):\n"
           "    try:\n"
           "        return [int(c) for c in open(f'/proc/{pid}/task/{pid}/children').read().split()]\n"
           "    except OSError:\n"
           "        return []\n"
           "run = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)\n"
           "peaks = {'grader': 0, 'pool': 0}\n"
           "def watch():\n"
           "    while run.poll() is None:\n"
           "        peaks['grader'] = max(peaks['grader'], hwm(run.pid))\n"
           "        peaks['pool'] = max([peaks['pool']] + [hwm(c) for c in children(run.pid)])\n"
           "        time.sleep(0.2)\n"
           "watcher = threading.Thread(target=watch, daemon=True)\n"
           "watcher.start()\n"
           "out = run.communicate()[0]\n"
           "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "said = [line for line in out.splitlines() if 'graded now' in line]\n"
           "print(json.dumps([usage.ru_utime + usage.ru_stime, [peaks['grader'], peaks['pool']], run.returncode, said[-1:]]))\n")


CPUACCT = Path("/sys/fs/cgroup/cpuacct")  # cgroup v1's CPU accounting, writable by root


def timed_run(command: list[str]) -> tuple[float, float, int, tuple[float, float], str, float | None]:
    """Wall seconds, CPU seconds of the run and everything it waited for, exit code, the peak RSS in
    MiB of the grading process and of its largest child (a pool process; 0 without a pool),
    grade's own count of the students it graded and kept (empty for check), and, where a cgroup can
    count it (root, cgroup v1), the CPU seconds of every process the run started, killed sandboxes
    included (None elsewhere)."""
    group = CPUACCT / f"gradient-kit-bench-{os.getpid()}"
    try:
        group.mkdir()
    except OSError:
        group = None
    start = time.perf_counter()
    measured = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=ROOT, capture_output=True, text=True,
                              preexec_fn=None if group is None else lambda: (group / "cgroup.procs").write_text(str(os.getpid())))
    wall = time.perf_counter() - start
    cpu, (grader_kib, pool_kib), code, said = json.loads(measured.stdout.strip().splitlines()[-1])
    count = said[0][said[0].rfind("(") + 1:said[0].rfind(")")] if said else ""
    every = None
    if group is not None:
        every = int((group / "cpuacct.usage").read_text()) / 1e9
        for _attempt in range(50):  # what the run left (none, normally) goes before the group does
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
    return wall, cpu, code, (grader_kib / 1024, pool_kib / 1024), count, every


def grader_cpu(size: int, isolation: str, shard_size: int) -> int:
    """This process's CPU per student, grading the class with one session per student and with shards."""
    import resource
    from dataclasses import replace

    from autograder import sandbox
    from autograder.runner import Settings, grade_batch
    isolation = sandbox.best_isolation() if isolation == "auto" else isolation
    settings = Settings(graders_dir=ROOT / "graders", reference_dir=ROOT / "solutions", seed=1,
                        isolation=isolation, catalogue_dir=ROOT / "catalogue")
    with tempfile.TemporaryDirectory(prefix="gradient-kit-bench-") as scratch:
        kinds = make_class(Path(scratch) / "class", size)
        students = sorted((p.name, p) for p in (Path(scratch) / "class").iterdir())
        print(f"--sessions: {size} students ({', '.join(f'{n} {k}' for k, n in kinds.items())}), graded in this "
              f"process (one job), --isolation {isolation}")
        grade_batch(students[:2], settings, 1)  # imports and drawn cases paid before either is measured

        def cpu() -> float:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime
        figures = {}
        for label, size_ in (("one session per student", 1), (f"{shard_size} students per session", shard_size)):
            start, wall = cpu(), time.perf_counter()
            grade_batch(students, replace(settings, shard_size=size_), 1)
            figures[label] = (cpu() - start) / size
            print(f"  {label:>26}: {1000 * figures[label]:6.0f} ms grader CPU per student   "
                  f"{(time.perf_counter() - wall) / size:5.2f} s wall per student")
        before, after = figures.values()
        print(f"  saved: {1000 * (before - after):.0f} ms grader CPU per student ({1 - after / before:.0%})")
    return 0


DESIGNS = {"new": ("--workers", "hatched"), "zygote": ("--workers", "zygote"),
           "old": ("--workers", "fresh", "--shard-size", "1", "--no-scripts")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", nargs="?", type=int, default=100, help="class size (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--isolation", default="auto")
    parser.add_argument("--designs", default="new,old", help="designs to compare (default: %(default)s)")
    parser.add_argument("--old-students", type=int, default=None, metavar="M",
                        help="grade only the first M students with the old design (default: all)")
    parser.add_argument("--sessions", action="store_true",
                        help="grader CPU per student, one pytest session per student against shards (in this process)")
    parser.add_argument("--shard-size", type=int, default=8, help="students per session with --sessions (default: %(default)s)")
    args = parser.parse_args()
    if args.sessions:
        return grader_cpu(args.students, args.isolation, args.shard_size)
    designs = args.designs.split(",")
    print(f"machine: {platform.machine()}, {len(os.sched_getaffinity(0))} usable cores, Python "
          f"{platform.python_version()}, {platform.platform()}, load average {os.getloadavg()[0]:.1f}")
    figures = {}
    with tempfile.TemporaryDirectory(prefix="gradient-kit-bench-") as scratch:
        # The cases depend only on the seed and are drawn once, then kept on disk: paid here, so
        # that neither design's figures depend on which ran first.
        drawn, *_ = timed_run([sys.executable, "grade.py", "check", "solutions", "--seed", "1"])
        print(f"cases for seed 1 drawn or found on disk, and check solutions/: {drawn:.1f} s wall")
        for design in designs:
            size = args.students if design != "old" or args.old_students is None else args.old_students
            folder = Path(scratch) / design
            kinds = make_class(folder / "class", size)
            print(f"{design} ({' '.join(DESIGNS[design])}): {size} students "
                  f"({', '.join(f'{n} {k}' for k, n in kinds.items())}), --jobs {args.jobs}, --isolation {args.isolation}")
            grade = [sys.executable, "grade.py", "grade", str(folder / "class"), "--out", str(folder / "out"),
                     "--seed", "1", "--jobs", str(args.jobs), "--isolation", args.isolation, *DESIGNS[design]]
            if args.isolation == "process":
                grade.append("--allow-unsandboxed")
            wall, cpu, code, peak, count, every = timed_run(grade)
            if code != 0:
                print(f"grade failed with exit code {code}")
                return 1
            figures[design] = (wall / size, (every if every is not None else cpu) / size)
            counted = f"{1000 * every / size:7.0f} ms CPU per student, every process (cgroup)   " if every is not None else ""
            print(f"  first run: {wall:8.1f} s wall   {size / wall:6.2f} students/s   {counted}"
                  f"{1000 * cpu / size:7.0f} ms CPU per student (waited-for processes)   "
                  f"peak RSS: grading process {peak[0]:.0f} MiB, largest pool process {peak[1]:.0f} MiB   ({count})")
            again, cpu_again, _, _, count, _ = timed_run(grade)
            print(f"  rerun:     {again:8.1f} s wall   (every result stored, so every output rewritten and nobody "
                  f"graded: {count}; {cpu_again:.1f} s CPU)")
    for design in ("zygote", "old"):
        if "new" in figures and design in figures:
            (new_wall, new_cpu), (old_wall, old_cpu) = figures["new"], figures[design]
            print(f"{design} / new: {old_wall / new_wall:.2f}x wall per student, {old_cpu / new_cpu:.2f}x CPU per student")
    for _attempt in range(3):
        check, *_ = timed_run([sys.executable, "grade.py", "check", "solutions", "--seed", "1"])
        print(f"check solutions/ in the kit: {check:6.2f} s wall (a fresh interpreter; the day's scripts kept)")
    release_check_times()
    return 0


def release_check_times() -> None:
    """``check`` as a student runs it: in a release (no reference), on a finished submission,
    first with nothing kept (it records its own run), then again on the same files."""
    with tempfile.TemporaryDirectory(prefix="gradient-kit-bench-release-") as scratch:
        release = Path(scratch) / "release"
        subprocess.run([sys.executable, "grade.py", "release", str(release)], cwd=ROOT, check=True,
                       capture_output=True)
        for path in (ROOT / "solutions").glob("*.py"):
            shutil.copy(path, release / "exercises" / path.name)
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(scratch) / "cache")}
        for attempt in range(4):
            start = time.perf_counter()
            subprocess.run([sys.executable, "grade.py", "check", "--seed", "1"], cwd=release, env=env,
                           capture_output=True)
            what = "nothing kept, so graded in pytest and recorded" if attempt == 0 else "the same files again"
            print(f"check in a release: {time.perf_counter() - start:6.2f} s wall ({what})")


if __name__ == "__main__":
    sys.exit(main())
