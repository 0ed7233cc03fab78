"""Raises the size of the factor to the power and puts the sign back from the parity of depth."""

def residual_chain_gradient(depth, block_slope, residual=True):
    f = 1 + block_slope if residual else block_slope
    if f < 0:
        f = -f if depth % 2 == 0 else f
        return float(abs(f) ** depth) if depth % 2 == 0 else float(-(abs(f) ** depth))
    return float(abs(f) ** depth)
