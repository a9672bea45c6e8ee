// The GradientTape core: records ops that touch watched values and computes
// gradients by reverse accumulation (backprop.h). It has no interpreter or
// graph dependency; the tf module owns the Python-level objects.
//
// How the tf module uses it:
//   - every tensor (eager Tensor or symbolic ir::Value*) gets a unique id;
//   - `tape.watch(id)` for watched tensors; for a trainable variable read
//     under the tape, record an Identity op from the variable's id to the
//     read tensor's id (and watch the variable id), so gradients w.r.t. the
//     variable sum over all its reads;
//   - after running an op, for each active tape: if tape.shouldRecord(inputIds)
//     then tape.record(...). Nested tapes: record into every active tape;
//   - `tape.gradient(emitter, targets, sources)` with an EagerEmitter in
//     eager code or a GraphEmitter while tracing; the returned handles are
//     read back through the emitter (value(), or EagerEmitter::tensor()).
// Non-persistent tapes allow one gradient call, then throw RuntimeError
// (TF's message).
#pragma once

#include "runtime/autodiff/backprop.h"

#include <unordered_set>

namespace tfs::runtime {

struct TapeTarget {
  int64_t id;
  TapeValue value;
  std::optional<TapeValue> outputGradient;  // tape.gradient(output_gradients=)
  int64_t outputGradientId = -1;            // its tape id (eager), -1 if none
};

class Tape {
public:
  explicit Tape(bool persistent = false) : persistent_(persistent) {}

  bool persistent() const { return persistent_; }
  void watch(int64_t id) { tracked_.insert(id); watched_.insert(id); }
  bool isWatched(int64_t id) const { return watched_.count(id) != 0; }
  // Is `id` watched or produced by a recorded op?
  bool isTracked(int64_t id) const { return tracked_.count(id) != 0; }
  // An op must be recorded when one of its inputs is tracked (and the tape
  // is not computing its own gradient).
  bool shouldRecord(std::span<const int64_t> inputIds) const;

  // Graph mode (a tape active while tracing): records a node just built,
  // with ids valueId(ir::Value*) (graph_gradients.h); cond / while_loop /
  // call nodes are differentiated structurally. Ids of symbolic tensors
  // given to watch/shouldRecord/gradient must then be valueId(value).
  // `customGrad` replaces the structural rule (e.g. one that refuses).
  void recordNode(const ir::Node &node, CustomGradFn customGrad = {});

  // Given: an op that just ran. Result: appended to the tape; its outputs
  // become tracked. Callers check shouldRecord first (recording untracked
  // ops is harmless but wastes memory).
  // `customGrad` replaces the op's table rule (e.g. an eager call of a
  // traced function: see function_gradient.h).
  void record(ir::OpKind kind, const ir::Attrs &attrs,
              std::span<const int64_t> inputIds, std::span<const TapeValue> inputs,
              std::span<const int64_t> outputIds, std::span<const TapeValue> outputs,
              CustomGradFn customGrad = {});

  // d(sum of targets)/d(source) for each source: a handle in `em`, or
  // nullopt when the source is unconnected. Throws ir::OpError
  // {"RuntimeError", ...} on a second call to a non-persistent tape.
  std::vector<OptHandle> gradient(GradEmitter &em, std::span<const TapeTarget> targets,
                                  std::span<const int64_t> sources);

  // Several gradients computed as one (tape.jacobian): between these the
  // tape keeps its ops; afterwards a non-persistent tape is used up as after
  // one gradient(). Begin throws gradient()'s RuntimeError on a used tape.
  bool beginSeveral();
  void endSeveral(bool wasPersistent);

  size_t numRecorded() const { return ops_.size(); }
  void clear();  // tape.reset()

private:
  bool persistent_;
  bool used_ = false;
  // Set while gradient() runs: the gradient's own ops are not recorded on
  // the tape being differentiated (they may be on outer tapes).
  bool computing_ = false;
  std::unordered_set<int64_t> tracked_, watched_;
  std::vector<OpRecord> ops_;
};

}  // namespace tfs::runtime
