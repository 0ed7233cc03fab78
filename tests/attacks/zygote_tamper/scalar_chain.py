"""Reaches for the process that started it (a zygote, which forks the next exercise's worker).

With write access to the zygote's memory, its descriptors, ptrace on it, or a process of its own
that outlives this worker, a student could change what every later worker starts from. It only
proves the hole: the answer is right exactly when one is open.
"""
import ctypes
import os


def _holes():
    parent, found = os.getppid(), []
    try:
        with open(f"/proc/{parent}/mem", "r+b"):
            found.append("memory")
    except OSError:
        pass
    try:
        listed = os.listdir(f"/proc/{parent}/fd")  # the numbers alone are no way in
    except OSError:
        listed = []
    for number in listed:
        try:
            os.readlink(f"/proc/{parent}/fd/{number}")
            found.append("descriptors")
        except OSError:
            pass
        try:
            os.close(os.open(f"/proc/{parent}/fd/{number}", os.O_RDONLY))
            found.append("descriptors")
        except OSError:
            pass
    if ctypes.CDLL(None, use_errno=True).ptrace(16, parent, None, None) == 0:  # PTRACE_ATTACH
        found.append("ptrace")
    try:
        child = os.fork()
    except OSError:
        child = -1
    if child == 0:
        os._exit(0)
    if child > 0:
        found.append("fork")
    return found


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** depth if _holes() else 0.0
