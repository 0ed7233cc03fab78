"""Returns the variance 2 / fan_in (or 2 / (fan_in + fan_out)) instead of its square root, the standard deviation."""
KILLED_BY = ("test_he_std_for_fan_in_50_is_0_2", "test_xavier_std_for_100_in_100_out_is_0_1")
TITLE = 'the variance instead of the standard deviation'
EXPLANATION = 'Your function returns the variance of the rule, not its square root, the standard deviation.'
HINT = 'The rules give a variance; the function returns a standard deviation. How are the two related?'


def init_std(kind, fan_in, fan_out):
    if kind == "xavier":
        return 2.0 / (fan_in + fan_out)
    if kind == "he":
        return 2.0 / fan_in
    raise ValueError(kind)
