"""Checks for scalar_chain.py: the gradient after `depth` layers is exactly layer_scale ** depth."""

import math

import pytest
from hypothesis import strategies as st

from autograder.checks import call_text, expect_real, fail

FUNCTION = "scalar_gradient_chain"


def chain(student, depth, layer_scale):
    return expect_real(student.call(FUNCTION, depth, layer_scale).value, call_text(FUNCTION, depth, layer_scale))


def identical(got: float, expected: float) -> bool:
    """Equal bit for bit: -0.0 and 0.0 compare equal with ==, but ** keeps the sign of a zero."""
    return got == expected and math.copysign(1.0, got) == math.copysign(1.0, expected)


def expect_exact(student, depth, layer_scale, expected, hint):
    got = chain(student, depth, layer_scale)
    if not identical(got, expected):
        if got == expected:
            hint = ("A zero keeps its sign in a power: a negative zero (or a negative power too small for a float) "
                    "raised to an odd depth stays a negative zero. Return exactly what the power operator gives, with "
                    "no special case for zero.")
        fail(f"{call_text(FUNCTION, depth, layer_scale)} returned {got!r}; expected exactly {expected!r}.", hint)


# --- the input domain, clause by clause from the spec -----------------------------------------
# layer_scale: "any finite float, including 0.0 and negative values": the edges first, then
# ordinary slopes, then every finite float (subnormals and huge magnitudes included).
EDGE_SCALES = (0.0, -0.0, 1.0, -1.0, 0.25, 0.5, -0.5, 1.5, 1.1, 0.9, -1.1, 2.0, 5e-324, -5e-324, 1e-300, -1e-300,
               1e-8, 1e150, -1e150, 1.7976931348623157e308, 10.0, -10.0, 0.1, -0.1)
# Scales within 1e-6 of 1 (either sign), where only a long chain shows a step-by-step product's
# last-bit drift, and depths past 32767 (an int16 depth wraps there) keep the power finite.
NEAR_ONE = st.tuples(st.floats(1 - 1e-6, 1 + 1e-6), st.booleans()).map(lambda c: -c[0] if c[1] else c[0])
SCALES = st.one_of(st.sampled_from(EDGE_SCALES), st.floats(-2.0, 2.0),
                   st.floats(allow_nan=False, allow_infinity=False), NEAR_ONE)
MAX_DEPTH = 100_000


def _deepest(scale: float) -> int:
    """The largest depth (up to MAX_DEPTH) whose power stays finite (** raises OverflowError past
    the float range): powers up to 1.79e308 itself are in the domain."""
    size = abs(scale)
    if size <= 1.0:
        return MAX_DEPTH
    depth = min(MAX_DEPTH, int(math.log(1.7976931348623157e308) / math.log(size)) + 1)
    while depth > 0:
        try:
            size ** depth
            return depth
        except OverflowError:
            depth -= 1
    return 0


@st.composite
def powers_in_range(draw):
    """(depth, layer_scale) drawn result first: a power anywhere from the subnormals to 1e308 in size,
    reached over any depth, so a deep chain of tiny or huge scales whose power is still a normal
    number is as likely as any (a shortcut for "small scale, many layers" shows there)."""
    depth = draw(st.one_of(st.integers(2, 64), st.integers(2, 5000), st.integers(2, MAX_DEPTH)))
    size = 10.0 ** (draw(st.floats(-322.0, 308.0)) / depth)
    scale = -size if draw(st.booleans()) else size
    return min(depth, _deepest(scale)), scale


@st.composite
def chains(draw):
    """(depth, layer_scale): depth an int >= 0 (0 and 1 weighted, long chains included)."""
    if draw(st.integers(0, 4)) == 0:
        return draw(powers_in_range())
    scale = draw(SCALES)
    deepest = _deepest(scale)
    depths = [st.sampled_from((0, 1, 2, 3)).map(lambda d: min(d, deepest)),
              st.integers(0, min(64, deepest)), st.integers(0, min(5000, deepest)), st.integers(0, deepest),
              st.just(deepest)]
    if deepest > 32767:
        depths.append(st.integers(32768, deepest))
    return draw(st.one_of(*depths)), scale


# On every seed: powers between 1e300 and the largest float, their negatives, powers near and in
# the subnormal range, depths past 32767 (and past 100,000), scales within 1e-6 of 1 over long
# chains, pairs of calls that differ only in the last bits or the sign of zero of the scale, and
# deep chains of tiny or huge scales.
EXTREME_CHAINS = [(305, 10.0), (308, 10.0), (307, -10.0), (1023, 2.0), (1023, -2.0), (2, 1.3e154), (3, -5e102),
                  (10, 1.5e30), (2, 1.3407807929942596e154), (305, 0.1), (309, -0.1), (320, 0.1), (1022, 0.5),
                  (1073, -0.5), (1074, 0.5), (2, 1e-160), (40000, 1.00001), (40000, -1.00001), (65536, 1.0000001),
                  (99999, 0.9999995), (870, 0.9999992687284882), (50001, -1.0000009), (32768, 1 + 2 ** -30),
                  (3, -1.0), (99999, -1.0), (100000, -1.0),
                  (100000, 0.9999999),
                  # past 100,000 layers: the spec sets no limit on depth (and a loop that prints every layer,
                  # as a student's may before its return, stays far inside the time limit)
                  (250000, 1.0000001), (200001, -1.0), (250001, -0.9999999),
                  # the same depth twice in a row with scales a few units of the last place apart: each
                  # call is answered on its own, with nothing kept from the call before
                  (1000, 1.0), (1000, 1.0000000000000002), (3, 0.1), (3, 0.10000000000000002),
                  (7, -1.1), (7, -1.1000000000000003),
                  # and with zeros of either sign, equal as numbers but not as results at an odd depth:
                  # nothing kept from an earlier call with an equal scale
                  (5, 0.0), (5, -0.0), (7, -0.0), (7, 0.0),
                  # tiny and huge scales over 20 to 200 layers whose power is still a normal number
                  # (or a subnormal): no early answer for "small (or large) scale, many layers"
                  (21, 1e-11), (21, -1e-11), (24, 1e-13), (25, -1e-12), (41, 1e-4), (100, 1e-3), (200, 0.035),
                  (21, 1e11), (31, -1e7), (50, 1e6), (30, 1e10), (120, -300.0)]

# On every seed: at every depth from 2 to 30 and at depths up to 5,000 between, the tiniest and the
# hugest powers the float range holds (1e-310, a subnormal, 1e-300 and 1e300), either sign. An early
# answer for "small (or large) scale, many layers", whatever its thresholds, is wrong at one of them.
EDGE_DEPTHS = (*range(2, 31), 32, 35, 40, 45, 50, 60, 70, 85, 100, 130, 160, 200, 260, 330, 420, 550, 700, 900, 1200,
               1600, 2100, 2800, 3700, 5000)
RANGE_EDGE_CHAINS = [(depth, (-1.0) ** depth * 10.0 ** (power / depth)) for depth in EDGE_DEPTHS
                     for power in (-310.0, -300.0, 300.0)]

# On every seed, at every range of depths (2 to 5, then up to thousands): powers where ** is not
# what the exact power rounded once gives (fractions.Fraction), nor what a loop or repeated
# squaring gives, so another route to the power for some depths only shows there.
ROUTE_CHAINS = [(2, -0.28030509407059845), (2, -4.603905788321556), (2, -26.79023124037477), (2, -1.0577387369365328),
                (3, 0.5138581223242585), (3, 0.035558734469554945), (3, -0.6038885853187094),
                (3, -2.3207642120811336), (3, 0.262565155), (3, -0.5510937), (4, 1.7815225583942915),
                (4, -0.11704443286602456), (4, 19.621636218680663), (4, 2.49807223085131), (4, -2.0424),
                (5, 0.742868680186176), (5, 0.21893094829195714), (5, 0.30260605104103727), (5, -1.11809179),
                (5, 2.79938587390317), (11, -6.3140890934532905), (12, -11.967585276258756), (11, 3.354448789207447),
                (16, 4.564505016518677), (31, 1.4679187156421318), (31, -0.29538367424073164),
                (31, -0.16064463105074958), (26, 0.2602888433728106), (38, 0.065820422927993),
                (40, 0.10514281105080794), (80, -0.05834812674559555), (80, 0.9877752319974296),
                (100, -7.570815424100329), (89, -0.6897048960324574), (241, 1.596046730898303),
                (279, 2.9094518598052206), (253, 0.41622883770171765), (301, 0.283151312860159),
                (427, -1.9037134676328498), (1398, 0.8687750357273933), (1355, 0.6591668841598415),
                (1176, -0.9372584264967239), (5024, -1.1058654553756557), (4233, -0.9932634126343166),
                (2837, -0.8168430109518179), (3333, 0.9451705760792495)]


def describe(case) -> str:
    return call_text(FUNCTION, *case)


@pytest.mark.points(2)
def test_ten_sigmoid_layers_shrink_to_a_millionth(student):
    """Ten layers of slope 0.25 leave 0.25 ** 10 = 9.5e-7 of the gradient."""
    expect_exact(student, 10, 0.25, 9.5367431640625e-07,
                 "Every one of the ten layers multiplies by 0.25: raise the scale to the power depth.")


@pytest.mark.points(1)
def test_ten_steep_layers_explode(student):
    """Ten layers of slope 1.5 grow the gradient to 1.5 ** 10 = 57.67."""
    expect_exact(student, 10, 1.5, 57.6650390625, "A factor above 1 compounds upward: ten factors of 1.5 give about "
                                                  "57.7.")


@pytest.mark.points(1)
def test_one_layer_scales_once(student):
    """One layer multiplies the gradient exactly once (no off-by-one in the depth)."""
    for scale in (0.25, 3.0, -2.0):
        expect_exact(student, 1, scale, scale,
                     "With depth 1 the answer is the scale itself; check that you use depth, not depth - 1 or depth "
                     "+ 1.")


@pytest.mark.points(1)
def test_zero_layers_leave_the_gradient_at_one(student):
    """With no layers the gradient is untouched: 1.0 for every scale, 0 and negatives included."""
    for scale in (0.25, 0.0, -3.0, 7.5):
        expect_exact(student, 0, scale, 1.0,
                     "Anything to the power 0 is 1, and an empty product is 1: with no layers the gradient is "
                     "untouched.")


@pytest.mark.points(1)
def test_zero_slope_kills_the_gradient(student):
    """A layer with slope 0 passes nothing back: 0.0 ** 5 is 0.0."""
    expect_exact(student, 5, 0.0, 0.0, "One zero factor makes the whole product zero.")


@pytest.mark.points(1)
def test_negative_slope_flips_the_sign_each_layer(student):
    """A negative slope flips the sign at every layer: (-0.5) ** 3 = -0.125, (-0.5) ** 4 = 0.0625 and (-1.0) ** 3 = -1.0."""
    expect_exact(student, 3, -0.5, -0.125, "Keep the sign: a negative slope flips the sign at every layer.")
    expect_exact(student, 4, -0.5, 0.0625, "An even number of sign flips gives a positive gradient.")
    for depth in (1, 3, 2, 99999):  # a slope of -1 keeps the size and still flips the sign
        expect_exact(student, depth, -1.0, (-1.0) ** depth,
                     "A slope of -1 keeps the size of the gradient but still flips its sign at every layer: an odd "
                     "number of layers leaves it negative.")


@pytest.mark.points(1)
def test_exact_power_not_a_rounded_loop(student):
    """The result equals layer_scale ** depth to the last bit (1.1 ** 4, not 1.1 * 1.1 * 1.1 * 1.1)."""
    hint = ("Multiplying in a loop rounds after every step, and other routes to a power round differently too; the "
            "spec names the operation the grader compares with, bit for bit.")
    # The last two are powers where ** is not the correctly rounded result here (a result rounded
    # from the exact power differs from ** in the last bit): the contract is **, not the exact power.
    for depth, scale in ((4, 1.1), (3, 1.3), (7, 1.1), (12, 0.9), (4, 0.960792938360185), (7, 0.7587420374688152),
                         *ROUTE_CHAINS):
        expect_exact(student, depth, scale, scale ** depth, hint)


@pytest.mark.points(1)
def test_returns_a_float(student, cases):
    """The result is a finite float (not an int, bool, list, array, nan or inf) for every depth and scale, depth 0 included."""
    def returns_a_float(case):
        depth, scale = case
        value = student.call(FUNCTION, depth, scale).value
        if isinstance(value, bool) or not isinstance(value, float):
            fail(f"{call_text(FUNCTION, depth, scale)} returned {value!r} of type {type(value).__name__}; "
                 "expected a float.",
                 "Return one Python float, even for depth 0, as the spec's Output says: not an int, and not wrapped "
                 "in a list or array.")
        if not math.isfinite(value):  # every depth here keeps the power within the float range
            fail(f"{call_text(FUNCTION, depth, scale)} returned {value!r}; expected a finite float.",
                 "Every depth and scale here has a finite power: the result is a number, never nan or infinity.")

    cases.check(chains(), returns_a_float, explicit=[(0, 0.5), (0, 0.0), (3, 0.5), (2, -1.5), (5, 0.0)],
                describe=describe)


@pytest.mark.points(1)
def test_equals_the_power_for_every_depth_and_scale(student, cases):
    """For every depth >= 0 and finite scale (0, negatives, tiny and huge values) the result == layer_scale ** depth."""
    def equals_the_power(case):
        depth, scale = case
        expect_exact(student, depth, scale, scale ** depth,
                     "Use the power the spec names, compared bit for bit: a loop, repeated squaring, logarithms or "
                     "other power routines round differently, and no special case is needed for 0, 1 or negatives.")

    cases.check(chains(), equals_the_power, describe=describe,
                explicit=[(4, 1.1), (3, 1.3), (7, 1.1), (12, 0.9), (0, 0.0), (1, -5e-324), (3, -0.0), (3, -1e-300),
                          *EXTREME_CHAINS, *ROUTE_CHAINS, *RANGE_EDGE_CHAINS])


@pytest.mark.points(3)
@pytest.mark.hidden
def test_matches_reference_on_random_depths_and_scales(student, reference, cases):
    """On random depths and scales from the whole domain the result is a float equal to the reference's."""
    def matches(case):
        depth, scale = case
        expected = reference.scalar_gradient_chain(depth, scale)
        value = student.call(FUNCTION, depth, scale).value
        if isinstance(value, bool) or not isinstance(value, float) or not identical(value, expected):
            fail(f"{call_text(FUNCTION, depth, scale)} returned {value!r}; expected exactly {expected!r}.",
                 "Compute the power of the scale directly from depth and layer_scale, for every depth, sign and size "
                 "of the scale.")

    cases.check(chains(), matches, explicit=EXTREME_CHAINS)


# The plot in the HTML report: the public cases' depths, the spec's formula as the expected curve.
from autograder.figures import Curve, PlotSpec  # noqa: E402

PLOTS = (PlotSpec("Gradient against depth", FUNCTION, "depth (layers)", "gradient", tuple(
    Curve(f"slope {scale}", tuple(((depth, scale), {}) for depth in range(11)), tuple(range(11)),
          tuple(scale ** depth for depth in range(11))) for scale in (0.25, 1.5)), guides=(("1", 1.0),)),)
