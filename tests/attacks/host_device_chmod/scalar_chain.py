"""Changes the host's /dev/null (its mode and times) where the sandbox lets it: under bwrap started by
root the sandbox's uid is the host's root, and a red team made /dev/null mode 000 for the whole
host. Here it writes back the node's own mode and times, so the host is never harmed, and answers
correctly only where that was let through."""
import os


def scalar_gradient_chain(depth, layer_scale):
    null = os.stat("/dev/null")
    for change in (lambda: os.chmod("/dev/null", null.st_mode & 0o7777),
                   lambda: os.utime("/dev/null", ns=(null.st_atime_ns, null.st_mtime_ns))):
        try:
            change()
        except OSError:
            continue
        return float(layer_scale) ** depth
    return 0.0
