import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    print("layer_norm input:", x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    print("mean:", mean, "var:", var)
    out = (x - mean) / np.sqrt(var + eps)
    if gamma is not None:
        print("applying gamma", gamma)
        out = out * gamma
    if beta is not None:
        print("applying beta", beta)
        out = out + beta
    print("layer_norm output:", out)
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    print("rms_norm input:", x)
    rms = np.sqrt((x ** 2).mean(axis=-1, keepdims=True) + eps)
    print("rms:", rms)
    out = x / rms
    if gamma is not None:
        out = out * gamma
    print("rms_norm output:", out)
    return out
