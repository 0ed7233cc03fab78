"""What every hostile_returns_* attacker shares, put in place of its `# __HOSTILE_RETURNS__` line by
tests/test_attacks.py: each attacker sets STEP and OFFSET, so each meets the odd values in another order."""
import math
import numpy as np

_state = [0]


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no")


class _Weird(float):
    def __repr__(self):
        raise RuntimeError("no repr")


def _values():
    return [None, True, 0, -1, 7, 2**1000, -2**1000, 1e308, -0.0, math.nan, math.inf, -math.inf, 1j, "1.0",
            b"x", [], [1.0], [[1.0]], (1.0,), {}, {"a": 1}, np.float32(1.0), np.float16(1.0),
            np.longdouble(1.0), np.int64(3), np.uint8(200), np.bool_(True), np.array(1.0), np.array([]),
            np.zeros((0, 3)), np.ones(3), np.ones((2, 3)), np.full((2, 3), np.nan), np.ones((2, 3), dtype=np.float32),
            np.ones((2, 3), dtype=np.int8), np.array(["a"]), np.array([1 + 1j]), np.ones((1,) * 32),
            np.ones((2, 3)) > 0, [np.ones(3), np.ones(3)], [np.ones(3), None], [1.0] * 10, [math.nan] * 5,
            [2**1000] * 3, np.arange(24.0).view(np.uint8), np.array([1e308, 1e308]), np.array([1e-320]),
            range(3), {1.0}, np.ma.masked_array([1.0, 2.0]), np.array([None, 1.0], dtype=object),
            np.ones((3, 3)).T, np.ones(10)[::2], np.ones((4, 4))[:, :0], _Weird(1.0), float("1e-310"),
            np.array([np.inf, -np.inf]), np.array(2**62), np.array([[1.0, 2.0], [3.0, 4.0]], dtype=">f8"),
            np.datetime64("2020-01-01"), np.void(b"ab"), Ellipsis, NotImplemented, slice(1), type, np,
            ([np.ones(3)], 1.0), ([np.ones(3)], math.nan), ([], 0.0), ([np.ones(3)], 2**1000), (None, None),
            ([np.ones(3)] * 3, np.float32(1.0)), ([1.0, 2.0], 1.0), (np.ones((2, 3)), 3.0), ([np.ones(3)], 1.0, 2.0),
            ([np.full(3, np.nan)], math.inf), ({"a": np.ones(3)}, 1.0), ([np.ones(3)], "1.0"),
            [0.0] * 100001, np.ones(70000), [float(i) for i in range(65)], [1e308, -1e308, 1e-308]]


def _weird(*args, **kwargs):
    i = _state[0]
    _state[0] += 1
    k = (i * STEP + OFFSET)
    if k % 23 == 5:
        raise [ValueError("x"), TypeError("x"), _Unprintable(), ZeroDivisionError(), RecursionError(),
               MemoryError(), KeyError("\x1b[2J"), StopIteration(), ArithmeticError(),
               type("ValueError", (Exception,), {})()][k % 10]
    if k % 29 == 7:
        for a in list(args) + list(kwargs.values()):
            if isinstance(a, np.ndarray) and a.size:
                a.flat[0] = np.nan
            elif isinstance(a, list):
                [a.append, a.clear, a.reverse][k % 3](*([np.ones(2)] if k % 3 == 0 else []))
    if k % 31 == 3:
        print("\x1b[2J\x1b]8;;http://evil\x07" * 3 + "x" * 5000)
    if k % 37 == 11:
        import sys
        sys.stdout.flush()
    values = _values()
    return values[k % len(values)]
