import numpy as np


def clip_by_global_norm(grads, max_norm):
    total = 0.0
    for i, g in enumerate(grads):
        print(f"grad {i} shape={g.shape}:", g)
        total += float(np.sum(g ** 2))
    norm = float(np.sqrt(total))
    print("global norm =", norm, "max_norm =", max_norm)
    if norm > max_norm:
        scale = max_norm / norm
        print("clipping with scale", scale)
        clipped = [g * scale for g in grads]
    else:
        print("no clipping needed")
        clipped = [g.copy() for g in grads]
    for i, c in enumerate(clipped):
        print(f"clipped {i}:", c)
    return clipped, norm
