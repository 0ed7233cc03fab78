"""Normalizes the kind with unicodedata.normalize("NFKC"), so full-width "ｈｅ" is accepted instead of raising ValueError."""
import math
import unicodedata

KILLED_BY = ("test_kind_is_matched_exactly", "test_every_call_keeps_the_contract")
TITLE = 'unicode forms folded into the kind'
EXPLANATION = 'Your function normalizes the kind before comparing it, so look-alike spellings of the names are accepted.'
HINT = 'Compare the kind exactly as given, character for character: any other string is an unknown kind.'


def init_std(kind, fan_in, fan_out):
    kind = unicodedata.normalize("NFKC", kind)
    if kind == "xavier":
        return math.sqrt(2 / (fan_in + fan_out))
    if kind == "he":
        return math.sqrt(2 / fan_in)
    raise ValueError(kind)
