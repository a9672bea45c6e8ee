# numpy oracle for optimizers_basic.tfs: Keras 2.15's update rules (the new
# keras.optimizers classes; epsilon 1e-7, AdamW's decay var -= var*wd*lr
# before the Adam step, Nadam's momentum schedule u_t = beta_1 * (1 - 0.5 *
# 0.96**t)). The rate and the hyperparameters an update passes through
# tf.cast (a Python float becomes a float32 tensor first) are rounded to
# float32 before a float64 variable uses them, as under TensorFlow.
import math
import numpy as np


def f32(x):
    return float(np.float32(x))


def fixed(shape, scale, offset=0.0):
    n = int(np.prod(shape))
    return np.array([scale * (((i * 7) % 13) - 6) + offset for i in range(n)]).reshape(shape)


def show(name, x):
    print(name, " ".join(["%.6g" % v for v in np.asarray(x, dtype=np.float64).ravel()]))


def sgd(lr, momentum=0.0, nesterov=False):
    lr, momentum = f32(lr), f32(momentum)

    def step(v, g, s, t):
        if momentum == 0:
            return v - lr * g
        m = s.get("m", np.zeros_like(v))
        m = -g * lr + m * momentum
        s["m"] = m
        return v + (-g * lr + m * momentum if nesterov else m)
    return step


def adam(lr, beta_1=0.9, beta_2=0.999, eps=1e-7, amsgrad=False, weight_decay=None):
    lr = f32(lr)

    def step(v, g, s, t):
        if weight_decay is not None:
            v = v - v * f32(weight_decay) * lr
        m = s.get("m", np.zeros_like(v)) + (g - s.get("m", np.zeros_like(v))) * (1 - beta_1)
        u = s.get("v", np.zeros_like(v)) + (g * g - s.get("v", np.zeros_like(v))) * (1 - beta_2)
        s["m"], s["v"] = m, u
        if amsgrad:
            s["vhat"] = np.maximum(s.get("vhat", np.zeros_like(v)), u)
            u = s["vhat"]
        alpha = lr * math.sqrt(1 - f32(beta_2) ** t) / (1 - f32(beta_1) ** t)
        return v - m * alpha / (np.sqrt(u) + eps)
    return step


def rmsprop(lr, rho=0.9, momentum=0.0, eps=1e-7, centered=False):
    lr = f32(lr)

    def step(v, g, s, t):
        vel = rho * s.get("vel", np.zeros_like(v)) + (1 - rho) * g * g
        s["vel"] = vel
        if centered:
            s["avg"] = rho * s.get("avg", np.zeros_like(v)) + (1 - rho) * g
            denominator = vel - s["avg"] ** 2 + eps
        else:
            denominator = vel + eps
        increment = lr * g / np.sqrt(denominator)
        if momentum > 0:
            s["mom"] = momentum * s.get("mom", np.zeros_like(v)) + increment
            return v - s["mom"]
        return v - increment
    return step


def adagrad(lr, initial=0.1, eps=1e-7):
    lr = f32(lr)

    def step(v, g, s, t):
        s["acc"] = s.get("acc", np.full_like(v, initial)) + g * g
        return v - lr * g / np.sqrt(s["acc"] + eps)
    return step


def adadelta(lr, rho=0.95, eps=1e-7):
    lr = f32(lr)

    def step(v, g, s, t):
        acc_g = rho * s.get("g", np.zeros_like(v)) + (1 - rho) * g * g
        acc_d = s.get("d", np.zeros_like(v))
        delta = -np.sqrt(acc_d + eps) * g / np.sqrt(acc_g + eps)
        s["g"], s["d"] = acc_g, rho * acc_d + (1 - rho) * delta * delta
        return v + lr * delta
    return step


def adamax(lr, beta_1=0.9, beta_2=0.999, eps=1e-7):
    lr = f32(lr)

    def step(v, g, s, t):
        s["m"] = s.get("m", np.zeros_like(v)) + (g - s.get("m", np.zeros_like(v))) * (1 - beta_1)
        s["u"] = np.maximum(beta_2 * s.get("u", np.zeros_like(v)), np.abs(g))
        return v - lr * s["m"] / ((1 - f32(beta_1) ** t) * (s["u"] + eps))
    return step


def nadam(lr, beta_1=0.9, beta_2=0.999, eps=1e-7):
    lr, beta_1, beta_2 = f32(lr), f32(beta_1), f32(beta_2)

    def u(t):
        return beta_1 * (1.0 - 0.5 * f32(0.96) ** t)

    def step(v, g, s, t):
        product = 1.0
        for k in range(1, t + 1):
            product *= u(k)
        s["m"] = s.get("m", np.zeros_like(v)) + (g - s.get("m", np.zeros_like(v))) * (1 - beta_1)
        s["v"] = s.get("v", np.zeros_like(v)) + (g * g - s.get("v", np.zeros_like(v))) * (1 - beta_2)
        m_hat = u(t + 1) * s["m"] / (1 - product * u(t + 1)) + (1 - u(t)) * g / (1 - product)
        v_hat = s["v"] / (1 - beta_2 ** t)
        return v - m_hat * lr / (np.sqrt(v_hat) + eps)
    return step


cases = [("sgd", sgd(0.1)), ("sgd_momentum", sgd(0.1, 0.9)), ("sgd_nesterov", sgd(0.1, 0.9, True)),
         ("adam", adam(0.1)), ("adam_amsgrad", adam(0.1, beta_1=0.8, amsgrad=True)),
         ("adamw", adam(0.1, weight_decay=0.05)), ("rmsprop", rmsprop(0.1)),
         ("rmsprop_momentum_centered", rmsprop(0.1, rho=0.8, momentum=0.5, centered=True)),
         ("adagrad", adagrad(0.1)), ("adadelta", adadelta(1.0)), ("adamax", adamax(0.1)), ("nadam", nadam(0.1)),
         ("adam_string", adam(0.001))]
for name, rule in cases:
    a, b = fixed((2, 3), 0.1, 0.05), fixed((3,), 0.2, -0.1)
    sa, sb = {}, {}
    for step in range(3):
        a = rule(a, fixed((2, 3), 0.05 * (step + 1), 0.01 * step), sa, step + 1)
        b = rule(b, fixed((3,), -0.07, 0.02 * step), sb, step + 1)
    show(name, np.concatenate([a.ravel(), b.ravel()]))
    print(name, "iterations", 3)


def exponential(step, staircase=False):
    p = step / 2.0
    return 0.5 * 0.5 ** (math.floor(p) if staircase else p)


def piecewise(step):
    return 0.5 if step <= 1 else (0.25 if step <= 2 else 0.125)


def polynomial(step):
    step = min(step, 4)
    return (0.5 - 0.1) * (1 - step / 4.0) ** 2.0 + 0.1


def inverse_time(step):
    return 0.5 / (1 + 0.5 * step)


def cosine(step):
    step = min(step, 4)
    return 0.5 * ((1 - 0.1) * 0.5 * (1 + math.cos(math.pi * step / 4)) + 0.1)


for name, fn in [("exponential_decay", exponential), ("exponential_decay_staircase", lambda s: exponential(s, True)),
                 ("piecewise_constant", piecewise), ("polynomial", polynomial), ("inverse_time", inverse_time),
                 ("cosine", cosine)]:
    show(name + "_values", [fn(i) for i in range(5)])
    w = np.array([1.0, -2.0])
    for step in range(4):
        w = w - fn(step) * 2 * w * np.array([1.0, 0.5])
    show(name + "_minimize", w)
