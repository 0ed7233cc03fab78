"""Passes the standard deviation as a float32: within 1e-8 for ordinary stds, but below float32's normal range (about 1.2e-38) the rounded std is off by far more than 1e-5."""
import numpy as np

KILLED_BY = ("test_norms_follow_from_the_matrices_drawn",)
TITLE = 'weight_std rounded to single precision'
EXPLANATION = ('Your function rounds weight_std to float32 before drawing with it: for a tiny std such as 1e-42, '
               'below the smallest normal float32, the rounded value is no longer weight_std.')
HINT = 'Keep weight_std in double precision wherever it scales the weights; only the standard normal draws may be float32.'


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = rng.normal(0.0, np.float32(weight_std), size=(dim, dim)) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
