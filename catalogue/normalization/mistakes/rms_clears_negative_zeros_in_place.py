"""Tidies the caller's gamma in place (gamma[gamma == 0] = 0.0, making -0.0 into 0.0) before using it."""
import numpy as np

KILLED_BY = ("test_rms_norm_leaves_its_input_unchanged",)
TITLE = "RMSNorm rewrites the zeros of the caller's gamma"
EXPLANATION = ("Your rms_norm writes into the gamma it was given: its negative zeros come back as positive zeros, "
               "which compare equal but are not the values passed in.")
HINT = "Leave the caller's arrays alone, gamma included: do any tidying on a copy."


def rms_norm(x, eps=1e-6, gamma=None):
    out = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    if gamma is not None:
        gamma[gamma == 0] = 0.0
        out = out * gamma
    return out
