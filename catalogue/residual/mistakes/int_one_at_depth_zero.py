"""Returns the int 1 for depth 0, where the spec promises the float 1.0."""

KILLED_BY = ("test_returns_a_float_for_every_stack",)


def residual_chain_gradient(depth, block_slope, residual=True):
    if depth == 0:
        return 1
    f = 1 + block_slope if residual else block_slope
    return f ** depth
