// RandomState's seed / get_state / set_state over the legacy MT19937 state
// (np_random_state.cpp), bound for np.random's global state and for each
// np.random.RandomState.
#pragma once

#include "lib/numpy/ndarray.h"
#include "lib/numpy/np_legacy_state.h"

#include <memory>

namespace tfs::runtime::tf::numpy {

void defineLegacyStateMethods(Interpreter &in, ModuleObject &m, const std::shared_ptr<LegacyState> &st);
// tomaxint and the deprecated random_integers (after randint is bound in m).
void defineLegacyIntegerExtras(Interpreter &in, ModuleObject &m, const std::shared_ptr<LegacyState> &st);

}  // namespace tfs::runtime::tf::numpy
