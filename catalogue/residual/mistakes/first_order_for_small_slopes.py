"""Uses the first-order guess 1 + depth * block_slope for small slopes instead of multiplying the factors."""
KILLED_BY = ("test_factors_compound_not_add",)
TITLE = 'small slopes added instead of multiplied'
EXPLANATION = "Your function takes a shortcut for small slopes, 1 + depth * slope, which is close but drifts away over many blocks."
HINT = 'However small the slope, every block multiplies the gradient by its own factor, and the factors compound.'


def residual_chain_gradient(depth, block_slope, residual=True):
    if residual and abs(block_slope) < 1e-3:
        return 1.0 + depth * block_slope
    return float((1.0 + block_slope if residual else block_slope) ** depth)
