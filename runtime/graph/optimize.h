// What a backend runs for a traced function: an optimized copy of it.
//
// Every concrete function is optimized once (shape inference,
// simplification, constant folding with the eager kernels, CSE, DCE) before
// the graph interpreter or the JIT runs it, and `--emit=graph-opt` prints
// exactly that copy. The traced function itself stays as traced: gradients,
// SavedModel export and tensor names read it.
#pragma once

#include "ir/graph.h"

#include <memory>

namespace tfs::runtime {

struct OptimizedFunction {
  // Owns the copy and the copies of the functions it calls.
  std::unique_ptr<ir::Module> module;
  ir::Function *fn = nullptr;
};

// Given a verified function (in a module when it has `call` nodes).
// Execute: clones it (and every function it calls, transitively) into a new
// module and runs the optimization pipeline on each copy. A pass that fails
// (an internal error) leaves that copy as traced: never a wrong graph.
// Result: the copy, named like the original.
OptimizedFunction optimizeForExecution(const ir::Function &traced);

// The same for calls whose arguments have the concrete `paramShapes` (one
// per parameter; each an instance of the parameter's traced shape): the
// copy's parameters take those shapes before the pipeline runs, so shape
// inference and constant folding see static shapes (a function traced with
// an unknown batch dimension runs as if traced with the batch's).
OptimizedFunction optimizeForShapes(const ir::Function &traced, const std::vector<ir::Shape> &paramShapes);

}  // namespace tfs::runtime
