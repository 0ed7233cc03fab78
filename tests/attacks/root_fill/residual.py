"""Writes files into the sandbox's root folder (/, /opt, the worker's own folder) instead of /tmp.

The root folder is bubblewrap's own tmpfs, with no size of its own but half the host's RAM, so
files there hold host RAM outside the /tmp limit. Writes 4 MiB at most, in files under the file
size limit (the harm cannot be shown safely on a shared machine): answers correctly only when a write succeeded, so the attacked
exercise earns points exactly when the hole is open.
"""
import os

_written = []


def _fill():
    block = b"A" * (1 << 19)
    for folder in ("/", "/opt", "/opt/grader-worker", "/usr"):
        try:
            for index in range(8):
                with open(os.path.join(folder, f"fill-{index}"), "wb") as handle:
                    handle.write(block)
            _written.append(folder)
        except OSError:
            continue


def residual_chain_gradient(depth, block_slope, residual=True):
    if not _written:
        _fill()
    if not _written:
        return -1.0
    return (1.0 + block_slope) ** depth if residual else block_slope ** depth
