// TensorFlow's tensor bundle: the checkpoint format of tf.train.Checkpoint,
// Keras's save_weights (TF format) and tf.compat.v1.train.Saver. A
// checkpoint at prefix P is two files:
//   P.data-00000-of-00001  the tensors' bytes one after another (numbers as
//                          their little-endian memory; strings as varint64
//                          lengths, a masked CRC32C of those lengths as
//                          u32, then the bytes);
//   P.index                a LevelDB-format table (sorted keys, prefix
//                          compressed blocks, each with a masked CRC32C;
//                          an index block; a 48-byte footer with the table
//                          magic) mapping "" to a BundleHeaderProto and each
//                          tensor's key to a BundleEntryProto (dtype, shape,
//                          shard, offset, size, masked CRC32C of its bytes).
// The protos are few and small: they are encoded and decoded here by field
// number (tensor_bundle.proto's), without libprotobuf.
//
// Plain C++ without the interpreter: a corrupt, truncated or foreign file is
// a BundleError carrying TF's message, which the binding raises as
// DataLossError.
#pragma once

#include "ir/types.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::lib::bundle {

struct BundleError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One tensor to save or one read back: numbers (and bools) as their raw
// little-endian bytes in `bytes`, string tensors as `strings`.
struct BundleTensor {
  std::string key;
  ir::DType dtype = ir::DType::Float32;
  std::vector<int64_t> dims;
  std::string bytes;
  std::vector<std::string> strings;
};

// The two files' contents for `tensors` (any order; keys must be unique and
// non-empty: "" is the header's).
struct BundleFiles {
  std::string index;
  std::string data;
};
BundleFiles encodeBundle(std::vector<BundleTensor> tensors);

// Whether `index` ends in the table magic (a bundle, not an older tfs file).
bool isBundleIndex(std::string_view index);

// An index entry: where a tensor's bytes are in the data file.
struct BundleEntry {
  std::string key;
  ir::DType dtype = ir::DType::Float32;
  std::vector<int64_t> dims;
  int32_t shard = 0;
  uint64_t offset = 0, size = 0;
  uint32_t maskedCrc = 0;
  bool sliced = false;  // saved in slices (partitioned variables): not supported
};

// The entries of an index file, sorted by key, every block checksum checked
// (BundleError otherwise). `numShards` receives the header's shard count.
std::vector<BundleEntry> readBundleIndex(std::string_view index, int32_t &numShards);

// The tensor of `entry` from its shard's bytes, bounds and CRC checked.
BundleTensor readBundleTensor(const BundleEntry &entry, std::string_view data);

}  // namespace tfs::lib::bundle
