"""Computes in float32, whose error of about 1e-8 is a hundred times the tolerance of 1e-9."""
import numpy as np

KILLED_BY = ("test_he_std_for_fan_in_50_is_0_2", "test_xavier_std_for_100_in_100_out_is_0_1",
             "test_matches_reference_on_random_fan_sizes")
TITLE = 'computed in single precision'
EXPLANATION = "Your function computes in float32, whose rounding error is far larger than the grader's tolerance."
HINT = 'Keep the computation in double precision (Python floats or float64).'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return np.sqrt(np.float32(2.0) / np.float32(fan_in + fan_out))
    if kind == "he":
        return np.sqrt(np.float32(2.0) / np.float32(fan_in))
    raise ValueError(kind)
