"""A worker's reply to a call, read on the grader's side: every value decoded and bounded as it
arrives, and the arguments after the call checked against the ones sent. What is left is plain
data (a :class:`CallResult`) that checks may read; anything else raises, and the client turns it
into the student's unreadable reply (client.py), never into a failure of the grader's.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import arena, codec

# Far more arrays than any answer holds (a draw log of 10,000 draws with numpy-scalar arguments is
# 20,000), and few enough that reading them costs the grader no more than a second or two.
MAX_REPLY_ARRAYS = 50_000
# What reading a reply raises for a reply no honest worker sends.
UNREADABLE = (codec.CodecError, TypeError, ValueError, KeyError, OverflowError)


@dataclass(frozen=True)
class CallResult:
    value: object
    draws: tuple = ()
    warnings: tuple = ()
    args_after: list | None = None
    kwargs_after: dict | None = None
    size: int = 0  # bytes of the reply as it crossed: what keeping this result may cost (probes.py)
    # The arrays passed in that the worker says the returned value holds as they are (the very
    # objects, not equal copies): a claim, which only an honest worker makes, and then truly.
    handed_back: tuple = ()
    rng_states: tuple = ()  # where each generator passed was left (draws.state_of): a claim, like the log


def read_result(reply: dict, args: tuple, kwargs: dict, return_args: bool, slots: list, where: dict,
                seen: tuple, size: int = 0) -> CallResult:
    """``reply`` to a call of ``args`` and ``kwargs`` as checks may read it; one of UNREADABLE otherwise."""
    from .draws import decode_logs, decode_states  # numpy's Generator: imported at the first reply read

    tally = codec.Tally(MAX_REPLY_ARRAYS)
    observed = arena.as_arrays(slots, seen) if slots else []
    resolve = arena.resolve_reported(observed)
    read_only = _placed_indices(reply.get("read_only", []), len(slots), "arrays made read-only") \
        if return_args else frozenset()
    result = CallResult(
        value=codec.decode(reply.get("value"), tally=tally),
        draws=tuple(decode_logs(reply.get("draws", []), tally)),
        rng_states=decode_states(reply.get("rng_states", [])),
        warnings=tuple(str(w)[:300] for w in reply.get("warnings", [])[:20] if isinstance(w, str)),
        args_after=arena.arguments_after(list(args), codec.decode(reply["args_after"], shared=resolve, tally=tally),
                                         where, slots, observed, read_only) if return_args else None,
        kwargs_after=arena.arguments_after(dict(kwargs), codec.decode(reply["kwargs_after"], shared=resolve,
                                                                      tally=tally),
                                           where, slots, observed, read_only) if return_args else None,
        size=size,
        handed_back=_handed_back(reply.get("handed_back", []), arena.placed_arrays(args, kwargs, where), len(slots))
        if return_args else (),
    )
    if return_args:
        _check_arguments_after(result, args, kwargs)
    return result


def _placed_indices(reported: object, slots: int, what: str) -> frozenset:
    """A worker's list of placed arrays (their indices), or unreadable."""
    if not isinstance(reported, list) or len(reported) > slots or not all(type(k) is int for k in reported):
        raise ValueError(f"its list of the {what} is not one of arrays passed in")
    return frozenset(reported)


def _handed_back(reported: object, placed: dict[int, object], slots: int) -> tuple:
    """The arrays sent that the worker names in its ``handed_back`` (placed indices), or unreadable."""
    return tuple(placed[k] for k in sorted(_placed_indices(reported, slots, "arrays it handed back")) if k in placed)


def _check_arguments_after(result: CallResult, args: tuple, kwargs: dict) -> None:
    """The arguments after the call come as they went: one per argument, under the same names.

    The worker reports them (checks read ``args_after[0]`` and ``kwargs_after[name]``), and only a
    worker whose reporting was tampered with can say otherwise: that is the submission's doing,
    never a failure of the grader's.
    """
    named = {key for key, value in kwargs.items() if not isinstance(value, codec.RngSpec)}
    if not isinstance(result.args_after, list) or len(result.args_after) != len(args):
        raise ValueError("its arguments after the call are not one per argument")
    if not isinstance(result.kwargs_after, dict) or set(result.kwargs_after) != named:
        raise ValueError("its keyword arguments after the call are not the ones it was given")
