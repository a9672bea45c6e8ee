// TensorFlow's tensor bundle files (see tensor_bundle.h): the LevelDB table
// of the index, its two protos, and the data shard's tensor encodings.
#include "lib/tf/train/tensor_bundle.h"

#include "lib/tf/io/tfrecord.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace tfs::lib::bundle {
namespace {

using tfrecord::crc32c;
using tfrecord::maskCrc;
using tfrecord::unmaskCrc;

// The table format's constants (LevelDB's, kept by TF's lib/io/table): the
// 8-byte magic ending the footer, the footer's size (two block handles
// padded to 20 bytes each, then the magic), and the 5-byte block trailer
// (compression type 0, masked CRC32C of the block and that type byte).
constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterSize = 48;
constexpr size_t kHandleMax = 20;
constexpr size_t kBlockTrailer = 5;
// TF's table::Options: data blocks of 256 KiB, a restart point every 16
// keys (every key in the index block).
constexpr size_t kBlockSize = 262144;
constexpr int kRestartInterval = 16;
// BundleHeaderProto.version.producer (TF's kTensorBundleVersion).
constexpr int kBundleVersion = 1;

// --- little-endian and varint coding ---------------------------------------------

void putFixed32(std::string &out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

uint32_t getFixed32(const char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | uint8_t(p[i]);
  return v;
}

void putVarint(std::string &out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

// A reader over bytes that fails (BundleError `what`) instead of reading
// past the end.
struct Cursor {
  std::string_view s;
  size_t pos = 0;
  std::string what;

  [[noreturn]] void fail() const { throw BundleError(what); }
  bool done() const { return pos >= s.size(); }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= s.size()) fail();
      uint8_t b = uint8_t(s[pos++]);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail();
  }
  std::string_view bytes(uint64_t n) {
    if (n > s.size() - pos) fail();
    std::string_view r = s.substr(pos, size_t(n));
    pos += size_t(n);
    return r;
  }
  uint32_t fixed32() { return getFixed32(bytes(4).data()); }
};

// --- the protos (tensor_bundle.proto, tensor_shape.proto field numbers) -----------

void putTag(std::string &out, int field, int wire) { putVarint(out, uint64_t(field) << 3 | uint64_t(wire)); }

void putVarintField(std::string &out, int field, uint64_t v) {
  if (v == 0) return;  // proto3 leaves defaults out
  putTag(out, field, 0);
  putVarint(out, v);
}

void putMessageField(std::string &out, int field, const std::string &msg) {
  putTag(out, field, 2);
  putVarint(out, msg.size());
  out += msg;
}

std::string headerProto() {
  std::string version, header;
  putVarintField(version, 1, kBundleVersion);  // VersionDef.producer
  putVarintField(header, 1, 1);                // num_shards
  putMessageField(header, 3, version);         // endianness LITTLE (0) is left out
  return header;
}

std::string entryProto(ir::DType dtype, const std::vector<int64_t> &dims, uint64_t offset, uint64_t size,
                       uint32_t maskedCrc) {
  std::string shape, entry;
  for (int64_t d : dims) {
    std::string dim;
    putVarintField(dim, 1, uint64_t(d));
    putMessageField(shape, 2, dim);
  }
  putVarintField(entry, 1, uint64_t(ir::dtypeEnumValue(dtype)));
  putMessageField(entry, 2, shape);  // present even for a scalar, as TF writes it
  putVarintField(entry, 4, offset);  // shard_id (3) is 0
  putVarintField(entry, 5, size);
  if (maskedCrc != 0) {
    putTag(entry, 6, 5);
    putFixed32(entry, maskedCrc);
  }
  return entry;
}

// Calls fn(field, wire type, cursor) for each field of a message; the
// callback consumes the value for the fields it knows, skip() the rest.
template <class Fn> void eachField(std::string_view msg, const std::string &what, Fn fn) {
  Cursor c{msg, 0, what};
  while (!c.done()) {
    uint64_t tag = c.varint();
    int field = int(tag >> 3), wire = int(tag & 7);
    if (!fn(field, wire, c)) {
      if (wire == 0) c.varint();
      else if (wire == 1) c.bytes(8);
      else if (wire == 2) c.bytes(c.varint());
      else if (wire == 5) c.bytes(4);
      else c.fail();
    }
  }
}

std::optional<ir::DType> dtypeOfEnum(uint64_t v) {
  for (int i = 0; i < ir::kNumDTypes; ++i)
    if (uint64_t(ir::dtypeEnumValue(ir::DType(i))) == v) return ir::DType(i);
  return std::nullopt;
}

BundleEntry parseEntry(std::string key, std::string_view value) {
  std::string what = fmt::format("Entry for key {} not parseable.", key);
  BundleEntry e;
  e.key = std::move(key);
  uint64_t dtype = 0;
  eachField(value, what, [&](int field, int wire, Cursor &c) {
    if (field == 1 && wire == 0) dtype = c.varint();
    else if (field == 2 && wire == 2) {
      // TensorShapeProto: dim (2) messages of size (1); unknown_rank (3).
      eachField(c.bytes(c.varint()), what, [&](int f, int w, Cursor &sc) {
        if (f == 3 && w == 0) {
          if (sc.varint() != 0) throw BundleError(what);
          return true;
        }
        if (f != 2 || w != 2) return false;
        int64_t size = 0;
        eachField(sc.bytes(sc.varint()), what, [&](int df, int dw, Cursor &dc) {
          if (df != 1 || dw != 0) return false;
          size = int64_t(dc.varint());
          return true;
        });
        if (size < 0) throw BundleError(what);
        e.dims.push_back(size);
        return true;
      });
    } else if (field == 3 && wire == 0) e.shard = int32_t(c.varint());
    else if (field == 4 && wire == 0) e.offset = c.varint();
    else if (field == 5 && wire == 0) e.size = c.varint();
    else if (field == 6 && wire == 5) e.maskedCrc = c.fixed32();
    else if (field == 7 && wire == 2) {
      e.sliced = true;
      c.bytes(c.varint());
    } else return false;
    return true;
  });
  std::optional<ir::DType> dt = dtypeOfEnum(dtype);
  if (!dt) throw BundleError(fmt::format("Tensor {} has a data type (enum {}) that tfs does not support", e.key, dtype));
  e.dtype = *dt;
  return e;
}

// --- the table: blocks of prefix-compressed keys -------------------------------------

class BlockBuilder {
public:
  explicit BlockBuilder(int interval) : interval_(interval) {}
  bool empty() const { return buf_.empty(); }
  size_t sizeEstimate() const { return buf_.size() + restarts_.size() * 4 + 4; }
  void add(const std::string &key, const std::string &value) {
    size_t shared = 0;
    if (counter_ < interval_) {
      size_t n = std::min(last_.size(), key.size());
      while (shared < n && last_[shared] == key[shared]) ++shared;
    } else {
      restarts_.push_back(uint32_t(buf_.size()));
      counter_ = 0;
    }
    putVarint(buf_, shared);
    putVarint(buf_, key.size() - shared);
    putVarint(buf_, value.size());
    buf_.append(key, shared, std::string::npos);
    buf_ += value;
    last_ = key;
    ++counter_;
  }
  std::string finish() {
    std::string out = buf_;
    for (uint32_t r : restarts_) putFixed32(out, r);
    putFixed32(out, uint32_t(restarts_.size()));
    *this = BlockBuilder(interval_);
    return out;
  }

private:
  int interval_;
  std::string buf_;
  std::vector<uint32_t> restarts_{0};
  int counter_ = 0;
  std::string last_;
};

struct Handle {
  uint64_t offset = 0, size = 0;
};

std::string encodeHandle(const Handle &h) {
  std::string out;
  putVarint(out, h.offset);
  putVarint(out, h.size);
  return out;
}

// The shortest key k with start <= k < limit (LevelDB's bytewise
// comparator), so the index block stays small.
std::string shortestSeparator(std::string start, const std::string &limit) {
  size_t n = std::min(start.size(), limit.size()), i = 0;
  while (i < n && start[i] == limit[i]) ++i;
  if (i < n) {
    uint8_t b = uint8_t(start[i]);
    if (b < 0xff && b + 1 < uint8_t(limit[i])) {
      start[i] = char(b + 1);
      start.resize(i + 1);
    }
  }
  return start;
}

std::string shortSuccessor(std::string key) {
  for (size_t i = 0; i < key.size(); ++i)
    if (uint8_t(key[i]) != 0xff) {
      key[i] = char(uint8_t(key[i]) + 1);
      key.resize(i + 1);
      return key;
    }
  return key;
}

class TableWriter {
public:
  void add(const std::string &key, const std::string &value) {
    if (pendingIndex_) {
      index_.add(shortestSeparator(lastKey_, key), encodeHandle(pending_));
      pendingIndex_ = false;
    }
    lastKey_ = key;
    data_.add(key, value);
    if (data_.sizeEstimate() >= kBlockSize) flush();
  }
  std::string finish() {
    flush();
    Handle meta = writeBlock(BlockBuilder(kRestartInterval).finish());
    if (pendingIndex_) {
      index_.add(shortSuccessor(lastKey_), encodeHandle(pending_));
      pendingIndex_ = false;
    }
    Handle index = writeBlock(index_.finish());
    std::string footer = encodeHandle(meta) + encodeHandle(index);
    footer.resize(2 * kHandleMax, '\0');
    putFixed32(footer, uint32_t(kTableMagic & 0xffffffffu));
    putFixed32(footer, uint32_t(kTableMagic >> 32));
    out_ += footer;
    return out_;
  }

private:
  void flush() {
    if (data_.empty()) return;
    pending_ = writeBlock(data_.finish());
    pendingIndex_ = true;
  }
  Handle writeBlock(const std::string &block) {
    Handle h{out_.size(), block.size()};
    out_ += block;
    char type = 0;  // kNoCompression: TF writes bundles uncompressed
    uint32_t crc = crc32c(std::string_view(&type, 1), crc32c(block));
    out_.push_back(type);
    putFixed32(out_, maskCrc(crc));
    return h;
  }

  std::string out_;
  BlockBuilder data_{kRestartInterval}, index_{1};
  bool pendingIndex_ = false;
  Handle pending_;
  std::string lastKey_;
};

// A block's contents, its trailer checked.
std::string_view readBlock(std::string_view file, const Handle &h) {
  if (h.offset > file.size() || h.size > file.size() - h.offset ||
      kBlockTrailer > file.size() - h.offset - h.size)
    throw BundleError("truncated block read");
  std::string_view block = file.substr(size_t(h.offset), size_t(h.size));
  const char *trailer = file.data() + h.offset + h.size;
  uint32_t crc = crc32c(std::string_view(trailer, 1), crc32c(block));
  if (unmaskCrc(getFixed32(trailer + 1)) != crc) throw BundleError("block checksum mismatch");
  if (trailer[0] != 0) throw BundleError("compressed table blocks are not supported by tfs");
  return block;
}

// Calls fn(key, value) for each entry of a block.
template <class Fn> void eachBlockEntry(std::string_view block, Fn fn) {
  if (block.size() < 4) throw BundleError("bad block contents");
  uint32_t restarts = getFixed32(block.data() + block.size() - 4);
  if (restarts > (block.size() - 4) / 4) throw BundleError("bad block contents");
  size_t end = block.size() - 4 - size_t(restarts) * 4;
  Cursor c{block.substr(0, end), 0, "bad entry in block"};
  std::string key;
  while (!c.done()) {
    uint64_t shared = c.varint(), unshared = c.varint(), valueSize = c.varint();
    if (shared > key.size()) c.fail();
    key.resize(size_t(shared));
    key += c.bytes(unshared);
    fn(key, c.bytes(valueSize));
  }
}

Handle decodeHandle(std::string_view s) {
  Cursor c{s, 0, "bad block handle"};
  Handle h;
  h.offset = c.varint();
  h.size = c.varint();
  return h;
}

uint64_t product(const std::vector<int64_t> &dims) {
  uint64_t n = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(n, uint64_t(d), &n) || n > (uint64_t(1) << 40))
      throw BundleError("a tensor's shape is too large");
  return n;
}

}  // namespace

BundleFiles encodeBundle(std::vector<BundleTensor> tensors) {
  std::sort(tensors.begin(), tensors.end(), [](const BundleTensor &a, const BundleTensor &b) { return a.key < b.key; });
  BundleFiles files;
  TableWriter table;
  table.add("", headerProto());
  for (const BundleTensor &t : tensors) {
    uint64_t offset = files.data.size();
    uint32_t crc = 0;
    if (t.dtype == ir::DType::String) {
      // Lengths as varint64, their CRC over each as a u32 (TF's format
      // for lengths below 2^32), masked; then the bytes. The entry's CRC
      // runs over those u32 lengths, the masked length CRC and the bytes.
      std::string lengths;
      for (const std::string &s : t.strings) {
        putVarint(lengths, s.size());
        std::string le;
        if (s.size() <= 0xffffffffu) {
          putFixed32(le, uint32_t(s.size()));
        } else {
          putFixed32(le, uint32_t(s.size()));
          putFixed32(le, uint32_t(uint64_t(s.size()) >> 32));
        }
        crc = crc32c(le, crc);
      }
      std::string lengthCrc;
      putFixed32(lengthCrc, maskCrc(crc));
      crc = crc32c(lengthCrc, crc);
      files.data += lengths + lengthCrc;
      for (const std::string &s : t.strings) {
        files.data += s;
        crc = crc32c(s, crc);
      }
    } else {
      files.data += t.bytes;
      crc = crc32c(t.bytes);
    }
    table.add(t.key, entryProto(t.dtype, t.dims, offset, files.data.size() - offset, maskCrc(crc)));
  }
  files.index = table.finish();
  return files;
}

bool isBundleIndex(std::string_view index) {
  if (index.size() < kFooterSize) return false;
  const char *magic = index.data() + index.size() - 8;
  return getFixed32(magic) == uint32_t(kTableMagic & 0xffffffffu) && getFixed32(magic + 4) == uint32_t(kTableMagic >> 32);
}

std::vector<BundleEntry> readBundleIndex(std::string_view index, int32_t &numShards) {
  if (index.size() < kFooterSize) throw BundleError("file is too short to be an sstable");
  if (!isBundleIndex(index)) throw BundleError("not an sstable (bad magic number)");
  std::string_view footer = index.substr(index.size() - kFooterSize, kFooterSize - 8);
  Cursor fc{footer, 0, "bad block handle"};
  Handle meta{fc.varint(), fc.varint()};
  Handle top{fc.varint(), fc.varint()};
  (void)meta;
  std::vector<BundleEntry> entries;
  bool sawHeader = false;
  numShards = 1;
  eachBlockEntry(readBlock(index, top), [&](const std::string &, std::string_view handle) {
    eachBlockEntry(readBlock(index, decodeHandle(handle)), [&](const std::string &key, std::string_view value) {
      if (!key.empty()) {
        entries.push_back(parseEntry(key, value));
        return;
      }
      sawHeader = true;
      eachField(value, "Entry for key  not parseable.", [&](int field, int wire, Cursor &c) {
        if (field == 1 && wire == 0) {
          numShards = int32_t(c.varint());
          return true;
        }
        if (field == 2 && wire == 0) {
          if (c.varint() != 0)
            throw BundleError("the checkpoint was written on a big-endian machine, which tfs does not read");
          return true;
        }
        return false;
      });
    });
  });
  if (!sawHeader) throw BundleError("the index has no bundle header");
  return entries;
}

BundleTensor readBundleTensor(const BundleEntry &e, std::string_view data) {
  std::string where = fmt::format("TensorBundle entry {} ({} bytes)", e.key, e.size);
  if (e.sliced) throw BundleError(fmt::format("{}: tensors saved in slices are not supported by tfs", where));
  if (e.offset > data.size() || e.size > data.size() - e.offset)
    throw BundleError(fmt::format("{}: the data file is truncated (it holds {} bytes, the entry ends at byte {})",
                                  where, data.size(), e.offset + e.size));
  std::string_view bytes = data.substr(size_t(e.offset), size_t(e.size));
  BundleTensor t;
  t.key = e.key;
  t.dtype = e.dtype;
  t.dims = e.dims;
  uint64_t n = product(e.dims);
  uint32_t crc = 0;
  if (e.dtype == ir::DType::String) {
    Cursor c{bytes, 0, where + ": a string tensor is truncated"};
    std::vector<uint64_t> lengths;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t len = c.varint();
      std::string le;
      putFixed32(le, uint32_t(len));
      if (len > 0xffffffffu) putFixed32(le, uint32_t(len >> 32));
      crc = crc32c(le, crc);
      lengths.push_back(len);
    }
    // The masked CRC of the lengths follows them (also for no elements).
    std::string_view lengthCrc = c.bytes(4);
    if (unmaskCrc(getFixed32(lengthCrc.data())) != crc)
      throw BundleError(where + ": The length checksum does not match");
    crc = crc32c(lengthCrc, crc);
    for (uint64_t len : lengths) {
      std::string_view s = c.bytes(len);
      crc = crc32c(s, crc);
      t.strings.emplace_back(s);
    }
  } else {
    if (bytes.size() != n * ir::dtypeSize(e.dtype))
      throw BundleError(fmt::format("{}: the size does not match the shape", where));
    t.bytes = std::string(bytes);
    crc = crc32c(bytes);
  }
  if (e.maskedCrc != 0 && unmaskCrc(e.maskedCrc) != crc)
    throw BundleError(fmt::format("{}: Checksum does not match: stored {:08} vs. calculated on the restored bytes {}",
                                  where, unmaskCrc(e.maskedCrc), crc));
  return t;
}

}  // namespace bundle
