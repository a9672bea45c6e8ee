"""The op table of the random differential tester: for each op, the tfs text
it generates and its numpy twin.

A program is a list of steps over SSA values (inputs first). Every op here
has a numpy twin that computes the same result in the argument's dtype; the
generator only draws ops whose argument dtypes and shapes the op accepts in
TF, so a program tfs rejects or computes differently is a finding.
"""
import math

import numpy as np

FLOATS = ("float32", "float64")
NUMERIC = ("float32", "float64", "int32")


def _np_softplus(x):
    return np.logaddexp(x, 0).astype(x.dtype)


def _np_sigmoid(x):
    return (1 / (1 + np.exp(-x))).astype(x.dtype)


def _np_elu(x):
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype)


def _np_erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(x.dtype)


# Unary elementwise ops: name -> (tfs text with {0}, numpy twin, dtypes).
UNARY = {
    "tanh": ("tf.tanh({0})", np.tanh, FLOATS),
    "sigmoid": ("tf.sigmoid({0})", _np_sigmoid, FLOATS),
    "sin": ("tf.sin({0})", np.sin, FLOATS),
    "cos": ("tf.cos({0})", np.cos, FLOATS),
    "softplus": ("tf.nn.softplus({0})", _np_softplus, FLOATS),
    "elu": ("tf.nn.elu({0})", _np_elu, FLOATS),
    "erf": ("tf.math.erf({0})", _np_erf, FLOATS),
    "relu6": ("tf.nn.relu6({0})", lambda x: np.clip(x, 0, 6).astype(x.dtype), FLOATS),
    "softsign": ("tf.math.softsign({0})", lambda x: (x / (1 + np.abs(x))).astype(x.dtype), FLOATS),
    "exp_neg_abs": ("tf.exp(-tf.abs({0}))", lambda x: np.exp(-np.abs(x)), FLOATS),
    "log1p_abs": ("tf.math.log1p(tf.abs({0}))", lambda x: np.log1p(np.abs(x)), FLOATS),
    "sqrt_1p_sq": ("tf.sqrt(1.0 + tf.square({0}))", lambda x: np.sqrt(x.dtype.type(1) + x * x), FLOATS),
    "square": ("tf.square({0})", np.square, NUMERIC),
    "abs": ("tf.abs({0})", np.abs, NUMERIC),
    "neg": ("-{0}", np.negative, NUMERIC),
    "relu": ("tf.nn.relu({0})", lambda x: np.maximum(x, x.dtype.type(0)), NUMERIC),
    "sign": ("tf.sign({0})", lambda x: np.sign(x).astype(x.dtype), NUMERIC),
    "scale": ("{0} * 0.5", lambda x: x * x.dtype.type(0.5), FLOATS),
    "shift": ("{0} + 1", lambda x: x + x.dtype.type(1), NUMERIC),
}

# Binary broadcasting ops: name -> (tfs text with {0} {1}, numpy twin, dtypes).
BINARY = {
    "add": ("{0} + {1}", np.add, NUMERIC),
    "sub": ("tf.subtract({0}, {1})", np.subtract, NUMERIC),
    "mul": ("{0} * {1}", np.multiply, NUMERIC),
    "maximum": ("tf.maximum({0}, {1})", np.maximum, NUMERIC),
    "minimum": ("tf.minimum({0}, {1})", np.minimum, NUMERIC),
    "safe_div": ("{0} / (1.0 + tf.square({1}))", lambda a, b: a / (a.dtype.type(1) + b * b), FLOATS),
    "where": ("tf.where({0} > {1}, {0}, {1} * 2)", lambda a, b: np.where(a > b, a, b * b.dtype.type(2)), NUMERIC),
}

# Reductions: name -> (tf function, numpy twin, dtypes).
REDUCE = {
    "sum": ("tf.reduce_sum", np.sum, NUMERIC),
    "mean": ("tf.reduce_mean", np.mean, FLOATS),
    "max": ("tf.reduce_max", np.max, NUMERIC),
    "min": ("tf.reduce_min", np.min, NUMERIC),
}


def np_reduce(name, x, axis, keepdims):
    fn = REDUCE[name][1]
    if name in ("max", "min"):
        # TF reduces an empty axis to the identity (lowest / highest value).
        info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
        init = -np.inf if x.dtype.kind == "f" and name == "max" else np.inf if x.dtype.kind == "f" else (
            info.min if name == "max" else info.max)
        return np.asarray(fn(x, axis=axis, keepdims=keepdims, initial=init), dtype=x.dtype)
    return np.asarray(fn(x, axis=axis, keepdims=keepdims), dtype=x.dtype)
