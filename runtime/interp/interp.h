// The language interpreter: runs a parsed .tfs module with CPython's
// semantics for the supported subset (see DESIGN.md "The language").
#pragma once

#include "frontend/ast.h"

#include <string>
#include <vector>

namespace tfs::runtime {

enum class Backend { Interp, Jit };

// What the driver asks of a run (an options struct, not boolean parameters).
struct RunOptions {
  Backend backend = Backend::Jit;
  bool emitGraph = false;       // print each traced graph (after passes)
  bool emitGraphRaw = false;    // --emit=graph: before passes
  bool emitAutograph = false;   // print converted code of traced functions
  bool emitLlvm = false;        // print LLVM IR of compiled functions
  bool printLoc = false;        // locations in printed IR
  bool runFunctionsEagerly = false;  // tf.config.run_functions_eagerly(True) from the start
  int64_t maxSteps = 0;         // 0: unlimited
  int64_t maxMemoryBytes = 0;   // 0: default (a fraction of RAM)
  // Scripts may not write or delete files (tf.saved_model.save raises
  // OSError). For the fuzzer: a mutated script could otherwise save over,
  // and so delete, any directory it names.
  bool readOnlyFiles = false;
  // time.sleep returns at once (the fuzzer: a mutated sleep(1e6) is not a hang).
  bool skipSleep = false;
  // A C++ exception escaping the script (a tfs bug) aborts instead of being
  // reported as SystemError (the fuzzers: such bugs must be findings).
  bool abortOnInternalError = false;
  std::vector<std::string> argv;  // sys.argv: the script path, then its arguments
};

// Runs the module. Errors raised by the script are printed to stderr in the
// diagnostic format and give exit status 1; success gives 0. Never throws.
int runModule(const ast::Module &module, const RunOptions &options);

}  // namespace tfs::runtime
