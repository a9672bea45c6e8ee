// numpy.random.default_rng: numpy's Generator over PCG64.
#include "lib/numpy/numpy_lib.h"

namespace tfs::runtime::tf::numpy {

void installRandomGenerator(Interpreter &in, ModuleObject &random) {}

}  // namespace tfs::runtime::tf::numpy
