// Fuzzes the language runtime: the bytes are parsed as a .tfs script and, if
// they parse, run by runtime::runModule on the interpreter backend (graph
// functions run on the graph interpreter, not the LLVM JIT: faster to start
// and deterministic) with a step budget and a tensor memory budget, so
// every input ends quickly. Script errors (exit status 1) are normal;
// runModule promises never to throw, so any exception, assertion or
// sanitizer report is a bug.
//
// Scripts run with RunOptions::readOnlyFiles: a mutated
// tf.saved_model.save(...) could otherwise replace (and delete) any
// directory it names; and with RunOptions::skipSleep, so that a mutated
// time.sleep(1e6) is not reported as a hang.
#include "frontend/frontend.h"
#include "runtime/interp/interp.h"
#include "lib/library.h"
#include "tests/fuzz/fuzz_common.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tfs::fuzz::quietOutput(argc, argv);
  tfs::lib::registerLibrary();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  tfs::fuzz::BigStack::run([&] {
    using namespace tfs;
    std::unique_ptr<ast::Module> module;
    try {
      module = frontend::parseSource("fuzz.tfs", text);
    } catch (const frontend::SyntaxErrorException &) {
      return;
    }
    runtime::RunOptions options;
    options.backend = runtime::Backend::Interp;
    // Small budgets keep an input cheap (a campaign needs 10^6 of them on a
    // 2-core machine): 5,000 steps reach every statement of the test
    // programs; 16 MiB of tensors still exercises ResourceExhaustedError
    // without paying for thousands of page faults per input.
    options.maxSteps = 5000;
    options.maxMemoryBytes = int64_t(16) << 20;
    options.readOnlyFiles = true;
    options.abortOnInternalError = true;
    options.skipSleep = true;
    options.argv = {"fuzz.tfs"};
    runtime::runModule(*module, options);
  });
  return 0;
}
