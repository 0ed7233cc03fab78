"""Uses np.vdot for each array's sum of squares, clips with a non-strict >=, and computes g / norm * max_norm."""
import numpy as np


def clip_by_global_norm(grads, max_norm):
    norm = np.sqrt(sum(np.vdot(g, g) for g in grads))
    if norm >= max_norm and norm > 0:
        return [g / norm * max_norm for g in grads], float(norm)
    return [np.array(g) for g in grads], float(norm)
