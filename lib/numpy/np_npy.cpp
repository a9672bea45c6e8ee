// np.save / np.load (.npy) and np.savez / np.savez_compressed (.npz).
#include "lib/numpy/numpy_lib.h"

namespace tfs::runtime::tf::numpy {

void addIoFunctions(Defs &defs) {}

}  // namespace tfs::runtime::tf::numpy
