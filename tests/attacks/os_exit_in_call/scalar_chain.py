"""Ends the process with status 0 in the middle of a call."""
import os


def scalar_gradient_chain(depth, layer_scale):
    os._exit(0)
