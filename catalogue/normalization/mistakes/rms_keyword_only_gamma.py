"""Makes gamma keyword-only, so rms_norm(x, eps, gamma) called by position fails."""
import numpy as np

KILLED_BY = ("test_rms_norm_gamma_scales_each_feature",)
TITLE = "RMSNorm's gamma cannot be passed by position"
EXPLANATION = 'Your rms_norm accepts gamma only as a keyword, so a call that passes it by position fails.'
HINT = 'Keep the signature of the stub: gamma is an ordinary parameter.'


def rms_norm(x, eps=1e-6, *, gamma=None):
    out = x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)
    return out * gamma if gamma is not None else out
