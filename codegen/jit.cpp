// The process-wide LLJIT (see jit.h).
#include "codegen/jit.h"

#include "codegen/object_cache.h"
#include "codegen/runtime_helpers.h"
#include "runtime/graph/interpreter.h"
#include "runtime/kernels/vector_math.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/Mangling.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <fmt/format.h>

namespace tfs::codegen {
namespace {

[[noreturn]] void fail(const std::string &what, llvm::Error err) {
  throw runtime::GraphRunError{"InternalError",
                               fmt::format("LLVM JIT: {}: {}", what,
                                           llvm::toString(std::move(err))),
                               {},
                               {}};
}

template <class T> T check(const std::string &what, llvm::Expected<T> v) {
  if (!v)
    fail(what, v.takeError());
  return std::move(*v);
}

void check(const std::string &what, llvm::Error err) {
  if (err)
    fail(what, std::move(err));
}

}  // namespace

Jit &Jit::instance() {
  static Jit jit;
  return jit;
}

Jit::Jit() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  // detectHost fills in the host triple, CPU name and CPU features
  // (sys::getHostCPUName / getHostCPUFeatures).
  auto jtmb = check("detecting the host", llvm::orc::JITTargetMachineBuilder::detectHost());
  jtmb.setCodeGenOptLevel(llvm::CodeGenOpt::None);
  tmFast_ = check("creating the target machine", jtmb.createTargetMachine());
  jtmb.setCodeGenOptLevel(llvm::CodeGenOpt::Default);
  tm_ = check("creating the target machine", jtmb.createTargetMachine());
  hostKey_ = fmt::format("tfs {} build {} llvm {} target {} cpu {} features {}", TFS_VERSION,
                         executableBuildId(), LLVM_VERSION_STRING, tm_->getTargetTriple().str(),
                         tm_->getTargetCPU().str(), tm_->getTargetFeatureString().str());
  jit_ = check("creating LLJIT",
               llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(jtmb)).create());

  llvm::orc::JITDylib &lib = jit_->getMainJITDylib();
  // libm (expf, tanhf, fmod...) and anything else the process links.
  lib.addGenerator(check("searching the process for symbols",
                         llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                             jit_->getDataLayout().getGlobalPrefix())));
  llvm::orc::MangleAndInterner mangle(jit_->getExecutionSession(), jit_->getDataLayout());
  llvm::orc::SymbolMap helpers;
  for (const HelperSymbol &h : helperSymbols())
    helpers[mangle(h.name)] = llvm::JITEvaluatedSymbol(
        llvm::pointerToJITTargetAddress(h.address), llvm::JITSymbolFlags::Exported);
  // The SLEEF functions compiled code calls (runtime/kernels/vector_math.h).
  for (int f = 0; f < int(runtime::vmath::Fn::NumFns); ++f) {
    const runtime::vmath::Symbols &s = runtime::vmath::symbols(runtime::vmath::Fn(f));
    for (auto [name, address] : {std::pair{s.scalarName, s.scalarAddress},
                                 std::pair{s.vectorName, s.vectorAddress}})
      if (name)
        helpers[mangle(name)] = llvm::JITEvaluatedSymbol(
            llvm::pointerToJITTargetAddress(address), llvm::JITSymbolFlags::Exported);
  }
  // TF's sigmoid of the elements Eigen evaluates one by one (lower_tf_math.cpp).
  helpers[mangle(runtime::vmath::kSigmoidScalarSymbol)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(&runtime::vmath::sigmoidScalar), llvm::JITSymbolFlags::Exported);
  check("defining the runtime helpers", lib.define(llvm::orc::absoluteSymbols(helpers)));
}

Jit::~Jit() = default;

void Jit::configureModule(llvm::Module &m) const {
  m.setTargetTriple(tm_->getTargetTriple().str());
  m.setDataLayout(jit_->getDataLayout());
}

// Note [Compiling large functions]
// LLVM's O2 pipeline and instruction selection grow faster than linearly in
// the size of one function: a Keras train step of a Bidirectional LSTM
// unrolled over 20 time steps lowers to ~35,000 instructions in ~2,800
// blocks, and took 5 s in O2 plus 12 s in code generation (60 time steps:
// 140 s), while the interpreter runs the whole epoch in 0.2 s. Such a
// function is a long chain of small tensor loops and kernel calls; loop
// optimizations and careful scheduling gain little there. So compilation
// has three tiers by the module's instruction count:
//   <= kOptimizedModuleInstructions: O2 and CodeGenOpt::Default;
//   <= kLargeModuleInstructions: a light pipeline (SROA to registers, early
//      CSE, instcombine, CFG cleanup) and CodeGenOpt::Default (greedy
//      register allocation, so scalar loops keep their speed);
//   above: the light pipeline and CodeGenOpt::None (fast instruction
//      selection and register allocation): 0.45 s for the train step above.
// Measured (thread CPU time of optimization + code generation; an LSTM
// train step unrolled over T steps, bench/workloads/compile_rnn.tfs's
// function, and loops of bench/workloads/loops.tfs compiled in each tier):
//   instructions       O2       light+Default   light+None
//   1,336 (T=2)        92 ms      29 ms           11 ms
//   2,642 (T=4)       185 ms      51 ms           16 ms
//   5,226 (T=8)       345 ms     103 ms           30 ms
//   6,518 (T=10)      458 ms     132 ms           36 ms
//   9,102 (T=14)      663 ms     196 ms           49 ms
//   12,978 (T=20)        -       290 ms            -
// The train step runs equally fast in every tier (T=10: 116-119 us a call:
// its time is in kernels and our own vector loops). Native scalar loops do
// not: with light+None a `for _ in tf.range(n)` loop is 6-10x slower than
// O2 and sum_even (a cond over a tensor's elements) 10-30x; with
// light+Default the scalar loops run as fast as O2's (within noise), and
// only what O2's loop vectorizer does is lost (sum_even 5.5x slower;
// LICM, loop rotation, GVN or LoopVectorize added to the light pipeline did
// not bring it back, as the per-element index check stays). Hence O2 up to
// 2,000 instructions (about 140 ms; every benchmark function and nearly
// every test is far smaller: small functions compile in ~10 ms), the middle
// tier up to 10,000 (3.5x faster than O2 for the Keras train steps of
// ~4,000 instructions, at full speed for everything but loop
// vectorization), and fast code generation only above. The choice depends
// only on the IR, so cached object code stays keyed by the IR text.
namespace {
constexpr size_t kOptimizedModuleInstructions = 2000;
constexpr size_t kLargeModuleInstructions = 10000;
// Set on a module that got the light pipeline (for tests and --emit=llvm).
constexpr const char *kLightFlag = "tfs.light_compile";
// Set on a module whose code generation uses the fast target machine.
constexpr const char *kFastCodegenFlag = "tfs.fast_codegen";

size_t instructionCount(const llvm::Module &m) {
  size_t n = 0;
  for (const llvm::Function &f : m)
    for (const llvm::BasicBlock &b : f)
      n += b.size();
  return n;
}
}  // namespace

void Jit::optimize(llvm::Module &m) const {
  configureModule(m);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm_.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  size_t size = instructionCount(m);
  if (size > kOptimizedModuleInstructions) {
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::SROAPass());
    fpm.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
    fpm.addPass(llvm::InstCombinePass());
    fpm.addPass(llvm::SimplifyCFGPass());
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    mpm.run(m, mam);
    m.addModuleFlag(llvm::Module::Warning, kLightFlag, 1);
    if (size > kLargeModuleInstructions)
      m.addModuleFlag(llvm::Module::Warning, kFastCodegenFlag, 1);
    return;
  }
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  mpm.run(m, mam);
}

std::string Jit::emitFile(llvm::Module &m, bool assembly) const {
  configureModule(m);
  llvm::SmallString<4096> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  llvm::TargetMachine &tm = m.getModuleFlag(kFastCodegenFlag) ? *tmFast_ : *tm_;
  if (tm.addPassesToEmitFile(pm, os, nullptr, assembly ? llvm::CGFT_AssemblyFile : llvm::CGFT_ObjectFile))
    throw runtime::GraphRunError{"InternalError", "LLVM JIT: the host target cannot emit code", {}, {}};
  pm.run(m);
  return std::string(bytes.str());
}

std::string Jit::assembly(llvm::Module &m) const { return emitFile(m, true); }
std::string Jit::emitObject(llvm::Module &m) const { return emitFile(m, false); }

uint64_t Jit::addObject(const std::string &object, const std::string &symbol) {
  std::lock_guard<std::mutex> lock(mutex_);
  llvm::Expected<llvm::orc::JITDylib &> created = jit_->createJITDylib(fmt::format("tfs_lib_{}", nextLibrary_++));
  if (!created)
    fail("creating a library", created.takeError());
  llvm::orc::JITDylib &lib = *created;
  lib.addToLinkOrder(jit_->getMainJITDylib());
  check("adding object code",
        jit_->addObjectFile(lib, llvm::MemoryBuffer::getMemBufferCopy(object, "tfs_compiled")));
  llvm::JITEvaluatedSymbol sym = check("looking up " + symbol, jit_->lookup(lib, symbol));
  return sym.getAddress();
}

}  // namespace tfs::codegen
