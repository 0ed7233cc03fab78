"""Sleeps far past any timeout and ignores the polite signals."""
import signal
import time

for name in ("SIGTERM", "SIGINT", "SIGALRM"):
    try:
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    except Exception:
        pass


def matrix_gradient_norms(depth, dim, weight_std, rng):
    time.sleep(10**6)
