// np.set_printoptions / get_printoptions / printoptions.
#include "lib/numpy/numpy_lib.h"

namespace tfs::runtime::tf::numpy {

void installPrintOptions(Interpreter &in, ModuleObject &np) {}

}  // namespace tfs::runtime::tf::numpy
