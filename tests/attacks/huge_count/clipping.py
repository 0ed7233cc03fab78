"""Patches the worker so every reply reports a printed-character total with 4,000 digits and every
error a line number with 4,000 digits: numbers no formatter or JSON writer will take."""
import sys

_HUGE = 10**3999
_capture = type(sys.stdout)
_take = _capture.take


def _lying_take(self):
    taken = _take(self)
    taken.update(total=_HUGE, cut=_HUGE)
    return taken


_capture.take = _lying_take
_worker = sys.modules.get("__main__")
if _worker is not None and hasattr(_worker, "_error"):
    _worker._error = lambda exc, filename: {"kind": "syntax", "type": "SyntaxError", "message": "x",
                                            "line": _HUGE, "traceback": ""}


def clip_by_global_norm(grads, max_norm):
    print("counted")
    if max_norm <= 0:
        raise ValueError("max_norm must be positive")
    return grads, 0.0
