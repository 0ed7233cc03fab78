import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    """Norm of a gradient pushed back through `depth` random (dim x dim) layers."""
    grad = np.ones(dim)
    norms = [float(np.linalg.norm(grad))]

    for _ in range(depth):
        # fresh random weights for this layer
        W = np.random.normal(0, weight_std, (dim, dim))
        grad = np.dot(W, grad)
        norms.append(float(np.linalg.norm(grad)))

    return norms
