import numpy as np
import torch


def matrix_gradient_norms(depth, dim, weight_std, rng):
    """Track ||g|| as g is multiplied by random weight matrices."""
    g = torch.ones(dim, dtype=torch.float64)
    norms = [torch.linalg.norm(g).item()]
    for _ in range(depth):
        W = torch.from_numpy(rng.normal(0.0, weight_std, size=(dim, dim)))
        g = W @ g
        norms.append(torch.linalg.norm(g).item())
    return norms
