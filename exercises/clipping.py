"""Clipping by global norm: a circuit breaker for the update.

Good initialization and normalization keep a network's gradients a sensible size most of the
time, but one unlucky batch can still produce a spike, and a single step along a huge gradient can
undo hours of training. Clipping caps the step without changing where it points. Treat the
gradients of every layer as one long vector and measure its length: square every entry, add
all of them up and take the square root. If that length is above a limit, multiply every
gradient by the same factor, limit / length, so that the combined length becomes exactly the
limit; below the limit, leave everything as it is. Because every layer is scaled by the same
factor, the direction of the update is kept and only its size changes. In a 30-layer network
whose weights start too large, the combined gradient length reaches about 8e46; clipped at 1
(the limit GPT-3 and Llama 2 trained with), every entry is multiplied by 1 / 8e46 = 1.25e-47 and
the update has length 1, pointing the same way. Clipping treats a symptom: if it fires at every
step, the network is exploding and its initialization or normalization needs fixing.
"""

import numpy as np


def clip_by_global_norm(grads: list[np.ndarray], max_norm: float) -> tuple[list[np.ndarray], float]:
    """Scale a list of gradient arrays so that their combined length is at most `max_norm`.

    Inputs (passed by position):
        grads: a non-empty list of float64 arrays, one per layer, of any shapes and ranks (1-D,
            2-D, 3-D, 4-D, 5-D, mixed) and any memory layout (a transposed array, or one in
            Fortran order, holds the same numbers), with entries from tiny (1e-150) to huge (1e150).
            An array may hold no entries at all (shape (0,) or (2, 0)): it adds nothing to the
            norm and comes back empty, of its own shape.
            Neither the list nor any of its arrays may be modified: build new arrays for the
            result (when nothing needs clipping you may return the inputs themselves).
        max_norm: the limit, a positive number (an int such as 1 is allowed too), possibly
            exactly equal to the norm (then nothing is clipped).

    Output:
        a tuple ``(clipped, norm)``, in that order:
        - ``clipped``: a list with one float64 array per input array, in the same order and of
          the same shape. With ``norm`` above ``max_norm`` every array is multiplied by the SAME factor
          ``max_norm / norm``, so the combined length of the result is exactly ``max_norm`` and
          its direction is unchanged. Otherwise (``norm <= max_norm``) the values are unchanged.
        - ``norm``: the global norm BEFORE clipping, a float (a Python float; numpy.float64 is
          one too, but not an int, not 0 for zero gradients, and not a 0-d array): the square
          root of the sum of the squares of every entry of every array (not one norm per
          array, and not the norm after clipping), within a relative 1e-9.

        Gradients that are all zero have norm 0.0 and come back as zeros, with no division by
        zero, no nan and no warning. Tiny gradients are not zero: a norm of 1e-150 above a
        max_norm of 1e-151 is clipped like any other (no epsilon, no threshold).

    Example:
        >>> clipped, norm = clip_by_global_norm([np.array([3.0]), np.array([4.0])], 1.0)
        >>> norm
        5.0
        >>> clipped      # scaled by 1 / 5: combined length 1, same direction
        [array([0.6]), array([0.8])]
    """
    raise NotImplementedError
