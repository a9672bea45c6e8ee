#!/usr/bin/python3
"""Writes the public-name tables (lib/**/public_names/*.names) that make a
name the real module has but tfs lacks say "... is not supported by tfs"
(runtime/interp/public_names.h).

  /usr/bin/python3 scripts/gen_public_names.py python numpy
      numpy 1.24's np, np.linalg, np.random, np.fft and CPython 3.11's
      sys.stdlib_module_names plus the public names of the stdlib modules
      tfs provides, read from this interpreter.
  /usr/bin/python3 scripts/gen_public_names.py pandas
      pandas 1.5's pd (Debian's python3-pandas).
  /usr/bin/python3 scripts/gen_public_names.py sklearn
      scikit-learn 1.2's sklearn and the submodules tfs provides (their
      __all__; Debian's python3-sklearn).
  /usr/bin/python3 scripts/gen_public_names.py keras DIR [v1]
      Keras 2.15's API golden files (DIR holds tensorflow.keras.*.pbtxt, e.g.
      `git archive v2.15.0 tf_keras/api/golden/v2` of keras-team/tf-keras;
      golden/v1 with v1: tf.compat.v1.keras).
  /usr/bin/python3 scripts/gen_public_names.py tf DIR [v1]
      TensorFlow's API golden files (tensorflow/tools/api/golden/v2, or v1
      for tf.compat.v1) for the submodules in TF_MODULES.

A table file: comment lines (#), then `shown <how users spell the module>`,
then the names, sorted and unique, separated by white space. The file's
name (less .names) is the name of tfs's module object. A file whose first
line after the comments is `modules` lists module names instead.
"""
import importlib
import os
import re
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# tfs's stdlib modules (lib/python) whose names are listed, by the module
# object's name (os.path is posixpath) and how scripts spell it.
PYTHON_MODULES = [
    ("__future__", "__future__"), ("argparse", "argparse"), ("ast", "ast"), ("cmath", "cmath"), ("collections", "collections"),
    ("contextlib", "contextlib"), ("copy", "copy"), ("csv", "csv"), ("dataclasses", "dataclasses"), ("enum", "enum"),
    ("datetime", "datetime"), ("fnmatch", "fnmatch"), ("functools", "functools"), ("glob", "glob"),
    ("gzip", "gzip"), ("hashlib", "hashlib"), ("io", "io"), ("itertools", "itertools"), ("json", "json"),
    ("logging", "logging"), ("math", "math"), ("operator", "operator"), ("os", "os"), ("posixpath", "os.path"),
    ("pathlib", "pathlib"), ("pickle", "pickle"), ("random", "random"), ("re", "re"), ("shutil", "shutil"),
    ("string", "string"), ("struct", "struct"), ("sys", "sys"), ("tarfile", "tarfile"),
    ("tempfile", "tempfile"), ("textwrap", "textwrap"), ("unittest", "unittest"), ("difflib", "difflib"), ("heapq", "heapq"), ("bisect", "bisect"), ("types", "types"), ("statistics", "statistics"),
    ("pprint", "pprint"), ("time", "time"), ("timeit", "timeit"), ("traceback", "traceback"),
    ("typing", "typing"), ("zipfile", "zipfile"), ("zlib", "zlib"), ("multiprocessing", "multiprocessing"),
    ("multiprocessing.util", "multiprocessing.util"),
    ("fractions", "fractions"), ("base64", "base64"), ("binascii", "binascii"), ("uuid", "uuid"),
    ("inspect", "inspect"), ("calendar", "calendar"), ("shlex", "shlex"), ("gc", "gc"), ("weakref", "weakref"),
    ("queue", "queue"), ("threading", "threading"), ("decimal", "decimal"),
]
NUMPY_MODULES = [("numpy", "np"), ("numpy.linalg", "np.linalg"), ("numpy.random", "np.random"),
                 ("numpy.fft", "np.fft"), ("numpy.testing", "np.testing"), ("numpy.polynomial", "np.polynomial"),
                 ("numpy.polynomial.polynomial", "np.polynomial.polynomial")]

# TF golden file stem -> (tfs module object name, how users spell it).
TF_MODULES = [
    "linalg", "math", "nn", "image", "signal", "strings", "random", "random.experimental", "sparse", "ragged",
    "data", "data.experimental", "io", "io.gfile", "config", "config.experimental", "train", "debugging",
    "bitwise", "sets", "dtypes", "errors", "nest", "summary", "saved_model", "autograph", "lookup", "audio",
    "types.experimental", "experimental", "experimental.numpy", "distribute", "test", "feature_column",
]
TF_V1_MODULES = ["", "nn", "train", "layers", "losses", "metrics", "summary", "feature_column", "saved_model"]
KERAS_MODULES = [
    "", "layers", "layers.experimental", "layers.experimental.preprocessing", "losses", "metrics", "optimizers",
    "optimizers.schedules", "optimizers.legacy", "optimizers.experimental", "callbacks", "activations",
    "initializers", "regularizers", "constraints", "backend", "utils", "models", "preprocessing",
    "preprocessing.sequence", "preprocessing.text", "preprocessing.image", "datasets", "applications",
    "mixed_precision", "saving", "experimental",
]


def write_table(folder, module, shown, names, source):
    """`shown` None: a list of module names (a module Python has that tfs
    lacks is "not supported by tfs" when imported)."""
    names = sorted(set(n for n in names if not n.startswith("_")))
    lines = ["# %s (%s), by scripts/gen_public_names.py." % (shown or "Modules", source),
             "shown " + shown if shown else "modules"]
    line = ""
    for n in names:
        if line and len(line) + 1 + len(n) > 110:
            lines.append(line)
            line = ""
        line = n if not line else line + " " + n
    if line:
        lines.append(line)
    path = os.path.join(ROOT, folder, "public_names", module + ".names")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def public_attributes(module):
    """dir(module) less private names and modules it merely imported (os.sys,
    os.abc): a module attribute counts when it is the module's own submodule."""
    names = []
    for n in dir(module):
        if n.startswith("_"):
            continue
        v = getattr(module, n)
        if isinstance(v, types.ModuleType) and not v.__name__.startswith(module.__name__ + ".") \
                and not (module.__name__ == "os" and n == "path"):
            continue
        names.append(n)
    return names


def gen_python():
    for name, shown in PYTHON_MODULES:
        write_table("lib/python", name, shown, public_attributes(importlib.import_module(name)),
                    "CPython %d.%d's dir()" % sys.version_info[:2])
    write_table("lib/python", "_stdlib_modules", None, sys.stdlib_module_names,
                "CPython %d.%d's sys.stdlib_module_names" % sys.version_info[:2])


def gen_pandas():
    import pandas
    write_table("lib/pandas", "pandas", "pd", public_attributes(pandas), "pandas %s's dir()" % pandas.__version__)


SKLEARN_MODULES = ["sklearn", "sklearn.model_selection", "sklearn.preprocessing", "sklearn.metrics",
                   "sklearn.datasets", "sklearn.utils", "sklearn.utils.class_weight", "sklearn.exceptions",
                   "sklearn.linear_model", "sklearn.base", "sklearn.metrics.pairwise",
                   "sklearn.decomposition"]


def gen_sklearn():
    import sklearn
    for name in SKLEARN_MODULES:
        module = importlib.import_module(name)
        names = getattr(module, "__all__", None) or public_attributes(module)
        # A submodule tfs provides is left to the import machinery (it becomes
        # an attribute once imported); one it lacks stays listed, so that
        # `from sklearn import svm` says sklearn.svm is not supported by tfs.
        if hasattr(module, "__path__"):
            import pkgutil
            subs = set(m.name for m in pkgutil.iter_modules(module.__path__))
            provided = set(n for n in subs
                           if os.path.exists(os.path.join(ROOT, "lib/sklearn", name + "." + n + ".tfs")))
            names = [n for n in names if n not in provided]
        write_table("lib/sklearn", name, name, names, "scikit-learn %s's __all__" % sklearn.__version__)


def gen_numpy():
    import numpy
    for name, shown in NUMPY_MODULES:
        write_table("lib/numpy", name, shown, public_attributes(importlib.import_module(name)),
                    "numpy %s's dir()" % numpy.__version__)


MEMBER = re.compile(r'^  member(?:_method)? \{\n    name: "([^"]+)"', re.M)


def golden_names(path):
    with open(path) as f:
        return MEMBER.findall(f.read())


def gen_golden(folder, golden_dir, prefix, modules, object_prefix, shown_prefix, source):
    for sub in modules:
        stem = prefix + ("." + sub if sub else "")
        path = os.path.join(golden_dir, stem + ".pbtxt")
        if not os.path.exists(path):
            print("missing", path, file=sys.stderr)
            continue
        suffix = "." + sub if sub else ""
        write_table(folder, object_prefix + suffix, shown_prefix + suffix, golden_names(path),
                    source + " " + os.path.basename(path))


def main(argv):
    if argv[:1] == ["keras"]:
        if argv[2:3] == ["v1"]:
            gen_golden("lib/tf", argv[1], "tensorflow.keras", KERAS_MODULES, "keras.api._v1.keras",
                       "tf.compat.v1.keras", "Keras 2.15's v1 API golden")
        else:
            gen_golden("lib/tf", argv[1], "tensorflow.keras", KERAS_MODULES, "keras.api._v2.keras", "tf.keras",
                       "Keras 2.15's API golden")
        return
    if argv[:1] == ["tf"]:
        if argv[2:3] == ["v1"]:
            gen_golden("lib/tf", argv[1], "tensorflow", TF_V1_MODULES, "tensorflow.compat.v1", "tf.compat.v1",
                       "TensorFlow's v1 API golden")
        else:
            gen_golden("lib/tf", argv[1], "tensorflow", TF_MODULES, "tensorflow", "tf", "TensorFlow's API golden")
        return
    for what in argv:
        {"python": gen_python, "numpy": gen_numpy, "pandas": gen_pandas, "sklearn": gen_sklearn}[what]()


if __name__ == "__main__":
    main(sys.argv[1:])
