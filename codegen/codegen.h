// The LLVM backend: compiles an ir::Function to machine code with ORC LLJIT
// and runs it. Mirrors the graph interpreter (runtime/graph/interpreter.h):
// same arguments (parameters, optionally followed by the tensor captures),
// same RunContext for variables, print, placeholders, random ops and
// captures, same results and the same GraphRunError (with the failing
// node's location) on errors, so the tf layer switches backends with a flag.
//
// Rank-0 f32/f64/i32/i64/bool values and cond/while_loop compile to native
// registers, branches and PHIs; every other op calls its eager kernel
// through a trampoline (see codegen/plan.h, Note [Value representation]).
// Compiled code is cached by the printed IR text of the function.
#pragma once

#include "ir/graph.h"
#include "runtime/graph/interpreter.h"
#include "runtime/tensor/tensor.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tfs::codegen {

// Given a verified function (and its module, for `call`), its arguments and
// a context.
// Execute: compiles it on first use (cached), then runs the machine code.
// Result: the values of its `return`. Throws runtime::GraphRunError.
std::vector<runtime::Tensor> runCompiled(const ir::Function &fn,
                                         std::span<const runtime::Tensor> args,
                                         runtime::RunContext &ctx);

// A function compiled once: its plan, its machine code and its constants.
// Refers to the nodes of the ir::Function it was compiled from, which must
// outlive it unchanged (a traced function's optimized copy does).
struct CompiledFunction;

// Given a verified function that will not change while the result lives.
// Result: its compiled form (machine code shared by IR text).
std::shared_ptr<const CompiledFunction> compile(const ir::Function &fn);

// Runs compiled code like runCompiled, without looking the function up.
std::vector<runtime::Tensor> runCompiled(const CompiledFunction &compiled,
                                         std::span<const runtime::Tensor> args,
                                         runtime::RunContext &ctx);
// The same, taking the arguments over (moved into the frame: a hot call
// saves the reference-count updates of copying them).
std::vector<runtime::Tensor> runCompiled(const CompiledFunction &compiled,
                                         std::vector<runtime::Tensor> &&args,
                                         runtime::RunContext &ctx);
// The same over arguments in any storage the caller gives up (moved out of
// `args`).
std::vector<runtime::Tensor> runCompiledTaking(const CompiledFunction &compiled,
                                               std::span<runtime::Tensor> args,
                                               runtime::RunContext &ctx);
// runCompiledTaking's result number `index` alone (a tf.function call that
// returns one tensor): no vector of results is made.
runtime::Tensor runCompiledTakingOne(const CompiledFunction &compiled, std::span<runtime::Tensor> args,
                                     size_t index, runtime::RunContext &ctx);

// The optimized (O2) LLVM IR of `fn`, as --emit=llvm prints it.
std::string printLlvmIr(const ir::Function &fn);
// The host assembly of `fn`'s compiled code, as --emit=asm prints it.
std::string printAssembly(const ir::Function &fn);

// How `fn` compiles: nodes lowered to native code vs. nodes that call their
// kernel through the trampoline.
struct LoweringCounts {
  size_t nativeNodes = 0, kernelNodes = 0;
};
LoweringCounts loweringCounts(const ir::Function &fn);

// True for every op of the table: ops without a native lowering run their
// kernel through the trampoline.
bool hasLowering(ir::OpKind kind);
// True when rank-0 uses of `kind` compile to native instructions.
bool hasNativeLowering(ir::OpKind kind);

// Counters for tests and --stats: modules compiled, compiled-code cache
// hits (by IR text), and the on-disk cache's hits, entries written and
// entries ignored (truncated, corrupt, another key).
struct CodegenStats {
  size_t modulesCompiled = 0;
  size_t textCacheHits = 0;
  size_t diskCacheHits = 0;
  size_t diskCacheStores = 0;
  size_t diskCacheRejected = 0;
};
CodegenStats codegenStats();

// The on-disk cache of compiled code (Note [On-disk compiled-code cache] in
// object_cache.h) uses `dir` from now on (none: no disk cache). By default
// it follows the environment.
void setObjectCacheDirectory(std::optional<std::string> dir);
// The file the on-disk cache keeps `fn`'s code in ("" when disabled).
std::string objectCacheEntryPath(const ir::Function &fn);
// Forgets every function compiled so far (their code stays loaded), so the
// next compile of the same text consults the disk cache (tests).
void forgetCompiledFunctions();

}  // namespace tfs::codegen
