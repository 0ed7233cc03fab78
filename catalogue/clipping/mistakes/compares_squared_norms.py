"""Compares the sum of squares with max_norm ** 2, which overflows for a limit past 1.3e154."""

import math

import numpy as np

KILLED_BY = ("test_under_the_limit_the_values_are_unchanged",)
TITLE = 'max_norm squared'
EXPLANATION = ("Your function compares the sum of squares with max_norm squared, and the square of a large limit "
               "(above about 1.3e154) is too big for a float.")
HINT = "Compare the norm itself with max_norm: take the square root first, and never square the limit."


def clip_by_global_norm(grads, max_norm):
    squares = sum(float(np.sum(np.square(g))) for g in grads)
    norm = math.sqrt(squares)
    if squares > max_norm ** 2:
        return [g * (max_norm / norm) for g in grads], norm
    return [np.array(g, dtype=np.float64) for g in grads], norm
