// numpy's .npy format (numpy/lib/format.py, format versions 1.0 to 3.0):
// encoding an array as numpy 1.24 writes it, byte for byte, and decoding
// one with numpy's checks and error messages. A corrupt or truncated file
// is a ValueError naming what is wrong, never a crash.
#pragma once

#include "lib/numpy/ndarray.h"

#include <functional>
#include <string>

namespace tfs::runtime::tf::numpy {

// The bytes numpy's np.save writes for `a` (C order, or Fortran order when
// the array is a Fortran-contiguous view as a transpose is).
std::string encodeNpy(Interpreter &in, const Value &a);

// Reads `n` bytes of a stream (fewer at its end).
using ReadBytes = std::function<std::string(size_t n)>;

struct NpyLoadOptions {
  bool allowPickle = false;
  size_t maxHeaderSize = 10000;
};
// Reads one array from the stream, whose first 6 bytes (numpy's magic
// prefix) have been read and checked already.
Value decodeNpy(Interpreter &in, const ReadBytes &read, const NpyLoadOptions &opts);

// numpy's magic prefix "\x93NUMPY".
inline const std::string &npyMagic() {
  static const std::string m("\x93NUMPY", 6);
  return m;
}

}  // namespace tfs::runtime::tf::numpy
