"""A grade run's outputs: the students graded now merged with those stored before, one at a time.

The merge is :func:`autograder.stored.merge`'s, made in id order as the writer goes, so neither
this run's students nor the stored ones are ever all in memory: a student graded now is
assembled from the store, one kept from before is read alone from the old results.json (which
is replaced only once the new one is complete).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterator

from .incremental import Outcome
from .intake import Submission, annotate
from .model import BatchResult, StudentResult
from .output import Written, write_class
from .stored import StoredIndex


def write_run(out: Path, templates_dir: Path, run: BatchResult, outcome: Outcome, submissions: dict[str, Submission],
              stored: StoredIndex | None, previous: StoredIndex | None) -> Written:
    """Write the class: ``outcome``'s students replacing or joining ``stored``'s, sorted by id.

    ``run`` is the batch being written (its time stamps the students graded now); ``previous``
    is what results.json held before (``stored`` too, unless this run replaces it).
    """
    now = outcome.folders
    # Students graded now share the run's time, as one run's reports always have; the others keep the
    # time their reports showed (a record is stored a moment before its run's end stamps it).
    shown = {e.id: e.graded for e in stored.entries} if stored is not None else {}
    ids = sorted({*now, *shown})

    def students() -> Iterator[StudentResult]:
        for sid in ids:
            if sid in now:
                result = outcome.result(sid)
                graded = run.created if sid in outcome.graded_now else max(result.graded, shown.get(sid, ""))
                yield annotate(replace(result, graded=graded), submissions[sid])
            else:
                kept = stored.read(sid)
                # Results from a kit that stamped no time per student were all graded when their batch was.
                yield replace(kept, graded=kept.graded or stored.header.created)

    written_before = [e.id for e in previous.entries] if previous is not None else ()
    return write_class(run, ids, students(), out, templates_dir, written_before)
