"""Returns the int 1 for depth 0, where the spec promises the float 1.0."""

KILLED_BY = ("test_returns_a_float_for_every_stack",)
TITLE = 'an empty stack returns the integer 1'
EXPLANATION = 'For a stack of no blocks your function returns the integer 1, where the spec promises the float 1.0.'
HINT = 'Read the Output section again: a float for every stack, even an empty one.'
SAME_AS = ('functools_reduce_from_int_one', 'math_prod_of_an_empty_stack')


def residual_chain_gradient(depth, block_slope, residual=True):
    if depth == 0:
        return 1
    f = 1 + block_slope if residual else block_slope
    return f ** depth
