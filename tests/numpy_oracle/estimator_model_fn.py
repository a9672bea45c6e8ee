import numpy as np

f32 = np.float32
X = np.array([[1., 1.5], [2., 2.5], [3., 3.5]], f32)
Y = np.array([[0.3], [0.5], [0.7]], f32)
EX = np.array([[4., 4.5], [5., 5.5], [6., 6.5]], f32)
EY = np.array([[0.8], [0.9], [1.]], f32)
w = np.zeros((2, 1), f32)
b = np.zeros((1,), f32)
aw = np.full((2, 1), 0.1, f32)
ab = np.full((1,), 0.1, f32)
lr = f32(0.05)


def step(x, y):
    global w, b, aw, ab
    pred = x @ w + b
    d = f32(2.0) * (pred - y)
    gw = x.T @ d
    gb = d.sum(axis=0)
    aw = aw + gw * gw
    ab = ab + gb * gb
    w = w - lr * gw / np.sqrt(aw)
    b = b - lr * gb / np.sqrt(ab)


def evaluate(n, step_count):
    losses = [((EX[i:i + 1] @ w + b - EY[i:i + 1]) ** 2).mean(dtype=f32) for i in range(n)]
    total = f32(0)
    for l in losses:
        total = f32(total + l)
    return {"loss": f32(total / f32(n)), "global_step": np.int64(step_count)}


print(True)
for i in range(3):
    step(X[i:i + 1], Y[i:i + 1])
r = evaluate(3, 3)
print(list(r), type(r["loss"]).__name__, type(r["global_step"]).__name__)
print({k: round(float(v), 5) for k, v in r.items()})
print(['dense/bias', 'dense/bias/Adagrad', 'dense/kernel', 'dense/kernel/Adagrad', 'global_step'])
for i in range(2):
    step(X[i:i + 1], Y[i:i + 1])
print({k: round(float(v), 5) for k, v in evaluate(2, 5).items()})
for i in range(3):
    y = (EX[i:i + 1] @ w + b)[0]
    print(["y"], y.shape, y.dtype, round(float(y[0]), 4))
print("model.ckpt-5")
