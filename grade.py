#!/usr/bin/env python3
"""Grade the deep-network gradient exercises. Run `python grade.py --help` for the commands."""

import sys
from pathlib import Path

# Works from a fresh clone or a student release without installing the kit first.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from autograder.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
