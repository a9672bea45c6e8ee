// A replacement for TF's random_seed.get_seed while Keras's
// DeterministicRandomTestTool scope is entered (it patches get_seed): every
// stateful random op then takes its (global, op) seed pair from the hook.
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime::tf {

// Installs `hook` (a callable op_seed -> (seed, seed2), or None to restore
// TF's seeding); returns the previous hook.
Value setGetSeedHook(Interpreter &in, const Value &hook);

}  // namespace tfs::runtime::tf
