"""When both fans exceed a million, uses sqrt(1 / fan_in) for either kind, as if the fans were equal."""
import math

KILLED_BY = ("test_every_call_keeps_the_contract", "test_matches_reference_on_random_fan_sizes")
TITLE = 'a shortcut for big layers'
EXPLANATION = 'For big layers your function switches to another formula, which gives the wrong standard deviation when the fans differ or for the other kind.'
HINT = 'The same exact formula holds for every fan size: no shortcut or approximation for large layers.'


def init_std(kind, fan_in, fan_out):
    if kind not in ("xavier", "he"):
        raise ValueError(kind)
    if fan_in > 10 ** 6 and fan_out > 10 ** 6:
        return math.sqrt(1.0 / fan_in)
    if kind == "xavier":
        return math.sqrt(2.0 / (fan_in + fan_out))
    return math.sqrt(2.0 / fan_in)
