"""Returns the int 0 when a factor is exactly 0, where the spec promises a float."""

KILLED_BY = ("test_returns_a_float_for_every_stack",)
TITLE = 'a zero factor returns the integer 0'
EXPLANATION = "When a block's factor is exactly zero your function returns the integer 0, where the spec promises a float."
HINT = 'Every answer must be a float, including when the gradient is killed outright.'


def residual_chain_gradient(depth, block_slope, residual=True):
    f = 1 + block_slope if residual else block_slope
    if f == 0 and depth > 0:
        return 0
    result = 1.0
    for _ in range(depth):
        result *= f
    return result
