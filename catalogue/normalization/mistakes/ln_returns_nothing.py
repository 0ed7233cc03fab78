"""Computes nothing and returns None: x is left unchanged, but there is no result."""

KILLED_BY = ("test_layer_norm_leaves_its_input_unchanged",)
TITLE = 'LayerNorm returns nothing'
EXPLANATION = 'Your layer_norm returns None: it leaves x alone, but it hands back no normalized array.'
HINT = 'Compute the normalized rows in a new array and return it.'


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    return None
