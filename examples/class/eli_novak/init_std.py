def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    if kind == "xavier":
        return (2 / (fan_in + fan_out)) ** 0.5
    if kind == "he":
        return (2 / fan_in) ** 0.5
    raise ValueError(kind)
