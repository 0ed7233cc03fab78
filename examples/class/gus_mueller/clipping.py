import numpy as np


def clip_by_global_norm(grads, max_norm):
    sq = sum(float((g ** 2).sum()) for g in grads)
    norm = sq ** 0.5
    if norm <= max_norm:
        return list(grads), norm
    s = max_norm / norm
    return [s * g for g in grads], norm
