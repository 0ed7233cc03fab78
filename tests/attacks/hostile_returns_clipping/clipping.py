"""Every call returns, raises or prints something odd: huge ints, nan, complex, float16 and
longdouble, 0-d, empty, 32-d, object, byte-swapped and strided arrays, views, tuples of the wrong
length, unprintable exceptions, objects whose repr raises, arguments edited in place. A
check may fail on each of them; none may fail as the grader's own error, and no value may earn a
point it should not."""
# __HOSTILE_RETURNS__
STEP, OFFSET = 13, 11


def clip_by_global_norm(grads, max_norm):
    return _weird(grads)
