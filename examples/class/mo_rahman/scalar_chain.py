def scalar_gradient_chain(depth: int, layer_scale: float) -> float:
    return layer_scale ** depth


# ---- quick tests ----
print(scalar_gradient_chain(10, 0.25))   # should be ~9.5e-7
print(scalar_gradient_chain(10, 1.5))    # ~57.7
print(scalar_gradient_chain(0, 0.3))     # 1.0
exit()
