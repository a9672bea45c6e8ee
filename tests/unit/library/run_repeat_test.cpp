// Several runs in one process (as the fuzzer and an embedding do): no state
// may leak from one run into the next. Regression: the AutoGraph conversion
// cache was process-wide and keyed by the FunctionDef's address, so a later
// run whose function landed at a freed function's address ran the old
// function's converted body (found by tests/fuzz/fuzz_interpreter as a
// heap-use-after-free on the stale spans).
#include "frontend/frontend.h"
#include "runtime/interp/interp.h"
#include "lib/library.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace tfs;

TEST_CASE("tf.function conversions do not carry over between runs") {
  tfs::lib::registerLibrary();
  runtime::RunOptions options;
  options.backend = runtime::Backend::Interp;
  options.argv = {"repeat.tfs"};
  // Same shape every time (so freed nodes are reused), a different constant.
  for (int i = 0; i < 20; ++i) {
    std::string text = fmt::format(
        "import tensorflow as tf\n"
        "@tf.function\n"
        "def f(x):\n"
        "    if x > 0:\n"
        "        x = x + {0}\n"
        "    return x\n"
        "assert int(f(tf.constant(1))) == {1}, int(f(tf.constant(1)))\n",
        i, i + 1);
    auto module = frontend::parseSource("repeat.tfs", text);
    INFO("run ", i);
    CHECK(runtime::runModule(*module, options) == 0);
  }
}
