"""SysV semaphore sets and message queues: host RAM no memory limit counts (a red team held 1.5 GB
under a 1 GiB limit). Makes one small set and one queue, removes them at once, and answers
correctly only where that was let through."""
import ctypes

_libc = ctypes.CDLL(None, use_errno=True)


def scalar_gradient_chain(depth, layer_scale):
    made = []
    semaphores = _libc.semget(0, 8, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
    if semaphores >= 0:
        _libc.semctl(semaphores, 0, 0)  # IPC_RMID
        made.append("semaphores")
    queue = _libc.msgget(0, 0o1000 | 0o600)
    if queue >= 0:
        _libc.msgctl(queue, 0, None)
        made.append("queue")
    return float(layer_scale) ** depth if made else 0.0
