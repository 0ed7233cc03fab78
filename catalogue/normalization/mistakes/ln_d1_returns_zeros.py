"""Returns zeros for d = 1 without applying gamma and beta: layer_norm([[3.]], beta=[2.]) gives [[0.]] instead of [[2.]]."""
import numpy as np

KILLED_BY = ("test_layer_norm_beta_shifts_each_feature_after_scaling", "test_layer_norm_keeps_its_promises_on_every_input",
             "test_layer_norm_matches_reference_on_random_inputs")
TITLE = 'LayerNorm forgets beta when d = 1'
EXPLANATION = ('Your layer_norm returns zeros straight away when each row holds one feature; the normalized values '
               'are indeed 0, but gamma and beta still apply, so the output is beta.')
HINT = 'With a single feature per row every row normalizes to 0; then scale by gamma and shift by beta as for any other d.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    if x.shape[-1] == 1:
        return np.zeros_like(x)
    out = (x - x.mean(axis=-1, keepdims=True)) / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out
