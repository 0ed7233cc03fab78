"""Scales the norm by the largest entry of every array, which fails on an array of shape (0,) or (2, 0): it has no largest entry."""

import numpy as np

KILLED_BY = ("test_reports_the_global_norm_before_clipping",)
TITLE = 'an array with no entries fails'
EXPLANATION = ('Your function takes the largest entry of each array, which an array of shape (0,) does not have; '
               'arrays may have any shape, and one without entries adds nothing to the norm.')
HINT = 'An array of any shape may come, one with no entries too: it adds 0 to the sum of squares.'


def clip_by_global_norm(grads, max_norm):
    top = max(float(np.max(np.abs(g))) for g in grads)
    if top == 0.0:
        return [np.array(g, copy=True) for g in grads], 0.0
    norm = top * float(np.sqrt(sum(float(np.sum(np.square(g / top))) for g in grads)))
    if norm > max_norm:
        return [np.asarray(g) * (max_norm / norm) for g in grads], norm
    return [np.array(g, copy=True) for g in grads], norm
