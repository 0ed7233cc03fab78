"""Prints, raises and returns lone surrogates, which no UTF-8 file or terminal can encode."""
print("import \ud800 \udfff")


def scalar_gradient_chain(depth, layer_scale):
    print("call \ud800", {"k\udfff": "\ud83d"})
    if depth == 0:
        raise ValueError("lone \ud800 in a message")
    return "\ud800" * depth
