"""Multiplies in float32, whose rounding of about 1e-7 per step is far above the tolerance of 1e-9."""
import numpy as np

KILLED_BY = ("test_ten_residual_blocks_keep_1_28", "test_ten_plain_blocks_vanish",
             "test_matches_reference_on_random_depths_and_slopes")
TITLE = 'computed in single precision'
EXPLANATION = "Your function computes in float32, whose rounding is far larger than the grader's tolerance."
HINT = "Keep every step in double precision (Python floats or float64), as the spec's Output asks."


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = np.float32(1.0 + block_slope if residual else block_slope)
    gradient = np.float32(1.0)
    for _ in range(depth):
        gradient = gradient * factor
    return gradient
