"""Raises ValueError for every kind, "xavier" and "he" included: never computes a standard deviation."""

KILLED_BY = ("test_unknown_kind_raises_value_error", "test_kind_is_matched_exactly", "test_he_std_for_fan_in_50_is_0_2")
TITLE = 'every kind refused'
EXPLANATION = 'Your init_std raises ValueError for every kind, so it refuses "xavier" and "he" as well as the unknown ones.'
HINT = 'Raise the error only after both valid kinds have been ruled out; for "xavier" and "he", compute and return the standard deviation.'


def init_std(kind, fan_in, fan_out):
    raise ValueError(f"unknown kind {kind!r}")
