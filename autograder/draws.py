"""The draw log: every sampling call student code makes on a generator the grader handed it.

Worker side, :func:`recording_generator` is a real ``np.random.Generator`` that writes each
outer sampling call down; grader side, :func:`decode_logs` checks and bounds the logs of a reply.
The log is written in the student's interpreter, so it is a claim, not an observation: graders
replay it on their own generator and believe it only as far as the values the student returned
follow from the replayed draws (see ``graders/test_matrix_norms.py`` and the README).

Like :mod:`codec`, this module imports only the standard library, numpy and codec, because the
worker loads it too.
"""

from __future__ import annotations

import numpy as np

if __package__:  # imported by the grader, as part of the autograder package
    from . import codec
else:  # imported by the worker, next to codec.py
    import codec

MAX_LOGGED_DRAWS = 10000
MAX_ELEMENTS = 2**63 - 1  # no array numpy can make holds more
SAMPLERS = (
    "normal", "standard_normal", "random", "uniform", "integers", "choice", "permutation",
    "shuffle", "permuted", "standard_exponential", "exponential", "binomial", "poisson",
    "beta", "gamma", "standard_gamma", "lognormal", "laplace", "logistic", "standard_t",
    "standard_cauchy", "chisquare", "multivariate_normal", "bytes", "rayleigh", "weibull",
    "triangular", "vonmises", "wald", "zipf", "geometric", "pareto", "power", "gumbel",
)


class RecordingGenerator(np.random.Generator):
    """A real Generator that writes down every draw, so the grader can replay it.

    Made once per process (a class per call cost a quarter of a millisecond); each generator
    keeps its own log and its own count of the recorded calls in progress (numpy's samplers call
    each other, and only the outer one counts)."""

    def spawn(self, n_children):
        # Children draw from other streams: log the spawn itself and hand out plain generators,
        # so their draws are never mistaken for draws on the recorded one.
        self._kit_log.append({"method": "spawn", "args": codec.encode([n_children]), "kwargs": codec.encode({}),
                              "shape": [], "dtype": ""})
        return [np.random.Generator(child) for child in self.bit_generator.spawn(n_children)]


_NO_KWARGS = codec.encode({})


def _encoded(args: tuple) -> list:
    """codec.encode(list(args)), without its walk for the usual plain numbers (a draw is logged on
    every sampling call: a few microseconds each add up over a class)."""
    if all(type(arg) in (int, float) for arg in args):
        return list(args)
    return codec.encode(list(args))


_NORMAL_PARAMETERS = ("loc", "scale", "size")


def _as_normal_with_size(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """rng.normal's arguments as logged: a loc or scale that is an array of one repeated value draws
    exactly what that value does with ``size`` the arrays' broadcast shape (numpy draws every entry
    in order either way), so it is logged that way. A (260, 260) array of zeros would cost the log
    half a megabyte a layer, past what a reply may hold, and a correct student's draws would be
    unreadable; any other array is logged as it is."""
    if len(args) > 3 or any(key not in _NORMAL_PARAMETERS for key in kwargs):
        return args, kwargs
    bound = {**dict(zip(_NORMAL_PARAMETERS, args)), **kwargs}
    shapes = []
    for key in ("loc", "scale"):
        value = bound.get(key)
        if type(value) is not np.ndarray:
            continue
        if value.size == 0 or value.dtype.kind not in "fiu" or not np.all(value == value.flat[0]):
            return args, kwargs
        shapes.append(value.shape)
        bound[key] = float(value.flat[0])
    if not shapes:
        return args, kwargs
    if bound.get("size") is None:
        bound["size"] = tuple(np.broadcast_shapes(*shapes))
    return (), bound


def _recorder(name: str):
    original = getattr(np.random.Generator, name)

    def recorder(self, *args, **kwargs):
        active = self._kit_active
        active[0] += 1
        try:
            out = original(self, *args, **kwargs)
        finally:
            active[0] -= 1
        if active[0]:
            return out
        log = self._kit_log
        if len(log) < MAX_LOGGED_DRAWS:
            if name == "normal":
                args, kwargs = _as_normal_with_size(args, kwargs)
            array = out if type(out) is np.ndarray else np.asarray(out)
            log.append({"method": name, "args": _encoded(args), "kwargs": codec.encode(kwargs) if kwargs else _NO_KWARGS,
                        "shape": list(array.shape), "dtype": array.dtype.str})
        elif log[-1]["method"] != "__overflow__":
            log.append({"method": "__overflow__"})
        return out

    recorder.__name__ = name
    recorder.__doc__ = original.__doc__
    return recorder


for _name in SAMPLERS:
    if hasattr(np.random.Generator, _name):
        setattr(RecordingGenerator, _name, _recorder(_name))


def recording_generator(seed: int) -> tuple[np.random.Generator, list]:
    """A recording generator seeded with ``seed``, and the log it writes."""
    generator = RecordingGenerator(np.random.PCG64(seed))
    generator._kit_log, generator._kit_active = [], [0]
    return generator, generator._kit_log


def state_of(generator: np.random.Generator) -> list | None:
    """Worker side: where a generator's stream stands after a call, as ``[state, inc, has_uint32,
    uinteger]`` with the two 128-bit numbers in hex; None for a bit generator other than PCG64.
    Draws made past its sampling methods (``rng.bit_generator.advance``, a state saved and put
    back) are not in the log, but they move this."""
    try:
        state = generator.bit_generator.state
        if state.get("bit_generator") != "PCG64":
            return None
        return [format(state["state"]["state"], "x"), format(state["state"]["inc"], "x"),
                int(state["has_uint32"]), int(state["uinteger"])]
    except Exception:  # noqa: BLE001 - a state the student mangled reads as unknown, never as a crash
        return None


def decode_states(raw: object) -> tuple:
    """Grader side: the states a reply says its generators were left in (:func:`state_of`), each a
    tuple of four ints or None; CodecError for anything else."""
    if not isinstance(raw, list) or len(raw) > 8:
        raise codec.CodecError("the generators' states must be a short list")
    states = []
    for state in raw:
        if state is None:
            states.append(None)
            continue
        if not (isinstance(state, list) and len(state) == 4 and all(isinstance(h, str) and 0 < len(h) <= 32
                                                                  for h in state[:2])
                and all(type(n) is int for n in state[2:])):
            raise codec.CodecError("a generator's state must be two hex numbers and two ints")
        try:
            states.append((int(state[0], 16), int(state[1], 16), state[2], state[3]))
        except ValueError:
            raise codec.CodecError("a generator's state must be two hex numbers and two ints") from None
    return tuple(states)


def _shape(raw: object) -> list:
    """A logged output shape as numpy could have made it: at most 64 non-negative ints whose product
    an array could hold. Anything else is the worker's lie, refused here, so that no grader's
    arithmetic on a count (a float of it, say) can fail on the trusted side."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > 64:
        raise codec.CodecError("a draw's shape must be a short list")
    count = 1
    for part in raw:
        if not isinstance(part, int) or isinstance(part, bool) or part < 0:
            raise codec.CodecError("a draw's shape must hold non-negative ints")
        count *= part
        if count > MAX_ELEMENTS or part > MAX_ELEMENTS:
            raise codec.CodecError("a draw's shape holds more values than any array")
    return list(raw)


def decode_logs(raw: object, tally: codec.Tally | None = None) -> list:
    """Grader side: the logs of a reply, each entry checked and bounded; CodecError otherwise."""
    if not isinstance(raw, list):
        raise codec.CodecError("draws must be a list")
    logs = []
    for log in raw[:8]:
        if not isinstance(log, list):
            raise codec.CodecError("a draw log must be a list")
        entries = []
        for entry in log[:20000]:
            if not isinstance(entry, dict) or not isinstance(entry.get("method"), str):
                raise codec.CodecError("a draw must name its method")
            entries.append({"method": entry["method"][:40],
                            "args": codec.decode(entry.get("args", []), tally=tally),
                            "kwargs": codec.decode(entry.get("kwargs", {"__dict__": []}), tally=tally),
                            "shape": _shape(entry.get("shape")),
                            "dtype": str(entry.get("dtype", ""))[:16]})
        logs.append(entries)
    return logs
