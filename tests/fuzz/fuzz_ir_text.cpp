// Fuzzes the IR text format: ir::parseModule on the bytes (it reports
// malformed text as a TextError, never crashes), then, for what parses, the
// verifier, and the printer round trip that ir/text.h promises:
// print(parse(print(m))) == print(m) for every verified module.
#include "ir/text.h"
#include "ir/verifier.h"
#include "tests/fuzz/fuzz_common.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tfs::fuzz::quietOutput(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  tfs::fuzz::BigStack::run([&] {
    using namespace tfs::ir;
    ParsedModule parsed = parseModule(text);
    if (!parsed.ok()) {
      std::string shown = parsed.error->str();
      (void)shown;
      return;
    }
    if (verifyModule(*parsed.module)) return;
    std::string once = printModule(*parsed.module);
    ParsedModule again = parseModule(once);
    if (!again.ok())
      tfs::fuzz::fail("printed module does not parse: " + again.error->str() + "\n" + once);
    if (printModule(*again.module) != once)
      tfs::fuzz::fail("print(parse(print(m))) != print(m) for\n" + once);
  });
  return 0;
}
