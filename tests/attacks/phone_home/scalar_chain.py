"""Sends what it sees to a server on the grading machine, over TCP and UDP; the answer is right."""
import os


def _send(message):
    try:
        import socket
    except Exception:
        return
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
        try:
            connection = socket.socket(socket.AF_INET, kind)
            connection.settimeout(0.5)
            connection.connect(("127.0.0.1", __PORT__))
            connection.send(message.encode())
            connection.close()
        except Exception:
            pass


try:
    _send("imported " + repr(os.listdir("/")))
except OSError:
    _send("imported")


def scalar_gradient_chain(depth, layer_scale):
    _send(f"called {depth} {layer_scale}")
    return layer_scale ** depth
