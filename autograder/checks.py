"""Small helpers graders use to state a verdict in the student's terms.

Every failure goes through :func:`fail`, which raises :class:`~autograder.problems.CheckFailed`
with a got/expected message and a hint naming the likely misconception.
"""

from __future__ import annotations

import numbers

from .codec import Later, RngSpec
from .problems import CheckFailed

np = Later("numpy", globals(), "np")  # imported at the first check that reads a value (codec.Later)


def fail(message: str, hint: str = "") -> None:
    raise CheckFailed(message, hint)


class Described:
    """How a call reads in a message, written out only when a message uses it: most calls pass,
    and rendering their arrays would cost more than checking them."""

    def __init__(self, render) -> None:
        self._render = render
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._render()
        return self._text

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return repr(str(self))


def show(value: object, limit: int = 120) -> str:
    """A short, student-readable rendering of a returned value."""
    if isinstance(value, np.ndarray):
        body = np.array2string(value, precision=4, threshold=8, edgeitems=2, max_line_width=limit)
        text = f"array of shape {value.shape}: {body}"
    elif isinstance(value, (float, np.floating)):
        text = repr(float(value))
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unchanged(now: object, before: np.ndarray) -> bool:
    """Whether an input array came back exactly as it was sent, bit for bit: -0.0 made 0.0, a
    value rounded back, or another dtype is a change (``np.array_equal`` would miss the first)."""
    return (isinstance(now, np.ndarray) and now.shape == before.shape and now.dtype == before.dtype
            and now.tobytes() == before.tobytes())


def layout_of(array: object) -> str:
    """How an input array was laid out in memory, for a failure message, where that is not numpy's
    default: a call printed with its values alone would not show it, and code that edits only such
    arrays behaves well on every array the student tries."""
    if isinstance(array, np.ndarray) and array.ndim > 1 and not array.flags.c_contiguous:
        return " (stored column by column, in Fortran order, as a transposed array is)"
    return ""


def is_real_number(value: object) -> bool:
    return isinstance(value, (numbers.Real, np.floating, np.integer)) and not isinstance(value, (bool, np.bool_))


def expect_real(value: object, call: str) -> float:
    """The value as a float, or a failure saying a single number was expected."""
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if not is_real_number(value):
        fail(f"{call} returned {show(value)} ({type(value).__name__}); expected a single float.",
             "Return a plain number, not a list, array or string.")
    return float(value)


def expect_close(got: object, expected: float, call: str, rtol: float = 1e-9, atol: float = 0.0,
                 hint: str = "") -> float:
    value = expect_real(got, call)
    if not np.isclose(value, expected, rtol=rtol, atol=atol) or np.isnan(value) != np.isnan(expected):
        fail(f"{call} returned {value!r}; expected {expected!r}{relative_error(value, expected)}.", hint)
    return value


def expect_array(got: object, shape: tuple, call: str) -> np.ndarray:
    if not isinstance(got, np.ndarray):
        fail(f"{call} returned {show(got)} ({type(got).__name__}); expected a numpy array of shape {shape}.",
             "Return an ndarray, for example the result of numpy operations on the input.")
    if got.shape != tuple(shape):
        fail(f"{call} returned an array of shape {got.shape}; expected shape {tuple(shape)}.",
             "The output must have the same shape as the input.")
    if not np.issubdtype(got.dtype, np.number) or np.iscomplexobj(got):
        fail(f"{call} returned an array of {got.dtype}; expected real numbers.")
    return got


def expect_array_close(got: object, expected: np.ndarray, call: str, rtol: float = 1e-6, atol: float = 1e-9,
                       hint: str = "") -> np.ndarray:
    array = expect_array(got, np.shape(expected), call)
    if not np.allclose(array, expected, rtol=rtol, atol=atol, equal_nan=False):
        broken = ~np.isfinite(array)
        if broken.any():
            where = tuple(int(i) for i in np.argwhere(broken)[0])
            fail(f"{call} returned {show(array)}, with {array[where]} at index {where}; expected finite values "
                 f"like {show(np.asarray(expected))}.", hint or "Look for a division by zero or an overflow.")
        worst = tuple(int(i) for i in np.unravel_index(np.argmax(np.abs(array - expected)), np.shape(expected)))
        got_text, expected_text = show_pair(array, np.asarray(expected))
        fail(f"{call} returned {got_text}; expected {expected_text} (largest difference at index "
             f"{worst}: got {float(array[worst])!r}, expected {float(np.asarray(expected)[worst])!r}"
             f"{relative_error(float(array[worst]), float(np.asarray(expected)[worst]))}).", hint)
    return array


def show_pair(got: np.ndarray, expected: np.ndarray, limit: int = 160) -> tuple[str, str]:
    """Both arrays at the fewest digits (4 at least) that make them look different, as a student
    would otherwise read ``[-1. 1.]; expected [-1. 1.]`` and see no mistake."""
    for precision in (4, 6, 8, 10, 12, 14, 17):
        texts = tuple(show_digits(a, precision, limit) for a in (got, expected))
        if texts[0] != texts[1]:
            return texts
    return texts


def show_digits(value: np.ndarray, precision: int, limit: int) -> str:
    body = np.array2string(value, precision=precision, threshold=8, edgeitems=2, max_line_width=limit)
    text = f"array of shape {value.shape}: {body}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def relative_error(got: float, expected: float) -> str:
    """", a relative error of 3.2e-05" where it means something (not for an expected 0)."""
    if expected == 0 or not np.isfinite(got) or not np.isfinite(expected):
        return ""
    return f", a relative error of {abs(got - expected) / abs(expected):.2g}"


def call_text(function: str, *args, **kwargs) -> str:
    """How a call looks in a message: ``f(10, 0.25)``, arrays shown by shape."""
    def short(value):
        if isinstance(value, RngSpec):  # the generator the student can rebuild to rerun the call
            return f"np.random.default_rng({value.seed})"
        if isinstance(value, np.ndarray):
            return f"<array {value.shape}>"
        if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
            return "[" + ", ".join(short(v) for v in value[:4]) + (", ..." if len(value) > 4 else "") + "]"
        return repr(value)
    parts = [short(a) for a in args] + [f"{k}={short(v)}" for k, v in kwargs.items()]
    return f"{function}({', '.join(parts)})"
