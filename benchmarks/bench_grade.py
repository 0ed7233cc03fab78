"""Prints how fast the kit grades: worker start-up per isolation mode, one student, the sample class.

    python benchmarks/bench_grade.py [--repeat N]

Figures only: speed goals are read here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder import sandbox  # noqa: E402
from autograder.client import StudentModule  # noqa: E402
from autograder.runner import Settings, grade_batch, grade_one  # noqa: E402


def timed(action, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def show(label: str, times: list[float]) -> None:
    print(f"{label:<52} median {statistics.median(times):7.3f} s   min {min(times):7.3f} s   (n={len(times)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    modes = ["process"] + (["bubblewrap"] if sandbox.bubblewrap_works() else [])
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "scalar_chain.py"
        source.write_text((ROOT / "solutions" / "scalar_chain.py").read_text())
        for mode in modes:
            def first_call():
                module = StudentModule(source, "scalar_chain", mode)
                module.call("scalar_gradient_chain", 10, 0.25)
                module.close()
            show(f"worker start + import + first call ({mode})", timed(first_call, args.repeat))

        def round_trips(mode="process", calls=200):
            module = StudentModule(source, "scalar_chain", mode)
            module.call("scalar_gradient_chain", 1, 0.5)
            start = time.perf_counter()
            for _ in range(calls):
                module.call("scalar_gradient_chain", 10, 0.25)
            module.close()
            return (time.perf_counter() - start) / calls
        print(f"{'one call round trip (process)':<52} {1e6 * round_trips():7.0f} µs")

        for mode in modes:
            settings = Settings(ROOT / "graders", ROOT / "solutions", seed=1, isolation=mode)
            show(f"grade the reference, all six exercises ({mode})",
                 timed(lambda: grade_one("reference", ROOT / "solutions", settings), args.repeat))
        students = sorted((p.name, p) for p in (ROOT / "examples" / "class").iterdir() if p.is_dir())
        settings = Settings(ROOT / "graders", ROOT / "solutions", seed=1, isolation=modes[-1])
        for jobs in (1, 2):
            times = timed(lambda: grade_batch(students, settings, jobs), 1)
            show(f"sample class, {len(students)} students, jobs={jobs} ({modes[-1]})", times)
            print(f"{'':<52} {times[0] / len(students):7.3f} s per student")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
