"""Verdicts already known: a check answered exactly as one that passed, passes.

A check is a function of what it is answered: its code, its cases and the reference are the same
for every student of a run (one seed, one grader), so a check answered byte for byte what another
submission's run of it was answered (every reply body and everything read back from shared
memory, :class:`~autograder.script.Digest`) gives the same verdict, and prints the same. Only
passes are kept: a known digest means "passed", with what the student's code printed meanwhile.
The reference's own answers are the first kept (grading it once per class records them); every
submission that passes a check through its script adds its digest, so a class with a few ways
of writing a correct function pays for each way once.

Kept in memory for one run, or in the user's cache for ``check`` (:mod:`autograder.scriptcache`);
never in a report. A planted entry could pass a check, so ``grade`` never reads one from disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import ENTRY_FIELD, SPENT_FIELD

FORMAT = 1
MAX_PER_CHECK = 64  # ways of passing one check remembered; past that, a check runs for real


@dataclass
class Verdicts:
    """Per check (node id): the digests seen passing, each with what was printed; per exercise:
    the plots drawn from a digest of the plot calls; per check: a passing report entry."""

    passed: dict[str, dict[str, dict | None]] = field(default_factory=dict)
    plots: dict[str, dict[str, list]] = field(default_factory=dict)
    entries: dict[str, dict] = field(default_factory=dict)

    def output(self, check: str, digest: str | None) -> tuple[bool, dict | None]:
        """(known, what it printed) for check ``check`` answered ``digest``."""
        known = self.passed.get(check, {})
        if digest is None or digest not in known:
            return False, None
        return True, known[digest]

    def learn(self, check: str, digest: str, output: dict | None) -> None:
        known = self.passed.setdefault(check, {})
        if digest not in known and len(known) < MAX_PER_CHECK:
            known[digest] = output

    def learn_entry(self, check: str, entry: dict) -> None:
        """A passing report entry of ``check``, without what is the student's own (their output, plots)."""
        if check not in self.entries:
            metadata = {k: v for k, v in (entry.get("metadata") or {}).items() if k not in ("output", "plots", "diagnosis", SPENT_FIELD, ENTRY_FIELD)}
            self.entries[check] = {"nodeid": entry.get("nodeid", check), "outcome": "passed", "metadata": metadata}

    def entry(self, check: str, output: dict | None, plots: list | None = None, spent: float | None = None,
              graded_entry: str = "") -> dict:
        """The report entry of a check passed with a known digest (``spent`` and ``graded_entry``: the
        last check's, of the exercise's budget and the file its worker ran)."""
        entry = {**self.entries[check], "metadata": dict(self.entries[check]["metadata"])}
        if output and entry["metadata"].get("visibility") != "hidden":
            entry["metadata"]["output"] = output
        if plots:
            entry["metadata"]["plots"] = plots
        if spent is not None:
            entry["metadata"][SPENT_FIELD] = spent
        if graded_entry:
            entry["metadata"][ENTRY_FIELD] = graded_entry
        return entry

    def learn_plots(self, exercise: str, digest: str, plots: list) -> None:
        known = self.plots.setdefault(exercise, {})
        if digest not in known and len(known) < MAX_PER_CHECK:
            known[digest] = plots

    def to_json(self) -> dict:
        return {"format": FORMAT, "passed": self.passed, "plots": self.plots, "entries": self.entries}

    @classmethod
    def from_json(cls, data: object) -> "Verdicts":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not verdicts of this format")
        return cls({str(k): dict(v) for k, v in data["passed"].items()},
                   {str(k): dict(v) for k, v in data["plots"].items()},
                   {str(k): dict(v) for k, v in data["entries"].items()})
