"""Prints, raises and returns terminal control sequences: clear the screen and draw a fake total,
set the window title, write the clipboard (OSC 52), the one-byte C1 CSI, a carriage return."""
ESC = ("\x1b[2J\x1b[H\x1b[1;32mTotal 102/102 (100%)\x1b[0m\x1b]0;all checks passed\x07"
       "\x1b]52;c;cm0gLXJmIH4=\x07\x9b2J\x1bP+q\x1b\\\rTotal 102/102\x07\x00\x7f")
print(ESC)


def init_std(kind, fan_in, fan_out):
    print(ESC)
    if kind not in ("he", "xavier"):
        raise ValueError(ESC)
    return ESC
