// The process-wide ORC LLJIT (LLVM 14 ORC v2): host CPU name and features,
// O2 via the new PassBuilder, the C-ABI runtime helpers of
// runtime_helpers.cpp (and the process's own symbols, for libm) resolvable
// from compiled code. Every llvm::Error / Expected is checked where it
// arises; failures become runtime::GraphRunError("InternalError", ...).
#pragma once

#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace llvm::orc {
class LLJIT;
}
namespace llvm {
class TargetMachine;
}

namespace tfs::codegen {

class Jit {
public:
  // The one JIT of the process (created on first use).
  static Jit &instance();

  // Given a module about to be optimized.
  // Execute: sets its target triple and data layout to the host's.
  void configureModule(llvm::Module &m) const;
  // Execute: runs the O2 pipeline on `m` (configured first).
  void optimize(llvm::Module &m) const;
  // Given an optimized module.
  // Result: the host assembly its code generates (--emit=asm).
  std::string assembly(llvm::Module &m) const;
  // Given an optimized module defining `symbol`.
  // Execute: adds it to the JIT and materializes `symbol`.
  // Result: the address of `symbol`.
  uint64_t addAndLookup(llvm::orc::ThreadSafeModule tsm, const std::string &symbol);

  ~Jit();

private:
  Jit();
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> tm_;
  std::mutex mutex_;
};

}  // namespace tfs::codegen
