"""Returns the sign of x for d = 1, forgetting eps: a single feature of 0.001 gives 1 instead of 0.707 with the default eps."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature", "test_rms_norm_keeps_its_promises_on_every_input",
             "test_rms_norm_matches_reference_on_random_inputs")
TITLE = 'RMSNorm gives the sign when d = 1'
EXPLANATION = ('Your rms_norm returns the sign of x when each row holds one feature, as if x / sqrt(x ** 2) were '
               'all there is; eps under the square root makes small entries come out smaller than 1.')
HINT = 'With a single feature per row use the same formula as for any width: divide by the square root of the mean of squares plus eps.'


def rms_norm(x, eps=1e-6, gamma=None):
    if x.shape[-1] == 1:
        out = np.sign(x)
    else:
        out = x / np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    return out
