"""Takes the square root with ** 0.5 instead of a sqrt function."""


def init_std(kind, fan_in, fan_out):
    if kind == "he":
        return (2 / fan_in) ** 0.5
    if kind == "xavier":
        return (2 / (fan_in + fan_out)) ** 0.5
    raise ValueError("kind must be 'xavier' or 'he'")
