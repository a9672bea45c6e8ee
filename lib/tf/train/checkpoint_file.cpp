// The files of a tfs checkpoint (tf.train.Checkpoint, CheckpointManager,
// tf.compat.v1.train.Saver, Keras's TF-format save_weights) and the variable
// access their .tfs code needs: the native module `_tf_train_native`.
//
// Note [tfs checkpoint files]
// A checkpoint at prefix P is TensorFlow's tensor bundle (tensor_bundle.h):
// P.index and P.data-00000-of-00001, as TF writes them, so scripts that list
// or glob checkpoint files see TF's names and TF's own readers accept them.
// Both are written atomically (lib/file_util), data first, so a crash leaves
// a complete old checkpoint or a complete new one. Reading checks every
// block and tensor checksum and every offset before a byte is used: a torn,
// truncated or edited checkpoint raises DataLossError naming the file, never
// a crash.
//
// Checkpoints written by earlier tfs releases (their own format: a text
// index "TFS-CKPT-INDEX 1" and a data file with a CRC32 trailer) are still
// read.
#include "lib/file_util.h"
#include "lib/tf/tf_lib.h"
#include "lib/tf/train/tensor_bundle.h"

#include <cstring>
#include <map>
#include <set>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <zlib.h>

namespace tfs::runtime::tf {

namespace {

namespace fs = std::filesystem;
namespace bundle = lib::bundle;

constexpr std::string_view kDataMagic = "TFS-CKPT-DATA 1\n";
constexpr std::string_view kIndexMagic = "TFS-CKPT-INDEX 1\n";
constexpr size_t kTrailerSize = 16;  // "\nCRC32 " + 8 hex digits + "\n"

std::string dataPath(const std::string &prefix) { return prefix + ".data-00000-of-00001"; }
std::string indexPath(const std::string &prefix) { return prefix + ".index"; }

uint32_t crcOf(std::string_view s) {
  uLong c = ::crc32(0L, Z_NULL, 0);
  return uint32_t(::crc32(c, reinterpret_cast<const Bytef *>(s.data()), uInt(s.size())));
}

[[noreturn]] void dataLoss(Interpreter &in, const std::string &path, const std::string &what) {
  raiseTf(in, "DataLossError", fmt::format("Unable to read checkpoint file {}: {}", path, what));
}

// --- the format of earlier tfs releases (read only) ---

// The body of a checkpoint file after its magic line, checksum verified.
std::string readChecked(Interpreter &in, const std::string &path, std::string_view magic) {
  std::ifstream f(path, std::ios::binary);
  if (!f) dataLoss(in, path, "the file is missing or unreadable");
  std::stringstream ss;
  ss << f.rdbuf();
  std::string data = ss.str();
  if (data.compare(0, magic.size(), magic) != 0)
    dataLoss(in, path, "not a checkpoint written by tfs (TensorFlow's tensor bundle format is not supported by tfs)");
  if (data.size() < magic.size() + kTrailerSize) dataLoss(in, path, "the file is truncated");
  std::string_view body(data.data(), data.size() - kTrailerSize);
  std::string trailer = data.substr(data.size() - kTrailerSize);
  if (trailer.compare(0, 7, "\nCRC32 ") != 0) dataLoss(in, path, "the file is truncated");
  std::string expected = fmt::format("{:08x}", crcOf(body));
  if (trailer.substr(7, 8) != expected)
    dataLoss(in, path, fmt::format("checksum does not match: stored {} vs. calculated {}", trailer.substr(7, 8), expected));
  return std::string(body.substr(magic.size()));
}

std::optional<DType> dtypeNamed(const std::string &name) {
  for (int i = 0; i < ir::kNumDTypes; ++i)
    if (name == ir::dtypeName(DType(i))) return DType(i);
  return std::nullopt;
}

// One entry of the index.
struct Entry {
  std::string key;
  DType dtype = DType::Float32;
  std::vector<int64_t> dims;
  size_t offset = 0, bytes = 0;
};

struct Index {
  std::vector<Entry> entries;
  uint32_t dataCrc = 0;
};

std::vector<std::string> splitOn(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

Index readIndex(Interpreter &in, const std::string &prefix) {
  std::string path = indexPath(prefix);
  std::error_code ec;
  if (!fs::exists(path, ec))
    raiseTf(in, "NotFoundError",
            fmt::format("Unsuccessful TensorSliceReader constructor: Failed to find any matching files for {}", prefix));
  std::string body = readChecked(in, path, kIndexMagic);
  Index idx;
  bool sawData = false;
  for (const std::string &line : splitOn(body, '\n')) {
    if (line.empty()) continue;
    if (line.rfind("DATA ", 0) == 0) {
      idx.dataCrc = uint32_t(std::strtoul(line.c_str() + 5, nullptr, 16));
      sawData = true;
      continue;
    }
    std::vector<std::string> f = splitOn(line, '\t');
    Entry e;
    auto dt = f.size() == 5 ? dtypeNamed(f[1]) : std::nullopt;
    if (!dt) dataLoss(in, path, "a malformed index entry");
    e.key = f[0];
    e.dtype = *dt;
    if (!f[2].empty())
      for (const std::string &d : splitOn(f[2], ',')) e.dims.push_back(std::strtoll(d.c_str(), nullptr, 10));
    e.offset = std::strtoull(f[3].c_str(), nullptr, 10);
    e.bytes = std::strtoull(f[4].c_str(), nullptr, 10);
    idx.entries.push_back(std::move(e));
  }
  if (!sawData) dataLoss(in, path, "the index names no data file checksum");
  return idx;
}

// The payload of the data file, checked against the index's record of it.
std::string readData(Interpreter &in, const std::string &prefix, const Index &idx) {
  std::string path = dataPath(prefix);
  std::error_code ec;
  if (!fs::exists(path, ec)) dataLoss(in, path, "the data file is missing");
  std::string payload = readChecked(in, path, kDataMagic);
  if (crcOf(payload) != idx.dataCrc) dataLoss(in, path, "the data file does not belong to its index");
  return payload;
}

Tensor tensorFromBytes(Interpreter &in, const std::string &path, const Entry &e, std::string_view bytes) {
  int64_t n = 1;
  for (int64_t d : e.dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n) || n > (int64_t(1) << 40)) dataLoss(in, path, "a malformed shape");
  Tensor t = Tensor::empty(e.dtype, e.dims);
  if (e.dtype != DType::String) {
    if (bytes.size() != size_t(n) * ir::dtypeSize(e.dtype)) dataLoss(in, path, "a tensor's size does not match its shape");
    std::memcpy(t.rawData(), bytes.data(), bytes.size());
    return t;
  }
  size_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t len = 0;
    if (pos + sizeof(len) > bytes.size()) dataLoss(in, path, "a string tensor is truncated");
    std::memcpy(&len, bytes.data() + pos, sizeof(len));
    pos += sizeof(len);
    if (len > bytes.size() - pos) dataLoss(in, path, "a string tensor is truncated");
    t.data<std::string>()[i] = std::string(bytes.substr(pos, len));
    pos += len;
  }
  return t;
}

// The current value of a variable (eager, or a tf.compat.v1 graph variable
// whose storage a Session's runs update).
const Tensor &variableStorage(Interpreter &in, VariableObject &v) {
  if (!v.value || !v.value->valid())
    raiseTf(in, "FailedPreconditionError", fmt::format("Attempting to use uninitialized value {}", v.name.substr(0, v.name.find(':'))));
  return *v.value;
}

Tensor valueToSave(Interpreter &in, const Value &v) {
  if (auto *var = v.as<VariableObject>()) return variableStorage(in, *var);
  Ref<TensorObject> t = toTensor(in, v);
  if (t->symbolic()) {
    // A constant of a TF 1 graph (the object graph proto) is its value.
    if (std::optional<Tensor> c = constantValue(t->sym)) return *c;
    raiseTf(in, "ValueError", "a checkpoint saves values, not symbolic tensors");
  }
  return t->eager;
}

// A value to save as a bundle tensor.
bundle::BundleTensor bundleTensorOf(const std::string &key, const Tensor &t) {
  bundle::BundleTensor b;
  b.key = key;
  b.dtype = t.dtype();
  b.dims = t.shape();
  if (t.dtype() == DType::String) {
    const std::string *strings = t.data<std::string>();
    b.strings.assign(strings, strings + t.numElements());
  } else {
    b.bytes.assign(static_cast<const char *>(t.rawData()), size_t(t.numElements()) * ir::dtypeSize(t.dtype()));
  }
  return b;
}

void writeCheckpoint(Interpreter &in, const std::string &prefix, const std::vector<Value> &keys,
                     const std::vector<Value> &values) {
  if (keys.size() != values.size()) in.raise("ValueError", "write_checkpoint: keys and values differ in length");
  std::vector<bundle::BundleTensor> tensors;
  std::set<std::string> seen;
  for (size_t i = 0; i < keys.size(); ++i) {
    std::string key = in.str(keys[i]);
    // "" is the bundle header's key; a key twice would shadow a tensor.
    if (key.empty() || !seen.insert(key).second)
      in.raise("ValueError", fmt::format("checkpoint key {} is empty or repeated", in.repr(keys[i])));
    tensors.push_back(bundleTensorOf(key, valueToSave(in, values[i])));
  }
  bundle::BundleFiles files = bundle::encodeBundle(std::move(tensors));
  std::error_code ec;
  fs::path parent = fs::path(prefix).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  lib::writeFileAtomic(in, dataPath(prefix), files.data);
  lib::writeFileAtomic(in, indexPath(prefix), files.index);
}

// A checkpoint opened for reading: a tensor bundle's entries, or the index
// of a checkpoint in tfs's earlier format.
struct OpenCheckpoint {
  std::string prefix;
  bool legacy = false;
  Index legacyIndex;
  std::vector<bundle::BundleEntry> entries;
  int32_t numShards = 1;
};

std::string shardPath(const std::string &prefix, int32_t shard, int32_t numShards) {
  return fmt::format("{}.data-{:05d}-of-{:05d}", prefix, shard, numShards);
}

OpenCheckpoint openCheckpoint(Interpreter &in, const std::string &prefix) {
  std::string path = indexPath(prefix);
  std::error_code ec;
  if (!fs::exists(path, ec))
    raiseTf(in, "NotFoundError",
            fmt::format("Unsuccessful TensorSliceReader constructor: Failed to find any matching files for {}", prefix));
  OpenCheckpoint ck;
  ck.prefix = prefix;
  std::string index = lib::readWholeFile(in, path);
  if (index.rfind(kIndexMagic, 0) == 0) {
    ck.legacy = true;
    ck.legacyIndex = readIndex(in, prefix);
    return ck;
  }
  try {
    ck.entries = bundle::readBundleIndex(index, ck.numShards);
  } catch (const bundle::BundleError &e) {
    raiseTf(in, "DataLossError",
            fmt::format("Unable to open table file {}: DATA_LOSS: {}: perhaps your file is in a different file format "
                        "and you need to use a different restore operator?",
                        path, e.what()));
  }
  for (const bundle::BundleEntry &e : ck.entries)
    if (e.shard < 0 || e.shard >= ck.numShards)
      dataLoss(in, path, fmt::format("the entry {} names shard {} of {}", e.key, e.shard, ck.numShards));
  return ck;
}

// {key: numpy value} of every tensor, every checksum checked.
Value readAllTensors(Interpreter &in, const OpenCheckpoint &ck) {
  auto out = make<DictObject>();
  if (ck.legacy) {
    std::string payload = readData(in, ck.prefix, ck.legacyIndex);
    for (const Entry &e : ck.legacyIndex.entries) {
      if (e.offset > payload.size() || e.bytes > payload.size() - e.offset)
        dataLoss(in, dataPath(ck.prefix), "an index entry points past the end of the data");
      Tensor t = tensorFromBytes(in, dataPath(ck.prefix), e, std::string_view(payload).substr(e.offset, e.bytes));
      out->set(in, in.str(e.key), wrap(t, true));
    }
    return Value(out);
  }
  std::map<int32_t, std::string> shards;  // read once each, when an entry needs it
  for (const bundle::BundleEntry &e : ck.entries) {
    std::string path = shardPath(ck.prefix, e.shard, ck.numShards);
    if (!shards.count(e.shard)) {
      std::error_code ec;
      if (!fs::exists(path, ec)) dataLoss(in, path, "the data file is missing");
      shards[e.shard] = lib::readWholeFile(in, path);
    }
    bundle::BundleTensor b;
    try {
      b = bundle::readBundleTensor(e, shards[e.shard]);
    } catch (const bundle::BundleError &err) {
      dataLoss(in, path, err.what());
    }
    Tensor t = Tensor::empty(b.dtype, b.dims);
    if (b.dtype == DType::String) {
      for (size_t i = 0; i < b.strings.size(); ++i) t.data<std::string>()[i] = std::move(b.strings[i]);
    } else if (!b.bytes.empty()) {
      std::memcpy(t.rawData(), b.bytes.data(), b.bytes.size());
    }
    out->set(in, in.str(e.key), wrap(t, true));
  }
  return Value(out);
}

Value dimsList(Interpreter &in, const std::vector<int64_t> &dims) {
  std::vector<Value> out;
  for (int64_t d : dims) out.push_back(Value::integer(d));
  return in.list(out);
}

Value makeTrainNative(Interpreter &in) {
  auto m = make<ModuleObject>("_tf_train_native");
  auto bind = [&](std::string_view sig, SignedFn fn) {
    Value f = nativeWithSignature(in, sig, std::move(fn));
    m->scope->vars[f.as<NativeFunction>()->name] = f;
  };
  // Writes the checkpoint `prefix` (Note [tfs checkpoint files]); values are
  // variables, tensors or numpy arrays.
  bind("write_checkpoint(prefix, keys, values)", [](Interpreter &in, const Bound &a) {
    writeCheckpoint(in, in.str(a["prefix"]), in.toList(a["keys"]), in.toList(a["values"]));
    return Value();
  });
  // {key: numpy value} of the checkpoint at `prefix`, every checksum checked.
  bind("read_checkpoint(prefix)", [](Interpreter &in, const Bound &a) -> Value {
    return readAllTensors(in, openCheckpoint(in, in.str(a["prefix"])));
  });
  // [(key, dims, dtype name)] of the checkpoint at `prefix` (its index only).
  bind("checkpoint_keys(prefix)", [](Interpreter &in, const Bound &a) -> Value {
    OpenCheckpoint ck = openCheckpoint(in, in.str(a["prefix"]));
    std::vector<Value> out;
    for (const Entry &e : ck.legacyIndex.entries)
      out.push_back(in.tuple({in.str(e.key), dimsList(in, e.dims), in.str(ir::dtypeName(e.dtype))}));
    for (const bundle::BundleEntry &e : ck.entries)
      out.push_back(in.tuple({in.str(e.key), dimsList(in, e.dims), in.str(ir::dtypeName(e.dtype))}));
    return in.list(out);
  });
  // Whether a tf.function is being traced here (Checkpoint.save refuses).
  bind("inside_function()", [](Interpreter &in, const Bound &) {
    GraphScope *g = currentGraph(in);
    return Value::boolean(g && g->kind() == GraphScope::Kind::Function);
  });
  bind("checkpoint_exists(prefix)", [](Interpreter &in, const Bound &a) {
    std::error_code ec;
    return Value::boolean(fs::exists(indexPath(in.str(a["prefix"])), ec));
  });
  // Deletes a checkpoint's files (CheckpointManager's and Saver's max_to_keep).
  bind("remove_checkpoint(prefix)", [](Interpreter &in, const Bound &a) {
    if (in.options().readOnlyFiles) in.raise("OSError", "file writes are disabled");
    std::string prefix = in.str(a["prefix"]);
    std::error_code ec;
    fs::remove(indexPath(prefix), ec);
    fs::remove(dataPath(prefix), ec);
    fs::remove(prefix + ".meta", ec);
    return Value();
  });
  // A variable's current value as numpy (also a v1 graph variable's, as its
  // Session last left it).
  bind("variable_value(variable)", [](Interpreter &in, const Bound &a) -> Value {
    auto *v = a["variable"].as<VariableObject>();
    if (!v) in.raise("TypeError", fmt::format("expected a tf.Variable, got {}", in.typeName(a["variable"])));
    return wrap(variableStorage(in, *v).copy(), true);
  });
  // Restores `value` into a variable's storage (eager or v1 graph variable)
  // with TF's check of the saved shape against the variable's.
  bind("restore_variable(variable, value)", [](Interpreter &in, const Bound &a) {
    auto *v = a["variable"].as<VariableObject>();
    if (!v) in.raise("TypeError", fmt::format("expected a tf.Variable, got {}", in.typeName(a["variable"])));
    Ref<TensorObject> t = toTensor(in, a["value"]);
    ir::Shape saved(t->eager.shape());
    if (v->shape.ranked && !saved.isCompatibleWith(v->shape))
      in.raise("ValueError", fmt::format("Received incompatible tensor with shape {} when attempting to restore "
                                         "variable with shape {} and name {}.",
                                         saved.tfString(), v->shape.tfString(), v->name));
    if (t->eager.dtype() != v->dtype)
      in.raise("ValueError", fmt::format("Received tensor of dtype {} when attempting to restore variable {} of "
                                         "dtype {}.", ir::dtypeName(t->eager.dtype()), v->name, ir::dtypeName(v->dtype)));
    if (!v->value) v->value = std::make_shared<Tensor>();
    *v->value = t->eager.copy();
    return Value();
  });
  // tf.compat.v1.train.init_from_checkpoint: the variables get_variable made
  // (TF's default variable store, keyed by name without ":0"), and a v1 graph
  // variable's new initial value (what its initializer op assigns).
  bind("v1_variable_store()", [](Interpreter &in, const Bound &) {
    auto d = make<DictObject>();
    for (auto &[name, var] : ctx(in).v1Variables) d->set(in, in.str(name), Value(var));
    return Value(d);
  });
  bind("set_initial_value(variable, value)", [](Interpreter &in, const Bound &a) {
    auto *v = a["variable"].as<VariableObject>();
    if (!v) in.raise("TypeError", fmt::format("expected a tf.Variable, got {}", in.typeName(a["variable"])));
    v->initialValue = a["value"];
    return Value();
  });
  return Value(m);
}

}  // namespace

void registerTrainModules() { Interpreter::registerNativeModule("_tf_train_native", makeTrainNative); }

}  // namespace tfs::runtime::tf
