// Fuzzes the SavedModel loader (runtime/tf/saved_model.cpp) and the graphs it
// restores. The loader has no entry point outside the interpreter, so each
// input becomes a model directory that a fixed script loads and calls.
//
// Input format: sections separated by header lines `=== FILENAME`. The text
// before the first header is `serving_default.ir`; a header names the file
// its section is written to (letters, digits, `_`, `.`; others are dropped),
// e.g.
//     func @f(%x: f32[]) -> f32[] { ... }
//     === variables.txt
//     v f32 1 2 0.5 1.5
// The script loads the directory (an error there is normal: a corrupted
// model must be a clean ValueError/OSError) and calls every restored
// function with a few argument lists (wrong arity or shapes must be clean
// errors too).
#include "frontend/frontend.h"
#include "runtime/interp/interp.h"
#include "lib/library.h"
#include "tests/fuzz/fuzz_common.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

fs::path modelDir;
std::unique_ptr<tfs::ast::Module> script;

const char kScript[] = R"(import tensorflow as tf
m = tf.saved_model.load(DIR)
for name in m.signatures:
    f = m.signatures[name]
    for args in [(), (1.0,), (2,), (1.0, 2.0), (tf.ones([2, 2]),), (tf.ones([3]), 2.0)]:
        try:
            f(*args)
        except Exception:
            pass
)";

bool validName(const std::string &n) {
  if (n.empty() || n.size() > 40 || n == "." || n == "..") return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
  return true;
}

void writeModel(std::string_view input) {
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(modelDir, ec)) fs::remove_all(e.path(), ec);
  std::string name = "serving_default.ir";
  size_t pos = 0;
  for (;;) {
    size_t header = input.find("\n=== ", pos);
    std::string_view body = input.substr(pos, header == std::string_view::npos ? input.npos : header + 1 - pos);
    if (validName(name)) {
      std::ofstream f(modelDir / name, std::ios::binary | std::ios::app);
      f.write(body.data(), std::streamsize(body.size()));
    }
    if (header == std::string_view::npos) break;
    size_t nameStart = header + 5;
    size_t eol = input.find('\n', nameStart);
    name = std::string(input.substr(nameStart, eol == std::string_view::npos ? input.npos : eol - nameStart));
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  tfs::fuzz::quietOutput(argc, argv);
  tfs::lib::registerLibrary();
  std::string tmpl = (fs::temp_directory_path() / "tfs-fuzz-model-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) tfs::fuzz::fail("cannot create a temporary directory");
  modelDir = tmpl;
  std::string text = kScript;
  text.replace(text.find("DIR"), 3, "\"" + modelDir.string() + "\"");
  script = tfs::frontend::parseSource("fuzz_saved_model.tfs", text);
  // The directory goes when the fuzzer exits normally (a crash leaves it).
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(modelDir, ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  writeModel(std::string_view(reinterpret_cast<const char *>(data), size));
  tfs::fuzz::BigStack::run([&] {
    tfs::runtime::RunOptions options;
    options.backend = tfs::runtime::Backend::Interp;
    options.maxSteps = 20000;
    // 64 MiB: under ASan, filling 256 MiB (a graph loop doubling a tensor
    // until ResourceExhaustedError) takes longer than the 10 s timeout.
    options.maxMemoryBytes = int64_t(64) << 20;
    options.readOnlyFiles = true;
    options.abortOnInternalError = true;
    options.argv = {"fuzz_saved_model.tfs"};
    tfs::runtime::runModule(*script, options);
  });
  return 0;
}
