"""Checks for matrix_norms.py: the norm of a ones vector pushed through `depth` fresh N(0, std²) matrices.

The student's function gets a recording generator (``RngSpec``): every sampling call it makes on
``rng`` comes back in ``result.draws[0]``. Public checks read that log and the returned norms'
properties; the hidden check replays the logged calls on the grader's own generator and
recomputes the norms the student's draws must give.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import strategies as st

from autograder.checks import fail, is_real_number, show
from autograder.codec import RngSpec, Unrepresentable

FUNCTION = "matrix_gradient_norms"
NORMAL_METHODS = ("normal", "standard_normal")
SIGNATURES = {"normal": ("loc", "scale", "size"), "standard_normal": ("size", "dtype", "out")}
FLOAT_DTYPES = {"float64": np.float64, "f8": np.float64, "<f8": np.float64, "d": np.float64,
                "double": np.float64, "float": np.float64,
                "float32": np.float32, "f4": np.float32, "<f4": np.float32, "f": np.float32, "single": np.float32}
MAX_ARGUMENT_VALUES = 1 << 16
MAX_ARRAY_VALUES = 2**63 - 1  # what numpy can count in one array (an int64)
NORM_RTOL = 1e-5  # the spec's "within a relative 1e-5", the starting norm included (ones summed in float32 are still ones)
DRAW_HINT = ("Each layer's matrix is drawn from the rng you are given, with mean 0 and standard deviation "
             "weight_std, one fresh (dim, dim) matrix per layer.")


def call_text(depth, dim, std, seed):
    """How a call looks to the student, with a generator they can rebuild themselves."""
    return f"{FUNCTION}({depth}, {dim}, {std!r}, np.random.default_rng({seed}))"


def run_result(student, depth, dim, std, seed):
    """Call the student with a recording generator: (the whole result, draw log, call text)."""
    result = student.call(FUNCTION, depth, dim, std, RngSpec(seed))
    log = result.draws[0] if result.draws else []
    return result, log, call_text(depth, dim, std, seed)


def run(student, depth, dim, std, seed):
    """Call the student with a recording generator: (returned value, draw log, call text)."""
    result, log, call = run_result(student, depth, dim, std, seed)
    return result.value, log, call


def expect_float_entries(norms: list, call) -> None:
    """Every entry of the returned list is itself a float (numpy float64 is one), as the spec's Output says."""
    odd = next((item for item in norms if isinstance(item, bool) or not isinstance(item, float)), None)
    if odd is not None:
        fail(f"{call} returned a list holding {odd!r} of type {type(odd).__name__}; expected floats.",
             "Each entry of the list is one float, the norm (numpy float64 is fine; float32, ints and 0-d arrays "
             "are not): make each norm a plain float as you record it.")


def as_norms(value, call):
    """The returned norms as a 1-D float array (a list, tuple or 1-D array is read here; the type
    itself is judged by test_returns_a_list_of_floats)."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        items = list(value)
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        fail(f"{call} returned {show(value)} ({type(value).__name__}); expected a list of floats: "
             "the starting norm, then one norm per layer.",
             "Collect the norms in a list and return the list.")
    numbers = []
    for index, item in enumerate(items):
        if isinstance(item, np.ndarray) and item.shape == ():
            item = item[()]
        if not is_real_number(item):
            fail(f"{call} returned a list whose entry {index} is {show(item)} ({type(item).__name__}); "
                 "every entry must be a single float, the norm of g at that point.",
                 "Each entry of the list is the norm, one number, not the vector itself.")
        try:
            numbers.append(float(item))
        except OverflowError:
            numbers.append(math.inf)
    return np.array(numbers, dtype=float)


def plural(count, word, many=None):
    return f"{count:g} {word if count == 1 else many or word + 's'}"


def brief(norms, head=6):
    """Norms at 4 significant digits, the first few and the last: [4, 4.824, 6.711, ..., 1.2e+05]."""
    parts = [f"{x:.4g}" for x in norms]
    if len(parts) > head + 1:
        parts = parts[:head] + ["..."] + parts[-1:]
    return "[" + ", ".join(parts) + "]"


def norms_of(student, depth, dim, std, seed, length=None):
    """Call the student and return (norms, call text); with length, the list must be that long."""
    value, _, call = run(student, depth, dim, std, seed)
    norms = as_norms(value, call)
    if length is not None and len(norms) != length:
        fail(f"{call} returned {plural(len(norms), 'norm')}; expected {length} (depth + 1).",
             "Record the starting norm, then one norm after each of the depth layers.")
    return norms, call


# --- reading the draw log ------------------------------------------------------------------------

def bad_log(call, reason):
    fail(f"{call}: the grader could not read a draw made on rng ({reason}).", DRAW_HINT)


def read_number(value, name, call):
    """A loc/scale argument as a float or a small float array; anything else is refused."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iuf" or value.size > MAX_ARGUMENT_VALUES:
            bad_log(call, f"{name} is an array of {value.dtype} with {value.size} values")
        array = value.astype(float)
        if not np.all(np.isfinite(array)):
            bad_log(call, f"{name} holds values that are not finite")
        return array
    try:
        number = float(value) if is_real_number(value) else math.nan
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        bad_log(call, f"{name}={show(value)}")
    return number


def read_shape(value, name, call):
    """A size argument as a tuple of non-negative ints (None stays None)."""
    if value is None:
        return None
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind in "iu":
        value = value.tolist()
    if is_real_number(value) and not isinstance(value, (float, np.floating)):
        value = (value,)
    if not isinstance(value, (tuple, list)) or len(value) > 32:
        bad_log(call, f"{name}={show(value)}")
    shape = []
    for part in value:
        if not is_real_number(part) or isinstance(part, (float, np.floating)) or int(part) < 0:
            bad_log(call, f"{name}={show(value)}")
        shape.append(int(part))
    # No array holds more values than an int64 counts: a log that says so was never numpy's, and the
    # counts the checks print and compare must stay ordinary numbers.
    if any(part > MAX_ARRAY_VALUES for part in shape) or math.prod(shape) > MAX_ARRAY_VALUES:
        bad_log(call, f"{name} with more values than any array holds")
    return tuple(shape)


def read_draws(log, call):
    """Every logged call as a dict: method, shape, count; normal draws also loc, scale, dtype."""
    if not isinstance(log, list):
        bad_log(call, "the log is not a list")
    draws = []
    for entry in log:
        method = entry.get("method")
        if method == "__overflow__":
            fail(f"{call} made more than 10000 separate calls on rng for a small case.",
                 "Draw a whole (dim, dim) matrix per call, and draw nothing but the weight matrices.")
        recorded = read_shape(entry.get("shape"), "the output shape", call)
        if recorded is None:
            bad_log(call, "a draw without an output shape")
        draw = {"method": method, "shape": recorded, "count": math.prod(recorded)}
        if method in SIGNATURES:
            draw.update(bind_normal(method, entry.get("args"), entry.get("kwargs"), call))
            if draw.pop("size") != recorded:
                bad_log(call, f"rng.{method} returned shape {recorded}, which its arguments do not give")
        draws.append(draw)
    return draws


def bind_normal(method, args, kwargs, call):
    """The arguments of one normal/standard_normal call, checked and named."""
    names = SIGNATURES[method]
    if not isinstance(args, list) or not isinstance(kwargs, dict) or len(args) > len(names):
        bad_log(call, f"rng.{method} with arguments {show(args)}")
    bound = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names or key in bound:
            bad_log(call, f"rng.{method} with argument {key!r}")
        bound[key] = value
    if method == "normal":
        loc = read_number(bound.get("loc", 0.0), "loc", call)
        scale = read_number(bound.get("scale", 1.0), "scale", call)
        if np.any(np.asarray(scale) < 0):
            bad_log(call, "a negative scale")
        size = read_shape(bound.get("size"), "size", call)
        # As numpy draws: loc and scale broadcast together, and to size when it is given. A log
        # that says otherwise was never made by rng.normal, and the replay could not run it.
        try:
            together = tuple(np.broadcast_shapes(np.shape(loc), np.shape(scale)))
            if size is not None and tuple(np.broadcast_shapes(together, size)) != size:
                raise ValueError("loc and scale do not fit size")
        except ValueError:
            bad_log(call, f"loc of shape {np.shape(loc)} and scale of shape {np.shape(scale)}"
                          + ("" if size is None else f" for size {size}"))
        return {"loc": loc, "scale": scale, "size": together if size is None else size, "dtype": np.float64}
    size = read_shape(bound.get("size"), "size", call)
    dtype = bound.get("dtype")
    out = bound.get("out")
    if out is not None:
        if not isinstance(out, np.ndarray) or out.dtype not in (np.float64, np.float32):
            bad_log(call, "an out= argument that is not a float array")
        size, dtype = out.shape, out.dtype.type
    elif dtype is None:
        dtype = np.float64
    elif isinstance(dtype, Unrepresentable):
        dtype = None  # a dtype class (np.float64 or np.float32) does not cross the worker boundary: unknown
    elif isinstance(dtype, str) and dtype in FLOAT_DTYPES:
        dtype = FLOAT_DTYPES[dtype]
    else:
        bad_log(call, f"dtype={show(dtype)}")
    return {"loc": 0.0, "scale": 1.0, "size": () if size is None else size, "dtype": dtype}


def values_drawn(draws):
    return sum(d["count"] for d in draws)


def expect_norms_follow_rng(student, value, depth, dim, std, seed, call) -> None:
    """The draw log is the worker's claim; that the norms come from rng the grader sees for itself:
    the same call on another generator returns other norms. Checked once in each check that reads
    the log, so a log written by hand, with no matrix drawn, earns none of their points."""
    other, _, other_call = run(student, depth, dim, std, seed + 1000)
    try:
        first, second = np.asarray(value, dtype=float), np.asarray(other, dtype=float)
    except (TypeError, ValueError, OverflowError):
        return  # not a list of numbers: the checks on the returned list say so
    if first.shape == second.shape and np.array_equal(first, second, equal_nan=True):
        fail(f"{call} and {other_call} returned the same norms, {brief(first.ravel())}; norms pushed through "
             "matrices drawn from two different generators differ.",
             "Compute every layer's norm from the matrix you drew from rng at that layer, not from a formula for "
             "how norms grow on average.")


# --- public checks: the returned list -------------------------------------------------------------

@pytest.mark.points(1)
def test_returns_depth_plus_one_norms(student):
    """The list holds depth + 1 norms: the starting one and one after every layer."""
    for depth, dim, std, seed in ((1, 4, 0.5, 11), (5, 8, 0.3, 12), (12, 3, 0.7, 13), (20, 16, 0.25, 14)):
        norms_of(student, depth, dim, std, seed, length=depth + 1)


@pytest.mark.points(1)
def test_starts_with_the_norm_of_ones(student):
    """The first norm is the norm of the starting gradient ones(dim), sqrt(dim), before any layer."""
    for depth, dim, std, seed in ((3, 4, 0.5, 21), (1, 9, 2.0, 22), (10, 64, 0.1, 23), (5, 2, 1.5, 24)):
        norms, call = norms_of(student, depth, dim, std, seed)
        expected = math.sqrt(dim)
        if len(norms) == 0 or not np.isclose(norms[0], expected, rtol=NORM_RTOL, atol=0):
            got = f"{float(norms[0])!r}" if len(norms) else "nothing"
            fail(f"{call} started with {got}; expected {expected!r}, the norm of np.ones({dim}), within a relative 1e-5.",
                 "Start from the vector of ones the spec names, not a random vector, and record its norm (the norm "
                 "itself, not its square) before the first layer.")


@pytest.mark.points(1)
def test_zero_layers_return_only_the_starting_norm(student):
    """With depth 0 there are no layers: the result is [sqrt(dim)]."""
    for dim, seed in ((1, 31), (4, 32), (9, 33), (64, 34)):
        norms, call = norms_of(student, 0, dim, 0.5, seed)
        expected = [math.sqrt(dim)]
        if len(norms) != 1 or not np.isclose(norms[0], expected[0], rtol=NORM_RTOL, atol=0):
            fail(f"{call} returned {show(norms.tolist())}; expected {expected!r}.",
                 "Record the starting norm before the loop; with depth 0 the loop runs zero times.")


@pytest.mark.points(1)
def test_returns_a_list_of_floats(student):
    """The result is a Python list of floats (numpy float64 is fine; not float32, ints or 0-d arrays), not a numpy array or a tuple."""
    depth, dim, std, seed = 4, 6, 0.5, 41
    value, _, call = run(student, depth, dim, std, seed)
    if not isinstance(value, list):
        fail(f"{call} returned {show(value)} ({type(value).__name__}); expected a list.",
             "The spec's Output is a list: not a numpy array and not a tuple.")
    expect_float_entries(value, call)
    as_norms(value, call)


@pytest.mark.points(1)
def test_norms_are_finite_and_non_negative(student):
    """Every entry is a norm: a finite number >= 0 (no logarithms, signed sums or NaN)."""
    for depth, dim, std, seed in ((20, 64, 0.01, 51), (20, 64, 1.0, 52), (10, 8, 0.3, 53)):
        norms, call = norms_of(student, depth, dim, std, seed)
        if len(norms) == 0:  # no entry at all is no norm, not a list whose every norm is fine
            fail(f"{call} returned no norms at all; expected {depth + 1} finite numbers >= 0.",
                 "Record the norm of the gradient before the first layer and after every layer.")
        bad = [i for i, n in enumerate(norms) if not (math.isfinite(n) and n >= 0)]
        if bad:
            fail(f"{call} returned {float(norms[bad[0]])!r} at position {bad[0]}; a norm is a finite number >= 0.",
                 "Record the norm itself: not its logarithm, not a sum of the entries, not one entry.")


# --- public checks: what was drawn from rng ----------------------------------------------------

@pytest.mark.points(1)
def test_uses_the_passed_in_rng(student):
    """The random matrices are drawn from the rng argument, not from np.random or a new generator."""
    for depth, dim, std, seed in ((3, 4, 0.5, 61), (2, 8, 0.2, 62)):
        value, log, call = run(student, depth, dim, std, seed)
        if not log:
            fail(f"{call} made no draws at all on the rng it was given.",
                 "Draw the matrices from the rng argument: numpy's global random functions and a generator made "
                 "inside the function ignore it.")
        if seed == 61:
            expect_norms_follow_rng(student, value, depth, dim, std, seed, call)


def drawn_at_all(log, call, depth: int) -> list:
    """The draws of a call with layers, which must have drawn something: a check on how the weights
    are drawn gives no point to code that draws none."""
    draws = read_draws(log, call)
    if not draws:
        fail(f"{call} drew nothing from rng; expected {depth} weight matrices drawn from it.",
             "Draw every layer's weight matrix from the rng you are given, with rng.normal or rng.standard_normal.")
    return draws


@pytest.mark.points(1)
def test_draws_from_a_normal_distribution_with_mean_zero(student):
    """Every layer's weights are drawn from rng, with rng.normal or rng.standard_normal, centred at 0."""
    for depth, dim, std, seed in ((3, 4, 0.5, 71), (5, 8, 0.1, 72)):
        value, log, call = run(student, depth, dim, std, seed)
        for draw in drawn_at_all(log, call, depth):
            if draw["method"] not in NORMAL_METHODS:
                fail(f"{call} drew with rng.{draw['method']}; the weights must be drawn with rng.normal or "
                     "rng.standard_normal.",
                     "Draw normal values from the rng you are given: uniform draws give a different spread, and "
                     "other samplers (multivariate normal, say) cannot be replayed.")
            if np.any(np.asarray(draw["loc"]) != 0):
                fail(f"{call} called rng.normal with mean (loc) {show(draw['loc'])}; the weights have mean 0.",
                     "The normal sampler takes the mean first and the standard deviation second; check numpy's "
                     "documentation for the order.")
        if seed == 71:
            expect_norms_follow_rng(student, value, depth, dim, std, seed, call)


@pytest.mark.points(1)
def test_weights_use_the_std_not_the_variance(student):
    """The weights are drawn from rng, and rng.normal is given weight_std as its scale (a standard deviation), not weight_std ** 2."""
    for depth, dim, std, seed in ((3, 4, 0.5, 81), (2, 8, 0.1, 82), (2, 5, 3.0, 83)):
        value, log, call = run(student, depth, dim, std, seed)
        for draw in drawn_at_all(log, call, depth):
            if draw["method"] != "normal":
                continue
            scale = np.asarray(draw["scale"])
            # rtol 1e-6 lets a scale rounded to float32 through; the variance is far off for every std here.
            if np.allclose(scale, std, rtol=1e-6, atol=0) or np.allclose(scale, 1.0, rtol=1e-6, atol=0):
                continue  # scale 1 is a standard normal the student rescales; the replay checks that
            squared = np.allclose(scale, std ** 2, rtol=1e-6, atol=0)
            fail(f"{call} called rng.normal with scale {show(draw['scale'])}; expected the standard deviation "
                 f"weight_std = {std!r}.",
                 f"The normal sampler's scale is a standard deviation; {std ** 2!r}, the square of {std!r}, "
                 "is the variance."
                 if squared else "Pass weight_std itself as the spread of the normal distribution, not a value "
                                 "derived from it.")
        if seed == 81:
            expect_norms_follow_rng(student, value, depth, dim, std, seed, call)


def expect_rng_left_as_its_draws_leave_it(result, draws, seed, call):
    """rng ends where its logged draws take a fresh PCG64(seed): a stream saved and put back (the
    caller's next call would draw the same matrices) or moved through rng.bit_generator (draws no
    log sees) is a change the norms do not show. The state is the worker's report, as the log is."""
    state = result.rng_states[0] if result.rng_states else None
    if state is None or any(draw["method"] not in NORMAL_METHODS for draw in draws):
        return  # a log this check cannot replay: the draw checks judge it
    for unknown_dtype in (np.float64, np.float32):  # a standard_normal dtype the log could not carry
        generator = np.random.Generator(np.random.PCG64(seed))
        for draw in draws:
            _replay(generator, draw, unknown_dtype, call)
        replayed = generator.bit_generator.state
        if state == (replayed["state"]["state"], replayed["state"]["inc"], replayed["has_uint32"],
                     replayed["uinteger"]):
            return
    fail(f"{call} drew {plural(values_drawn(draws), 'value')} from rng, but left rng somewhere else than those "
         "draws take it: its stream was put back or moved on outside its sampling methods, so the caller's "
         "next draws would not be fresh.",
         "Draw each matrix with rng's own methods and leave its state alone: never save and restore it, or "
         "advance it by hand.")


@pytest.mark.points(2)
def test_draws_a_fresh_matrix_for_every_layer(student):
    """rng supplies exactly depth fresh (dim, dim) matrices: depth * dim * dim values, none reused, and rng is left where they take it."""
    for depth, dim, std, seed in ((5, 8, 0.5, 91), (1, 6, 0.3, 92), (12, 16, 0.2, 93), (3, 1, 0.9, 94), (0, 4, 0.5, 95)):
        result, log, call = run_result(student, depth, dim, std, seed)
        draws = read_draws(log, call)
        drawn = values_drawn(draws)
        expected = depth * dim * dim
        if drawn == expected:
            expect_rng_left_as_its_draws_leave_it(result, draws, seed, call)
            if seed == 91:
                expect_norms_follow_rng(student, result.value, depth, dim, std, seed, call)
            continue
        if drawn == 0:
            fail(f"{call} drew nothing from rng, so no fresh matrices were seen for its {plural(depth, 'layer')}.",
                 "Draw every layer's matrix from the rng argument.")
        matrices = drawn / (dim * dim)
        what = (f"{plural(matrices, 'matrix', 'matrices')} of {dim}x{dim} ({drawn} values)"
                if matrices == int(matrices) else f"{plural(drawn, 'value')}, not a whole number of {dim}x{dim} matrices,")
        if drawn < expected and matrices == 1:
            hint = "One matrix was drawn and reused: draw a new W inside the loop, once per layer."
        elif drawn < expected:
            hint = "Draw one matrix for every layer: check the loop runs depth times."
        else:
            hint = ("Draw only the weight matrices, one per layer: the starting gradient is not random, and there "
                    "are depth layers, not depth + 1.")
        fail(f"{call} drew {what} from rng for {plural(depth, 'layer')}; expected {depth} fresh "
             f"{'matrix' if depth == 1 else 'matrices'} ({expected} values).", hint)


# --- public checks: the two failure modes ------------------------------------------------------

@pytest.mark.points(1)
def test_each_layer_scales_the_norm_by_about_std_sqrt_dim(student):
    """Each layer multiplies the norm by about weight_std * sqrt(dim): 0.5 * sqrt(64) = 4 per layer."""
    for depth, dim, std, seed in ((20, 64, 0.5, 101), (10, 16, 0.05, 102)):
        norms, call = norms_of(student, depth, dim, std, seed, length=depth + 1)
        gain = std * math.sqrt(dim)
        expected = depth * math.log10(gain)
        with np.errstate(all="ignore"):
            got = float(np.log10(norms[-1] / norms[0]))
        if not (math.isfinite(got) and abs(got - expected) <= 2):
            fail(f"{call} changed the norm from {norms[0]:.4g} to {norms[-1]:.4g}, a factor of "
                 f"{norms[-1] / norms[0] if norms[0] else math.nan:.3g}; each of the {depth} layers should multiply it "
                 f"by about {std!r} * sqrt({dim}) = {gain:g}, about {gain:g} ** {depth} = 1e{expected:+.0f} in all "
                 "(the grader accepts a factor of 100 either side).",
                 "Multiply the gradient by matrices whose entries have standard deviation weight_std (not the "
                 "variance), with a matrix product, keep the product without rescaling it, and record the norm, not "
                 "its square.")


@pytest.mark.points(1)
def test_small_weights_make_the_gradient_vanish(student):
    """As in the spec's example: with weight_std 0.01, dim 64 and default_rng(0) the last of 20 layers' norms is under 1e-18."""
    norms, call = norms_of(student, 20, 64, 0.01, 0, length=21)
    # Vanishing is a fall from the start, so a list that is small from its first norm on does not show it.
    if not (norms[-1] < 1e-18 and norms[-1] < 1e-10 * norms[0]):
        fail(f"{call} ended at {norms[-1]:.4g} from a start of {norms[0]:.4g}; with weights this small each layer "
             "multiplies the norm by about 0.01 * sqrt(64) = 0.08, so 20 layers should shrink it by a factor of about "
             "0.08 ** 20 = 1e-22, to under 1e-18 (about 8 * 0.08 ** 20 = 1e-21).",
             "Let the product build up: multiply by each layer's matrix, never rescale the gradient in between, and "
             "scale the weights by weight_std.")


@pytest.mark.points(1)
def test_large_weights_make_the_gradient_explode(student):
    """As in the spec's example: with weight_std 1.0, dim 64 and default_rng(0) the last of 20 layers' norms is over 1e15."""
    norms, call = norms_of(student, 20, 64, 1.0, 0, length=21)
    # Exploding is a growth from the start, so a list that is large from its first norm on does not show it.
    if not (norms[-1] > 1e15 and norms[-1] > 1e10 * norms[0]):
        fail(f"{call} ended at {norms[-1]:.4g} from a start of {norms[0]:.4g}; with weights this large each layer "
             "multiplies the norm by about 1.0 * sqrt(64) = 8, so 20 layers should grow it by a factor of about "
             "8 ** 20 = 1e18, past 1e15, with no cap.",
             "A layer acts by a matrix-vector product, not an element-wise one, and the gradient is never rescaled "
             "between layers.")


# --- hidden check: replay what the student drew -------------------------------------------------

def _hidden_replayed_values(draws, depth, dim, std, seed, call, unknown_dtype=np.float64):
    """Replay the logged calls on the grader's own PCG64(seed): the drawn weights, in draw order.
    A standard_normal dtype the log could not carry is replayed as unknown_dtype."""
    if values_drawn(draws) > 4 * depth * dim * dim + 4 * dim + 64:
        _hidden_wrong_count(values_drawn(draws), depth, dim, call)
    generator = np.random.Generator(np.random.PCG64(seed))
    chunks = []
    for draw in draws:
        if draw["method"] not in NORMAL_METHODS:
            fail(f"{call} drew with rng.{draw['method']}; only normal draws can make N(0, weight_std**2) weights.",
                 DRAW_HINT)
        values = _replay(generator, draw, unknown_dtype, call)
        if draw["method"] == "normal":
            if np.any(np.asarray(draw["loc"]) != 0):
                fail(f"{call} drew with rng.normal(loc={show(draw['loc'])}, ...); the weights have mean 0.", DRAW_HINT)
            if np.allclose(draw["scale"], std, rtol=1e-6, atol=0):
                factor = 1.0
            elif np.allclose(draw["scale"], 1.0, rtol=1e-6, atol=0):
                factor = std  # a standard normal draw, which the student scales by weight_std
            else:
                squared = np.allclose(draw["scale"], std ** 2, rtol=1e-6, atol=0)
                fail(f"{call} drew with rng.normal(0, {show(draw['scale'])}, ...); the weights' standard deviation "
                     f"is weight_std = {std!r}.", "Pass the standard deviation, not the variance, as the scale."
                     if squared else "Pass weight_std itself as the scale of rng.normal.")
        else:
            factor = std
        chunks.append(np.asarray(values, dtype=float).ravel() * factor)
    values = np.concatenate(chunks) if chunks else np.zeros(0)
    if values.size != depth * dim * dim:
        _hidden_wrong_count(values.size, depth, dim, call)
    return values


def _hidden_read_draws(log, depth, dim, call):
    """read_draws for the replay. A log past MAX_LOGGED_DRAWS calls (every weight of a wide layer
    drawn on its own) ends in an overflow mark: the calls it no longer holds are taken to go on as
    the last one it holds did (rng's normal values come in the same order whatever the calls'
    sizes), so a student who changed how they draw there no longer matches."""
    if not (log and isinstance(log, list) and isinstance(log[-1], dict) and log[-1].get("method") == "__overflow__"):
        return read_draws(log, call)
    draws = read_draws(log[:-1], call)
    missing = depth * dim * dim - values_drawn(draws)
    last = draws[-1] if draws else None
    if (missing <= 0 or last is None or last["method"] not in NORMAL_METHODS
            or np.ndim(last["loc"]) or np.ndim(last["scale"])):
        return read_draws(log, call)  # the overflow is the student's to explain
    return draws + [dict(last, shape=(missing,), count=missing)]


def _replay(generator, draw, unknown_dtype, call):
    """One logged draw made again on the grader's generator; a log no real draw could have made
    (read_draws refuses those it can tell) is the student's unreadable log, never the grader's failure."""
    try:
        if draw["method"] == "normal":
            return generator.normal(draw["loc"], draw["scale"], draw["shape"])
        return generator.standard_normal(size=draw["shape"], dtype=draw["dtype"] or unknown_dtype)
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        bad_log(call, f"rng.{draw['method']} cannot draw it again ({type(exc).__name__})")


def _hidden_wrong_count(drawn, depth, dim, call):
    fail(f"{call} drew {plural(drawn, 'value')} from rng; {plural(depth, 'layer')} of {dim}x{dim} need "
         f"{depth * dim * dim}.",
         # one hint whatever was drawn: a hidden check's hint must not tell a count above from one below
         "Draw exactly one fresh (dim, dim) matrix for each of the depth layers, through to the last whatever the "
         "norm has become, and nothing else: the starting gradient is not random.")


def _hidden_layer_stacks(values, depth, dim):
    """Every way to cut the drawn values into depth matrices: the matrix index first, second or
    last in the drawn array (one (depth, dim, dim) call, a (dim, depth * dim) call, a
    (dim, dim, depth) call), each used first to last or last to first."""
    stacks = []
    for axis, shape in enumerate(((depth, dim, dim), (dim, depth, dim), (dim, dim, depth))):
        stack = np.moveaxis(values.reshape(shape), axis, 0)
        stacks += [stack, stack[::-1]]
    return stacks


def _hidden_norms(stack, dim, transpose, norm=np.linalg.norm):
    g = np.ones(dim)
    norms = [norm(g)]
    for weights in stack:
        g = g @ weights if transpose else weights @ g
        norms.append(norm(g))
    return np.array(norms)


def _exact_norm(g):
    """The Euclidean norm without squaring underflow: np.linalg.norm gives 0.0 for a vector of
    entries near 1e-170, whose norm is not 0; a student who scales first is right too."""
    largest = float(np.max(np.abs(g)))
    if largest == 0.0 or not np.isfinite(largest):
        return largest
    return largest * float(np.sqrt(np.sum((g / largest) ** 2)))


def _hidden_candidates(values, depth, dim):
    """The norms every contract-conforming use of these draws gives (W @ g or g @ W, any cut), the
    usual one first: made one at a time, since most students match the first."""
    return (_hidden_norms(stack, dim, transpose, norm)
            for stack in _hidden_layer_stacks(values, depth, dim) for transpose in (False, True)
            for norm in (np.linalg.norm, _exact_norm))


# The spec's "within a relative 1e-5" holds down to the smallest normal float: below it (subnormal
# norms) correct routes differ by whole units of the last place. An exact 0.0 (norms the spec says
# reach exactly 0.0) therefore takes 0.0 or a subnormal, never a floor such as 1e-300.
NORM_FLOOR = float(np.finfo(np.float64).tiny)  # 2.2250738585072014e-308
# Below about sqrt(dim) * 1.5e-154 the squares of g's entries are subnormal, and every route through them
# (np.linalg.norm, a root mean square times sqrt(dim), the squares of g / sqrt(dim)) rounds each one
# to a whole subnormal unit: norm**2 is then known to dim**2 such units at best, and 1.1e-161 comes
# out anywhere from 0.94e-161 to 1.1e-161 (a blind round's four correct routes). Norms are compared
# to that resolution too (wider than the relative 1e-5 only below about dim * 3.5e-160), on both
# sides scaled by 2**600 (exact, a power of two) so that the comparison itself does not underflow.
SQUARES_SCALE = 2.0 ** 600
SUBNORMAL_UNIT_SCALED = 2.0 ** (2 * 600 - 1074)  # the smallest subnormal, 2**-1074, scaled as a square: 2**126


def _hidden_matches(got, expected, dim, rtol=1e-5):
    """Within rtol, down to the smallest normal float, or, for a norm above 0, as close as squaring
    g's entries in float64 can tell (dim**2 subnormal units of norm**2)."""
    if got.shape != expected.shape:
        return False
    with np.errstate(all="ignore"):
        close = np.abs(got - expected) <= rtol * np.abs(expected) + NORM_FLOOR
        big, want = np.abs(got) * SQUARES_SCALE, np.abs(expected) * SQUARES_SCALE
        # Not for an expected 0.0: a zero vector's norm is exactly 0 by every route (a floor of 1e-300 is not).
        squared = (got >= 0) & (expected > 0) & (np.abs(big - want) * (big + want) <= dim * dim * SUBNORMAL_UNIT_SCALED)
        return bool(np.all(close | squared))


def _hidden_diagnosis(got, values, depth, dim, std):
    """A hint naming the misconception when the student's norms fit a known wrong variant."""
    stacks = _hidden_layer_stacks(values, depth, dim)

    def fits(norms_of_stack):
        return any(_hidden_matches(got, norms_of_stack(stack, transpose), dim)
                   for stack in stacks for transpose in (False, True))

    if fits(lambda s, t: _hidden_norms(s * std, dim, t)):
        return ("The weights were scaled by the variance (weight_std squared); the spec asks for standard "
                "deviation weight_std.")
    if std != 1 and fits(lambda s, t: _hidden_norms(s / std, dim, t)):
        return "The standard normal draws were used unscaled; multiply them by weight_std."
    if depth >= 2 and fits(lambda s, t: _hidden_norms(np.repeat(s[:1], depth, axis=0), dim, t)):
        return "The same matrix was used at every layer; use the next fresh matrix for each layer."
    largest = float(np.max(got)) if got.size else 0.0
    if depth >= 2 and 0.0 < largest and np.sum(got == largest) >= 2 and fits(
            lambda s, t: np.minimum(_hidden_norms(s, dim, t), largest)):
        return ("The norms stop growing at a cap; record every norm however large it gets (in float64, past 1e19 "
                "too), with no cap and no rescaling.")
    if depth >= 1 and fits(lambda s, t: np.concatenate([_hidden_norms(s, dim, t)[:1], _hidden_norms(s, dim, t)[:-1]])):
        return ("Each norm was recorded before the layer's multiplication; record it after the gradient has "
                "passed through the layer.")
    return ("Multiply the gradient by each drawn matrix in turn, starting from the vector of ones, and record the "
            "norm after every layer.")


# --- the input domain, clause by clause from the spec -----------------------------------------
# depth: an int >= 0 (0 and 1 weighted); dim: an int >= 1 (1 weighted); weight_std: a float > 0,
# from 1e-30 (the norms underflow to exactly 0 within a dozen layers; float32 draws still hold
# such weights) to 1000 (they grow by 1e4 a layer), limited so
# the expected norms stay below about 1e130: np.linalg.norm squares the entries, so the
# reference's own norms overflow past about 1e154.
# At most 10000 weights in all, so drawing them one rng.normal call at a time stays within the
# draw log the worker keeps.
MAX_WEIGHTS = 10000
EDGE_STDS = (1e-30, 1e-3, 0.01, 0.125, 0.5, 1.0, 2.0, 1000.0)
# The hidden replay also takes stds below float32's normal range (about 1.2e-38), where a std or a
# weight rounded to float32 is off by far more than 1e-5, and far smaller ones (every norm
# underflows). None puts a layer's norm of a unit vector near 1e-160, where np.linalg.norm of such
# a vector has only a few digits left.
TINY_STDS = (1e-42, 3e-44, 1e-100, 1e-300)
MAX_DEPTH = 64
# The hidden replay also takes wide layers, dim 101 to 160 (one to three of them), where a
# change that only big matrices get shows; a student who draws every weight with its own call
# makes more calls there than the log keeps, and the replay carries the last logged call on.
WIDE_DIMS = st.integers(101, 160)
MAX_WIDE_WEIGHTS = 3 * 128 * 128


@st.composite
def layer_stacks(draw, wide=False):
    """(depth, dim, weight_std, seed): one call from the contract's whole domain (wide: dim past 100 and
    stds below 1e-38 too)."""
    dims = [st.sampled_from((1, 2, 64)), st.integers(1, 24)]
    dim = draw(st.one_of(*dims, WIDE_DIMS) if wide else st.one_of(*dims))
    stds = [st.sampled_from(EDGE_STDS), st.floats(-30.0, 3.0).map(lambda e: 10.0 ** e)]
    std = draw(st.one_of(*stds, st.sampled_from(TINY_STDS)) if wide else st.one_of(*stds))
    gain = math.log10(std * math.sqrt(dim))
    weights = MAX_WIDE_WEIGHTS if dim > 100 else MAX_WEIGHTS
    deepest = min(MAX_DEPTH, weights // (dim * dim), MAX_DEPTH if gain <= 0 else int(130 / gain))
    depth = draw(st.one_of(st.sampled_from((0, 1, 2)).map(lambda d: min(d, deepest)), st.integers(0, deepest),
                           st.just(deepest)))
    return depth, dim, std, draw(st.integers(0, 2 ** 32 - 1))


def describe(case) -> str:
    return call_text(*case)


def expect_promises(student, case):
    """A Python list of depth + 1 floats, sqrt(dim) first, every one finite and >= 0, from exactly
    depth fresh (dim, dim) matrices drawn with rng.normal or rng.standard_normal."""
    depth, dim, std, seed = case
    value, log, call = run(student, depth, dim, std, seed)
    if not isinstance(value, list):
        fail(f"{call} returned {show(value)} ({type(value).__name__}); expected a list.",
             "The spec's Output is a list: not a numpy array and not a tuple.")
    norms = as_norms(value, call)
    expect_float_entries(value, call)
    if len(norms) != depth + 1:
        fail(f"{call} returned {plural(len(norms), 'norm')}; expected {depth + 1} (depth + 1), also when the norms "
             "reach 0.", "Record the starting norm, then one norm after each of the depth layers; never stop early.")
    if not np.isclose(norms[0], math.sqrt(dim), rtol=NORM_RTOL, atol=0):
        fail(f"{call} started with {float(norms[0])!r}; expected sqrt({dim}) = {math.sqrt(dim)!r}.",
             "Start from the vector of ones the spec names, and record its norm before the first layer.")
    bad = [i for i, n in enumerate(norms) if not (math.isfinite(n) and n >= 0)]
    if bad:
        fail(f"{call} returned {float(norms[bad[0]])!r} at position {bad[0]}; a norm is a finite number >= 0.",
             "Compute the norm in double precision: a single-precision sum of squares overflows past about 1.8e19.")
    drawn = values_drawn(read_draws(log, call))
    if drawn != depth * dim * dim:
        fail(f"{call} drew {plural(drawn, 'value')} from rng; {plural(depth, 'layer')} of {dim}x{dim} need "
            f"{depth * dim * dim}.", "Draw exactly one fresh (dim, dim) matrix per layer and nothing else "
            "(nothing at all for depth 0).")
    return value, log, call


@pytest.mark.points(2)
def test_keeps_every_promise_on_every_input(student, cases):
    """For any depth >= 0, dim >= 1 and weight_std > 0 (1e-30 to 1000): a list of depth + 1 floats, sqrt(dim) first, all finite and >= 0, from exactly depth fresh matrices."""
    cases.check(layer_stacks(), lambda case: expect_promises(student, case), describe=describe,
                explicit=[(0, 9, 0.5, 0), (14, 1, 1e-30, 5), (8, 32, 100.0, 1),
                          # deep stacks on every seed: a loop capped at some depth shows only there
                          (40, 8, 0.35, 4), (64, 2, 0.7, 3), (250, 2, 0.7, 8)])
    # The draw counts above are the log's claim: a log written by hand earns nothing here either.
    depth, dim, std, seed = 8, 32, 100.0, 1
    value, _, call = run(student, depth, dim, std, seed)
    expect_norms_follow_rng(student, value, depth, dim, std, seed, call)


@pytest.mark.points(4)
@pytest.mark.hidden
def test_norms_follow_from_the_matrices_drawn(student, cases):
    """On random sizes from the whole domain, the norms are exactly those of ones(dim) multiplied by the matrices drawn from rng."""
    def follows(case):
        depth, dim, std, seed = case
        value, log, call = run(student, depth, dim, std, seed)
        got = as_norms(value, call)
        if len(got) != depth + 1:
            fail(f"{call} returned {plural(len(got), 'norm')}; expected {depth + 1} (depth + 1).",
                 "Record the starting norm, then one norm after each of the depth layers.")
        draws = _hidden_read_draws(log, depth, dim, call)
        values = _hidden_replayed_values(draws, depth, dim, std, seed, call)
        candidates = _hidden_candidates(values, depth, dim)
        if any(d.get("dtype", np.float64) is None for d in draws):
            single = _hidden_replayed_values(draws, depth, dim, std, seed, call, unknown_dtype=np.float32)
            candidates = itertools.chain(candidates, _hidden_candidates(single, depth, dim))
        tried = []
        for expected in candidates:
            if _hidden_matches(got, expected, dim):
                return
            tried.append(expected)
        candidates = tried
        with np.errstate(all="ignore"):
            closest = min(candidates, key=lambda e: np.nan_to_num(np.abs(got - e) / e, nan=np.inf).max())
        k = int(np.argmax(~np.isclose(got, closest, rtol=1e-5, atol=0)))
        fail(f"{call} returned {brief(got)}; multiplying ones({dim}) by the matrices it drew from rng gives "
             f"{brief(closest)}. They first differ at position {k}: {float(got[k])!r} against "
             f"{float(closest[k])!r}.",
             _hidden_diagnosis(got, values, depth, dim, std))

    # On every seed, stacks whose norms pass 1e19 by far (up to about 1e78): the spec says no cap.
    # Deep stacks (up to 64 layers, and 250) and wide ones (dim past 100, and past 256) too, where a
    # change made only after some layer or only for big matrices shows. Stds below float32's normal
    # range (1e-42, 3e-44) and norms that reach exactly 0.0 (std 1e-30), compared relatively down to
    # the smallest normal float.
    cases.check(layer_stacks(wide=True), follows, examples=80,
                explicit=[(12, 16, 30.0, 3), (40, 8, 3.0, 6), (8, 32, 100.0, 1), (64, 4, 0.5, 0), (64, 2, 0.7, 3),
                          (43, 4, 0.5, 0), (50, 3, 0.6, 7), (1, 128, 0.1, 0), (2, 150, 0.05, 5), (3, 101, 0.1, 8),
                          (1, 160, 2.0, 9), (30, 16, 100.0, 10), (250, 2, 0.7, 12), (1, 260, 0.06, 13),
                          (14, 4, 1e-30, 16), (3, 8, 1e-42, 14), (2, 6, 3e-44, 15)])


# The plot in the HTML report: the public small, healthy and large cases. The expected curve is
# the spec's trend, sqrt(dim) * (std * sqrt(dim)) ** layer, not the reference's draws.
from autograder.figures import Curve, PlotSpec  # noqa: E402


def _plot_norms(value, args):
    return list(value)[:64] if isinstance(value, (list, tuple, np.ndarray)) else [None]


PLOTS = (PlotSpec("Norm at every layer", FUNCTION, "layer", "norm of g", tuple(
    Curve(f"std {std}", (((20, dim, std, RngSpec(seed)), {}),), tuple(range(21)),
          tuple(math.sqrt(dim) * (std * math.sqrt(dim)) ** layer for layer in range(21)), _plot_norms)
    for dim, std, seed in ((64, 0.01, 111), (16, 0.25, 14), (64, 1.0, 121)))),)
