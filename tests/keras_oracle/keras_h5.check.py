# After keras_h5.tfs: reads the .h5 files tfs wrote with h5py and checks
# they have the layout Keras 2.15 reads (the attributes, groups and datasets
# keras/saving/legacy/hdf5_format.py uses) and the weights tfs loaded.
import json
import sys

import h5py
import numpy as np

failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


def names(group, attr):
    return [n.decode("utf8") if hasattr(n, "decode") else n for n in group.attrs[attr]]


with h5py.File("keras_seq.h5", "r") as src, h5py.File("tfs_model.h5", "r") as f:
    check("keras_version", f.attrs["keras_version"] in ("2.15.0", b"2.15.0"))
    check("backend", f.attrs["backend"] in ("tensorflow", b"tensorflow"))
    config = json.loads(f.attrs["model_config"])
    check("model_config class", config["class_name"] == "Sequential")
    check("model_config layers", [l["class_name"] for l in config["config"]["layers"]][-2:] == ["Dense", "Dense"])
    training = json.loads(f.attrs["training_config"])
    check("training_config optimizer", "Adam" in training["optimizer_config"]["class_name"])
    mw = f["model_weights"]
    check("layer_names", names(mw, "layer_names") == ["dense", "dense_1"])
    for layer in ["dense", "dense_1"]:
        wn = names(mw[layer], "weight_names")
        check("weight_names " + layer, wn == [layer + "/kernel:0", layer + "/bias:0"])
        for n in wn:
            check("values " + n, np.array_equal(mw[layer][n][()], src["model_weights"][layer][n][()]))
            check("dtype " + n, mw[layer][n].dtype == np.float32)
    check("top_level_model_weights", "top_level_model_weights" in mw)
    ow = f["optimizer_weights"]
    on = names(ow, "weight_names")
    check("optimizer iteration", any(n.startswith("iteration") for n in on))
    for n in on:
        if n.startswith("iteration"):
            check("iterations value", int(ow[n][()]) == 7)
        if n.endswith("m/dense/kernel:0"):
            check("m slot value", np.allclose(ow[n][()], src["optimizer_weights"]["m/dense/kernel:0"][()]))

with h5py.File("keras_weights.h5", "r") as src, h5py.File("tfs_weights.h5", "r") as f:
    check("weights layer_names", names(f, "layer_names") == ["input_1", "hidden", "bn", "out"])
    check("input layer has no weights", len(f["input_1"].attrs["weight_names"]) == 0)
    check("bn weight order", names(f["bn"], "weight_names") ==
          ["bn/gamma:0", "bn/beta:0", "bn/moving_mean:0", "bn/moving_variance:0"])
    for layer in ["hidden", "bn", "out"]:
        for n in names(f[layer], "weight_names"):
            check("weights " + n, np.array_equal(f[layer][n][()], src[layer][n][()]))

if failures:
    sys.exit("h5py check failed: %s" % failures)
