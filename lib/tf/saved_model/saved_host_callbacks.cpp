// SavedModel host callbacks (saved_host_callbacks.h).
#include "lib/tf/saved_model/saved_host_callbacks.h"

#include "ir/attrs.h"
#include "lib/file_util.h"
#include "lib/tf/py_function.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <random>
#include <sstream>
#include <unistd.h>

namespace tfs::runtime::tf {

namespace fs = std::filesystem;

namespace {

constexpr const char *kHeader = "tfs-host-callbacks 1";
constexpr const char *kFile = "host_callbacks.txt";

// This process's mark: a model saved by it may keep its Python callbacks.
uint64_t processNonce() {
  static const uint64_t nonce = [] {
    std::random_device rd;
    return (uint64_t(rd()) << 32) ^ uint64_t(rd()) ^ uint64_t(::getpid());
  }();
  return nonce;
}

Value lookupHost(Interpreter &in, const char *name) {
  frontend::SourceSpan span = in.currentSpan();
  Value f = in.getAttr(in.importModule("_tf_lookup_host"), name);
  in.restoreSpan(span);
  return f;
}

Value callLookupHost(Interpreter &in, const char *name, std::vector<Value> args) {
  frontend::SourceSpan span = in.currentSpan();
  Value r = in.call(lookupHost(in, name), args);
  in.restoreSpan(span);
  return r;
}

template <class Fn> void forEachPyFunction(ir::Region &r, Fn &&fn) {
  for (auto &node : r.nodes()) {
    if (node->kind() == ir::OpKind::PyFunction) fn(*node);
    for (auto &sub : node->regions()) forEachPyFunction(*sub, fn);
  }
}

[[noreturn]] void corrupt(Interpreter &in, const fs::path &file, const std::string &what) {
  in.raise("ValueError", fmt::format("corrupted SavedModel {}: {}", file.string(), what));
}

}  // namespace

void HostCallbackSaver::scan(Interpreter &in, const ir::Function &fn) {
  forEachPyFunction(const_cast<ir::Function &>(fn).body(), [&](ir::Node &node) {
    int64_t id = ir::attrInt(node.attrs, "callback", -1);
    if (records_.count(id)) return;
    std::optional<Value> callable = pyFunctionCallable(id);
    if (!callable || !in.getAttrOpt(*callable, "_tfs_host_op")) {
      records_[id] = "local";
      return;
    }
    Value store = in.getAttr(*callable, "store");
    size_t k = 0;
    while (k < stores_.size() && stores_[k].obj() != store.obj()) ++k;
    if (k == stores_.size()) {
      // Its state now; a store that cannot be written (a TF-IDF layer)
      // leaves its kernels process-local.
      try {
        states_.push_back(in.str(callLookupHost(in, "export_store", {store})));
      } catch (PyException &) {
        records_[id] = "local";
        return;
      }
      stores_.push_back(store);
    }
    std::string method = in.str(in.getAttr(*callable, "method"));
    bool effect = in.truth(in.getAttr(*callable, "effect"));
    records_[id] = fmt::format("table\t{}\t{}\t{}", k, method, effect ? 1 : 0);
  });
}

void HostCallbackSaver::write(Interpreter &in, const fs::path &dir) {
  std::string text = fmt::format("{}\nprocess\t{}\n", kHeader, processNonce());
  for (auto &[id, rec] : records_) text += fmt::format("callback\t{}\t{}\n", id, rec);
  // The contents as they were when scanned (TF saves a table's contents
  // with it).
  for (size_t k = 0; k < stores_.size(); ++k) text += fmt::format("table\t{}\t{}\n", k, states_[k]);
  lib::writeFileAtomic(in, (dir / kFile).string(), text);
}

void HostCallbackLoader::read(Interpreter &in, const fs::path &dir) {
  fs::path file = dir / kFile;
  std::error_code ec;
  if (!fs::exists(file, ec)) return;
  present_ = true;
  std::istringstream lines(lib::readWholeFile(in, file.string()));
  std::string line;
  if (!std::getline(lines, line) || line != kHeader) corrupt(in, file, "not a tfs host callback list");
  auto number = [&](const std::string &s) -> uint64_t {
    char *end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (s.empty() || *end) corrupt(in, file, "a malformed record");
    return v;
  };
  std::map<size_t, std::string> tables;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    size_t start = 0;
    for (size_t i = 0; i <= line.size(); ++i)
      if (i == line.size() || line[i] == '\t') {
        f.push_back(line.substr(start, i - start));
        start = i + 1;
      }
    if (f[0] == "process" && f.size() == 2) {
      sameProcess_ = number(f[1]) == processNonce();
    } else if (f[0] == "callback" && f.size() == 3 && f[2] == "local") {
      records_[int64_t(number(f[1]))] = Record{};
    } else if (f[0] == "callback" && f.size() == 6 && f[2] == "table") {
      records_[int64_t(number(f[1]))] = Record{true, size_t(number(f[3])), f[4], f[5] == "1"};
    } else if (f[0] == "table" && f.size() == 3) {
      tables[size_t(number(f[1]))] = f[2];
    } else {
      corrupt(in, file, "an unknown record");
    }
  }
  for (auto &[id, r] : records_) {
    if (!r.table) continue;
    auto it = tables.find(r.store);
    if (it == tables.end()) corrupt(in, file, "a callback of an unknown table");
    static const char *kKernels[] = {"find", "size", "insert", "remove", "lookup_invert", "lookup_int",
                                     "lookup_encode", "lookup_ids", "vectorize"};
    if (std::find(std::begin(kKernels), std::end(kKernels), r.method) == std::end(kKernels))
      corrupt(in, file, "an unknown table kernel");
    if (!stores_.count(r.store)) stores_[r.store] = callLookupHost(in, "import_store", {in.str(it->second)});
  }
}

void HostCallbackLoader::patch(Interpreter &in, ir::Function &fn, const fs::path &file) {
  if (present_) patchRegion(in, fn.body(), file);
}

void HostCallbackLoader::patchRegion(Interpreter &in, ir::Region &r, const fs::path &file) {
  forEachPyFunction(r, [&](ir::Node &node) {
    int64_t id = ir::attrInt(node.attrs, "callback", -1);
    auto rec = records_.find(id);
    if (rec == records_.end()) corrupt(in, file, fmt::format("callback {} is not listed", id));
    if (!rec->second.table && sameProcess_) return;
    auto done = remapped_.find(id);
    if (done != remapped_.end()) {
      node.attrs["callback"] = done->second;
      return;
    }
    std::vector<DType> dtypes;
    if (const std::vector<int64_t> *tout = ir::attrInts(node.attrs, "Tout"))
      for (int64_t d : *tout) dtypes.push_back(DType(d));
    Value func;
    if (rec->second.table) {
      func = callLookupHost(in, "host_op", {stores_.at(rec->second.store), in.str(rec->second.method),
                                            Value::boolean(rec->second.effect)});
    } else {
      // TF's py_function registry is per process: the function is not here.
      std::string token = fmt::format("pyfunc_{}", id);
      func = in.native(token, [token](Interpreter &in, Args, const Kwargs &) -> Value {
        raiseTf(in, "UnknownError",
                fmt::format("ValueError: callback {} is not found: the SavedModel calls a tf.py_function / "
                            "tf.numpy_function of the program that saved it",
                            token));
      });
    }
    int64_t fresh = registerPyFunction(in, func, dtypes);
    remapped_[id] = fresh;
    node.attrs["callback"] = fresh;
  });
}

}  // namespace tfs::runtime::tf
