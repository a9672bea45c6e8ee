// Fuzzes the front end: bytes -> lexer (IndentTokenSource) -> parser -> AST,
// then the AST printer, and the diagnostic formatter on syntax errors (its
// caret line indexes the source with the error's column). Syntax errors are
// the expected outcome for most inputs; anything else that escapes (another
// exception type, an assertion, a sanitizer report) is a bug.
#include "frontend/frontend.h"
#include "tests/fuzz/fuzz_common.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tfs::fuzz::quietOutput(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  tfs::fuzz::BigStack::run([&] {
    using namespace tfs::frontend;
    try {
      auto module = parseSource("fuzz.tfs", text);
      std::string printed = printAst(*module);
      (void)printed;
    } catch (const SyntaxErrorException &e) {
      std::string shown = formatDiagnostic(e.diag);
      (void)shown;
    }
  });
  return 0;
}
