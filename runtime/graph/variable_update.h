// assign_add_variable / assign_sub_variable as both graph backends run them
// (the graph interpreter and compiled code's kernel trampoline).
#pragma once

#include "runtime/graph/interpreter.h"

namespace tfs::runtime {

// The variable's value after `kind` (AssignAddVariable or
// AssignSubVariable) of `delta`, for the caller to assign: the add or sub
// kernel's result, computed in the variable's own buffer when nothing else
// holds that buffer (Note [Variable updates in place] in variable_update.cpp).
Tensor updatedVariable(RunContext &ctx, const ir::Function &fn, const ir::Capture &var, ir::OpKind kind,
                       const Tensor &delta);

}  // namespace tfs::runtime
