// The host callbacks (py_function nodes) of the graphs a SavedModel holds.
// A node's callback is a process-local id. The table kernels of tf.lookup
// tables (HostOp objects, _tf_lookup_host.tfs) are kept as their table's
// contents and kernel's name and remade when the model is loaded; any other
// Python function works only in the process that saved the model (as in
// TF, whose py_function registry is per process): elsewhere the node fails
// when it runs, naming the callback.
//
// File host_callbacks.txt: "tfs-host-callbacks 1", "process NONCE", then
// tab-separated records: callback ID local / callback ID table K METHOD
// EFFECT / table K JSON (the table's contents).
#pragma once

#include "ir/graph.h"
#include "lib/tf/tf_lib.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tfs::runtime::tf {

class HostCallbackSaver {
public:
  // Records the callbacks of `fn`'s py_function nodes (nested regions too).
  void scan(Interpreter &in, const ir::Function &fn);
  void write(Interpreter &in, const std::filesystem::path &dir);

private:
  std::map<int64_t, std::string> records_;
  std::vector<Value> stores_;
  std::vector<std::string> states_;  // each store's JSON
};

class HostCallbackLoader {
public:
  // Reads `dir`'s host_callbacks.txt (a model without one keeps its ids).
  void read(Interpreter &in, const std::filesystem::path &dir);
  // Points `fn`'s py_function nodes at this process's callbacks.
  void patch(Interpreter &in, ir::Function &fn, const std::filesystem::path &file);

private:
  struct Record {
    bool table = false;
    size_t store = 0;
    std::string method;
    bool effect = false;
  };
  bool present_ = false;
  bool sameProcess_ = false;
  std::map<int64_t, Record> records_;
  std::map<size_t, Value> stores_;
  std::map<int64_t, int64_t> remapped_;
  void patchRegion(Interpreter &in, ir::Region &r, const std::filesystem::path &file);
};

}  // namespace tfs::runtime::tf
