"""Which isolation this host runs student code in, proved on a known-good submission first.

A host that cannot grade is refused here, before anyone is graded: with bubblewrap requested but
unable to start, or with no sandbox for a class unless the instructor accepts process limits.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace

from . import bwrap, preflight, sandbox
from .arguments import Exit
from .errors import GradeError
from .render.inert import one_line


def gist(message: str) -> str:
    """A host failure's message without the sentence that tells the student it is not theirs."""
    return one_line(message).split("; this is not your fault")[0].removesuffix(".")


def choose_isolation(requested: str, batch: bool, allow_unsandboxed: bool) -> tuple[str, str]:
    """The isolation to use and, under bubblewrap, the bwrap binary proved to work."""
    search = sandbox.find_bwrap() if requested != "process" else None
    if requested == "bubblewrap" and search.found is None:
        raise SandboxRefused(f"bubblewrap was requested but cannot start here: {search.reason}.")
    if search is not None and search.found is not None:
        return "bubblewrap", search.found.path
    if batch and not allow_unsandboxed:
        why = f"bubblewrap cannot start here ({search.reason})" if search else "--isolation process was chosen"
        raise SandboxRefused(f"{why}, so student code would run without namespace isolation; fix that or pass "
                             "--allow-unsandboxed to accept process limits only.")
    if search is not None:
        sys.stderr.write(f"note: student code runs without the bubblewrap sandbox (process limits only): {search.reason}.\n")
    return "process", ""


def proved_isolation(requested: str, batch: bool, allow_unsandboxed: bool, limits: sandbox.Limits) -> tuple[str, str]:
    """The isolation and bwrap for this run, proved on a known-good submission.

    The bwrap the search would try first is proved directly: the proof starts the real worker in
    it, more than the search's probe does, so the probe (another sandbox start, about 0.15 s) is
    spent only where that fails, to say why or to find a bwrap that works."""
    first = bwrap.first() if requested != "process" else None
    if first is not None:
        # No longer in all than the search's probe would wait (two tries of half that each): a
        # bwrap that hangs must not keep the run silent for minutes. A slow host's first start
        # that misses this only costs the search and a proof with the run's own limits.
        quick = replace(limits, load_timeout=bwrap.PROBE_SECONDS / 6, wall_slack=0.0)
        started = time.monotonic()
        try:
            preflight.prove("bubblewrap", quick, first)
            return "bubblewrap", first
        except preflight.HostProblem as problem:
            if time.monotonic() - started > 3:  # the user has waited: say why, and that more is coming
                sys.stderr.write(f"note: {first} did not pass the sandbox proof ({gist(str(problem))}); "
                                 "looking for a bubblewrap that does.\n")
    isolation, bwrap_path = choose_isolation(requested, batch, allow_unsandboxed)
    preflight.prove(isolation, limits, bwrap_path)
    return isolation, bwrap_path


def published_isolation(allow_unsandboxed: bool) -> list[str]:
    """The arguments that keep ``check`` from its fallback where a score is published from it (CI,
    Gradescope): there, process limits alone would run the student's code as the grading user, who
    can read the reference and write the kit (a conftest.py that passes every later run). As root
    the fallback is still a sandbox (a jail and a uid of its own)."""
    if allow_unsandboxed or (hasattr(os, "geteuid") and os.geteuid() == 0):
        return []
    return ["--isolation", "bubblewrap"]


class SandboxRefused(GradeError):
    exit_code = Exit.REFUSED
