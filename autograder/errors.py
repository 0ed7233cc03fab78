"""The one error type the command line catches: bad input from the person running it."""


class GradeError(Exception):
    """A problem with what the user asked for, told in one sentence (never a student's fault)."""
