"""Accepts the names frameworks use for the same rules ("kaiming_normal", "glorot_uniform", "msra") and the activations they suit ("relu", "tanh"), where the contract wants ValueError."""
import math

KILLED_BY = ("test_unknown_kind_raises_value_error", "test_every_call_keeps_the_contract")
TITLE = "frameworks' names accepted as kinds"
EXPLANATION = ('Your function maps the names frameworks use (and activation names) onto the two rules, but the '
               'contract lists exactly two kinds and refuses every other string.')
HINT = 'Only the two names the spec lists are valid, however well known another name for the same rule is.'

_XAVIER = {"xavier", "glorot_normal", "glorot_uniform", "GlorotNormal", "tanh", "sigmoid", "Glorot"}
_HE = {"he", "kaiming_normal", "kaiming_uniform", "msra", "MSRA", "HeNormal", "relu", "ReLU"}


def init_std(kind, fan_in, fan_out):
    if kind in _XAVIER:
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind in _HE:
        return math.sqrt(2.0 / fan_in)
    raise ValueError(kind)
