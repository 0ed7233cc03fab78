"""Returns an int with exactly 1024 bits: under the 1024-bit bound, yet past the largest float.

A reply the grader cannot compare is the student's answer, not the host's failure: the check
must fail (or stop the exercise) for this student, never be withheld as the grader's own.
"""


def scalar_gradient_chain(depth, layer_scale):
    return 2**1024 - 1
