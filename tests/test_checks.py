"""The grader helpers state verdicts in the student's terms and never crash on odd values."""

from __future__ import annotations

import numpy as np
import pytest

from autograder.checks import expect_array_close, expect_close, expect_real, show
from autograder.codec import Unrepresentable
from autograder.problems import CheckFailed


@pytest.mark.parametrize("value", [[1.0], "0.5", None, True, np.ones(2), Unrepresentable("Sly")])
def test_expect_real_rejects_what_is_not_one_number(value):
    with pytest.raises(CheckFailed, match="expected a single float"):
        expect_real(value, "f()")


@pytest.mark.parametrize("value", [0.5, 1, np.float64(0.5), np.float32(0.5), np.int64(3), np.array(2.0)])
def test_expect_real_accepts_numbers_of_any_numeric_type(value):
    assert expect_real(value, "f()") == float(np.asarray(value))


def test_expect_close_says_got_and_expected():
    with pytest.raises(CheckFailed, match=r"f\(\) returned 0.3; expected 0.2, a relative error of 0.5\."):
        expect_close(0.3, 0.2, "f()")
    with pytest.raises(CheckFailed):
        expect_close(float("nan"), 0.2, "f()")


@pytest.mark.parametrize("got", [np.full(3, np.nan), np.array([1.0, np.inf, 3.0]), np.array([np.nan, 2.0, 3.0])])
def test_expect_array_close_names_non_finite_entries_instead_of_crashing(got):
    with pytest.raises(CheckFailed, match="expected finite values"):
        expect_array_close(got, np.array([1.0, 2.0, 3.0]), "f(x)")


def test_expect_array_close_points_at_the_largest_difference():
    with pytest.raises(CheckFailed, match=r"largest difference at index \(1,\)"):
        expect_array_close(np.array([1.0, 5.0, 3.1]), np.array([1.0, 2.0, 3.0]), "f(x)")


def test_show_keeps_long_values_short():
    assert len(show(list(range(1000)))) <= 120
    assert show(np.arange(100.0)).startswith("array of shape (100,)")


def test_arrays_that_differ_are_printed_with_the_digits_that_show_the_difference():
    # LayerNorm without eps on (0, 0.002): four digits would print [-1. 1.] twice.
    got, expected = np.array([-0.9999950000374997, 0.9999950000374997]), np.array([-1.0, 1.0])
    with pytest.raises(CheckFailed) as failure:
        expect_array_close(got, expected, "layer_norm(x)")
    message = failure.value.message
    shown_got, shown_expected = message.split(" returned ")[1].split("; expected ")[:2]
    assert shown_got.split(":")[1] != shown_expected.split(" (largest")[0].split(":")[1]
    assert "-0.999995" in shown_got and "a relative error of 5e-06" in message
