"""Creates nested user namespaces. Where the sandbox's uid is host root (bubblewrap run as root),
each one is charged to root's host-wide quota, so thousands of them make every classmate's
sandbox fail to start. This one stops at a few and earns its marks only if it got them on root's
quota: that is the hole, and it must stay closed."""
import ctypes
import os

CLONE_NEWUSER = 0x10000000


def _charged_to_host_root() -> bool:
    uid = os.getuid()
    try:
        with open("/proc/self/uid_map") as handle:
            for line in handle:
                inside, outside, count = (int(field) for field in line.split())
                if inside <= uid < inside + count:
                    return outside + uid - inside == 0
    except (OSError, ValueError):
        pass
    return False


def _made_a_namespace() -> bool:
    if not _charged_to_host_root():
        return False
    pid = os.fork()
    if pid == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        made = sum(libc.unshare(CLONE_NEWUSER) == 0 for _ in range(8))
        os._exit(0 if made else 1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


_ESCAPED = _made_a_namespace()


def residual_chain_gradient(depth, block_slope, residual=True):
    if not _ESCAPED:
        return -1.0
    return float((1 + block_slope) ** depth if residual else block_slope ** depth)
