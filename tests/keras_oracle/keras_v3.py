# Oracle for keras_v3.tfs. Writes, with zipfile + h5py, the .keras file
# TensorFlow 2.15's Keras writes (keras/src/saving/saving_lib.py: members
# metadata.json, config.json (serialization_lib's module / class_name /
# config / registered_name, build_config, compile_config) and
# model.weights.h5 with each object's variables at <path>/vars/<i>: the
# model's layers under layers/<snake_case class>[_n], the optimizer's
# iterations then Adam's m and v per trainable variable under
# optimizer/vars), then prints what tfs must print after loading it:
# predictions computed here in numpy (BatchNormalization at inference uses
# the moving statistics), the optimizer's restored state and compile
# arguments.
import json
import zipfile

import h5py
import numpy as np
from oracle_common import fixed32 as fixed, show


def init(name, config=None):
    return {"module": "keras.initializers", "class_name": name, "config": config or {}, "registered_name": None}


def dense(name, units, activation, input_shape, batch_input_shape=None):
    config = {"name": name, "trainable": True, "dtype": "float32", "units": units, "activation": activation,
              "use_bias": True, "kernel_initializer": init("GlorotUniform", {"seed": None}),
              "bias_initializer": init("Zeros"), "kernel_regularizer": None, "bias_regularizer": None,
              "activity_regularizer": None, "kernel_constraint": None, "bias_constraint": None}
    if batch_input_shape is not None:
        config["batch_input_shape"] = batch_input_shape
    return {"module": "keras.layers", "class_name": "Dense", "config": config, "registered_name": None,
            "build_config": {"input_shape": input_shape}}


bn = {"module": "keras.layers", "class_name": "BatchNormalization",
      "config": {"name": "batch_normalization", "trainable": True, "dtype": "float32", "axis": [1],
                 "momentum": 0.99, "epsilon": 0.001, "center": True, "scale": True,
                 "beta_initializer": init("Zeros"), "gamma_initializer": init("Ones"),
                 "moving_mean_initializer": init("Zeros"), "moving_variance_initializer": init("Ones"),
                 "beta_regularizer": None, "gamma_regularizer": None, "beta_constraint": None,
                 "gamma_constraint": None},
      "registered_name": None, "build_config": {"input_shape": [None, 3]}}
config = {
    "module": "keras", "class_name": "Sequential",
    "config": {"name": "sequential", "layers": [
        {"module": "keras.layers", "class_name": "InputLayer",
         "config": {"batch_input_shape": [None, 4], "dtype": "float32", "sparse": False, "ragged": False,
                    "name": "dense_input"}, "registered_name": None},
        dense("dense", 3, "relu", [None, 4], [None, 4]), bn, dense("dense_1", 2, "linear", [None, 3])]},
    "registered_name": None, "build_config": {"input_shape": [None, 4]},
    "compile_config": {"optimizer": {"module": "keras.optimizers", "class_name": "Adam", "config": {
        "name": "Adam", "weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
        "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None, "jit_compile": False,
        "is_legacy_optimizer": False, "learning_rate": 0.009999999776482582, "beta_1": 0.9, "beta_2": 0.999,
        "epsilon": 1e-07, "amsgrad": False}, "registered_name": None},
        "loss": "mse", "metrics": ["mae"], "loss_weights": None, "weighted_metrics": None, "run_eagerly": None,
        "steps_per_execution": None, "jit_compile": None}}

k1, b1 = fixed((4, 3), 0.1), fixed((3,), 0.05, 0.1)
gamma, beta = fixed((3,), 0.1, 1.0), fixed((3,), 0.05)
mean, var = fixed((3,), 0.2), fixed((3,), 0.1, 1.0)
k2, b2 = fixed((3, 2), 0.15), fixed((2,), 0.02)
trainable = [k1, b1, gamma, beta, k2, b2]
with zipfile.ZipFile("keras_written.keras", "w") as zf:
    zf.writestr("metadata.json", json.dumps({"keras_version": "2.15.0", "date_saved": "2024-01-02@03:04:05"}))
    zf.writestr("config.json", json.dumps(config))
    h5 = h5py.File("weights.h5", "w")
    h5.create_group("vars")
    for path, values in [("layers/dense", [k1, b1]), ("layers/batch_normalization", [gamma, beta, mean, var]),
                         ("layers/dense_1", [k2, b2])]:
        group = h5.create_group(path).create_group("vars")
        for i, v in enumerate(values):
            group.create_dataset(str(i), data=v)
    group = h5.create_group("optimizer").create_group("vars")
    group.create_dataset("0", data=np.int64(7))
    for i, w in enumerate(trainable):
        group.create_dataset(str(1 + 2 * i), data=(w * 0.5).astype(np.float32))
        group.create_dataset(str(2 + 2 * i), data=(w * w).astype(np.float32))
    h5.close()
    zf.write("weights.h5", "model.weights.h5")

x = fixed((2, 4), 0.3, 0.2)
h = np.maximum(x @ k1 + b1, 0)
h = (h - mean) / np.sqrt(var + 0.001) * gamma + beta
show("keras file predict", h @ k2 + b2)
print("optimizer", "Adam", 7, "%.6g" % 0.01)
show("m of dense bias", b1 * 0.5)
show("v of dense_1 kernel", k2 * k2)
print("loss", "mse", "metrics names", [])
print("compiled metrics after evaluate", ["loss", "mae"])
print("tfs round trip", True, True)
print("weights file round trip", True)
