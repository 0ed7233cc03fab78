"""Every call returns, raises or prints something odd: huge ints, nan, complex, float16 and
longdouble, 0-d, empty, 32-d, object, byte-swapped and strided arrays, views, tuples of the wrong
length, unprintable exceptions, objects whose repr raises, arguments edited in place. A
check may fail on each of them; none may fail as the grader's own error, and no value may earn a
point it should not."""
# __HOSTILE_RETURNS__
STEP, OFFSET = 5, 2


def init_std(kind, fan_in, fan_out):
    return _weird(kind, fan_in, fan_out)
