def scalar_gradient_chain(depth, layer_scale):
    for step in range(20000):
        print(f"debug: step {step} depth={depth} scale={layer_scale}")
    return layer_scale ** depth
