// The public API of codegen.h: compilation caches, argument binding and
// error propagation around the compiled code.
//
// Note [Compiled-code caches]
// Machine code depends only on the printed IR text of the function (plan.h
// numbers values and nodes by a walk that the text fixes), so it is cached
// by that text: retracing the same function, or cloning it, compiles once.
// The Plan, which points at the nodes of one ir::Function object (attrs,
// locations, captures), is cached by the function's address plus a
// fingerprint of its node and payload addresses and kinds, so a hot call
// does not print the function again; a function mutated in place or a new
// function at a reused address gets a new fingerprint and is re-planned.
// Callers that own an immutable function (a tf.function's optimized copy)
// hold its CompiledFunction from compile() and skip that lookup entirely.
// Across processes, object code is cached on disk by the same text (Note
// [On-disk compiled-code cache] in object_cache.h).
#include "codegen/codegen.h"

#include "codegen/jit.h"
#include "codegen/lower.h"
#include "codegen/object_cache.h"
#include "codegen/plan.h"
#include "ir/text.h"
#include "runtime/graph/dense_convert.h"
#include "runtime/graph/profile.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <fmt/format.h>
#include <mutex>

namespace tfs::codegen {
namespace {

using runtime::GraphRunError;
using runtime::Tensor;

struct Caches {
  std::mutex mutex;
  std::unordered_map<std::string, EntryFn> byText;
  std::unordered_map<const ir::Function *, std::shared_ptr<const CompiledFunction>> byFunction;
  CodegenStats stats;
  // Created on first use from the environment (object_cache.h).
  std::optional<ObjectCache> disk;
  ObjectCache &diskCache() {
    if (!disk) disk.emplace(defaultObjectCacheDirectory(), Jit::instance().hostKey());
    return *disk;
  }
};

// Every compiled function defines this symbol, in a JIT library of its own
// (Jit::addObject), so its object code does not depend on the process.
constexpr const char *kEntrySymbol = "tfs_compiled_entry";

Caches &caches() {
  static Caches c;
  return c;
}

uint64_t mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

uint64_t fingerprint(const ir::Function &fn) {
  uint64_t h = 0xcbf29ce484222325ull;
  h = mix(h, fn.params().size());
  h = mix(h, fn.captures().size());
  fn.walk([&](const ir::Node &n) {
    h = mix(h, reinterpret_cast<uintptr_t>(&n));
    h = mix(h, uint64_t(n.kind()));
    h = mix(h, n.numOperands() * 131 + n.numResults());
    h = mix(h, reinterpret_cast<uintptr_t>(n.constValue.get()));
    for (const ir::Value *v : n.operands())
      h = mix(h, reinterpret_cast<uintptr_t>(v));
  });
  return h;
}

EntryFn compileText(Caches &c, const ir::Function &fn, const Plan &plan,
                    const std::string &text) {
  if (auto it = c.byText.find(text); it != c.byText.end()) {
    ++c.stats.textCacheHits;
    return it->second;
  }
  Jit &jit = Jit::instance();
  ObjectCache &disk = c.diskCache();
  EntryFn entry = nullptr;
  bool rejected = false;
  if (std::optional<std::string> object = disk.load(text, rejected)) {
    // A valid entry that does not link (e.g. written by a broken build with
    // the same ID) is compiled again below.
    try {
      entry = reinterpret_cast<EntryFn>(jit.addObject(*object, kEntrySymbol));
      ++c.stats.diskCacheHits;
    } catch (const GraphRunError &) {
      rejected = true;
    }
  }
  if (rejected)
    ++c.stats.diskCacheRejected;
  if (entry) {
    c.byText.emplace(text, entry);
    return entry;
  }
  LoweredModule lowered = lowerFunction(fn, plan, planBuffers(fn, plan), kEntrySymbol);
  jit.optimize(*lowered.module);
  std::string object = jit.emitObject(*lowered.module);
  if (disk.store(text, object))
    ++c.stats.diskCacheStores;
  entry = reinterpret_cast<EntryFn>(jit.addObject(object, kEntrySymbol));
  c.byText.emplace(text, entry);
  ++c.stats.modulesCompiled;
  return entry;
}

// Compiles `fn` (the caller holds the cache lock).
std::shared_ptr<const CompiledFunction> compileLocked(Caches &c, const ir::Function &fn,
                                                      uint64_t fp) {
  auto compiled = std::make_shared<CompiledFunction>();
  compiled->fn = &fn;
  compiled->fingerprint = fp;
  compiled->plan = buildPlan(fn);
  compiled->entry = compileText(c, fn, compiled->plan, ir::printFunction(fn));
  for (const auto &[slot, node] : compiled->plan.constSlots)
    compiled->consts.emplace_back(slot, runtime::tensorFromDense(*node->constValue));
  return compiled;
}

std::shared_ptr<const CompiledFunction> prepare(const ir::Function &fn) {
  Caches &c = caches();
  uint64_t fp = fingerprint(fn);
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.byFunction.find(&fn);
  if (it != c.byFunction.end() && it->second->fingerprint == fp)
    return it->second;
  auto compiled = compileLocked(c, fn, fp);
  c.byFunction[&fn] = compiled;
  return compiled;
}

// Puts `args` in the frame's slots: copies, or moves when the caller gives
// them up (a non-const span), which saves reference-count updates per call.
template <class T> void bindArgs(Frame &frame, const CompiledFunction &compiled, std::span<T> args) {
  auto take = [&](size_t i) -> Tensor {
    if constexpr (std::is_const_v<T>)
      return args[i];
    else
      return std::move(args[i]);
  };
  const Plan &plan = compiled.plan;
  const ir::Function &fn = *compiled.fn;
  size_t numParams = plan.paramSlots.size();
  if (args.size() < numParams)
    throw GraphRunError{"InvalidArgumentError",
                        fmt::format("function {} expects {} arguments, got {}", fn.name(),
                                    numParams, args.size()),
                        {},
                        {}};
  for (size_t i = 0; i < numParams; ++i)
    frame.slots[plan.paramSlots[i]] = take(i);
  size_t numCaptures = plan.tensorCaptures.size();
  bool capturesInArgs = numCaptures > 0 && args.size() == numParams + numCaptures;
  for (size_t k = 0; k < numCaptures; ++k) {
    auto [slot, index] = plan.tensorCaptures[k];
    if (capturesInArgs) {
      frame.slots[slot] = take(numParams + k);
      continue;
    }
    try {
      frame.slots[slot] = frame.ctx->captureValue(fn, fn.captures()[index]);
    } catch (const ir::OpError &e) {
      throw GraphRunError{e.errorClass, e.message, {}, {}};
    }
  }
  for (const auto &[slot, tensor] : compiled.consts)
    frame.slots[slot] = tensor;
}

// Runs the compiled code on `args` and hands the frame to `results`, which
// takes the returned values out of it.
template <class T, class Results>
auto runWithArgs(const CompiledFunction &compiled, std::span<T> args, runtime::RunContext &ctx, Results results) {
  runtime::CallTimer timer(ctx.profiler, *compiled.fn, /*compiled=*/true);
  Frame frame;
  frame.plan = &compiled.plan;
  frame.ctx = &ctx;
  frame.slots.resize(compiled.plan.numSlots);
  bindArgs(frame, compiled, args);
  if (compiled.entry(&frame) != 0) {
    if (frame.foreign)
      std::rethrow_exception(frame.foreign);
    if (frame.error)
      throw std::move(*frame.error);
    throw GraphRunError{"InternalError",
                        fmt::format("compiled {} failed without an error",
                                    compiled.fn->name()),
                        {},
                        {}};
  }
  return results(frame);
}

template <class T>
std::vector<Tensor> runWithArgs(const CompiledFunction &compiled, std::span<T> args, runtime::RunContext &ctx) {
  return runWithArgs(compiled, args, ctx, [&](Frame &frame) {
    // A slot's value is moved out at its last return (a value may be
    // returned twice).
    const std::vector<int32_t> &returns = compiled.plan.returnSlots;
    std::vector<Tensor> results;
    results.reserve(returns.size());
    for (size_t i = 0; i < returns.size(); ++i) {
      bool again = std::find(returns.begin() + long(i) + 1, returns.end(), returns[i]) != returns.end();
      results.push_back(again ? frame.slots[returns[i]] : std::move(frame.slots[returns[i]]));
    }
    return results;
  });
}

}  // namespace

std::vector<Tensor> runCompiled(const CompiledFunction &compiled, std::span<const Tensor> args,
                                runtime::RunContext &ctx) {
  return runWithArgs(compiled, args, ctx);
}

std::vector<Tensor> runCompiled(const CompiledFunction &compiled, std::vector<Tensor> &&args,
                                runtime::RunContext &ctx) {
  return runWithArgs(compiled, std::span<Tensor>(args), ctx);
}

std::vector<Tensor> runCompiledTaking(const CompiledFunction &compiled, std::span<Tensor> args,
                                      runtime::RunContext &ctx) {
  return runWithArgs(compiled, args, ctx);
}

Tensor runCompiledTakingOne(const CompiledFunction &compiled, std::span<Tensor> args, size_t index,
                            runtime::RunContext &ctx) {
  return runWithArgs(compiled, args, ctx,
                     [&](Frame &frame) { return std::move(frame.slots[compiled.plan.returnSlots.at(index)]); });
}

std::vector<Tensor> runCompiled(const ir::Function &fn, std::span<const Tensor> args,
                                runtime::RunContext &ctx) {
  std::shared_ptr<const CompiledFunction> compiled;
  {
    runtime::PhaseTimer timer(ctx.profiler, runtime::Phase::Compile);
    compiled = prepare(fn);
  }
  return runCompiled(*compiled, args, ctx);
}

std::shared_ptr<const CompiledFunction> compile(const ir::Function &fn) {
  Caches &c = caches();
  std::lock_guard<std::mutex> lock(c.mutex);
  return compileLocked(c, fn, 0);
}

std::string printLlvmIr(const ir::Function &fn) {
  Plan plan = buildPlan(fn);
  LoweredModule lowered = lowerFunction(fn, plan, planBuffers(fn, plan), fn.name());
  Jit::instance().optimize(*lowered.module);
  std::string text;
  llvm::raw_string_ostream os(text);
  lowered.module->print(os, nullptr);
  return os.str();
}

std::string printAssembly(const ir::Function &fn) {
  Plan plan = buildPlan(fn);
  LoweredModule lowered = lowerFunction(fn, plan, planBuffers(fn, plan), fn.name());
  Jit::instance().optimize(*lowered.module);
  return Jit::instance().assembly(*lowered.module);
}

LoweringCounts loweringCounts(const ir::Function &fn) {
  Plan plan = buildPlan(fn);
  LoweredModule lowered = lowerFunction(fn, plan, planBuffers(fn, plan), fn.name());
  return {lowered.nativeNodes, lowered.kernelNodes};
}

bool hasLowering(ir::OpKind kind) {
  return kind < ir::OpKind::NumOps;
}

void setObjectCacheDirectory(std::optional<std::string> dir) {
  Caches &c = caches();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.disk.emplace(std::move(dir), Jit::instance().hostKey());
}

std::string objectCacheEntryPath(const ir::Function &fn) {
  Caches &c = caches();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.diskCache().entryPath(ir::printFunction(fn));
}

void forgetCompiledFunctions() {
  Caches &c = caches();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.byText.clear();
  c.byFunction.clear();
}

CodegenStats codegenStats() {
  Caches &c = caches();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.stats;
}

}  // namespace tfs::codegen
