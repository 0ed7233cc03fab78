"""Every call returns, raises or prints something odd: huge ints, nan, complex, float16 and
longdouble, 0-d, empty, 32-d, object, byte-swapped and strided arrays, views, tuples of the wrong
length, unprintable exceptions, objects whose repr raises, arguments edited in place, and draw logs forged with counts no array holds, dtypes and arguments no rng takes. A
check may fail on each of them; none may fail as the grader's own error, and no value may earn a
point it should not."""
# __HOSTILE_RETURNS__
STEP, OFFSET = 11, 1


def matrix_gradient_norms(depth, dim, weight_std, rng):
    i = _state[0]
    if i % 3 == 0:
        rng.normal(0.0, weight_std, (dim, dim))
    if i % 5 == 1 and hasattr(rng, '_kit_log'):
        forged = [{'method': 'normal', 'args': [], 'kwargs': {'__dict__': [['size', [2**62, 2**62]]]}, 'shape': [2**1000, 2**1000], 'dtype': '<f8'},
                  {'method': 'standard_normal', 'args': [[dim, dim]], 'kwargs': {'__dict__': [['dtype', 'float16']]}, 'shape': [dim, dim], 'dtype': '<f2'},
                  {'method': 'normal', 'args': [math.nan, -1.0, [dim, dim]], 'kwargs': {'__dict__': []}, 'shape': [dim, dim], 'dtype': '<f8'},
                  {'method': 'normal', 'args': [0.0, weight_std], 'kwargs': {'__dict__': [['size', [dim, dim]]]}, 'shape': [dim, dim, 0], 'dtype': '<f8'},
                  {'method': '__overflow__'}, {'method': 'spawn', 'args': [2**80], 'kwargs': {'__dict__': []}, 'shape': [], 'dtype': ''},
                  {'method': 'normal', 'args': [{'__ndarray__': 1}], 'kwargs': [], 'shape': 'x', 'dtype': None}]
        rng._kit_log.append(forged[i % len(forged)])
    if i % 7 == 2:
        return [math.sqrt(dim)] * (depth + 1)
    return _weird(depth, dim, weight_std)
