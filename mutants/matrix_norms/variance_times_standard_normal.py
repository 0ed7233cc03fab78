"""Scales standard normal draws by the variance weight_std ** 2 instead of the standard deviation."""
KILLED_BY = ("test_each_layer_scales_the_norm_by_about_std_sqrt_dim", "test_norms_follow_from_the_matrices_drawn")


def matrix_gradient_norms(depth, dim, weight_std, rng):
    g = np.ones(dim)
    norms = [float(np.linalg.norm(g))]
    for _ in range(depth):
        g = (weight_std ** 2 * rng.standard_normal((dim, dim))) @ g
        norms.append(float(np.linalg.norm(g)))
    return norms
