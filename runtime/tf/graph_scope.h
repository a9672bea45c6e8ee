// GraphScope: a graph under construction. While a tf.function is traced
// (or a tf.compat.v1 Graph is the default graph), tf ops append nodes here
// instead of running kernels.
//
// It owns the ir::Module/Function being built, the stack of insertion
// builders (cond / while_loop regions push one while their bodies are traced),
// TF's node naming ("Square", "Square_1", or the `name=` given), and the
// capture tables: an eager tensor or a variable used inside the graph is
// captured once and referred to by the same ir::Value / capture name after.
#pragma once

#include "ir/builder.h"
#include "ir/graph.h"
#include "runtime/interp/value.h"
#include "runtime/tensor/tensor.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tfs::runtime::tf {

class GraphScope {
public:
  enum class Kind : uint8_t { Function, V1Graph };

  GraphScope(Kind kind, std::string functionName);
  GraphScope(const GraphScope &) = delete;
  GraphScope &operator=(const GraphScope &) = delete;

  Kind kind() const { return kind_; }
  ir::Module &module() { return *module_; }
  ir::Function &function() { return *function_; }
  std::shared_ptr<ir::Module> sharedModule() { return module_; }

  // The builder of the innermost region being traced.
  ir::Builder &builder() { return builders_.back(); }
  // Given a region of this graph (a cond branch, a loop body).
  // Execute: new ops go to the end of that region until popRegion().
  void pushRegion(ir::Region &region) { builders_.emplace_back(region); }
  void popRegion() { builders_.pop_back(); }
  // Given a node of this graph that must not run (AutoGraph's scratch
  // staging of a loop body). Execute: detaches it from its region but keeps
  // it alive, so Python values still wrapping its results stay valid.
  void discard(ir::Node *node) { discarded_.push_back(node->parentRegion()->take(node)); }
  size_t regionDepth() const { return builders_.size(); }

  // The op seed TF 2.15 gives a random op without one while a global seed
  // is set (random_seed.get_seed in graph mode: a counter per graph, from 0,
  // of the get_seed calls made in it). TF builds a tf.function trace, each
  // cond branch and each while_loop condition and body as separate
  // FuncGraphs, so the count is kept per region being built: the region of
  // the innermost builder.
  int64_t nextOpSeed() { return seedCounts_[&builders_.back().region()]++; }

  // TF's unique node names within one graph: the first use of a base name
  // gets it as is, later ones "_1", "_2", ... (names given by the user are
  // uniquified the same way).
  std::string uniqueName(const std::string &base);

  // The TF name of a symbolic value ("x", "Square_1"), "" if unnamed.
  const std::string &nameOf(const ir::Value *v) const;
  void setName(const ir::Value *v, std::string name) { names_[v] = std::move(name); }

  // Captures: `key` identifies the runtime object (a tensor buffer / a
  // variable object) so the same object is captured once.
  ir::Value *findTensorCapture(const void *key) const;
  ir::Value *addTensorCapture(const void *key, const std::string &hint,
                              ir::TensorType type, std::shared_ptr<void> handle);
  const std::string *findVariableCapture(const void *key) const;
  // The scope keeps `variable` alive: a variable created and dropped while
  // tracing must not be freed while the graph still names it (its address
  // would dangle in variableKeys, or be reused as another variable's key).
  const std::string &addVariableCapture(Object *variable, const std::string &hint,
                                        ir::TensorType type,
                                        std::shared_ptr<void> handle);

  // Captured variables, in capture order.
  const std::vector<Ref<Object>> &variableKeys() const { return variableOrder_; }
  // The variable object captured under `name`, or null.
  Object *variableOfCapture(const std::string &name) const;

  // Nodes created while this scope was active, in creation order, with
  // whether they were created at the top level (v1 Session pruning uses it).
  std::vector<ir::Node *> &placeholders() { return placeholders_; }

  // tf.compat.v1 graphs: the nodes of the enclosing tf.control_dependencies
  // blocks (every tensor made inside runs them first when fetched), and the
  // values of placeholder_with_default placeholders by name (a Session feeds
  // them when the script does not).
  std::vector<ir::Node *> controlInputs;
  std::map<std::string, Tensor> placeholderDefaults;

private:
  Kind kind_;
  std::shared_ptr<ir::Module> module_;
  ir::Function *function_;
  std::vector<ir::Builder> builders_;
  std::map<std::string, int> nameCounts_;
  std::unordered_map<const ir::Value *, std::string> names_;
  std::unordered_map<const void *, ir::Value *> tensorCaptures_;
  std::unordered_map<const void *, std::string> variableCaptures_;
  std::vector<ir::Node *> placeholders_;
  std::vector<Ref<Object>> variableOrder_;
  std::vector<std::unique_ptr<ir::Node>> discarded_;
  std::unordered_map<const ir::Region *, int64_t> seedCounts_;
};

}  // namespace tfs::runtime::tf
