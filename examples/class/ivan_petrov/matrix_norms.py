import numpy as np


def matrix_gradient_norms(depth, dim, weight_std, rng):
    print(f"=== matrix_gradient_norms depth={depth} dim={dim} std={weight_std}")
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    print("start norm", norms[0])
    for i in range(depth):
        W = rng.normal(0, weight_std, size=(dim, dim))
        print("layer", i, "W[0,:3] =", W[0, :3])
        g = W @ g
        print("layer", i, "g =", g)
        n = float(np.linalg.norm(g))
        print("layer", i, "norm =", n)
        norms.append(n)
    print("all norms:", norms)
    return norms
