import numpy as np
f32 = np.float32
X = np.array([[1., 1.5], [2., 2.5], [3., 3.5]], f32)
Y = [0, 0, 1]
EX = np.array([[4., 4.5], [5., 5.5], [6., 6.5]], f32)
EY = [0, 1, 1]
W = np.zeros((2, 2), f32); b = np.zeros(2, f32)
aW = np.full((2, 2), 0.1, f32); ab = np.full(2, 0.1, f32)
print("begin")
print("session at step", 0)
for i in range(2):
    x = X[i:i + 1]
    z = x @ W + b
    e = np.exp(z - z.max())
    p = e / e.sum()
    print("loss", round(float(-np.log(p[0, Y[i]])), 5))
    d = p.copy(); d[0, Y[i]] -= 1
    gW = x.T @ d; gb = d[0]
    aW += gW * gW; ab += gb * gb
    W -= f32(0.05) * gW / np.sqrt(aW); b -= f32(0.05) * gb / np.sqrt(ab)
print("end at step", 2)
z = EX @ W + b
e = np.exp(z - z.max(1, keepdims=True)); p = e / e.sum(1, keepdims=True)
pred = z.argmax(1)
losses = [-np.log(p[i, EY[i]]) for i in range(3)]
acc = np.mean(pred == np.array(EY))
print(["accuracy", "loss", "global_step"], {"accuracy": round(float(acc), 5), "loss": round(float(np.mean(losses)), 5), "global_step": 2.0})
mse = np.mean((pred - np.array(EY)) ** 2)
print(["accuracy", "loss", "mean_squared_error", "global_step"], {"accuracy": round(float(acc), 5), "loss": round(float(np.mean(losses)), 5), "mean_squared_error": round(float(mse), 5), "global_step": 2.0})
print([("int64", int(v)) for v in pred])
print("ValueError:", "following not expected args: ['logits']")
