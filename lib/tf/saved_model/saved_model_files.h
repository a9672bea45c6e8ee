// The pieces of tf.saved_model's directory format (saved_model.cpp) that
// the TF 1 builder and loader (saved_model_v1.cpp) share: synced writes,
// atomic publication, variable records, and the graphs load restores.
#pragma once

#include "lib/tf/tf_lib.h"
#include "runtime/autodiff/function_gradient.h"
#include "runtime/tf/executable.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tfs::runtime::tf {

// Writes `text` to `p` and fsyncs it (OSError when it cannot).
void writeFileSynced(Interpreter &in, const std::filesystem::path &p, const std::string &text);
void syncDirectory(const std::filesystem::path &dir);
// Makes the finished temporary directory `tmp` the model at `target`
// (atomically replacing an existing one).
void publishDirectory(Interpreter &in, const std::filesystem::path &tmp, const std::filesystem::path &target);

// A SavedModel being written: files go into `tmp`, a new directory beside
// `target` ("model/" is the directory "model"); publish() syncs it and makes
// it the model. A save that fails part way leaves no files.
class StagedModelDirectory {
public:
  StagedModelDirectory(Interpreter &in, const std::string &exportDir);
  ~StagedModelDirectory();
  StagedModelDirectory(const StagedModelDirectory &) = delete;
  StagedModelDirectory &operator=(const StagedModelDirectory &) = delete;
  const std::filesystem::path &tmp() const { return tmp_; }
  void publish(Interpreter &in);

private:
  std::filesystem::path target_, tmp_;
  bool published_ = false;
};
// The tab-separated fields of a record line (variables.txt, signatures).
std::vector<std::string> splitTabs(const std::string &line);
// One record of variables.txt: name, dtype, rank, dims, values.
std::string tensorLine(const std::string &name, const Tensor &t);

// The graph of a signature function tf.saved_model.load restored: its IR
// function (captures bound to the loaded values), parameter names and
// output keys in return order (empty: the function returns a tuple).
struct LoadedSignatureGraph {
  std::shared_ptr<ir::Module> module;
  ir::Function *fn = nullptr;
  std::vector<std::string> outputKeys;
};
// nullopt when `f` is not a function tf.saved_model.load restored.
std::optional<LoadedSignatureGraph> loadedSignatureGraph(const Value &f);

// The gradient graph of a restored trace and its optimized copies, built on
// the first call a GradientTape records.
struct RestoredGradientCache {
  std::shared_ptr<FunctionGradient> gradient;
  std::shared_ptr<std::unordered_map<const ir::Function *, std::shared_ptr<Executable>>> execs =
      std::make_shared<std::unordered_map<const ir::Function *, std::shared_ptr<Executable>>>();
};
// Records an eager call of the restored trace `fn` (of `module`) on the
// active tapes (restored_tapes.cpp): `args` / `argIds` its tensor
// arguments, `variables` the restored variables its captures hold.
void recordRestoredCallOnTapes(Interpreter &in, const std::shared_ptr<ir::Module> &module, const ir::Function &fn,
                               RestoredGradientCache &cache, const std::vector<Ref<VariableObject>> &variables,
                               const std::vector<Tensor> &args, const std::vector<int64_t> &argIds,
                               const std::vector<Value> &outs);

// `_tf_saved_model_v1_native`: tf.compat.v1.saved_model's builder and
// loader (saved_model_v1.cpp).
void registerSavedModelV1Module();

}  // namespace tfs::runtime::tf
