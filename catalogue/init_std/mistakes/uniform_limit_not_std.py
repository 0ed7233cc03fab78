"""Returns the limit of the uniform version of each rule, sqrt(6 / ...), instead of the standard deviation."""
import math

KILLED_BY = ("test_he_std_for_fan_in_50_is_0_2", "test_xavier_std_for_100_in_100_out_is_0_1")
TITLE = 'the uniform limit instead of the standard deviation'
EXPLANATION = 'Your function returns the limit of the uniform version of each rule, not the standard deviation.'
HINT = 'The spec asks for the standard deviation of the weights, not the bound of a uniform range.'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return math.sqrt(6.0 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(6.0 / fan_in)
    raise ValueError(kind)
