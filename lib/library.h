// The library: every module a .tfs script imports (tensorflow, numpy, the
// Python standard-library modules) and the .tfs sources of its
// application-level parts. The engine knows none of them by name; whoever
// runs scripts (the driver, a test, a fuzz target) registers them once.
#pragma once

namespace tfs::lib {

// Registers every native and .tfs module with the interpreter. Idempotent.
void registerLibrary();

}  // namespace tfs::lib
