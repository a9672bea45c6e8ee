// Text forms of tensor values, exactly as numpy 1.24 and TensorFlow 2.15
// print them (DESIGN.md "What TensorFlow prints"):
//
//   formatNumpy      str(ndarray): `[[ 2  6]\n [12 20]]`, `[2. 3.]`, `2.4`,
//                    precision 8, `...` summarization above 1000 elements,
//                    line width 75. The body of tf.Tensor's str/repr.
//   formatNumpyRepr  repr(ndarray): `array([[1, 2],\n       [3, 4]], dtype=int32)`.
//   formatTfPrint    tf.print: floats like TF's StrCat (`4`, `0.5`), string
//                    elements quoted, `summarize` elements from each end per axis.
//   formatScalar     one element the way a numpy scalar prints (`2.4`, `5`,
//                    `True`, `b'x'`): Session.run results, `.numpy()` of 0-d.
#pragma once

#include "runtime/tensor/tensor.h"

#include <functional>
#include <string>

namespace tfs::runtime {

// numpy's print options (np.set_printoptions), which numpy's array printing
// and TF's tensor printing (through numpy) both follow. One set per process,
// as numpy's are per process.
struct NumpyPrintOptions {
  int precision = 8;
  double threshold = 1000;  // summarize above this many elements (inf: never)
  int64_t edgeitems = 3;
  int64_t linewidth = 75;
  bool suppress = false;
  std::string nanstr = "nan", infstr = "inf";
};
NumpyPrintOptions &numpyPrintOptions();

std::string formatNumpy(const Tensor &t);
std::string formatNumpyRepr(const Tensor &t);
// String elements print in double quotes, C-escaped (`["a" "b c"]`), except
// a scalar string that is tf.print's only input (`soleInput`), which TF
// prints raw; callers printing several values pass soleInput = false.
std::string formatTfPrint(const Tensor &t, int summarize = 3, bool soleInput = true);
std::string formatScalar(const Tensor &t, int64_t index = 0);
// str/repr of a numpy fixed-width text array (dtype '<U2' / '|S2'): each
// element through `quote` (Python's str or bytes repr), unpadded; repr when
// `dtypeText` is given (`array(['a', 'bc'], dtype='<U2')`).
std::string formatNumpyText(const Tensor &t, const std::function<std::string(const std::string &)> &quote,
                            const std::string &dtypeText = "");
// numpy's printing of an array of `shape` whose element k (C order) prints
// as elem(k), unpadded, lines wrapped and summarized by the print options
// (text and object arrays): repr when `dtypeSuffix` is given
// (`array([list([1]), None], dtype=object)` for ", dtype=object"), else str.
std::string formatNumpyElements(const std::vector<int64_t> &shape, const std::function<std::string(int64_t)> &elem,
                                const std::string &dtypeSuffix = "");

// Python's repr of a double (`0.1`, `1e+16`, `inf`), and the same rule
// applied to the shortest float32 digits (numpy's float32 scalar str).
std::string pythonFloatRepr(double v);
// Python's repr of a bytes value: b'abc', quotes and escapes like CPython.
std::string bytesRepr(const std::string &s);
std::string float32Repr(float v);
// C escapes (\\n \\t \\" ...) and 3-digit octal for control bytes: absl's
// Utf8SafeCEscape (TF's string elements; bytes >= 0x80 pass through) or,
// with escapeHighBytes, CEscape (protobuf text format of bytes fields).
std::string cEscape(const std::string &s, bool escapeHighBytes);

}  // namespace tfs::runtime
