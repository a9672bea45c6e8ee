# Oracle for random_fourier_features.tfs: Keras 2.15's RandomFourierFeatures
# worked by hand (weights unscaled_kernel, bias, kernel_scale; the layer is
# not trainable by default, so every weight is non-trainable) and its
# numbers by numpy: out = cos(x @ (W / s) + b), d mean(out) / ds =
# mean(sin(z) * (x @ W)) / s**2, one SGD step s - lr * grad.
import numpy as np

print("shape", (2, 3), "trainable", False)
# A non-trainable layer's weights: its trainable list, then the others.
print("weights", ["random_fourier_features/kernel_scale:0", "random_fourier_features/unscaled_kernel:0",
                  "random_fourier_features/bias:0"])
print("trainable_weights", 0, "non_trainable", 3)
print("scale", 2.0, 2.0)
print("bias in range", True)
print("output in range", True)
print("config", sorted({"name": "random_fourier_features", "trainable": False, "dtype": "float32",
                        "output_dim": 3, "kernel_initializer": "gaussian", "scale": 2.0}.items()))
print("output shape", (None, 3))
print("laplacian", 2.0, (5, 4), 2.0)

x = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
w = np.array([[0.1, -0.2, 0.3, 0.4], [0.5, 0.6, -0.7, 0.8], [-0.9, 1.0, 1.1, -1.2]])
b = np.array([0.0, 1.0, 2.0, 3.0])
s = 1.5
# build() called directly, outside __call__'s name scope: unscoped names.
print("trainable_weights", ["kernel_scale:0"])
xw = x @ w
z = xw / s + b
for row in np.cos(z):
    print("out", *["%.6f" % v for v in row])
loss = np.cos(z).mean()
grad = (np.sin(z) * xw).mean() / s ** 2
print("loss", "%.6f" % loss, "grad", "%.6f" % grad, "scale", "%.6f" % max(0.0, s - 0.5 * grad))
print("ValueError", "`output_dim` should be a positive integer. Received: 0")
print("ValueError", "Unsupported `kernel_initializer`: rbf Expected one of: ['gaussian', 'laplacian']")
print("ValueError", "When provided, `scale` should be a positive float. Received: -1.0")
# build() checks the rank before any input_spec exists.
print("ValueError", "The rank of the input tensor should be 2. Received input with rank 3 instead. Full input shape received: (2, 3, 4)")
print("<class 'keras.src.layers.kernelized.RandomFourierFeatures'>")
