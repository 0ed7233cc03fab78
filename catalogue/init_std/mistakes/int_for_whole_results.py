"""Returns a whole-number standard deviation as an int: init_std("he", 2, 1) gives 1, not 1.0."""
import math

KILLED_BY = ("test_every_call_keeps_the_contract",)
TITLE = 'an int for a whole-number result'
EXPLANATION = 'Your function returns an int when the standard deviation happens to be a whole number, such as 1 for a fan-in of 2 under He.'
HINT = 'Return a float on every path, also when the value is a whole number.'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        std = math.sqrt(2.0 / (fan_in + fan_out))
    elif kind == "he":
        std = math.sqrt(2.0 / fan_in)
    else:
        raise ValueError(kind)
    return int(std) if std.is_integer() else std
