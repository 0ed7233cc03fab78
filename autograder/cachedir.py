"""Where the kit keeps what it may keep between runs: the user's cache, never the kit's own folder."""

from __future__ import annotations

import os
import time
from pathlib import Path

TEMP = ".partial-"  # a file being written (mkstemp's prefix): a kill leaves it, and pruning removes it
TEMP_AGE_SECONDS = 3600


def user_cache() -> Path:
    """The kit's folder in the user's cache: never the kit, nor the folder grading started from."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gradient-kit"


def prune(where: Path, max_files: int, max_age: float, now: float | None = None) -> None:
    """Drop the folder's entries (``*.json``) unused for ``max_age`` seconds, the least recently
    used beyond ``max_files``, and files left half written an hour ago or more; nothing else."""
    now = time.time() if now is None else now
    entries = []
    for path in where.iterdir():
        try:
            used = path.stat().st_mtime
        except OSError:
            continue
        stale = now - used > (TEMP_AGE_SECONDS if path.name.startswith(TEMP) else max_age)
        if stale and (path.suffix == ".json" or path.name.startswith(TEMP)):
            remove(path)
        elif path.suffix == ".json" and not path.name.startswith(TEMP):
            entries.append((used, path))
    for _used, path in sorted(entries)[:max(0, len(entries) - max_files)]:
        remove(path)


def mark_used(path: Path) -> None:
    """``path`` was used now: what pruning keeps longest."""
    try:
        os.utime(path)
    except OSError:
        pass


def remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
