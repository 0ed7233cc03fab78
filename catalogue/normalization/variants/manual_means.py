"""Computes the means by hand as sums divided by d, with axis=x.ndim - 1 and ** 0.5 for the root."""


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    axis = x.ndim - 1
    d = x.shape[axis]
    mu = x.sum(axis=axis, keepdims=True) / d
    centred = x - mu
    var = (centred * centred).sum(axis=axis, keepdims=True) / d
    out = centred / (var + eps) ** 0.5
    if gamma is not None:
        out = out * gamma
    if beta is not None:
        out = out + beta
    return out


def rms_norm(x, eps=1e-6, gamma=None):
    axis = x.ndim - 1
    mean_square = (x * x).sum(axis=axis, keepdims=True) / x.shape[axis]
    out = x / (mean_square + eps) ** 0.5
    if gamma is not None:
        out = out * gamma
    return out
