"""Gradient norms through fresh random matrices.

In a real network a layer does not multiply the gradient by one number: it multiplies the
gradient vector by its weight matrix. Backpropagating through a stack of layers therefore
multiplies the vector by one matrix after another, and how much each multiplication stretches
or shrinks the vector decides what reaches the early layers. For a (dim, dim) matrix whose
entries are drawn independently from N(0, weight_std**2), every entry of W @ g is a sum of dim
random terms, and a sum of n random terms grows like sqrt(n), not like n. So each layer
multiplies the norm by about weight_std * sqrt(dim). With dim = 64 that factor is 8 *
weight_std: weights of std 0.01 shrink the norm by about 0.08 per layer, and 0.08 ** 20 is
about 1e-22 after 20 layers (the gradient vanishes); weights of std 1.0 stretch it by about 8
per layer, and 8 ** 20 is about 1e18 (the gradient explodes). Only a std near 1 / sqrt(dim)
(0.125 here) keeps the per-layer factor near 1, which is what careful initialization aims for.
"""


def matrix_gradient_norms(depth, dim, weight_std, rng):
    """Return the norm of a gradient vector before and after each of `depth` random layers.

    Start with the gradient g = numpy.ones(dim) and record its Euclidean norm, sqrt(dim).
    Then, for each of the `depth` layers in turn, draw a FRESH (dim, dim) weight matrix W
    whose entries are independent samples from the normal distribution N(0, weight_std**2),
    multiply the gradient by it (matrix product: g = W @ g; g = g @ W is accepted too) and
    record the norm of the new g. Whichever of the two forms you choose, use that same form for
    every layer (alternating them between layers is not accepted).

    Inputs (passed by position):
        depth: the number of layers, an int >= 0. With zero layers nothing is drawn and the
            result is just [sqrt(dim)].
        dim: the size of the gradient vector and of each square matrix, an int >= 1.
        weight_std: the standard deviation (not the variance) of every weight, a float > 0,
            tiny ones included (with 1e-30 the norms reach exactly 0.0 within a dozen
            layers: keep recording them).
            The grader only sends sizes whose norms stay far below the float64 limit.
        rng: a numpy.random.Generator. Draw every matrix from it and from nothing else: not
            the global numpy.random functions, and not a new generator made inside the
            function. Draw with rng.normal or rng.standard_normal only (the grader replays
            those draws one by one; multivariate_normal and the like cannot be replayed).
            For example ``rng.normal(0, weight_std, size=(dim, dim))`` or
            ``weight_std * rng.standard_normal((dim, dim))`` once per layer, or all the
            matrices at once in one array whose layer index comes first, second or last
            (``rng.normal(0, weight_std, size=(depth, dim, dim))`` and W[i], or the sizes
            (dim, depth, dim) with W[:, i] and (dim, dim, depth) with W[:, :, i]); the
            layers then take them first to last, or last to first. The grader replays
            those cuts and those two orders, no other.
            Use a new matrix for every layer, never one matrix for all of them, and draw
            nothing else (the starting g is ones, not random).

    Output:
        a Python list of depth + 1 floats (numpy float64 values are fine; float32 values, ints,
        0-d arrays and a numpy array in place of the list are not): the starting norm followed
        by the norm after each layer, in order. The norms themselves, not their squares, every
        one finite and >= 0, with no cap and no rescaling (norms past 1e19 included: compute
        them in float64). Draws made in float32 (standard_normal with dtype=numpy.float32) are
        accepted once scaled in float64, and a norm that avoids squaring underflow (scaling
        first) is as right as numpy.linalg.norm: the grader accepts norms within a relative
        1e-5 of what your own draws give (and, for norms below about 1e-150, whose entries'
        squares underflow, as close as squaring them in float64 can tell).

    What it shows: with a small weight_std the norms shrink toward 0 layer after layer, and
    with a large weight_std they grow explosively.

    Example (the exact numbers depend on the draws, the orders of magnitude do not):
        >>> import numpy as np
        >>> norms = matrix_gradient_norms(20, 64, 0.01, np.random.default_rng(0))
        >>> len(norms), norms[0]
        (21, 8.0)
        >>> norms[-1] < 1e-18      # about 8 * 0.08 ** 20, roughly 1e-21
        True
        >>> matrix_gradient_norms(20, 64, 1.0, np.random.default_rng(0))[-1] > 1e15
        True
        >>> matrix_gradient_norms(0, 9, 0.5, np.random.default_rng(0))
        [3.0]
    """
    raise NotImplementedError
