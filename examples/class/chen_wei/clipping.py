# Chen Wei - HW3 part 6
import numpy as np


def clip_by_global_norm(grads, max_norm):
    flat = np.concatenate([g.ravel() for g in grads])
    norm = float(np.linalg.norm(flat))
    scale = min(1.0, max_norm / norm) if norm > 0 else 1.0
    return [g * scale for g in grads], norm
