"""Where the kit keeps what it may keep between runs: the user's cache, never the kit's own folder."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache() -> Path:
    """The kit's folder in the user's cache: never the kit, nor the folder grading started from."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gradient-kit"
