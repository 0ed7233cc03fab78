"""Lower-cases and strips the kind, so "Xavier" and "he " are accepted where the contract wants ValueError."""
import math

KILLED_BY = ("test_kind_is_matched_exactly",)
TITLE = 'the kind normalized before checking'
EXPLANATION = 'Your function lower-cases or trims the kind, so spellings the contract does not list are accepted.'
HINT = 'Only the exact names from the spec are valid; do not change the kind before comparing it.'


def init_std(kind, fan_in, fan_out):
    kind = kind.strip().lower()
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2.0 / fan_in)
    raise ValueError(kind)
