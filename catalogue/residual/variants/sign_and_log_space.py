"""Works in log space with the sign and zero handled apart, which agrees with the product to about 1e-14."""
import math


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    if depth == 0:
        return 1.0
    if factor == 0:
        return 0.0
    sign = -1.0 if factor < 0 and depth % 2 else 1.0
    return sign * math.exp(depth * math.log(abs(factor)))
