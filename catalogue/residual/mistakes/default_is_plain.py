"""Makes residual default to False, so leaving the argument out drops the skip path."""
KILLED_BY = ("test_skip_path_is_the_default",)
TITLE = 'the skip connection is off by default'
EXPLANATION = 'When residual is left out your function drops the skip path, but the spec makes the skip path the default.'
HINT = 'Look at the signature in the stub: what is residual when the caller does not pass it?'


def residual_chain_gradient(depth, block_slope, residual=False):
    factor = 1.0 + block_slope if residual else float(block_slope)
    return factor ** depth
