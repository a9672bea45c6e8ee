# Oracle for keras_h5.tfs: writes, with h5py, the files TensorFlow 2.15's
# Keras writes (keras/saving/legacy/hdf5_format.py: root attrs keras_version
# and backend (str), model_config / training_config (JSON bytes); group
# model_weights with layer_names, each layer's group with weight_names and
# the datasets at those names; optimizer_weights), then prints what tfs must
# print after loading them: the model's predictions computed here in numpy.
import json

import h5py
import numpy as np
from oracle_common import fixed32 as fixed, show


def dense_config(name, units, activation, input_shape=None):
    config = {"name": name, "trainable": True, "dtype": "float32", "units": units, "activation": activation,
              "use_bias": True, "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
              "bias_initializer": {"class_name": "Zeros", "config": {}}, "kernel_regularizer": None,
              "bias_regularizer": None, "activity_regularizer": None, "kernel_constraint": None,
              "bias_constraint": None}
    if input_shape is not None:
        config["batch_input_shape"] = [None] + input_shape
    return {"class_name": "Dense", "config": config}


def write_layer(group, layer_name, weights):
    g = group.create_group(layer_name)
    g.attrs["weight_names"] = [name.encode("utf8") for name, _ in weights] if weights else np.asarray([])
    for name, value in weights:
        g.create_dataset(name, value.shape, dtype=value.dtype)[...] = value


# --- a compiled Sequential model, saved with model.save("keras_seq.h5") -----------------------------------
k1, b1 = fixed((4, 3), 0.1), fixed((3,), 0.05, 0.02)
k2, b2 = fixed((3, 2), 0.2, 0.01), fixed((2,), 0.1)
seq_config = {"class_name": "Sequential", "config": {"name": "sequential", "layers": [
    {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 4], "dtype": "float32", "sparse": False,
                                            "ragged": False, "name": "dense_input"}},
    dense_config("dense", 3, "relu", [4]), dense_config("dense_1", 2, "softmax")]}}
training_config = {"loss": "sparse_categorical_crossentropy", "metrics": [[{"class_name": "MeanMetricWrapper", "config": {
    "name": "accuracy", "dtype": "float32", "fn": "sparse_categorical_accuracy"}}]], "weighted_metrics": None,
    "loss_weights": None, "optimizer_config": {"class_name": "Custom>Adam", "config": {
        "name": "Adam", "weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
        "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None, "jit_compile": False,
        "is_legacy_optimizer": False, "learning_rate": 0.0010000000474974513, "beta_1": 0.9, "beta_2": 0.999,
        "epsilon": 1e-07, "amsgrad": False}}}
with h5py.File("keras_seq.h5", "w") as f:
    f.attrs["keras_version"] = "2.15.0"
    f.attrs["backend"] = "tensorflow"
    f.attrs["model_config"] = json.dumps(seq_config).encode("utf8")
    f.attrs["training_config"] = json.dumps(training_config).encode("utf8")
    mw = f.create_group("model_weights")
    mw.attrs["layer_names"] = [b"dense", b"dense_1"]
    mw.attrs["backend"] = b"tensorflow"
    mw.attrs["keras_version"] = b"2.15.0"
    write_layer(mw, "dense", [("dense/kernel:0", k1), ("dense/bias:0", b1)])
    write_layer(mw, "dense_1", [("dense_1/kernel:0", k2), ("dense_1/bias:0", b2)])
    write_layer(mw, "top_level_model_weights", [])
    ow = f.create_group("optimizer_weights")
    names = ["iteration:0", "m/dense/kernel:0", "v/dense/kernel:0", "m/dense/bias:0", "v/dense/bias:0",
             "m/dense_1/kernel:0", "v/dense_1/kernel:0", "m/dense_1/bias:0", "v/dense_1/bias:0"]
    ow.attrs["weight_names"] = [n.encode("utf8") for n in names]
    ow.create_dataset("iteration:0", (), dtype=np.int64)[()] = 7
    for n, value in zip(names[1:], [k1, k1, b1, b1, k2, k2, b2, b2]):
        ow.create_dataset(n, value.shape, dtype=np.float32)[...] = np.abs(value) * 0.01


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


x = fixed((5, 4), 0.3, 0.1).astype(np.float64)
pred = softmax(np.maximum(x @ k1 + b1, 0) @ k2 + b2)
show("seq predict", pred)
print("seq compiled Adam 7")
show("seq m slot", np.abs(k1) * 0.01)
labels = np.array([0, 1, 1, 0, 1])
loss = -np.mean(np.log(pred[np.arange(5), labels]))
acc = np.mean(pred.argmax(axis=1) == labels)
show("seq evaluate", [loss, acc])

# --- weights of a functional model with BatchNormalization, save_weights("keras_weights.h5") ---------------
hk, hb = fixed((4, 3), 0.15, -0.01), fixed((3,), 0.1, 0.03)
gamma, beta = fixed((3,), 0.1, 1.0), fixed((3,), 0.05)
mean, var = fixed((3,), 0.02, 0.1), np.abs(fixed((3,), 0.1)) + 0.5
ok, ob = fixed((3, 1), 0.3), fixed((1,), 0.1, 0.2)
with h5py.File("keras_weights.h5", "w") as f:
    f.attrs["layer_names"] = [b"input_1", b"hidden", b"bn", b"out"]
    f.attrs["backend"] = b"tensorflow"
    f.attrs["keras_version"] = b"2.15.0"
    write_layer(f, "input_1", [])
    write_layer(f, "hidden", [("hidden/kernel:0", hk), ("hidden/bias:0", hb)])
    write_layer(f, "bn", [("bn/gamma:0", gamma), ("bn/beta:0", beta), ("bn/moving_mean:0", mean),
                          ("bn/moving_variance:0", var)])
    write_layer(f, "out", [("out/kernel:0", ok), ("out/bias:0", ob)])
    write_layer(f, "top_level_model_weights", [])
h = x @ hk + hb
h = (h - mean) / np.sqrt(var + 0.001) * gamma + beta
show("functional predict", h @ ok + ob)
show("by name predict", h @ ok + ob)

# --- files that are not Keras HDF5 -----------------------------------------------------------------------
with open("keras_seq.h5", "rb") as f:
    data = f.read()
with open("truncated.h5", "wb") as f:
    f.write(data[:len(data) // 3])
with open("not_hdf5.h5", "wb") as f:
    f.write(b"hello, this is not HDF5\n" * 10)
print("truncated OSError")
print("not_hdf5 OSError")
print("missing OSError No file or directory found at missing.h5")
# A Sequential model's layers do not include its Input: one layer with weights.
print("mismatch ValueError Layer count mismatch when loading weights from file. Model expected 1 layers, found 3 "
      "saved layers.")

# --- tfs saves (model.save / save_weights in .h5) and loads its own files -----------------------------------
show("tfs roundtrip predict", pred)
print("tfs roundtrip Adam 7")
show("tfs weights roundtrip", h @ ok + ob)
