# Chen Wei - HW3 part 2
import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    # weight matrix for the layers, entries ~ N(0, std^2)
    W = rng.normal(loc=0.0, scale=weight_std, size=(dim, dim))

    grad = np.ones(dim)
    history = [np.linalg.norm(grad)]
    for i in range(depth):
        grad = W @ grad
        history.append(np.linalg.norm(grad))
    return history
