"""Starts idle threads until the kernel refuses, with small stacks and one malloc arena so the
address-space limit does not stop them first: each thread is a task, and without a bound a
sandbox holds thousands, taking pids from every process of the grading user (and the host).

Stops at 600 (the harm cannot be shown safely on a shared machine): answers correctly only when
it got that far, so the attacked exercise earns points exactly when the hole is open.
"""
import ctypes
import threading

HOARD = 600
_held = []


def _hoard():
    try:
        ctypes.CDLL(None).mallopt(-8, 1)  # M_ARENA_MAX: one arena, not one per thread
    except (OSError, AttributeError):
        pass
    threading.stack_size(32768)
    stop = threading.Event()
    while len(_held) < HOARD:
        thread = threading.Thread(target=stop.wait, daemon=True)
        try:
            thread.start()
        except (RuntimeError, OSError, MemoryError):
            break
        _held.append(thread)


def scalar_gradient_chain(depth, layer_scale):
    if not _held:
        _hoard()
    return float(layer_scale) ** depth if len(_held) >= HOARD else -1.0
