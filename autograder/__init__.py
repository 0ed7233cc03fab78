"""The grading engine: run graders against a student's files, parse the results, render reports."""

__version__ = "0.1.0"
