"""``check``'s warm sandboxes, started before the rest of the kit is imported.

Loading the kit (numpy, jinja2, the report's modules) takes about a third of a second, and so does
starting a sandbox that has imported numpy: started first, the sandboxes are ready by the time the
first exercises ask for workers. They are the sandboxes the quick way would start itself, one per
lane of exercises answered at once (:func:`lanes_for`), and are used only
where that way is taken; nothing has run in them until then, and whoever started them closes
them. The room to start processes is proved before they start (once they run, their own tasks
would count against the room they need), and they are started only where the day's scripts are
kept: otherwise the full way is taken, which proves its own.
"""

from __future__ import annotations

import argparse
import os

from . import bwrap, room, sandbox
from .zygote import Zygote

MAX_LANES = 3


def chosen_isolation(args: argparse.Namespace) -> tuple[str, str] | None:
    """(isolation, bwrap) for check's quick way, unproved (the bwrap a search would try first);
    None where the quick way is not tried."""
    if getattr(args, "no_scripts", False):
        return None
    first = bwrap.first() if args.isolation != "process" else None
    if args.isolation != "process" and first is None:
        return None
    return ("bubblewrap", first) if first else ("process", "")


def lanes_for(exercises: int) -> int:
    """How many sandboxes answer a check at once: one per usable core, at most three (each costs a
    sandbox and numpy's import, about a tenth of a second of CPU), never more than the exercises."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, MAX_LANES, exercises))


def start_early(args: argparse.Namespace) -> tuple[Zygote, ...]:
    """Warm sandboxes, already starting, for check's quick way: one per exercise answered at once
    (:func:`lanes_for`); none where it would not use them."""
    chosen = chosen_isolation(args)
    if chosen is None or getattr(args, "workers", "zygote") == "fresh" or not sandbox.zygote_possible(*chosen):
        return ()
    if room.shortfall(1):  # too few processes may start: the full way refuses, and says why
        return ()
    from . import cli, scriptcache
    from .model import load_course
    try:
        if not scriptcache.path_for(cli.settings_for(args, *chosen)).is_file():
            return ()  # nothing kept to answer from: the full way, which starts its own sandbox
    except OSError:
        return ()
    one = args.exercise is not None or str(args.folder).endswith(".py")
    # Each more lane is a sandbox more at once: only where the room would take two students' worth.
    count = 1 if one or room.shortfall(2) else lanes_for(len(load_course(cli.ROOT / "graders")))
    limits = sandbox.Limits.for_call_timeout(args.timeout, args.memory_mb << 20)
    warm = tuple(Zygote(chosen[0], limits, chosen[1]) for _ in range(count))
    for zygote in warm:
        zygote.start()
    return warm
