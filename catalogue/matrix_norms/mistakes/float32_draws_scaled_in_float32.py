"""Multiplies float32 standard normals by weight_std without upcasting them: the product stays float32, so tiny stds (below about 1.2e-38) lose their digits."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'float32 draws scaled in float32'
EXPLANATION = ('Your function multiplies its float32 draws by weight_std in single precision (a Python float times a '
               'float32 array stays float32): for a tiny std the weights fall below the smallest normal float32 and '
               'keep only a few digits, or none.')
HINT = 'Float32 draws are fine, but turn them into float64 before you scale them by weight_std.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        weights = weight_std * rng.standard_normal((dim, dim), dtype=np.float32)
        g = weights @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
