"""Prints how long writing a class's outputs takes: every report, the dashboard, results.json.

    python benchmarks/bench_reports.py [--students N]

Grades the sample class once, repeats its results under new ids up to N students (1,000 by
default), then times ``write_batch`` with the plots and without them. Figures only.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder import sandbox  # noqa: E402
from autograder.model import BatchResult  # noqa: E402
from autograder.output import write_batch  # noqa: E402
from autograder.runner import Settings, grade_batch  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=1000)
    count = parser.parse_args().students
    settings = Settings(ROOT / "graders", ROOT / "solutions", 7, sandbox.best_isolation())
    folders = sorted(p for p in (ROOT / "examples" / "class").iterdir() if p.is_dir())
    graded = grade_batch([(p.name, p) for p in folders], settings, jobs=2)
    students = tuple(replace(graded[i % len(graded)], id=f"{graded[i % len(graded)].id}-{i}") for i in range(count))
    no_plots = tuple(replace(s, exercises=tuple(replace(e, plots=()) for e in s.exercises)) for s in students)
    for label, rows in (("with plots", students), ("without plots", no_plots)):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            write_batch(BatchResult(7, settings.isolation, rows), Path(out), ROOT / "templates")
            elapsed = time.perf_counter() - start
        print(f"write {count} students' outputs {label}: {elapsed:.1f} s ({1000 * elapsed / count:.1f} ms each)")


if __name__ == "__main__":
    main()
