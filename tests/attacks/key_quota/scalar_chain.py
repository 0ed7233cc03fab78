"""Adds kernel keys, charged to the key quota of the user that started the sandbox (root's,
host-wide, under bubblewrap as root) and left behind after the worker ends in a user keyring. It
earns its marks only if the kernel took a key: that is the hole."""
import ctypes

_libc = ctypes.CDLL(None, use_errno=True)
_ADD_KEY = {"x86_64": 248, "aarch64": 217}
try:
    import platform

    _number = _ADD_KEY.get(platform.machine())
except Exception:  # noqa: BLE001
    _number = None
_ADDED = _number is not None and _libc.syscall(_number, b"user", b"attack-key", b"x" * 64, 64, -4) >= 0


def scalar_gradient_chain(depth, layer_scale):
    return float(layer_scale) ** depth if _ADDED else -1.0
