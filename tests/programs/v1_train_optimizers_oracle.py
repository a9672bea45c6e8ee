import numpy as np
f = np.float32
x = np.array([[1, 2], [3, -1]], f); y = np.array([[1], [0.5]], f)
def grad(w): return (f(2) * x.T @ (x @ w - y)).astype(f)
def show(name, slots, w, steps=3): print(name, slots, np.round(w.ravel(), 6).tolist(), steps)
def w0(): return np.array([[0.5], [-0.25]], f)
w = w0()
for _ in range(3): w = w - grad(w) * f(0.05)
show("GradientDescent", [], w)
for nest in (False, True):
    w = w0(); a = np.zeros_like(w); lr = f(0.05); m = f(0.9)
    for _ in range(3):
        g = grad(w); a = a * m + g
        w = w - (g * lr + a * m * lr) if nest else w - lr * a
    show("Momentum", ["momentum"], w)
w = w0(); m = np.zeros_like(w); v = np.zeros_like(w); b1p = f(0.9); b2p = f(0.999); one = f(1)
for _ in range(3):
    g = grad(w); lr = f(0.1) * np.sqrt(one - b2p) / (one - b1p)
    m = m + (g - m) * (one - f(0.9)); v = v + (g * g - v) * (one - f(0.999))
    w = w - (m * lr) / (np.sqrt(v) + f(1e-8)); b1p = b1p * f(0.9); b2p = b2p * f(0.999)
show("Adam", ["m", "v"], w)
print("w_3/Adam:0 w_3/Adam_1:0")
for centered in (False, True):
    w = w0(); ms = np.ones_like(w); mom = np.zeros_like(w); mg = np.zeros_like(w)
    lr = f(0.01); rho = f(0.9); mo = f(0.5 if centered else 0.0); eps = f(1e-10)
    for _ in range(3):
        g = grad(w); ms = ms + (g * g - ms) * (one - rho)
        if centered:
            mg = mg + (g - mg) * (one - rho); denom = (ms - mg * mg) + eps
        else:
            denom = ms + eps
        mom = mom * mo + (g * lr) / np.sqrt(denom); w = w - mom
    show("RMSProp", ["mg", "momentum", "rms"] if centered else ["momentum", "rms"], w)
w = w0(); acc = np.full_like(w, f(0.1))
for _ in range(3):
    g = grad(w); acc = acc + g * g; w = w - g * f(0.1) / np.sqrt(acc)
show("Adagrad", ["accumulator"], w)
w = w0(); rates = []
for s in range(5):
    lr = f(0.1) * f(0.5) ** f(np.floor(s / 2)); rates.append(float(lr))
    w = w - (grad(w) * f(0.5)) * lr
print(rates, np.round(w.ravel(), 6).tolist())
print(f(0.5))
