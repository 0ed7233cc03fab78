#!/usr/bin/env python3
"""Grade the deep-network gradient exercises. Run `python grade.py --help` for the commands."""

import os
import signal
import sys
from pathlib import Path

try:
    os.getcwd()
except FileNotFoundError:  # removed under the shell (a deleted checkout or build folder)
    sys.stderr.write("error: the current folder no longer exists; cd into an existing folder and run again.\n")
    sys.exit(2)

# Works from a fresh clone or a student release without installing the kit first.
sys.path.insert(0, str(Path(__file__).resolve().parent))

try:
    from autograder.startup import fit_process, missing_dependency  # noqa: E402  (the standard library only)

    fit_process()
    if missing_dependency():  # most are imported only when needed: asked now, before anything runs
        raise ModuleNotFoundError(name=missing_dependency())
    from autograder.cli import main  # noqa: E402
except ModuleNotFoundError as missing:  # run with a Python that lacks the kit's dependencies
    sys.stderr.write(f"error: this Python ({sys.executable}) lacks {missing.name!r}, which the kit needs; "
                     f"install the kit first: `python -m venv .venv && . .venv/bin/activate && pip install -e .`\n")
    sys.exit(2)
except KeyboardInterrupt:  # Ctrl-C while the kit loads: nothing has run yet
    sys.stderr.write("error: interrupted; nothing was graded.\n")
    sys.exit(130)

if __name__ == "__main__":
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl-C in the instant after the run said its last word
        sys.stderr.write("error: interrupted as the run ended; what it printed above stands.\n")
        code = 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # done and said: Python's shutdown is not interrupted
    sys.exit(code)
