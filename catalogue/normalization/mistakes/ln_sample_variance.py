"""Uses the sample variance (ddof=1, divide by d - 1) instead of the population variance."""
import numpy as np

KILLED_BY = ("test_layer_norm_uses_population_variance", "test_layer_norm_of_one_two_three_four")
TITLE = 'LayerNorm uses the sample variance'
EXPLANATION = 'Your layer_norm divides by one fewer than the number of features (the sample variance) instead of by the number of features.'
HINT = 'LayerNorm uses the population variance: the mean of the squared deviations.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, ddof=1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
