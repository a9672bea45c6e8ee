// Modules a script may import that tfs does not provide: packages TF
// tutorials commonly use beside TensorFlow (CPython 3.11's standard library,
// sys.stdlib_module_names, is lib/python/public_names/_stdlib_modules.names,
// registered by lib/public_names.cpp). Importing one (when tfs has no
// module of that name) is "ModuleNotFoundError: module 'x' is not supported
// by tfs" rather than CPython's "No module named 'x'", which stays the
// message for names nobody ships. A package tfs provides in part (sklearn,
// lib/sklearn) stays listed so that its submodules tfs lacks (sklearn.svm)
// are named so too.
#include "lib/python/python_modules.h"
#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

namespace {
const char *const kCommonPackages[] = {
    "matplotlib", "scipy", "sklearn", "PIL", "cv2", "tqdm", "h5py", "seaborn",
    "tensorflow_datasets", "tensorflow_hub", "tensorflow_probability", "tensorflow_addons",
    "tensorflow_text", "torch", "jax", "keras_tuner", "yaml", "requests", "IPython",
    "google", "sympy", "numba", "skimage", "imageio", "tensorboard",
};
}  // namespace

void registerUnsupportedModuleNames() {
  for (const char *n : kCommonPackages) Interpreter::registerUnsupportedModule(n);
}

}  // namespace tfs::runtime
