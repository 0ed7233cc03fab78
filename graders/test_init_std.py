"""Checks for init_std.py: He is sqrt(2 / fan_in), Xavier sqrt(2 / (fan_in + fan_out)), other kinds raise ValueError."""

import string

import numpy as np
import pytest
from hypothesis import strategies as st

from autograder.checks import call_text, expect_real, fail, show
from autograder.problems import StudentRaised

FUNCTION = "init_std"
RTOL = 1e-9

HE_50_CLUES = (
    (0.04, "0.04 is the variance 2 / 50; the standard deviation is its square root, 0.2."),
    (0.1414213562373095, "0.1414 is the square root of 1/50 = 2/100: either the 2 is missing (that is LeCun's rule) "
                         "or Xavier's rule was used for 'he'."),
    (0.34641016151377546, "0.3464 is the square root of 6/50, the limit of a uniform distribution, not a standard "
                          "deviation."),
    (0.0, "0.0 usually means integer division: 2 divided by 50 rounds down to 0; use true division."),
)
XAVIER_100_CLUES = (
    (0.01, "0.01 is the variance 2 / 200; the standard deviation is its square root, 0.1."),
    (0.1414213562373095, "0.1414 is the square root of 2/100: only the fan-in is in the denominator (or He's rule "
                         "was used for 'xavier'); Xavier divides by the sum of both fans."),
    (0.07071067811865475, "0.0707 is the square root of 1/200: the 2 in the numerator is missing."),
    (0.17320508075688773, "0.1732 is the square root of 6/200, the limit of a uniform distribution, not a standard "
                          "deviation."),
    (0.0, "0.0 usually means integer division: 2 divided by 200 rounds down to 0; use true division."),
)


# `kind is "he"` holds in the student's own REPL, where both literals are one interned object, and
# fails for the equal string a caller builds: the refusal then looks impossible to reproduce.
NAMED_KIND_HINT = ("The spec names this kind, so it must be accepted: compare kind with == against the exact names "
                   "'he' and 'xavier' ('is' compares objects, and an equal string built elsewhere, as the grader's is, "
                   "is not the same object as your literal).")


def call_valid(student, kind, fan_in, fan_out):
    """The student's value for a kind the spec names; refusing one with ValueError gets its own hint."""
    try:
        return student.call(FUNCTION, kind, fan_in, fan_out).value
    except StudentRaised as exc:  # inspected for its hint alone, then let through as ever
        if exc.raised("ValueError"):
            exc.hint = NAMED_KIND_HINT
        raise


def expect_std(student, kind, fan_in, fan_out, expected, hint, clues=()):
    """The student's std for one layer must be within RTOL of `expected`; a known wrong value gets its own hint."""
    call = call_text(FUNCTION, kind, fan_in, fan_out)
    got = expect_real(call_valid(student, kind, fan_in, fan_out), call)
    if not np.isclose(got, expected, rtol=RTOL, atol=0.0):
        hint = next((why for wrong, why in clues if np.isclose(got, wrong, rtol=1e-6, atol=0.0)), hint)
        fail(f"{call} returned {got!r}; expected {expected!r}.", hint)


def expect_value_error(student, kind, hint, fan_in=64, fan_out=64):
    """init_std(kind, fan_in, fan_out) must raise ValueError (or any subclass of it, the student's own included)."""
    call = call_text(FUNCTION, kind, fan_in, fan_out)
    try:
        value = student.call(FUNCTION, kind, fan_in, fan_out).value
    except StudentRaised as exc:  # the one problem this check inspects instead of letting through
        if not exc.raised("ValueError"):
            fail(f"{call} raised {exc.exc_type}; expected a ValueError.",
                 "Raise the built-in exception the spec names, explicitly: not a lookup error from a dict, not an "
                 "assertion, not a bare Exception.")
    else:
        fail(f"{call} returned {show(value)}; expected a ValueError.", hint)


def expect_valid_kinds_accepted(student):
    """A check on refusals gives no point to code that refuses everything: "xavier" and "he" are
    accepted (what they return, the checks on the rules judge)."""
    for kind in ("xavier", "he"):
        try:
            student.call(FUNCTION, kind, 64, 64)
        except StudentRaised as exc:
            if not exc.raised("ValueError"):
                raise  # any other exception is reported as the student's error, as in every check
            fail(f"{call_text(FUNCTION, kind, 64, 64)} raised {exc.exc_type}; expected a standard deviation: "
                 f"{kind!r} is one of the two valid kinds.", NAMED_KIND_HINT)


@pytest.mark.points(2)
def test_he_std_for_fan_in_50_is_0_2(student):
    """He initialization with a fan-in of 50 gives weights of standard deviation sqrt(2 / 50) = 0.2."""
    expect_std(student, "he", 50, 50, 0.2,
               "He's rule for ReLU layers gives the variance 2 / 50 = 0.04 here; the standard deviation is its "
               "square root, 0.2.",
               HE_50_CLUES)


@pytest.mark.points(2)
def test_xavier_std_for_100_in_100_out_is_0_1(student):
    """Xavier initialization with 100 inputs and 100 outputs gives sqrt(2 / 200) = 0.1."""
    expect_std(student, "xavier", 100, 100, 0.1,
               "Xavier's rule gives the variance 2 / 200 = 0.01 here; the standard deviation is its square root, 0.1.",
               XAVIER_100_CLUES)


@pytest.mark.points(1)
def test_xavier_uses_fan_in_plus_fan_out(student):
    """Xavier divides by the sum of both fans, also when they differ: 150 in and 50 out give sqrt(2 / 200) = 0.1."""
    hint = ("Xavier balances the forward and the backward pass, so both fans count in it. LeCun's rule, which uses "
            "the fan-in only, agrees with it only when the two fans are equal.")
    for fan_in, fan_out, expected in ((150, 50, 0.1), (50, 150, 0.1), (12, 38, 0.2), (1, 7, 0.5), (1, 1, 1.0)):
        expect_std(student, "xavier", fan_in, fan_out, expected, hint)


@pytest.mark.points(1)
def test_he_uses_fan_in_only(student):
    """He looks at the fan-in alone: a fan-in of 50 gives 0.2 whatever the fan-out is."""
    hint = "He's rule depends on the fan-in only; the fan-out does not appear in it."
    for fan_in, fan_out, expected in ((50, 10, 0.2), (50, 400, 0.2), (8, 2, 0.5), (2, 8, 1.0), (200, 1, 0.1)):
        expect_std(student, "he", fan_in, fan_out, expected, hint)


# What frameworks and papers call these rules and their relatives, and the activations they are
# made for: a lenient table of aliases accepts some of them, and the spec says each one raises.
LIBRARY_NAMES = ("kaiming_normal", "kaiming_uniform", "kaiming_normal_", "glorot_normal", "glorot_uniform",
                 "xavier_normal_", "xavier_uniform_", "he_normal", "he_uniform", "lecun_normal", "lecun_uniform",
                 "Glorot", "Kaiming", "GLOROT", "KAIMING", "Lecun", "msra", "MSRA", "delving", "bengio",
                 "HeNormal", "HeUniform", "GlorotNormal", "GlorotUniform", "VarianceScaling", "variance_scaling",
                 "relu", "ReLU", "leaky_relu", "gelu", "selu", "elu", "tanh", "sigmoid", "linear", "softmax",
                 "fan_in", "fan_out", "fan_avg", "normal", "truncated_normal", "orthogonal", "default", "auto",
                 "None", "none", "null", "0", "1", "2", "True", "xavier_glorot", "he_kaiming", "kaiming_he")


@pytest.mark.points(1)
def test_unknown_kind_raises_value_error(student):
    """Any kind other than "xavier" and "he" (such as "lecun", "kaiming", "glorot", "msra", "relu", "kaiming_normal" or "") raises ValueError."""
    hint = ('Only "xavier" and "he" are valid; for every other kind the spec names the exception to raise, instead '
            'of returning a value or accepting other names for the rules.')
    for kind in ("lecun", "kaiming", "glorot", "tiny", "large", "uniform", "", *LIBRARY_NAMES):
        expect_value_error(student, kind, hint)
    expect_valid_kinds_accepted(student)


@pytest.mark.points(1)
def test_kind_is_matched_exactly(student):
    """The kind must be spelled exactly: "Xavier", "HE" or "he " are unknown kinds and raise ValueError."""
    hint = ("Compare the kind exactly as given, without changing its case or trimming it: only 'xavier' and 'he' "
            "are valid.")
    for kind in ("Xavier", "HE", "He", "XAVIER", "he ", " xavier", *HE_NEAR_MISSES):
        expect_value_error(student, kind, hint)
    expect_valid_kinds_accepted(student)


# --- the input domain, clause by clause from the spec -----------------------------------------
VALID = ("xavier", "he")
# "Any other string raises ValueError": the strings a lenient parser would accept, written out,
# and then made from the valid names by case changes, padding, prefixes, suffixes and cuts.
NEAR_NAMES = ("Xavier", "XAVIER", "He", "HE", "hE", " he", "he ", "xavier ", " xavier", "\the", "he\n",
              "xavier_uniform", "xavier_normal", "he_normal", "he_uniform", "kaiming", "glorot", "lecun", "xav",
              "xavi", "h", "e", "x", "", " ", "hello", "hex", "heh", "xaviers", "xavierx", "xavier-uniform",
              "xavier he", "he xavier", "avier", "vier", "xavie", "hee", "the", "she", "xavier\x00", "he.",
              "ｈｅ", "хavier", "xavıer")
# Every near name is tried on every seed, not only when a draw happens to pick it; a regex's $
# also matches before one trailing newline, so each valid name gets every trailing whitespace.
TRAILING = tuple(name + tail for name in VALID for tail in ("\n", "\r", "\t", "\r\n", "\x0b", "\x0c"))
# Any string but the two names raises, so a kind cleaned up before the comparison (a character
# removed or replaced, an affix cut off, a compatibility form folded) shows on these, on every
# seed: each valid name with one character put in front of or behind it (every punctuation mark
# and whitespace, control and invisible characters, the letters a plural or a typo adds), common
# affixes and quotes, full-width and other compatibility forms, and the name repeated. Kept to a
# few hundred calls, tried in the two public checks: each is a call to the student's worker.
_POOL = (*string.punctuation, *string.whitespace, *"\x00\x01\x1b\x7f\x85\xa0\xad\u200b\u200d\u2028\u3000\ufeff\u0301",
         *"sxhe019", "\uff0e", "\uff3f", "\uff0d")
_AFFIXES = ("init_", "_init", "init", "_normal", "_uniform", "nn.init.", "kind=", "()", "es", "\\n", "\x00\x00", "  ")
_WRAPS = (("'", "'"), ('"', '"'), ("`", "`"), ("(", ")"), ("[", "]"), ("<", ">"), ("{", "}"), ("*", "*"),
          ("_", "_"), ("-", "-"), (".", "."), ("\x00", "\x00"), ("\u201c", "\u201d"), ("\u2018", "\u2019"))
def _near_misses(name: str) -> tuple[str, ...]:
    """The strings one clean-up away from ``name`` (see above)."""
    return tuple(dict.fromkeys(kind for kind in (
        *(char + name for char in _POOL), *(name + char for char in _POOL),
        *(name[:1] + char + name[1:] for char in string.punctuation + " "),
        *(affix + name for affix in _AFFIXES), *(name + affix for affix in _AFFIXES),
        *(head + name + tail for head, tail in _WRAPS),
        *("".join(chr(ord(c) + shift) for c in name) for shift in (0xFEE0, 0x1D41A - ord("a"), 0x24D0 - ord("a"))),
        *(name[:at] + chr(ord(name[at]) + 0xFEE0) + name[at + 1:] for at in range(len(name))),
        name * 2, *(name + sep + other for other in VALID for sep in ("", " ", "_", "-")),
    ) if kind not in VALID))


# Each check gets one name's: a clean-up applies to both names, so it shows in both checks.
HE_NEAR_MISSES, XAVIER_NEAR_MISSES = _near_misses("he"), _near_misses("xavier")


def _variants(name: str) -> st.SearchStrategy:
    return st.one_of(
        st.sampled_from((name.upper(), name.title(), name.swapcase(), name.capitalize())),
        st.tuples(st.text(" \t\n_-.", min_size=1, max_size=2), st.text(" \t\n_-.", max_size=2))
          .map(lambda pad: pad[0] + name + pad[1]),
        st.tuples(st.text(" \t\n_-.", max_size=2), st.text(" \t\n_-.", min_size=1, max_size=2))
          .map(lambda pad: pad[0] + name + pad[1]),
        st.text(min_size=1, max_size=8).map(lambda tail: name + tail),
        st.text(min_size=1, max_size=8).map(lambda head: head + name),
        st.integers(0, len(name) - 1).map(lambda cut: name[:cut]),
        st.integers(1, len(name) - 1).map(lambda cut: name[cut:]),
    )


OTHER_KINDS = st.one_of(st.sampled_from(NEAR_NAMES), _variants("xavier"), _variants("he"), st.text(max_size=12)
                        ).filter(lambda kind: kind not in VALID)
# fan_in, fan_out: ints >= 1, from 1 to sizes where the std is near 1e-8 (there any rounding to a
# fixed number of decimals shows, so "do not round" is checked at the 1e-9 tolerance).
FANS = st.one_of(st.sampled_from((1, 2, 3, 50, 100, 4096)), st.integers(1, 4096), st.integers(1, 10 ** 16))
# Both fans large (1e6 to 1e16, a sum past 2**31 and 2**53 included): a formula or a precision
# that changes only for big layers shows there, for both kinds.
BIG_FANS = st.integers(6, 15).flatmap(lambda e: st.integers(10 ** e, 10 ** (e + 1)))
LAYERS = st.one_of(st.tuples(st.sampled_from(VALID), FANS, FANS), st.tuples(st.sampled_from(VALID), BIG_FANS, BIG_FANS))
# On every seed: big fans for both kinds, and sums that overflow 32-bit integers.
BIG_LAYERS = [(kind, fan_in, fan_out) for kind in VALID for fan_in, fan_out in (
    (2 * 10 ** 6, 10 ** 7), (10 ** 13, 10 ** 13), (10 ** 9, 3 * 10 ** 9), (10 ** 15, 10 ** 15), (1234567, 7654321),
    (10 ** 12, 5 * 10 ** 6), (1, 2 ** 31), (2 ** 31 - 1, 1), (2 ** 30, 2 ** 30), (2 ** 31 + 5, 3),
    (2 ** 32 + 5, 2 ** 32 + 7), (3 * 10 ** 9, 10 ** 6), (999_999_999_989, 10 ** 14 + 3),
    # fans from 1e15 up to the spec's 10**16, either one large or both: no cap below the limit
    (10 ** 16, 1), (1, 10 ** 16), (10 ** 16, 10 ** 16), (10 ** 15 + 1, 1), (1, 10 ** 15 + 1), (5 * 10 ** 15, 3),
    (7, 2 * 10 ** 15), (10 ** 16 - 1, 10 ** 15), (3 * 10 ** 15, 8 * 10 ** 15), (1234567890123456, 64),
    (64, 9876543210987654), (2 ** 53 + 1, 2 ** 53))]
CALLS = st.one_of(LAYERS, st.tuples(OTHER_KINDS, FANS, FANS))
# Layers whose standard deviation is exactly 1.0 (or 0.5): a whole number is still returned as a float.
WHOLE_RESULTS = [("xavier", 1, 1), ("he", 2, 1), ("he", 2, 64), ("he", 2, 10 ** 16), ("he", 8, 8), ("xavier", 4, 4)]


def describe(case) -> str:
    return call_text(FUNCTION, *case)


def formula(kind: str, fan_in: int, fan_out: int) -> float:
    """The spec's own formula, on the trusted side."""
    denominator = fan_in + fan_out if kind == "xavier" else fan_in
    return (2 / denominator) ** 0.5


def expect_contract(student, case, expected_for):
    """One call keeps every promise: a valid kind gives a float within RTOL of ``expected_for``,
    any other string raises ValueError."""
    kind, fan_in, fan_out = case
    if kind not in VALID:
        expect_value_error(student, kind, 'Only "xavier" and "he", spelled exactly, are valid: compare the whole '
                                          'string, without changing case, trimming, or matching a part of it, and '
                                          'raise the exception the spec names for everything else.', fan_in, fan_out)
        return
    value = call_valid(student, kind, fan_in, fan_out)
    expected = expected_for(kind, fan_in, fan_out)
    if isinstance(value, bool) or not isinstance(value, float):
        fail(f"{describe(case)} returned {value!r} of type {type(value).__name__}; expected a float.",
             "Return the standard deviation as a float (math.sqrt gives one).")
    if not np.isclose(value, expected, rtol=RTOL, atol=0.0):
        fail(f"{describe(case)} returned {value!r}; expected {expected!r}.",
             "Apply the exact formula for every fan size and return it unrounded: rounding to a fixed number of "
             "decimals loses the precision of small standard deviations.")


@pytest.mark.points(2)
def test_every_call_keeps_the_contract(student, cases):
    """For every kind string and fan sizes >= 1: "xavier" and "he" give a float within 1e-9 of the formula, anything else raises ValueError."""
    cases.check(CALLS, lambda case: expect_contract(student, case, formula), describe=describe,
                explicit=[("he", 10 ** 15, 1), *WHOLE_RESULTS, *BIG_LAYERS,
                          *((kind, 64, 64) for kind in NEAR_NAMES + TRAILING + LIBRARY_NAMES + XAVIER_NEAR_MISSES)])


@pytest.mark.points(3)
@pytest.mark.hidden
def test_matches_reference_on_random_fan_sizes(student, reference, cases):
    """On random kinds and fan sizes from the whole domain the result matches the reference (a float within 1e-9, or ValueError)."""
    cases.check(CALLS, lambda case: expect_contract(student, case, reference.init_std),
                explicit=WHOLE_RESULTS + BIG_LAYERS)
