# Kofi Mensah
# Exercise: residual connections


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    # h <- h + f(h)  =>  dh_out/dh_in = 1 + f'(h)
    factor = 1.0 + block_slope
    return factor ** depth
