// How many of a function's parameters are positional-only (before a `/`).
// The AST keeps no marker for `/`: it is found in the source between two
// parameters, or after the last one (positional_only.cpp).
#pragma once

#include "frontend/ast.h"

#include <vector>

namespace tfs::frontend {

// `lambda`: the parameters end at the lambda's ':' rather than at ')'.
int positionalOnlyParams(const std::vector<ast::Param> &params, bool lambda);

}  // namespace tfs::frontend
