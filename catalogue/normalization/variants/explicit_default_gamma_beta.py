"""Replaces gamma=None by np.ones(d) and beta=None by np.zeros(d), then always scales and shifts in one line."""
import numpy as np


def layer_norm(x, eps=1e-5, gamma=None, beta=None):
    d = x.shape[-1]
    gamma = np.ones(d) if gamma is None else gamma
    beta = np.zeros(d) if beta is None else beta
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta


def rms_norm(x, eps=1e-6, gamma=None):
    gamma = np.ones(x.shape[-1]) if gamma is None else gamma
    return x / np.sqrt(np.mean(np.square(x), axis=-1, keepdims=True) + eps) * gamma
