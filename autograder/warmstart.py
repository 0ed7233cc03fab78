"""``check``'s warm sandbox, started before the rest of the kit is imported.

Loading the kit (numpy, jinja2, the report's modules) takes about a third of a second, and so does
starting a sandbox that has imported numpy: started first, the sandbox is ready by the time the
first exercise asks for a worker. It is the sandbox the quick way would start itself
(:func:`autograder.checkcmd._known`), and is used only where that way is taken; nothing has run in
it until then, and whoever started it closes it. The room to start processes is proved before it
starts (once it runs, its own tasks would count against the room it needs), and it is started only
where the day's scripts are kept: otherwise the full way is taken, which proves its own.
"""

from __future__ import annotations

import argparse

from . import bwrap, room, sandbox
from .zygote import Zygote


def chosen_isolation(args: argparse.Namespace) -> tuple[str, str] | None:
    """(isolation, bwrap) for check's quick way, unproved (the bwrap a search would try first);
    None where the quick way is not tried."""
    if getattr(args, "no_scripts", False):
        return None
    first = bwrap.first() if args.isolation != "process" else None
    if args.isolation != "process" and first is None:
        return None
    return ("bubblewrap", first) if first else ("process", "")


def start_early(args: argparse.Namespace) -> Zygote | None:
    """A warm sandbox, already starting, for check's quick way; None where it would not use one."""
    chosen = chosen_isolation(args)
    if chosen is None or getattr(args, "workers", "zygote") != "zygote" or not sandbox.zygote_possible(*chosen):
        return None
    if room.shortfall(1):  # too few processes may start: the full way refuses, and says why
        return None
    from . import cli, scriptcache
    try:
        if not scriptcache.path_for(cli.settings_for(args, *chosen)).is_file():
            return None  # nothing kept to answer from: the full way, which starts its own sandbox
    except OSError:
        return None
    warm = Zygote(chosen[0], sandbox.Limits.for_call_timeout(args.timeout, args.memory_mb << 20), chosen[1])
    warm.start()
    return warm
