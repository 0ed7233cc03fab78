"""Takes the absolute value of each factor, so a negative slope never flips the gradient's sign."""
KILLED_BY = ("test_zero_and_negative_slopes",)
TITLE = 'a negative factor loses its sign'
EXPLANATION = "Your function treats every block factor as positive, so a negative factor never flips the gradient's sign."
HINT = 'A negative factor flips the sign at every block, exactly as in the scalar chain. Where does the sign get lost?'


def residual_chain_gradient(depth, block_slope, residual=True):
    factor = 1.0 + block_slope if residual else block_slope
    return abs(factor) ** depth
