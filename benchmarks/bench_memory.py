"""Peak memory of the grading process as the class grows, with nothing left to grade.

    python benchmarks/bench_memory.py [N ...] [--code TREE]

For each N (default 100 and 1000) it grades the sample class (examples/class, seed 1, isolation
process) once into a folder, then makes a class of N students by copying those submissions under
new ids, with their stored results copied too (a store record is keyed by the submission's
content and the graders, not by the student's name). ``python grade.py grade`` then finds every
result stored, grades nobody, and writes results.json, the gradebook, the dashboard and every
report: what is measured is the writing, the part that used to hold the whole class. A second
run with ``--only`` one student then keeps N - 1 students from the results.json just written.

The figure is the grading process's own peak RSS (VmHWM of /proc/self/status, read at its end in
the same process), not its workers'. ``ru_maxrss`` would not do: Linux keeps it across an exec,
so a child's includes whatever its parent held when it started. The CPU printed beside the
writing run is that run's and its waited-for processes' (getrusage of the children): what writing
the outputs costs. ``--code TREE`` measures another copy of the kit (for example
``git archive 8f77b07 | tar -x -C /tmp/before``), whose store is then made by that copy, since
the kit's own sources are part of a result's key. Figures only, never asserted in a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "class"
TERMS = ("--seed", "1", "--isolation", "process", "--allow-unsandboxed", "--jobs", "2", "--timeout", "2")
# Runs the kit's command line in this process and prints the process's own peak RSS in KiB.
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over an exec, so a child's would count this
# script's own peak too (its parent's memory at the fork), which is not the grader's.
MEASURE = ("import re, sys\nfrom autograder import cli\ncode = cli.main(sys.argv[1:])\n"
           "status = open('/proc/self/status').read()\n"
           "print('maxrss', re.search(r'VmHWM:\\s*(\\d+) kB', status).group(1), file=sys.stderr)\nsys.exit(code)\n")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def grade(code: Path, *argv: str) -> tuple[float, int, float]:
    """Wall seconds, peak RSS in KiB and CPU seconds (the run and the processes it waited for) of
    one `grade.py grade` run of the kit in ``code``."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run([sys.executable, "-c", MEASURE, "grade", *argv], cwd=code, env=env,
                          capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"grade failed ({done.returncode}): {done.stderr[-2000:]}")
    rss = [line for line in done.stderr.splitlines() if line.startswith("maxrss ")]
    return wall, int(rss[-1].split()[1]), cpu


def _record(store: Path, student_id: str) -> Path:
    return store / f"{hashlib.sha256(student_id.encode('utf-8')).hexdigest()[:32]}.json"


def make_class(template: Path, size: int, submissions: Path, out: Path) -> None:
    """``size`` copies of the sample's students under new ids, each with its stored results."""
    samples = sorted(p.name for p in SAMPLE.iterdir() if p.is_dir())
    store = out / ".store"
    store.mkdir(parents=True)
    shutil.copy(template / ".store" / "run.json", store / "run.json")
    for number in range(size):
        sample = samples[number % len(samples)]
        student_id = f"s{number:05d}_{sample}"
        shutil.copytree(SAMPLE / sample, submissions / student_id)
        record = json.loads(_record(template / ".store", sample).read_text(encoding="utf-8"))
        record["id"] = student_id
        _record(store, student_id).write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 1000])
    parser.add_argument("--code", type=Path, default=ROOT, help="the kit to measure (default: this one)")
    args = parser.parse_args()
    code = args.code.resolve()
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as work:
        work = Path(work)
        template = work / "template"
        wall, rss, _cpu = grade(code, str(SAMPLE), "--out", str(template), *TERMS)
        print(f"sample class ({len(list(SAMPLE.iterdir()))} entries) graded in {wall:.1f} s; peak RSS {rss / 1024:.0f} MiB")
        for size in args.sizes:
            submissions, out = work / f"class{size}", work / f"out{size}"
            make_class(template, size, submissions, out)
            wall, rss, cpu = grade(code, str(submissions), "--out", str(out), *TERMS)
            rows = (out / "gradebook.csv").read_text(encoding="utf-8").count("\n") - 1
            assert rows == size, rows  # results.json is not parsed here: this process's memory stays small
            only = sorted(p.name for p in submissions.iterdir())[0]
            wall_kept, rss_kept, _cpu = grade(code, str(submissions), "--out", str(out), "--only", only, *TERMS)
            print(f"N = {size:5d}: write every output {wall:6.1f} s ({cpu / size * 1000:.0f} ms CPU a student), "
                  f"peak RSS {rss / 1024:6.0f} MiB; "
                  f"regrade one, keep {size - 1}: {wall_kept:6.1f} s, peak RSS {rss_kept / 1024:6.0f} MiB; "
                  f"results.json {(out / 'results.json').stat().st_size / 2**20:.1f} MiB")
            shutil.rmtree(submissions)
            shutil.rmtree(out)


if __name__ == "__main__":
    main()
