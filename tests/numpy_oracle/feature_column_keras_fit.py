import numpy as np

f32 = np.float32
X = np.array([[1.0, 1, 0], [2.0, 0, 1], [0.5, 0, 1], [-1.0, 0, 0]], f32)
y = np.array([[1.0], [2.0], [0.0], [1.5]], f32)
w = np.zeros((3, 1), f32)
b = np.zeros((1,), f32)
losses = []
for epoch in range(3):
    pred = X @ w + b
    err = pred - y
    losses.append(float(np.mean(err * err)))
    gw = f32(2.0) / f32(4) * (X.T @ err)
    gb = f32(2.0) / f32(4) * np.sum(err, axis=0)
    w = w - f32(0.1) * gw
    b = b - f32(0.1) * gb
print([round(x, 5) for x in losses])
pred = X @ w + b
print(round(float(np.mean((pred - y) ** 2)), 5))
print(np.round(pred, 5))
print(np.round(w, 5))
