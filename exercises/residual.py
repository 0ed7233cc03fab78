"""A skip connection gives the gradient a path that multiplies by 1.

Going backwards through a plain block h <- f(h), the gradient is multiplied by the block's own
slope; through a stack of blocks it is multiplied by one such factor per block, and a product of
small factors vanishes. A residual block computes a correction and adds it to its input,
h <- h + f(h), so its slope is 1 + (the block's own slope): the "1" is the identity path around
the block, and along it the gradient passes untouched however small the block's slope is. Take
ten blocks whose own slope is 0.025. Stacked plainly they pass back 0.025 ** 10, about
9.5e-17 of the gradient, so the first layers learn nothing; with skip connections each block
passes back 1.025 and ten of them give 1.025 ** 10 = 1.28. That difference is why networks of
a hundred layers and more train at all. The price is that corrections pile up: a factor a bit
above 1 also compounds, which is why residual stacks are paired with normalization.
"""


def residual_chain_gradient(depth: int, block_slope: float, residual: bool = True) -> float:
    """Return the gradient that reaches the input of `depth` stacked blocks.

    Every block has the same own slope, `block_slope`. Going backwards, each block multiplies
    the gradient by one factor:
        with the skip path (residual=True):     1 + block_slope   (h <- h + f(h))
        without it         (residual=False):    block_slope       (h <- f(h))
    The result is the product of the `depth` factors.

    Inputs:
        depth: the number of blocks, an int >= 0 (passed by position). With no blocks the
            gradient is untouched: 1.0. Stacks can be very deep: the grader sends up to
            250,000 blocks, far past Python's recursion limit (about 1,000 calls).
        block_slope: each block's own slope (passed by position); any finite float, including
            0.0, -1.0 (a factor of 0 with the skip), values below -1 (a negative factor flips the
            gradient's sign at every block), tiny and huge ones. The grader only sends stacks
            whose product stays between 1e-290 and 1e290 in size, or is exactly 0.
        residual: whether the blocks have skip connections. Optional, True by default, and
            may be passed by position or by keyword, with exactly this name (residual=False).

    Output:
        a float, the product of the `depth` factors: a Python float (numpy.float64 is one too),
        never an int, also on special paths (1.0 for depth 0, 0.0 for a zero factor). The grader
        accepts a relative difference of 1e-9, so a loop that multiplies block by block and a
        single power both work.

    Example:
        >>> residual_chain_gradient(10, 0.025)                    # 1.025 ** 10
        1.2800845441963566
        >>> residual_chain_gradient(10, 0.025, residual=False)    # 0.025 ** 10
        9.536743164062505e-17
    """
    raise NotImplementedError
