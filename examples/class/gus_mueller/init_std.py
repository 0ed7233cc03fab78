import math


def init_std(kind: str, fan_in: int, fan_out: int) -> float:
    match kind:
        case "xavier":
            return math.sqrt(2 / (fan_in + fan_out))
        case "he":
            return math.sqrt(2 / fan_in)
        case _:
            raise ValueError(f"no such init: {kind}")
